// The main window's start-up on a store with 1,000 chains (scripts/bench): the window built
// (tree, first chain's canvas, forms, models), shown and painted; then opening other chains.
// The tree with a pg_timetable remote of 10,000 chains under its Connections node (issue 12:
// the tree within 200 ms; bench_pgtimetable measures reading those chains from the server).
// Prints figures only. Runs with QT_QPA_PLATFORM=offscreen when no display.
#include "benchsupport.h"
#include "domain/connectionurl.h"
#include "projecttreemodel.h"
#include "remote/connectionscontroller.h"
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
    out << QStringLiteral("  store opened %1 ms, window built %2 ms, first paint %3 ms\n")
               .arg(opened)
               .arg(built)
               .arg(timer.elapsed());

    // Opening chains one after another, as a user clicking down the tree.
    QList<qint64> opening;
    QTreeView *tree = window.projectTree();
    const QModelIndex project = tree->model()->index(0, 0);
    for (int row = 1; row <= 50 && row < tree->model()->rowCount(project); ++row) {
        timer.restart();
        tree->setCurrentIndex(tree->model()->index(row * (chains / 51), 0, project));
        QCoreApplication::processEvents();
        (void)window.grab();
        opening << timer.elapsed();
    }
    out << QStringLiteral("  open a chain (canvas, form, schedules, painted): %1\n")
               .arg(bench::figures(opening));

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
    out << QStringLiteral(
               "  a pg_timetable remote's 10000 chains into the tree, expanded, scrolled "
               "to the last and painted: %1 ms (target 200 with the chain list's read)\n")
               .arg(timer.elapsed());
    return 0;
}
