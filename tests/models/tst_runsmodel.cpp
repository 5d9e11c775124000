#include "fixtures.h"
#include "runsmodel.h"
#include "statementrecorder.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrunrepository.h"
#include "storereader.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace hg;

// The runs table: pages by keyset, filters and sorts in SQL, live updates from the engine.
class TestRunsModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pages_arriveThroughFetchMore();
    void filter_byStateAndChain();
    void sort_byScheduledForKeepsEveryRowOnceAcrossPages();
    void engineEvents_updateRowsAndAddNewRunsOnTop();
    void renamedChain_showsItsNewPathWithoutReadingTheRunsAgain();
    void failedRun_withAReaderItsReasonIsReadThere();
    void stateFilter_aRunThatLeavesTheStateLeavesTheList();
    void oldestFirst_readToItsEnd_newRunsJoinTheEnd();

private:
    // `count` runs of the chain; run i is scheduled at base + (i / 3) minutes (ties on
    // purpose), and every fifth one failed.
    static QList<Run> addRuns(Store &store, qint64 chainId, int count);
    static QList<qint64> idsInView(RunsModel &model);
};

QList<Run> TestRunsModel::addRuns(Store &store, qint64 chainId, int count)
{
    QList<Run> runs;
    const QDateTime base(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
    (void)store.transaction([&]() -> Status {
        for (int i = 0; i < count; ++i) {
            Run run;
            run.chainId = chainId;
            run.scheduledFor = base.addSecs(60 * ((count - i) / 3)); // later ids: earlier times
            run.state = i % 5 == 0 ? RunState::Failed : RunState::Succeeded;
            runs << RunRepository(store).insert(run).value();
        }
        return {};
    });
    return runs;
}

QList<qint64> TestRunsModel::idsInView(RunsModel &model)
{
    while (model.canFetchMore({}))
        model.fetchMore({});
    QList<qint64> ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids << model.data(model.index(row, 0), RunsModel::RunIdRole).toLongLong();
    return ids;
}

void TestRunsModel::pages_arriveThroughFetchMore()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const QList<Run> runs = addRuns(t.store(), chain.id, 450);
    // No model tester here: it fetches every page itself, and this test counts them.
    RunsModel model(t.store());
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(), RunsModel::pageSize);
    QVERIFY(model.canFetchMore({}));
    QCOMPARE(model.data(model.index(0, RunsModel::IdColumn)).toLongLong(), runs.last().id);
    QCOMPARE(model.data(model.index(0, RunsModel::ChainColumn)).toString(), QStringLiteral("p/c"));
    model.fetchMore({});
    QCOMPARE(model.rowCount(), 2 * RunsModel::pageSize);
    model.fetchMore({});
    QCOMPARE(model.rowCount(), 450);
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(model.data(model.index(449, RunsModel::IdColumn)).toLongLong(), runs.first().id);
}

void TestRunsModel::filter_byStateAndChain()
{
    HG_TEST_STORE(t);
    const Chain a = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("b"));
    addRuns(t.store(), a.id, 50);
    addRuns(t.store(), b.id, 30);
    RunsModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFilter(std::nullopt, RunState::Failed, std::nullopt);
    QCOMPARE(idsInView(model).size(), 10 + 6);
    model.setFilter(b.id, RunState::Failed, std::nullopt);
    QCOMPARE(idsInView(model).size(), 6);
    model.setFilter(b.id, std::nullopt, RunTrigger::Schedule);
    QCOMPARE(idsInView(model).size(), 0);
    model.setFilter(a.id, std::nullopt, RunTrigger::Manual);
    QCOMPARE(idsInView(model).size(), 50);
}

void TestRunsModel::sort_byScheduledForKeepsEveryRowOnceAcrossPages()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const QList<Run> runs = addRuns(t.store(), chain.id, 620);
    RunsModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.sort(RunsModel::ScheduledColumn, Qt::AscendingOrder);
    const QList<qint64> ids = idsInView(model);
    QCOMPARE(ids.size(), 620);
    QCOMPARE(QSet<qint64>(ids.cbegin(), ids.cend()).size(), 620); // none twice, none lost
    QHash<qint64, QDateTime> scheduled;
    for (const Run &run : runs)
        scheduled.insert(run.id, run.scheduledFor);
    for (qsizetype i = 1; i < ids.size(); ++i) {
        const QDateTime previous = scheduled.value(ids.at(i - 1));
        const QDateTime current = scheduled.value(ids.at(i));
        QVERIFY(previous < current || (previous == current && ids.at(i - 1) < ids.at(i)));
    }
}

