#include "chain/chaineditor.h"
#include "desk.h"
#include "fixtures.h"
#include "overview/chainflowview.h"
#include "overview/overviewpage.h"
#include "overviewchainsmodel.h"
#include "projecttreemodel.h"
#include "runs/durationbars.h"
#include "runs/runsview.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "taskform/taskform.h"
#include "testservers.h"
#include "teststore.h"
#include "upcoming/upcomingpage.h"
#include "upcoming/upcomingtimeline.h"
#include "upcomingmodel.h"
#include "window/mainwindow.h"
#include "window/treefilter.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QFocusEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSqlQuery>
#include <QTableView>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace hg;
using namespace hg::test;
// The window among many chains: the Overview when no chain is selected and a chain's
// duration trend, finding a chain with the tree's filter (and the Overview and Upcoming
// following it), and the subchain picker read only when used. Through the real widgets,
// typed key by key.
class TestWindowOverview final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overview_whenNoChainIsSelected_andTheDurationTrendOfAChain();
    void overview_staysWhenTheTreeIsReadAgain();
    void overview_drawsChainsStartedByOtherChains();
    void treeFilter_findsAChainTypedKeyByKey();
    void subchainChoices_readWhenTheFieldTakesFocusNotAtEveryChainOpened();
};

void TestWindowOverview::overview_whenNoChainIsSelected_andTheDurationTrendOfAChain()
{
    HG_TEST_STORE(t);
    const Chain other = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("other"));
    Desk desk(t);
    RunRepository runs(t.store());
    const QDateTime start = QDateTime::currentDateTimeUtc().addSecs(-600);
    for (int n = 0; n < 25; ++n) {
        const Run run = test::queueRun(t.store(), desk.chain.id);
        QVERIFY(runs.setState(run.id, RunState::Running, start));
        QVERIFY(runs.setState(run.id, n == 24 ? RunState::Failed : RunState::Succeeded,
                              start.addSecs(n + 1)));
    }
    const Run going = test::queueRun(t.store(), other.id);
    QVERIFY(runs.setState(going.id, RunState::Running, start));
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));

    // The project selected, not a chain: the overview takes the editor's place.
    desk.window->projectTree()->setCurrentIndex(desk.window->treeModel()->index(0, 0));
    auto *overview = desk.window->findChild<OverviewPage *>();
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), overview);
    // Read on the reader's thread: the page fills when the answer comes.
    QTRY_COMPARE(overview->chainRows(),
                 (QStringList{QStringLiteral("ops/nightly"), QStringLiteral("ops/other")}));
    QVERIFY2(overview->running()->item(0)->text().contains(QLatin1String("ops/other")),
             qPrintable(overview->running()->item(0)->text()));
    QVERIFY2(overview->failures()->item(0)->text().contains(QLatin1String("ops/nightly")),
             qPrintable(overview->failures()->item(0)->text()));
    const QList<OverviewChainsModel::Row> &chains = overview->chains()->rows();
    QCOMPARE(chains.at(0).runs.size(), OverviewPage::sparklineRuns);
    QCOMPARE(chains.at(0).runs.constLast().state, RunState::Failed);
    QVERIFY(chains.at(1).runs.isEmpty()
            || chains.at(1).runs.constLast().state == RunState::Running);
    const QModelIndex sparkline = overview->chains()->index(0, OverviewChainsModel::RunsColumn);
    QVERIFY2(sparkline.data(Qt::ToolTipRole).toString().contains(QLatin1String("1 failed")),
             qPrintable(sparkline.data(Qt::ToolTipRole).toString()));
    // A read that fails (the runs' table renamed away under the window; helper-9 damaged the
    // store) greys what is shown and says it is from before; the next good read lifts that.
    QSqlQuery rename(t.store().database());
    QVERIFY(rename.exec(QStringLiteral("ALTER TABLE run RENAME TO run_away")));
    overview->reload();
    QTRY_VERIFY2(overview->title()->text().contains(QLatin1String("not read again")),
                 qPrintable(overview->title()->text()));
    QVERIFY(!overview->running()->isEnabled() && !overview->chainTable()->isEnabled());
    QVERIFY(rename.exec(QStringLiteral("ALTER TABLE run_away RENAME TO run")));
    overview->reload();
    QTRY_VERIFY(overview->running()->isEnabled() && overview->chainTable()->isEnabled());
    // Enter on a chain's row opens the chain.
    overview->chainTable()->setFocus();
    overview->chainTable()->setCurrentIndex(overview->chains()->index(0, 0));
    QTest::keyClick(overview->chainTable(), Qt::Key_Return);
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), desk.editor());

    // A chain's runs: its trend over the last runs, with the median.
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), desk.editor());
    desk.window->tabs()->setCurrentWidget(desk.window->runsView());
    DurationBars *trend = desk.window->runsView()->trend();
    QTRY_VERIFY(trend->isVisible());
    QCOMPARE(trend->runs().size(), 25);
    QCOMPARE(trend->medianMs(), qint64(13000));
    QVERIFY2(trend->summary().contains(QLatin1String("median 13")), qPrintable(trend->summary()));
}

