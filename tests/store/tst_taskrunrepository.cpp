#include "fixtures.h"
#include "store/runrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestTaskRunRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void insertAndUpdate_keepAttemptDetails();
    void insert_refusesSameAttemptTwice();
    void listInState_findsRunningAttempts();
};

namespace {

struct Setup
{
    qint64 runId = 0;
    qint64 taskId = 0;
};

Setup setUp(Store &store)
{
    const Chain chain = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c"));
    const Task task = test::makeTask(store, chain.id, QStringLiteral("a"));
    Run run;
    run.chainId = chain.id;
    const Result<Run> inserted = RunRepository(store).insert(run);
    return {inserted ? inserted->id : 0, task.id};
}

} // namespace

void TestTaskRunRepository::insertAndUpdate_keepAttemptDetails()
{
    HG_TEST_STORE(t);
    const Setup s = setUp(t.store());
    QVERIFY(s.runId > 0 && s.taskId > 0);
    TaskRunRepository taskRuns(t.store());
    TaskRun attempt;
    attempt.runId = s.runId;
    attempt.taskId = s.taskId;
    Result<TaskRun> stored = taskRuns.insert(attempt);
    QVERIFY(stored);
    QVERIFY(stored->queuedAt.isValid());
    TaskRun running = stored.value();
    running.state = RunState::Failed;
    running.pid = 4321;
    running.processStartTicks = 987654321;
    running.exitCode = 3;
    running.error = QStringLiteral("exit code 3");
    running.startedAt = QDateTime(QDate(2026, 1, 1), QTime(1, 0), Qt::UTC);
    running.finishedAt = running.startedAt.addMSecs(1500);
    QVERIFY(taskRuns.update(running));
    const Result<TaskRun> read = taskRuns.byId(stored->id);
    QCOMPARE(read->state, RunState::Failed);
    QCOMPARE(read->pid, 4321);
    QCOMPARE(read->processStartTicks, 987654321);
    QCOMPARE(read->exitCode, std::optional<int>(3));
    QCOMPARE(read->error, running.error);
    QCOMPARE(read->finishedAt, running.finishedAt);

    attempt.attempt = 2;
    QVERIFY(taskRuns.insert(attempt));
    QCOMPARE(taskRuns.listForRun(s.runId)->size(), 2);
    QVERIFY(!taskRuns.listForRun(s.runId)->at(1).exitCode);
}

void TestTaskRunRepository::insert_refusesSameAttemptTwice()
{
    HG_TEST_STORE(t);
    const Setup s = setUp(t.store());
    TaskRun attempt;
    attempt.runId = s.runId;
    attempt.taskId = s.taskId;
    TaskRunRepository taskRuns(t.store());
    QVERIFY(taskRuns.insert(attempt));
    // An attempt can never run twice: the store refuses a second row for it.
    QCOMPARE(taskRuns.insert(attempt).error().kind, ErrorKind::AlreadyExists);
}

void TestTaskRunRepository::listInState_findsRunningAttempts()
{
    HG_TEST_STORE(t);
    const Setup s = setUp(t.store());
    TaskRunRepository taskRuns(t.store());
    for (int attempt = 1; attempt <= 3; ++attempt) {
        TaskRun r;
        r.runId = s.runId;
        r.taskId = s.taskId;
        r.attempt = attempt;
        r.state = attempt == 2 ? RunState::Running : RunState::Failed;
        QVERIFY(taskRuns.insert(r));
    }
    const Result<QList<TaskRun>> running = taskRuns.listInState(RunState::Running);
    QCOMPARE(running->size(), 1);
    QCOMPARE(running->first().attempt, 2);
}

QTEST_GUILESS_MAIN(TestTaskRunRepository)
#include "tst_taskrunrepository.moc"
