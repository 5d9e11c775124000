// The window at the scale of a shared store (scripts/bench; issue 39): stores of 1,000, 3,000
// and 10,000 chains (one hourly schedule each; 10,000,000 runs with the largest), each view
// opened in turn while a probe measures the GUI thread's longest stall. Each view's first
// paint and longest stall beside the targets (100 ms, 50 ms); the time until it is
// filled beside the same reads run bare on a connection of their own in this process.
// Then live updates: 50 chains firing every second, run by the window's own engine, every
// run shown in Runs. Not measured yet: PostgreSQL behind 20 ms of latency.
// Runs with QT_QPA_PLATFORM=offscreen when no display.
#include "benchsupport.h"
#include "occurrencesmodel.h"
#include "overview/overviewsnapshot.h"
#include "store/store.h"
#include "upcomingmodel.h"
#include "window/mainwindow.h"
#include "windowscale.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTextStream>

#include <memory>

using namespace hg;

namespace {

QTextStream out(stdout);

// The reads behind Upcoming and Overview, bare: no model, no view, no thread hop.
QHash<QString, qint64> bareReads(const QString &path)
{
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("bare")).value());
    QHash<QString, qint64> ms;
    QElapsedTimer timer;
    timer.start();
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    (void)OccurrencesModel::compute(*store, std::nullopt, nowMs - 2 * 86400000, nowMs, 500);
    (void)UpcomingModel::compute(*store);
    ms.insert(QStringLiteral("upcoming"), timer.restart());
    (void)OverviewSnapshot::read(*store, 0, nowMs);
    ms.insert(QStringLiteral("overview"), timer.restart());
    return ms;
}

void oneSize(int chains, qint64 runsPerChain)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    QElapsedTimer setup;
    setup.start();
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        bench::fillStore(*store, chains, runsPerChain);
    }
    out << QStringLiteral("the window with %1 chains and %2 runs (SQLite; setup %3 s):\n")
               .arg(chains)
               .arg(qint64(chains) * runsPerChain)
               .arg(double(setup.elapsed()) / 1000.0, 0, 'f', 1);
    out.flush();
    const QHash<QString, qint64> bare = bareReads(path);
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("gui")).value());
    auto window = std::make_unique<MainWindow>(*store);
    window->resize(1400, 900);
    window->show();
    const QString bench = QStringLiteral("bench_windowscale");
    for (const bench::ViewFigure &view : bench::openEachView(*window)) {
        const QString where = QStringLiteral("%1, %2 chains").arg(view.view).arg(chains);
        bench::report(out, {bench, where + QStringLiteral(": first paint"),
                            double(view.firstPaintMs), QStringLiteral("ms"), false,
                            bench::Beside::Target, QStringLiteral("issue 39"), 100});
        bench::report(out, {bench, where + QStringLiteral(": longest GUI stall"),
                            double(view.longestStallMs), QStringLiteral("ms"), false,
                            bench::Beside::Target, QStringLiteral("issue 39"), 50});
        bench::report(out, {bench, where + QStringLiteral(": longest GUI work (thread CPU)"),
                            double(view.longestBusyMs), QStringLiteral("ms"), false,
                            bench::Beside::Target, QStringLiteral("issue 39"), 50});
        if (bare.contains(view.view))
            bench::report(out, {bench, where + QStringLiteral(": filled"), double(view.filledMs),
                                QStringLiteral("ms"), false, bench::Beside::Limit,
                                QStringLiteral("its reads bare"),
                                double(std::max<qint64>(1, bare.value(view.view)))});
    }
    window.reset();
    // Live: 50 every-second chains run by the window's own engine, every run shown.
    constexpr int perSecond = 50;
    const bench::LiveFigure live = bench::liveUpdates(*store, path, perSecond, 10);
    const QString where = QStringLiteral("live updates, %1 chains").arg(chains);
    if (!live.showsTheNewest)
        out << QStringLiteral("  (Runs did not list the newest run within 10 s)\n");
    bench::report(out, {bench, where + QStringLiteral(": runs ended per second"),
                        double(live.runsEnded) / live.seconds, QStringLiteral("runs/s"), true,
                        bench::Beside::Target, QStringLiteral("issue 39"), double(perSecond)});
    bench::report(out, {bench, where + QStringLiteral(": longest GUI stall"),
                        double(live.longestStallMs), QStringLiteral("ms"), false,
                        bench::Beside::Target, QStringLiteral("issue 39"), 50});
    bench::report(out, {bench, where + QStringLiteral(": longest GUI work (thread CPU)"),
                        double(live.longestBusyMs), QStringLiteral("ms"), false,
                        bench::Beside::Target, QStringLiteral("issue 39"), 50});
}

} // namespace

int main(int argc, char *argv[])
{
    bench::useOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    // "CHAINS:RUNS_PER_CHAIN,…"; the sizes by default.
    const QString sizes = app.arguments().value(1, QStringLiteral("1000:100,3000:100,10000:1000"));
    for (const QString &size : sizes.split(QLatin1Char(','))) {
        const QStringList parts = size.split(QLatin1Char(':'));
        oneSize(parts.value(0).toInt(), parts.value(1, QStringLiteral("100")).toLongLong());
    }
    return 0;
}
