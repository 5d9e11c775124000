#include "fixtures.h"
#include "overview/overviewsnapshot.h"
#include "overviewchainsmodel.h"
#include "store/chainrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace hg;

// The Overview's snapshot read again after runs changed: only the chains the run events name
// (and chains new since) are read; every other chain keeps what the last read found. Its
// model then tells the view which rows changed instead of resetting 10,000 rows.
class TestOverviewSnapshot final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refresh_readsOnlyTheChainsWhoseRunsChanged();
    void model_sameChainsSayWhichRowsChanged();
};

namespace {

// chain path → how many runs its sparkline holds
QHash<QString, int> runsOf(const OverviewSnapshot &snapshot)
{
    QHash<QString, int> runs;
    for (const OverviewChainsModel::Row &row : snapshot.chains)
        runs.insert(row.path, int(row.runs.size()));
    return runs;
}

} // namespace

void TestOverviewSnapshot::refresh_readsOnlyTheChainsWhoseRunsChanged()
{
    HG_TEST_STORE(t);
    Store &store = t.store();
    const Chain a = test::makeChain(store, QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(store, QStringLiteral("p"), QStringLiteral("b"));
    const Chain c = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c"));
    QVERIFY(a.id > 0 && b.id > 0 && c.id > 0);
    QVERIFY(test::queueRun(store, a.id).id > 0);
    QVERIFY(test::queueRun(store, b.id).id > 0);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const Result<OverviewSnapshot> first = OverviewSnapshot::read(store, 0, now);
    QVERIFY(first);
    const QHash<QString, int> firstRuns{
        {QStringLiteral("p/a"), 1}, {QStringLiteral("p/b"), 1}, {QStringLiteral("p/c"), 0}};
    QCOMPARE(runsOf(first.value()), firstRuns);

    // Runs of a and b; a new chain d with one; c removed. The events named a only.
    QVERIFY(test::queueRun(store, a.id).id > 0);
    QVERIFY(test::queueRun(store, b.id).id > 0);
    const Chain d = test::makeChain(store, QStringLiteral("p"), QStringLiteral("d"));
    QVERIFY(d.id > 0);
    QVERIFY(test::queueRun(store, d.id).id > 0);
    QVERIFY(ChainRepository(store).remove(c.id));
    const Result<OverviewSnapshot> second =
        OverviewSnapshot::read(store, 0, now, &first.value(), {a.id});
    QVERIFY(second);
    // b keeps what the first read found (it was not read: no event named it).
    const QHash<QString, int> secondRuns{
        {QStringLiteral("p/a"), 2}, {QStringLiteral("p/b"), 1}, {QStringLiteral("p/d"), 1}};
    QCOMPARE(runsOf(second.value()), secondRuns);

    const Result<OverviewSnapshot> third =
        OverviewSnapshot::read(store, 0, now, &second.value(), {b.id});
    QVERIFY(third);
    const Result<OverviewSnapshot> whole = OverviewSnapshot::read(store, 0, now);
    QVERIFY(whole);
    QCOMPARE(runsOf(third.value()), runsOf(whole.value()));
    QCOMPARE(runsOf(whole.value()).value(QStringLiteral("p/b")), 2);
    for (qsizetype i = 0; i < whole->chains.size(); ++i)
        QCOMPARE(third->chains.at(i).runs, whole->chains.at(i).runs);
}

void TestOverviewSnapshot::model_sameChainsSayWhichRowsChanged()
{
    OverviewChainsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const RunSummary ran{1, 10, RunState::Succeeded, 1000};
    model.show({{10, QStringLiteral("p/a"), {ran}}, {11, QStringLiteral("p/b"), {}}});
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    const RunSummary failed{2, 11, RunState::Failed, 500};
    model.show({{10, QStringLiteral("p/a"), {ran}}, {11, QStringLiteral("p/b"), {failed}}});
    QCOMPARE(resets.size(), 0);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes.at(0).at(0).toModelIndex().row(), 1);
    QCOMPARE(model.index(1, 0).data(OverviewChainsModel::RunsRole).value<QList<RunSummary>>(),
             QList<RunSummary>{failed});
    // Another set of chains: the view lays the rows out again.
    model.show({{11, QStringLiteral("p/b"), {failed}}});
    QCOMPARE(resets.size(), 1);
    QCOMPARE(model.rowCount(), 1);
}

QTEST_MAIN(TestOverviewSnapshot)
#include "tst_overviewsnapshot.moc"
