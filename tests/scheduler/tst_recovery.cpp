#include "base/epochtime.h"
#include "fixtures.h"
#include "scheduler/recovery.h"
#include "store/runrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

// What an engine does at start with what a dead engine left: on a real store, with the
// process kills recorded instead of sent (tst_engine kills a real leftover process).
class TestRecovery final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recover_data();
    void recover();
    void recover_leavesOtherRunsAlone();
    void fateOf_data();
    void fateOf();
};

namespace {

const qint64 nowMs = QDateTime(QDate(2026, 11, 23), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();

} // namespace

void TestRecovery::recover_data()
{
    QTest::addColumn<int>("runState");
    QTest::addColumn<int>("attemptState");
    QTest::addColumn<qint64>("pid");
    QTest::addColumn<bool>("requeued");    // the run is queued again and returned
    QTest::addColumn<bool>("interrupted"); // the attempt is marked interrupted
    QTest::addColumn<bool>("killed");      // its process group is killed
    const auto s = [](RunState state) {
        return int(state);
    };
    QTest::newRow("running attempt with a process")
        << s(RunState::Running) << s(RunState::Running) << qint64(4242) << true << true << true;
    QTest::newRow("running attempt not started yet (no pid)")
        << s(RunState::Running) << s(RunState::Running) << qint64(0) << true << true << false;
    QTest::newRow("attempt waiting for its retry")
        << s(RunState::Running) << s(RunState::Waiting) << qint64(0) << true << true << false;
    QTest::newRow("queued attempt")
        << s(RunState::Running) << s(RunState::Queued) << qint64(0) << true << true << false;
    QTest::newRow("finished attempt of a running run stands")
        << s(RunState::Running) << s(RunState::Succeeded) << qint64(4242) << true << false << false;
    QTest::newRow("paused run") << s(RunState::Paused) << s(RunState::Failed) << qint64(0) << true
                                << false << false;
    QTest::newRow("waiting run") << s(RunState::Waiting) << s(RunState::Running) << qint64(7)
                                 << true << true << true;
    QTest::newRow("interrupted run (a recovery that died itself)")
        << s(RunState::Interrupted) << s(RunState::Interrupted) << qint64(0) << true << false
        << false;
    QTest::newRow("queued run stays queued, not returned (the engine reads the queue)")
        << s(RunState::Queued) << s(RunState::Succeeded) << qint64(0) << false << false << false;
    QTest::newRow("ended run") << s(RunState::Succeeded) << s(RunState::Succeeded) << qint64(9)
                               << false << false << false;
}

void TestRecovery::recover()
{
    QFETCH(int, runState);
    QFETCH(int, attemptState);
    QFETCH(qint64, pid);
    QFETCH(bool, requeued);
    QFETCH(bool, interrupted);
    QFETCH(bool, killed);
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task task = test::makeTask(t.store(), chain.id, QStringLiteral("a"));
    QVERIFY(chain.id > 0 && task.id > 0);
    Run run;
    run.chainId = chain.id;
    run.state = RunState(runState);
    const Run left = RunRepository(t.store()).insert(run).value();
    QVERIFY(
        RunRepository(t.store()).setState(left.id, RunState(runState), utcFromMs(nowMs - 60000)));
    TaskRun attempt;
    attempt.runId = left.id;
    attempt.taskId = task.id;
    attempt.state = RunState(attemptState);
    attempt.pid = pid;
    attempt.processStartTicks = pid * 10;
    const TaskRun stored = TaskRunRepository(t.store()).insert(attempt).value();

    QList<std::pair<qint64, qint64>> kills;
    Recovery recovery(t.store(), [&kills](qint64 p, qint64 ticks) { kills.append({p, ticks}); });
    const Result<QList<qint64>> queued = recovery.recover(Fence{}, nowMs);
    QVERIFY2(queued, queued ? "" : qPrintable(queued.error().message));

    QCOMPARE(queued->contains(left.id), requeued);
    const Run after = RunRepository(t.store()).byId(left.id).value();
    QCOMPARE(after.state, requeued ? RunState::Queued : RunState(runState));
    const TaskRun attemptAfter = TaskRunRepository(t.store()).byId(stored.id).value();
    QCOMPARE(attemptAfter.state, interrupted ? RunState::Interrupted : RunState(attemptState));
    if (interrupted) {
        QCOMPARE(attemptAfter.finishedAt.toMSecsSinceEpoch(), nowMs);
        QVERIFY(!attemptAfter.error.isEmpty());
    }
    QCOMPARE(kills, killed ? (QList<std::pair<qint64, qint64>>{{pid, pid * 10}})
                           : (QList<std::pair<qint64, qint64>>{}));
}

void TestRecovery::recover_leavesOtherRunsAlone()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run queued = test::queueRun(t.store(), chain.id);
    Run run;
    run.chainId = chain.id;
    const Run first = RunRepository(t.store()).insert(run).value();
    const Run second = RunRepository(t.store()).insert(run).value();
    QVERIFY(
        RunRepository(t.store()).setState(first.id, RunState::Running, utcFromMs(nowMs - 60000)));
    QVERIFY(
        RunRepository(t.store()).setState(second.id, RunState::Paused, utcFromMs(nowMs - 60000)));
    Recovery recovery(t.store(), [](qint64, qint64) { QFAIL("nothing to kill"); });
    const Result<QList<qint64>> ids = recovery.recover(Fence{}, nowMs);
    QVERIFY(ids);
    QList<qint64> sorted = ids.value();
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, (QList<qint64>{first.id, second.id}));
    QCOMPARE(RunRepository(t.store()).byId(queued.id)->state, RunState::Queued);
}

