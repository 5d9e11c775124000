#include "windowscale.h"

#include "benchsupport.h"
#include "chain/chainschedulesbox.h"
#include "logmodel.h"
#include "overview/overviewpage.h"
#include "projecttreemodel.h"
#include "remote/connectionscontroller.h"
#include "remote/pgtimetablechainpage.h"
#include "runs/logview.h"
#include "runs/runsview.h"
#include "runsmodel.h"
#include "schedule/scheduledialog.h"
#include "scheduler/engine.h"
#include "scheduler/enginehost.h"
#include "stallprobe.h"
#include "statementrecorder.h"
#include "store/store.h"
#include "tray/traycontroller.h"
#include "upcoming/upcomingpage.h"
#include "window/importdialog.h"
#include "window/mainwindow.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QPushButton>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTreeView>

#include <functional>
#include <memory>

namespace hg::bench {
namespace {

void exec(QSqlQuery &query, const QString &sql)
{
    if (!query.exec(sql))
        qFatal("window scale setup: %s: %s", qPrintable(sql.left(200)),
               qPrintable(query.lastError().text()));
}

// Events for `ms`, as a user waiting.
void idle(qint64 ms)
{
    QDeadlineTimer until(ms);
    while (!until.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
}

ViewFigure measure(MainWindow &window, const QString &view, const std::function<void()> &open,
                   const std::function<bool()> &filled, int ceilingS = 120)
{
    test::StallProbe probe;
    idle(100); // what came before has settled
    auto statements = std::make_unique<test::StatementRecorder>(window.store());
    probe.start();
    QElapsedTimer timer;
    timer.start();
    ViewFigure figure;
    figure.view = view;
    open();
    (void)window.grab(); // paints now: what the user sees first
    figure.firstPaintMs = timer.elapsed();
    const QDeadlineTimer ceiling(qint64(ceilingS) * 1000);
    while (!filled() && !ceiling.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    if (!filled())
        qFatal("window scale: %s did not fill within %d s", qPrintable(view), ceilingS);
    figure.filledMs = timer.elapsed();
    (void)window.grab(); // the filled view painted
    idle(200);
    probe.stop();
    figure.longestStallMs = probe.longestMs();
    figure.longestBusyMs = probe.longestBusyMs();
    figure.longestStallRunDelayMs = probe.longestStallRunDelayMs();
    figure.windowStatements = statements->statements();
    return figure;
}

} // namespace

void fillStore(Store &store, int chains, qint64 runsPerChain)
{
    createChains(store, chains, TaskKind::Shell, QStringLiteral("echo hello"), {},
                 QStringLiteral("%M * * * *"));
    QSqlQuery q(store.database());
    const bool postgres = store.backend() == StoreBackend::PostgreSql;
    if (!postgres)
        exec(q, QStringLiteral("PRAGMA synchronous = OFF"));
    const qint64 runs = qint64(chains) * runsPerChain;
    if (runs == 0)
        return;
    // Hourly history ending an hour ago, each chain's runs in id order by time.
    const qint64 endMs = QDateTime::currentMSecsSinceEpoch() / 3600000 * 3600000 - 3600000;
    const QString numbers =
        postgres ? QStringLiteral("SELECT generate_series(0, %1) AS i")
                 : QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM "
                                  "n WHERE i < %1) SELECT i FROM n");
    exec(q, QStringLiteral(
                "INSERT INTO run (chain_id, schedule_id, trigger, scheduled_for, state, "
                "created_at, started_at, finished_at) SELECT s.chain_id, s.id, 'schedule', "
                "%2 - (%4 - n.i / %3) * 3600000, CASE WHEN n.i % 10 = 3 THEN 'failed' ELSE "
                "'succeeded' END, %2, %2 - (%4 - n.i / %3) * 3600000, "
                "%2 - (%4 - n.i / %3) * 3600000 + 1000 + (n.i % 7) * 300 "
                "FROM (%5) n JOIN schedule s ON s.id = (SELECT min(id) FROM schedule) + n.i % %3")
                .arg(endMs)
                .arg(chains)
                .arg(runsPerChain)
                .arg(numbers.arg(runs - 1)));
    if (postgres)
        exec(q, QStringLiteral("ANALYZE"));
}

QList<ViewFigure> openEachView(MainWindow &window)
{
    QList<ViewFigure> figures;
    QTabWidget *tabs = window.tabs();
    QTreeView *tree = window.projectTree();
    const QModelIndex project = tree->model()->index(0, 0);
    figures << measure(
        window, QStringLiteral("chain editor"),
        [&] { tree->setCurrentIndex(tree->model()->index(0, 0, project)); }, [] { return true; });
    RunsView *runs = window.runsView();
    const auto runsShown = [runs] {
        return !runs->runs()->isLoading() && !runs->log()->model()->isLoading();
    };
    figures << measure(
        window, QStringLiteral("runs"), [&] { tabs->setCurrentIndex(1); }, runsShown);
    // Each time the view is at its end, it asks for the next page itself.
    const int tenPagesMore = runs->runs()->rowCount() + 10 * RunsModel::pageSize;
    figures << measure(
        window, QStringLiteral("runs, scrolled down ten pages"), [] {},
        [runs, tenPagesMore] {
            if (runs->runs()->rowCount() >= tenPagesMore || !runs->runs()->canFetchMore({}))
                return true;
            runs->table()->scrollToBottom();
            return false;
        });
    auto *upcoming = window.findChild<UpcomingPage *>();
    figures << measure(
        window, QStringLiteral("upcoming"), [&] { tabs->setCurrentWidget(upcoming); },
        [&] { return !upcoming->isReading(); });
    auto *overview = window.findChild<OverviewPage *>();
    figures << measure(
        window, QStringLiteral("overview"), [&] { tabs->setCurrentWidget(overview); },
        [&] { return !overview->isReading() && !overview->chainRows().isEmpty(); });
    figures << measure(
        window, QStringLiteral("tree, scrolled to the end, a chain opened"),
        [&] {
            tabs->setCurrentIndex(0);
            const int last = tree->model()->rowCount(project) - 1;
            tree->scrollTo(tree->model()->index(last, 0, project));
            tree->setCurrentIndex(tree->model()->index(last, 0, project));
        },
        [] { return true; });
    // Add schedule: the dialog opens at once, its calendars read off the GUI thread.
    figures << measure(
        window, QStringLiteral("schedule dialog"),
        [&] { window.findChild<ChainSchedulesBox *>()->editSchedule(0); },
        [&window, shown = false]() mutable {
            auto *dialog = window.findChild<ScheduleDialog *>();
            if (!shown && dialog && dialog->isVisible()) {
                shown = true;
                dialog->reject();
            }
            return shown;
        });
    // A chain added by another program (the command line, another desktop): the tree looks
    // every 3 s and reads itself again off the GUI thread. The other program's writes run on
    // a thread of their own (on this thread, across a network, they were the stall measured).
    std::unique_ptr<QThread> elsewhere;
    const auto treeShows = [tree](const QString &name) {
        return !tree->model()
                    ->match(tree->model()->index(0, 0), Qt::DisplayRole, name, 1,
                            Qt::MatchExactly | Qt::MatchRecursive)
                    .isEmpty();
    };
    figures << measure(
        window, QStringLiteral("tree, read again after a chain was added elsewhere"),
        [&] {
            elsewhere.reset(QThread::create([location = window.store().location()] {
                auto store = std::move(Store::open(location, QStringLiteral("elsewhere")).value());
                createChains(*store, 1, TaskKind::Shell, QStringLiteral("echo elsewhere"), {},
                             QStringLiteral("0 * * * *"), QStringLiteral("elsewhere"));
            }));
            elsewhere->start();
        },
        [&] { return treeShows(QStringLiteral("elsewhere")); }); // its project
    elsewhere->wait();
    return figures;
}

QList<ViewFigure> openRemoteChains(MainWindow &window, int chains)
{
    QTreeView *tree = window.projectTree();
    auto *model = qobject_cast<ProjectTreeModel *>(tree->model());
    auto *connections = window.findChild<ConnectionsController *>();
    QList<ViewFigure> figures;
    figures << measure(
        window,
        QStringLiteral("a pg_timetable remote of %1 chains, listed in the tree").arg(chains),
        [&] { connections->checkConnections(true); },
        [&] {
            const QModelIndex remote = model->index(0, 0, model->connectionsIndex());
            return connections->pendingChecks() == 0 && model->rowCount(remote) == chains;
        });
    PgTimetableChainPage *page = window.remoteChainPage();
    figures << measure(
        window, QStringLiteral("a pg_timetable chain's page"),
        [&] {
            const QModelIndex remote = model->index(0, 0, model->connectionsIndex());
            tree->setCurrentIndex(model->index(chains - 1, 0, remote));
        },
        [&] { return page->isVisible() && !page->isBusy(); });
    return figures;
}

ViewFigure importCrontab(MainWindow &window, int lines)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("crontab"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("window scale: cannot write %s", qPrintable(path));
    for (int line = 0; line < lines; ++line)
        file.write(QStringLiteral("%1 %2 * * * /usr/local/bin/job-%3 --part %3\n")
                       .arg(line % 60)
                       .arg(line % 24)
                       .arg(line)
                       .toUtf8());
    file.close();
    std::unique_ptr<ImportDialog> dialog;
    bool imported = false;
    int chains = 0;
    ViewFigure figure = measure(
        window, QStringLiteral("import of a %1-line crontab").arg(lines),
        [&] {
            dialog = std::make_unique<ImportDialog>(window.store(), *window.reader(), &window);
            dialog->open();
            dialog->setSource(QStringLiteral("crontab"), path);
        },
        [&] {
            if (chains > 0)
                return true;
            if (dialog->isBusy())
                return false;
            if (!imported) { // the preview is shown: import it
                if (!dialog->importButton()->isEnabled())
                    qFatal("window scale: the crontab cannot be imported: %s",
                           qPrintable(dialog->summary()));
                dialog->importButton()->click();
                imported = true;
                return false;
            }
            chains = dialog->result() == QDialog::Accepted ? dialog->importedChains() : 0;
            return chains > 0;
        },
        // On a store across a network each chain is several round trips (20 ms each).
        1800);
    if (chains != lines)
        qFatal("window scale: %d chains of %d imported: %s", chains, lines,
               qPrintable(dialog->summary()));
    return figure;
}

namespace {

qint64 endedLiveRuns(Store &store)
{
    QSqlQuery q(store.database());
    exec(q, QStringLiteral("SELECT count(*) FROM run r JOIN chain c ON c.id = r.chain_id "
                           "JOIN project p ON p.id = c.project_id "
                           "WHERE p.name = 'live' AND r.finished_at IS NOT NULL"));
    return q.next() ? q.value(0).toLongLong() : 0;
}

} // namespace

namespace {

void waitUntilStarted(EngineHost &engine, bool &started)
{
    const QDeadlineTimer startCeiling(60000);
    while (!started && !startCeiling.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    if (!started)
        qFatal("window scale: the engine %s did not start within a minute",
               qPrintable(engine.objectName()));
}

} // namespace

LiveFigure liveUpdates(Store &store, const QString &storePath, int perSecond, int seconds,
                       const QString &runnerPath)
{
    createChains(store, perSecond, TaskKind::Builtin, QStringLiteral("NoOp"), {},
                 QStringLiteral("* * * * * *"), QStringLiteral("live"), CronDialect::Seconds);
    // A runner of their own (beside the database) runs the live chains alone: the window's
    // engine only hears of their runs, as a desktop on a shared store does.
    std::unique_ptr<EngineHost> runner;
    bool runnerStarted = false;
    if (!runnerPath.isEmpty()) {
        QSqlQuery q(store.database());
        exec(q, QStringLiteral("UPDATE chain SET client_name = 'runner' WHERE project_id IN "
                               "(SELECT id FROM project WHERE name = 'live')"));
        EngineConfig config = benchConfig(runnerPath);
        config.name = QStringLiteral("runner");
        runner = std::make_unique<EngineHost>(config);
        runner->setObjectName(QStringLiteral("runner"));
        QObject::connect(runner.get(), &EngineHost::started, runner.get(),
                         [&runnerStarted] { runnerStarted = true; });
        runner->start();
        waitUntilStarted(*runner, runnerStarted);
    }
    EngineConfig windowsConfig = benchConfig(storePath);
    windowsConfig.tellRunsElsewhere = true; // as the desktop's (EngineConfigFactory)
    EngineHost engine(windowsConfig);
    engine.setObjectName(QStringLiteral("window's"));
    MainWindow window(store, &engine);
    // The tray as the application wires it: its notifications follow every run's end.
    TrayController tray(store);
    window.attachTray(&tray);
    QObject::connect(engine.engine(), &Engine::runChanged, &tray, &TrayController::applyRun);
    window.resize(1400, 900);
    window.show();
    bool started = false;
    QObject::connect(&engine, &EngineHost::started, &window, [&started] { started = true; });
    engine.start();
    waitUntilStarted(engine, started);
    window.tabs()->setCurrentWidget(window.runsView());
    // Every chain's runs, not only those of the chain the window opened on.
    if (auto *only =
            window.runsView()->findChild<QCheckBox *>(QStringLiteral("runs.onlySelectedChain")))
        only->setChecked(false);
    // Watched once the live runs flow: an engine's start on a store of 10 M runs (its quick
    // check, 10,000 schedules' missed fires written down) is not what this measures.
    const QDeadlineTimer flowing(120000);
    while (endedLiveRuns(store) == 0 && !flowing.hasExpired())
        idle(200);
    idle(5000); // the first seconds' backlog worked off
    LiveFigure figure;
    const qint64 before = endedLiveRuns(store);
    test::StallProbe probe;
    probe.start();
    QElapsedTimer watched;
    watched.start();
    idle(qint64(seconds) * 1000);
    probe.stop();
    figure.seconds = double(watched.elapsed()) / 1000.0;
    figure.runsEnded = endedLiveRuns(store) - before;
    figure.longestStallMs = probe.longestMs();
    figure.longestBusyMs = probe.longestBusyMs();
    figure.longestStallRunDelayMs = probe.longestStallRunDelayMs();
    // The view followed: the newest run when the watch ended is listed, newest first.
    QSqlQuery newest(store.database());
    exec(newest, QStringLiteral("SELECT max(id) FROM run"));
    const qint64 newestId = newest.next() ? newest.value(0).toLongLong() : 0;
    const QDeadlineTimer shown(10000);
    const RunsModel *runs = window.runsView()->runs();
    while (!figure.showsTheNewest && !shown.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        figure.showsTheNewest =
            runs->rowCount() > 0
            && runs->index(0, 0).data(RunsModel::RunIdRole).toLongLong() >= newestId;
    }
    if (!figure.showsTheNewest)
        qWarning("live: newest %lld, listed first %lld of %d rows", newestId,
                 runs->index(0, 0).data(RunsModel::RunIdRole).toLongLong(), runs->rowCount());
    return figure;
}

} // namespace hg::bench
