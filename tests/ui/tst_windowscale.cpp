// The short form of bench_windowscale (issue 39): a store of 3,000 chains, one hourly
// schedule each, every view opened in turn while a probe watches the GUI thread. Before the
// views read on a thread of their own, the Overview kept it busy for ~30 s and Upcoming for
// ~20 s at this size. The ceiling, 200 ms, is four times the target: only a real regression
// reaches it on a loaded machine (the figures themselves are scripts/bench's).
#include "overview/overviewpage.h"
#include "store/store.h"
#include "upcoming/upcomingpage.h"
#include "upcoming/upcomingtimeline.h"
#include "upcomingmodel.h"
#include "window/mainwindow.h"
#include "windowscale.h"

#include <QListWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

class TestWindowScale final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void threeThousandChains_noViewStallsTheWindow();
    void fiftyRunsASecond_keepTheWindowResponsive();
};

void TestWindowScale::threeThousandChains_noViewStallsTheWindow()
{
    constexpr int chains = 3000;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("scale.db"));
    {
        auto setup = Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup"));
        QVERIFY(setup);
        bench::fillStore(*setup.value(), chains, 20);
    }
    auto store = Store::open(StoreLocation::parse(path).value(), QStringLiteral("gui"));
    QVERIFY(store);
    MainWindow window(*store.value());
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QList<bench::ViewFigure> figures = bench::openEachView(window);
    QCOMPARE(figures.size(), 8);
    figures << bench::importCrontab(window, 3000);
    for (const bench::ViewFigure &figure : std::as_const(figures)) {
        qInfo("%s: first paint %lld ms, filled %lld ms, longest stall %lld ms, of it the GUI "
              "thread's own work %lld ms",
              qPrintable(figure.view), figure.firstPaintMs, figure.filledMs, figure.longestStallMs,
              figure.longestBusyMs);
        // The GUI thread's own work, not the wall time: under a load of 8 on 2 cores the kernel
        // alone kept it from its events 204 ms once (an Upcoming that takes 16 ms unloaded).
        QVERIFY2(figure.longestBusyMs < 200,
                 qPrintable(QStringLiteral("%1 kept the GUI thread busy %2 ms (stalled %3 ms)")
                                .arg(figure.view)
                                .arg(figure.longestBusyMs)
                                .arg(figure.longestStallMs)));
    }
    // What the views show is every chain, not a part read before giving up.
    auto *overview = window.findChild<OverviewPage *>();
    QCOMPARE(overview->chainRows().size(), chains); // as read when it was shown
    QCOMPARE(overview->nextFires()->count(), 8);
    auto *upcoming = window.findChild<UpcomingPage *>();
    QCOMPARE(upcoming->timeline()->rowLabels().size(), chains);
    QCOMPARE(upcoming->fires()->rowCount() > chains * 24 * 6, true);
}

// Live updates: 50 chains firing every second, run by the window's own engine, every run
// shown in Runs; the GUI thread keeps up without a long stall.
void TestWindowScale::fiftyRunsASecond_keepTheWindowResponsive()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.db"));
    {
        auto setup = Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup"));
        QVERIFY(setup);
        bench::fillStore(*setup.value(), 3000, 20);
    }
    auto store = Store::open(StoreLocation::parse(path).value(), QStringLiteral("gui"));
    QVERIFY(store);
    const bench::LiveFigure live = bench::liveUpdates(*store.value(), path, 50, 4);
    qInfo("%lld runs ended in %.1f s; longest stall %lld ms, of it the GUI thread's own work "
          "%lld ms",
          live.runsEnded, live.seconds, live.longestStallMs, live.longestBusyMs);
    QVERIFY2(live.runsEnded > 0, "the engine ran nothing");
    QVERIFY2(live.showsTheNewest, "Runs did not list the newest run");
    QVERIFY2(
        live.longestBusyMs < 200,
        qPrintable(QStringLiteral("live updates kept the GUI thread busy %1 ms (stalled %2 ms)")
                       .arg(live.longestBusyMs)
                       .arg(live.longestStallMs)));
}

QTEST_MAIN(TestWindowScale)
#include "tst_windowscale.moc"
