// The main window's start-up on a store with 1,000 chains (scripts/bench): the window built
// (tree, first chain's canvas, forms, models), shown and painted; then opening other chains.
// Prints figures only. Runs with QT_QPA_PLATFORM=offscreen when no display.
#include "benchsupport.h"
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
    return 0;
}