void TestRecovery::fateOf_data()
{
    QTest::addColumn<int>("state");
    QTest::addColumn<int>("attempt");
    QTest::addColumn<int>("maxRetries");
    QTest::addColumn<bool>("started");
    QTest::addColumn<bool>("retry");
    QTest::addColumn<int>("outcome"); // when not retried
    const auto s = [](RunState state) {
        return int(state);
    };
    QTest::newRow("interrupted, a retry left")
        << s(RunState::Interrupted) << 1 << 1 << true << true << 0;
    QTest::newRow("interrupted, the last retry left")
        << s(RunState::Interrupted) << 3 << 3 << true << true << 0;
    QTest::newRow("interrupted, no retries at all")
        << s(RunState::Interrupted) << 1 << 0 << true << false << s(RunState::Failed);
    QTest::newRow("interrupted, retries used up")
        << s(RunState::Interrupted) << 4 << 3 << true << false << s(RunState::Failed);
    // An offer no engine took, or a retry still waiting: nothing ran, so nothing is used up.
    QTest::newRow("interrupted before it started, no retries at all")
        << s(RunState::Interrupted) << 1 << 0 << false << true << 0;
    QTest::newRow("interrupted before it started, retries used up")
        << s(RunState::Interrupted) << 4 << 3 << false << true << 0;
    QTest::newRow("succeeded stands")
        << s(RunState::Succeeded) << 1 << 3 << true << false << s(RunState::Succeeded);
    QTest::newRow("failed stands: only an interruption is retried here")
        << s(RunState::Failed) << 1 << 3 << true << false << s(RunState::Failed);
    QTest::newRow("timed out stands")
        << s(RunState::TimedOut) << 2 << 3 << true << false << s(RunState::TimedOut);
    QTest::newRow("cancelled stands")
        << s(RunState::Cancelled) << 1 << 3 << true << false << s(RunState::Cancelled);
}

void TestRecovery::fateOf()
{
    QFETCH(int, state);
    QFETCH(int, attempt);
    QFETCH(int, maxRetries);
    QFETCH(bool, started);
    QFETCH(bool, retry);
    QFETCH(int, outcome);
    TaskRun last;
    last.state = RunState(state);
    last.attempt = attempt;
    if (started)
        last.startedAt = utcFromMs(nowMs);
    const Recovery::Fate fate = Recovery::fateOf(last, maxRetries);
    QCOMPARE(fate.retry, retry);
    if (!retry)
        QCOMPARE(int(fate.outcome), outcome);
}

QTEST_GUILESS_MAIN(TestRecovery)
#include "tst_recovery.moc"