// The Overview opened by hand while a chain is selected stays when the tree is read again
// after a change made elsewhere (helper-14: it went back to the Chain tab within 3 s).
void TestWindowOverview::overview_staysWhenTheTreeIsReadAgain()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    auto *overview = desk.window->findChild<OverviewPage *>();
    desk.window->tabs()->setCurrentWidget(overview);
    const QTreeView *tree = desk.window->projectTree();
    const auto chainsInTree = [tree] {
        int chains = 0;
        const QAbstractItemModel *model = tree->model();
        for (int row = 0; row < model->rowCount(); ++row)
            chains += model->rowCount(model->index(row, 0));
        return chains;
    };
    QCOMPARE(chainsInTree(), 1);
    const Chain added = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("added"));
    QVERIFY(added.id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(chainsInTree(), 2, 15000); // the window's look for changes
    QCOMPARE(tree->currentIndex().data(ProjectTreeModel::IdRole).toLongLong(), desk.chain.id);
    QCOMPARE(desk.window->tabs()->currentWidget(), overview);
    // Another chain selected: its editor, as before.
    desk.window->selectChain(added.id);
    QCOMPARE(desk.window->tabs()->currentWidget(), desk.editor());
}

// Chain triggers as edges between chains: a box per chain, an arrow per trigger, read out
// to a screen reader, walked by the arrow keys, Enter opening the chain.
void TestWindowOverview::overview_drawsChainsStartedByOtherChains()
{
    HG_TEST_STORE(t);
    // Made before the window, so its tree holds them from the start.
    const Chain load = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("load"));
    const Chain report =
        test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("report"));
    Desk desk(t); // ops/nightly
    const Run failed = test::queueRun(t.store(), load.id);
    QVERIFY(RunRepository(t.store()).setState(failed.id, RunState::Failed,
                                              QDateTime::currentDateTimeUtc()));
    ChainTrigger afterLoad;
    afterLoad.kind = TriggerKind::After;
    afterLoad.chainId = report.id;
    afterLoad.upstreams = {ChainTrigger::Upstream{load.id, {}}};
    QVERIFY(ChainTriggerRepository(t.store()).add(afterLoad));
    ChainTrigger onFailure;
    onFailure.kind = TriggerKind::After;
    onFailure.chainId = desk.chain.id;
    onFailure.on = TriggerOn::Failed;
    onFailure.paused = true;
    onFailure.upstreams = {ChainTrigger::Upstream{report.id, {}}};
    QVERIFY(ChainTriggerRepository(t.store()).add(onFailure));
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    desk.window->projectTree()->setCurrentIndex(desk.window->treeModel()->index(0, 0));
    auto *overview = desk.window->findChild<OverviewPage *>();
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), overview);
    ChainFlowView *flow = overview->flow();
    QTRY_COMPARE(flow->chainIds().size(), 3);
    QVERIFY(flow->isVisible());
    QCOMPARE(
        flow->edgeTexts(),
        (QStringList{QStringLiteral("ops/load starts ops/report when it succeeded"),
                     QStringLiteral("ops/report starts ops/nightly when it failed (paused)")}));
    QVERIFY2(flow->accessibleDescription().contains(QLatin1String("ops/load starts ops/report")),
             qPrintable(flow->accessibleDescription()));
    // By path: load, nightly, report. Down twice reaches report; Enter opens it.
    flow->setFocus();
    QTest::keyClick(flow, Qt::Key_Down);
    QCOMPARE(flow->currentChain(), load.id);
    QTest::keyClick(flow, Qt::Key_Down);
    QTest::keyClick(flow, Qt::Key_Down);
    QCOMPARE(flow->currentChain(), report.id);
    QTest::keyClick(flow, Qt::Key_Return);
    QTRY_COMPARE(
        desk.window->projectTree()->currentIndex().data(ProjectTreeModel::IdRole).toLongLong(),
        report.id);
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), desk.editor());
}

