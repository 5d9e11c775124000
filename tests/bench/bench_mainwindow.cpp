// The main window's start-up on a store with 1,000 chains (scripts/bench): the window built
// (tree, first chain's canvas, forms, models), shown and painted; then opening other chains.
// The tree with a pg_timetable remote of 10,000 chains under its Connections node (issue 12:
// the tree within 200 ms; bench_pgtimetable measures reading those chains from the server).
// Start-up and opening a chain are set beside the SQL they sent, recorded as they ran and run
// again bare on the same file; the remote's tree beside its target. Runs with
// QT_QPA_PLATFORM=offscreen when no display.
#include "benchsupport.h"
#include "domain/connectionurl.h"
#include "projecttreemodel.h"
#include "remote/connectionscontroller.h"
#include "sqlrecorder.h"
#include "store/connectionprofilerepository.h"
#include "store/store.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTreeView>

using namespace hg;

int main(int argc, char *argv[])
{
    bench::useOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const int chains = app.arguments().value(1, QStringLiteral("1000")).toInt();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        bench::createChains(*store, chains, TaskKind::Shell, QStringLiteral("echo hello"), {},
                            QStringLiteral("%M %H * * *"));
        // Refused at once (port 1): the window's own check ends quickly, then the bench
        // hands the tree a big remote's answer.
        (void)ConnectionProfileRepository(*store).add(
            ConnectionUrl::parse(QStringLiteral("warehouse"), ConnectionKind::PgTimetable,
                                 QStringLiteral("postgresql://u@127.0.0.1:1/tt"))
                .value());
    }
    out << QStringLiteral("main window with %1 chains in the store:\n").arg(chains);
    const auto report = [&](const QString &what, double ms, bench::Beside kind,
                            const QString &besideWhat, double beside) {
        bench::reportMs(out, QStringLiteral("bench_mainwindow"), what, ms, kind, besideWhat,
                        beside);
    };

    // Recording costs microseconds a statement; that stays in the window's figures.
    bench::SqlRecorder recorder;
    recorder.start();
    QElapsedTimer timer;
    timer.start();
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("gui")).value());
    const qint64 opened = timer.elapsed();
    MainWindow window(*store);
    const qint64 built = timer.elapsed();
    window.show();
    QCoreApplication::processEvents(); // the deferred canvas drawing and layout
    (void)window.grab();               // paints now
    const double painted = double(timer.nsecsElapsed()) / 1e6;
    const bench::Replayed startup = bench::replay(recorder.stop(), 3);
    report(QStringLiteral("first paint (store opened %1 ms, window built %2 ms)")
               .arg(opened)
               .arg(built),
           painted, bench::Beside::Limit,
           QStringLiteral("its %1 SQL statements bare, %2 rows")
               .arg(startup.statements)
               .arg(startup.rows),
           startup.ms);

    // Opening chains one after another, as a user clicking down the tree.
    QList<qint64> openingUs;
    QList<qint64> bareUs;
    qint64 statements = 0;
    QTreeView *tree = window.projectTree();
    const QModelIndex project = tree->model()->index(0, 0);
    for (int row = 1; row <= 50 && row < tree->model()->rowCount(project); ++row) {
        recorder.start();
        timer.restart();
        tree->setCurrentIndex(tree->model()->index(row * (chains / 51), 0, project));
        QCoreApplication::processEvents();
        (void)window.grab();
        openingUs << timer.nsecsElapsed() / 1000;
        const bench::Replayed bare = bench::replay(recorder.stop(), 3);
        bareUs << qint64(bare.ms * 1000);
        statements += bare.statements;
    }
    for (int percent : {50, 99})
        report(QStringLiteral("open a chain (canvas, form, schedules, painted), p%1").arg(percent),
               bench::percentile(openingUs, percent) / 1000.0, bench::Beside::Limit,
               QStringLiteral("its SQL bare (%1 statements an opening), p%2")
                   .arg(openingUs.isEmpty() ? 0 : statements / openingUs.size())
                   .arg(percent),
               bench::percentile(bareUs, percent) / 1000.0);

    while (window.connections()->pendingChecks() > 0)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    ConnectionCheck big{ConnectionCheck::State::Connected, QStringLiteral("pg_timetable 6.x"), {}};
    for (int i = 0; i < 10000; ++i)
        big.chains << QStringLiteral("chain-%1").arg(i, 5, 10, QLatin1Char('0'));
    timer.restart();
    window.treeModel()->setConnectionCheck(QStringLiteral("warehouse"), big);
    tree->expand(window.treeModel()->indexOfConnection(QStringLiteral("warehouse")));
    tree->scrollTo(window.treeModel()->indexOfConnection(QStringLiteral("warehouse"),
                                                         QStringLiteral("chain-09999")));
    QCoreApplication::processEvents();
    (void)window.grab();
    report(QStringLiteral("a pg_timetable remote's 10000 chains into the tree, expanded, "
                          "scrolled to the last and painted"),
           double(timer.nsecsElapsed()) / 1e6, bench::Beside::Target,
           QStringLiteral("200 ms for this and the chain list's read (issue 12; "
                          "bench_pgtimetable times the read)"),
           200);
    return 0;
}
