#include "base/epochtime.h"
#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/runretention.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

// Chains' retention on both stores: which finished runs go, that failed runs may follow
// limits of their own, that active runs always stay, and that a run's attempts and log lines
// go with it.
class TestRunRetention final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void due_data();
    void due();
    void applyBatch_removesAttemptsAndLogsWithTheRun();

private:
    static qint64 finishedRun(Store &store, qint64 chainId, RunState state, qint64 finishedMs);
};

namespace {

const qint64 nowMs = QDateTime(QDate(2026, 11, 23), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
constexpr qint64 day = qint64(24) * 3600 * 1000;

} // namespace

qint64 TestRunRetention::finishedRun(Store &store, qint64 chainId, RunState state,
                                     qint64 finishedMs)
{
    const Run run = test::queueRun(store, chainId);
    if (isTerminal(state)) {
        (void)RunRepository(store).setState(run.id, RunState::Running,
                                            utcFromMs(finishedMs - 1000));
    }
    (void)RunRepository(store).setState(run.id, state, utcFromMs(finishedMs));
    return run.id;
}

void TestRunRetention::due_data()
{
    QTest::addColumn<Retention>("retention");
    // Oldest first: states and ages (days) of the chain's runs; which of them are due.
    QTest::addColumn<QList<RunState>>("states");
    QTest::addColumn<QList<int>>("ageDays");
    QTest::addColumn<QList<int>>("expectedDue"); // indexes into states

    const RunState ok = RunState::Succeeded;
    const RunState failed = RunState::Failed;
    QTest::newRow("no limits: everything stays")
        << Retention{} << QList<RunState>{ok, ok, failed} << QList<int>{9, 5, 1} << QList<int>{};
    QTest::newRow("newest 2: the older succeeded go")
        << Retention{2, 0, 0, 0} << QList<RunState>{ok, ok, ok, ok} << QList<int>{4, 3, 2, 1}
        << QList<int>{0, 1};
    QTest::newRow("3 days: older ones go")
        << Retention{0, 3, 0, 0} << QList<RunState>{ok, ok, failed, ok} << QList<int>{9, 5, 4, 1}
        << QList<int>{0, 1, 2};
    QTest::newRow("failed kept longer than successes")
        << Retention{1, 0, 3, 0} << QList<RunState>{failed, ok, failed, ok, failed, ok}
        << QList<int>{6, 5, 4, 3, 2, 1} << QList<int>{1, 3};
    QTest::newRow("failed by days, the rest by count")
        << Retention{1, 0, 0, 5} << QList<RunState>{failed, failed, ok, ok}
        << QList<int>{8, 2, 2, 1} << QList<int>{0, 2};
    QTest::newRow("active runs always stay")
        << Retention{1, 1, 0, 0} << QList<RunState>{RunState::Running, RunState::Queued, ok}
        << QList<int>{30, 30, 1} << QList<int>{};
}

void TestRunRetention::due()
{
    QFETCH(Retention, retention);
    QFETCH(QList<RunState>, states);
    QFETCH(QList<int>, ageDays);
    QFETCH(QList<int>, expectedDue);
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    QVERIFY(chain.id > 0);
    chain.retention = retention;
    QVERIFY(ChainRepository(t.store()).update(chain));
    // Another chain's old runs are not this chain's business.
    const Chain other = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("other"));
    (void)finishedRun(t.store(), other.id, RunState::Succeeded, nowMs - 40 * day);

    QList<qint64> ids;
    for (qsizetype i = 0; i < states.size(); ++i)
        ids << finishedRun(t.store(), chain.id, states.at(i), nowMs - ageDays.at(i) * day);
    QList<qint64> expected;
    for (int index : expectedDue)
        expected << ids.at(index);

    const Result<QList<RunRetention::Expired>> due = RunRetention(t.store()).due(nowMs, {}, 100);
    QVERIFY2(due, due ? "" : qPrintable(due.error().message));
    QList<qint64> actual;
    for (const RunRetention::Expired &run : due.value())
        actual << run.runId;
    QCOMPARE(actual, expected);
}

void TestRunRetention::applyBatch_removesAttemptsAndLogsWithTheRun()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task task = test::makeTask(t.store(), chain.id, QStringLiteral("t"));
    chain.retention = Retention{1, 0, 0, 0};
    QVERIFY(ChainRepository(t.store()).update(chain));
    QList<qint64> runs;
    for (int i = 0; i < 5; ++i) {
        const qint64 runId =
            finishedRun(t.store(), chain.id, RunState::Succeeded, nowMs - (5 - i) * day);
        TaskRun attempt;
        attempt.runId = runId;
        attempt.taskId = task.id;
        attempt.state = RunState::Succeeded;
        attempt.queuedAt = utcFromMs(nowMs);
        const Result<TaskRun> stored = TaskRunRepository(t.store()).insert(attempt);
        QVERIFY(stored);
        QList<LogLine> lines{LogLine{0, runId, stored->id, LogStream::Stdout, utcFromMs(nowMs),
                                     QStringLiteral("output")}};
        QVERIFY(LogRepository(t.store()).append(lines));
        runs << runId;
    }
    RunRetention retention(t.store());
    QCOMPARE(retention.applyBatch(nowMs, {}, 3).value(), 3); // a batch at a time
    QCOMPARE(retention.applyBatch(nowMs, {}, 3).value(), 1);
    QCOMPARE(retention.applyBatch(nowMs, {}, 3).value(), 0);
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const bool kept = i == runs.size() - 1;
        QCOMPARE(RunRepository(t.store()).byId(runs.at(i)).ok(), kept);
        QCOMPARE(TaskRunRepository(t.store()).listForRun(runs.at(i))->size(), kept ? 1 : 0);
        QCOMPARE(LogRepository(t.store()).read(runs.at(i))->size(), kept ? 1 : 0);
    }
}

QTEST_GUILESS_MAIN(TestRunRetention)
#include "tst_runretention.moc"