void TestWindowOverview::treeFilter_findsAChainTypedKeyByKey()
{
    HG_TEST_STORE(t);
    const Chain load = test::makeChain(t.store(), QStringLiteral("etl"), QStringLiteral("load"));
    Chain off = test::makeChain(t.store(), QStringLiteral("etl"), QStringLiteral("other"));
    off.enabled = false;
    QVERIFY(ChainRepository(t.store()).update(off));
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    TreeFilter *filter = desk.window->treeFilter();
    filter->apply();
    QCOMPARE(filter->shownChains(), 3);

    // Ctrl+F from the tree, then the name typed as a person types it.
    desk.window->projectTree()->setFocus();
    QTest::keyClick(desk.window.get(), Qt::Key_F, Qt::ControlModifier);
    QTRY_COMPARE(QApplication::focusWidget(), filter->field());
    for (const QChar c : QStringLiteral("LOA"))
        QTest::keyClick(QApplication::focusWidget(), c.toLatin1(), Qt::NoModifier, 60);
    QTRY_COMPARE(filter->shownChains(), 1);
    const QTreeView *tree = desk.window->projectTree();
    // The project without a match is hidden whole.
    const QAbstractItemModel *model = tree->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data().toString() == QLatin1String("ops"))
            QVERIFY(tree->isRowHidden(row, {}));
    }
    // The Overview and Upcoming show the chains the filter shows, and all again after it.
    Schedule hourly;
    hourly.expression = QStringLiteral("0 * * * *");
    for (const qint64 chainId : {load.id, desk.chain.id}) {
        hourly.chainId = chainId;
        QVERIFY(ScheduleRepository(t.store()).add(hourly));
    }
    auto *overview = desk.window->findChild<OverviewPage *>();
    auto *upcoming = desk.window->findChild<UpcomingPage *>();
    overview->reload();
    upcoming->reload();
    QTRY_VERIFY(!overview->isReading() && !upcoming->isReading());
    QCOMPARE(overview->chainRows(), QStringList{QStringLiteral("etl/load")});
    QCOMPARE(upcoming->timeline()->rowLabels(), QStringList{QStringLiteral("etl/load")});
    for (int row = 0; row < upcoming->fires()->rowCount(); ++row)
        QCOMPARE(upcoming->fires()->index(row, UpcomingModel::ChainColumn).data().toString(),
                 QStringLiteral("etl/load"));
    QVERIFY(upcoming->fires()->rowCount() > 0);

    // Down goes to the one chain shown.
    QTest::keyClick(filter->field(), Qt::Key_Down);
    QTRY_COMPARE(QApplication::focusWidget(), desk.window->projectTree());
    QCOMPARE(tree->currentIndex().data(ProjectTreeModel::IdRole).toLongLong(), load.id);

    // Escape in the field clears it; "Switched off" shows the one chain switched off.
    filter->field()->setFocus();
    QTest::keyClick(filter->field(), Qt::Key_Escape);
    QCOMPARE(filter->field()->text(), QString());
    filter->choice()->setCurrentIndex(int(TreeFilter::Show::Disabled));
    QCOMPARE(filter->shownChains(), 1);
    // Fires within the hour: the two hourly chains (their next fire read on the reader).
    filter->choice()->setCurrentIndex(int(TreeFilter::Show::FiresWithinHour));
    QTRY_VERIFY(!filter->isReading());
    QCOMPARE(filter->shownChains(), 2);
    // While every schedule is paused nothing fires (helper-14: the tree still listed them).
    desk.window->setSchedulesPaused(true);
    QCOMPARE(filter->shownChains(), 0);
    desk.window->setSchedulesPaused(false);
    QCOMPARE(filter->shownChains(), 2);
    Schedule yearly = ScheduleRepository(t.store()).list(load.id).value().constFirst();
    yearly.expression = QStringLiteral("0 0 1 1 *");
    QVERIFY(ScheduleRepository(t.store()).update(yearly));
    // The tree read again, as after an edit: the chains firing soon are read again.
    QVERIFY(qobject_cast<ProjectTreeModel *>(desk.window->projectTree()->model())->reload());
    QTRY_COMPARE(filter->shownChains(), 1);
    filter->choice()->setCurrentIndex(int(TreeFilter::Show::All));
    QCOMPARE(filter->shownChains(), 3);
    QCOMPARE(overview->chainRows().size(), 3);
    QCOMPARE(upcoming->timeline()->rowLabels().size(), 2); // the two with a schedule

    // Pasted with a control character (invisible in the field): it does not count.
    filter->field()->setText(QStringLiteral("lo\aad\t"));
    filter->apply();
    QCOMPARE(filter->shownChains(), 1);
    // At the smallest window the field keeps room to show what is typed (it kept 20 px).
    desk.window->resize(desk.window->minimumSizeHint().boundedTo(QSize(1024, 640)));
    QTRY_VERIFY(filter->field()->width()
                >= filter->field()->fontMetrics().horizontalAdvance(QStringLiteral("load")) * 3);
}

// With 10,000 chains, listing every chain's path in the subchain picker at each chain opened
// stalled the window for a quarter of a second: the list is read when the field is used.
void TestWindowOverview::subchainChoices_readWhenTheFieldTakesFocusNotAtEveryChainOpened()
{
    HG_TEST_STORE(t);
    test::makeChain(t.store(), QStringLiteral("etl"), QStringLiteral("load"));
    Desk desk(t);
    auto *subchain = desk.form()->findChild<QComboBox *>(QStringLiteral("subchain.path"));
    QVERIFY(subchain);
    QCOMPARE(subchain->count(), 0); // a chain opened: nothing listed yet
    QFocusEvent focusIn(QEvent::FocusIn, Qt::TabFocusReason);
    QApplication::sendEvent(subchain, &focusIn);
    QCOMPARE(subchain->count(), 1);
    QCOMPARE(subchain->itemText(0), QStringLiteral("etl/load")); // every chain but this one
    QCOMPARE(subchain->currentText(), QString());                // the field shows what it showed
    QApplication::sendEvent(subchain, &focusIn);
    QCOMPARE(subchain->count(), 1); // read once a chain
}

QTEST_MAIN(TestWindowOverview)
#include "tst_windowoverview.moc"