void TestRunsModel::engineEvents_updateRowsAndAddNewRunsOnTop()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const QList<Run> runs = addRuns(t.store(), chain.id, 5);
    RunsModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.reload());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    Run update = runs.at(2);
    update.state = RunState::Running;
    update.startedAt = QDateTime::currentDateTimeUtc();
    model.applyRun(update);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.data(model.index(2, RunsModel::StateColumn)).toString(),
             QStringLiteral("running"));
    // A running run shows how long it has run so far (it counts up), not just "running".
    QVERIFY2(model.data(model.index(2, RunsModel::DurationColumn))
                 .toString()
                 .contains(QRegularExpression(QStringLiteral("^\\d"))),
             qPrintable(model.data(model.index(2, RunsModel::DurationColumn)).toString()));

    const Run fresh = test::queueRun(t.store(), chain.id);
    model.applyRun(fresh);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.data(model.index(0, 0), RunsModel::RunIdRole).toLongLong(), fresh.id);
    QCOMPARE(model.data(model.index(0, RunsModel::ChainColumn)).toString(), QStringLiteral("p/c"));

    model.setFilter(std::nullopt, RunState::Failed, std::nullopt);
    const int failedRows = model.rowCount();
    model.applyRun(test::queueRun(t.store(), chain.id)); // queued: not what the view shows
    QCOMPARE(model.rowCount(), failedRows);
}

// After a rename the Runs table showed the old name until the chain was selected again.
void TestRunsModel::renamedChain_showsItsNewPathWithoutReadingTheRunsAgain()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("old"));
    const Chain other = test::makeChain(t.store(), QStringLiteral("q"), QStringLiteral("kept"));
    (void)addRuns(t.store(), chain.id, 3);
    (void)addRuns(t.store(), other.id, 2);
    RunsModel model(t.store());
    QAbstractItemModelTester tester(&model);
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(), 5);
    chain.name = QStringLiteral("new");
    QVERIFY(ChainRepository(t.store()).update(chain));
    QVERIFY(ProjectRepository(t.store()).rename(other.projectId, QStringLiteral("r")));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.refreshChainPaths();
    QCOMPARE(changed.size(), 1);
    QStringList paths;
    for (int row = 0; row < model.rowCount(); ++row)
        paths << model.index(row, RunsModel::ChainColumn).data().toString();
    QCOMPARE(paths.count(QStringLiteral("p/new")), 3);
    QCOMPARE(paths.count(QStringLiteral("r/kept")), 2);
    model.refreshChainPaths(); // nothing changed: nothing told
    QCOMPARE(changed.size(), 1);
}

// In the window a failed run's reason is read on the reader's thread: each was a round trip
// on the window's connection, on a store across a network.
void TestRunsModel::failedRun_withAReaderItsReasonIsReadThere()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task task = test::makeTask(t.store(), chain.id, QStringLiteral("load"));
    Run run = test::queueRun(t.store(), chain.id);
    StoreReader reader(t.store().location(), true);
    RunsModel model(t.store());
    model.setReader(&reader);
    QSignalSpy reloaded(&model, &RunsModel::reloaded);
    QVERIFY(model.reload());
    QVERIFY(reloaded.wait(10000)); // read on the reader's thread
    TaskRun attempt;
    attempt.runId = run.id;
    attempt.taskId = task.id;
    attempt.attempt = 1;
    attempt.state = RunState::Failed;
    attempt.error = QStringLiteral("exit code 3");
    QVERIFY(TaskRunRepository(t.store()).insert(attempt));
    QVERIFY(RunRepository(t.store()).setState(run.id, RunState::Failed,
                                              QDateTime::currentDateTimeUtc()));
    run.state = RunState::Failed;
    const test::StatementRecorder onTheModels(t.store());
    model.applyRun(run);
    QCOMPARE(model.data(model.index(0, RunsModel::StateColumn)).toString(),
             QStringLiteral("failed"));
    QTRY_VERIFY(model.data(model.index(0, RunsModel::ReasonColumn))
                    .toString()
                    .contains(QLatin1String("load: exit code 3")));
    QCOMPARE(onTheModels.statements(), QStringList());
}

// helper-1: filtered by "running", every run that had started stayed listed after it ended.
void TestRunsModel::stateFilter_aRunThatLeavesTheStateLeavesTheList()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    addRuns(t.store(), chain.id, 3);
    RunsModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFilter(std::nullopt, RunState::Running, std::nullopt);
    QCOMPARE(model.rowCount(), 0);
    Run run = test::queueRun(t.store(), chain.id);
    run.state = RunState::Running;
    run.startedAt = QDateTime::currentDateTimeUtc();
    model.applyRun(run);
    QCOMPARE(model.rowCount(), 1);
    run.state = RunState::Succeeded;
    run.finishedAt = QDateTime::currentDateTimeUtc();
    model.applyRun(run);
    QCOMPARE(model.rowCount(), 0);
}

// helper-1: sorted oldest first and read to its end, the list stopped at the run that was
// last when it was read.
void TestRunsModel::oldestFirst_readToItsEnd_newRunsJoinTheEnd()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    addRuns(t.store(), chain.id, 5);
    RunsModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.sort(RunsModel::IdColumn, Qt::AscendingOrder);
    QCOMPARE(model.rowCount(), 5);
    QVERIFY(!model.canFetchMore({}));
    const Run fresh = test::queueRun(t.store(), chain.id);
    model.applyRun(fresh);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.data(model.index(5, 0), RunsModel::RunIdRole).toLongLong(), fresh.id);
}

QTEST_MAIN(TestRunsModel)
#include "tst_runsmodel.moc"
