// The window at the scale of a shared store (scripts/bench; issue 39): stores of 1,000, 3,000
// and 10,000 chains (one hourly schedule each; 10,000,000 runs with the largest), each view
// opened in turn while a probe measures the GUI thread's longest stall. Each view's first
// paint and longest stall beside the targets (100 ms, 50 ms); the time until it is
// filled beside the same reads run bare on a connection of their own in this process.
// Then live updates: 50 chains firing every second, run by the window's own engine, every
// run shown in Runs. Then 3,000 chains on PostgreSQL 20 ms away (netem on a loopback of its
// own).
// Runs with QT_QPA_PLATFORM=offscreen when no display.
#include "benchsupport.h"
#include "delayproxy.h"
#include "domain/connectionurl.h"
#include "occurrencesmodel.h"
#include "overview/overviewsnapshot.h"
#include "pgtimetableschema.h"
#include "privatepostgres.h"
#include "stallprobe.h"
#include "store/connectionprofilerepository.h"
#include "store/runretention.h"
#include "store/store.h"
#include "storeopencheck.h"
#include "upcomingmodel.h"
#include "window/mainwindow.h"
#include "windowscale.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlError>
#include <QSqlQuery>
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

// How much of the longest stall the GUI thread spent ready to run, waiting for a core: on two
// cores beside a PostgreSQL server, an engine and 50 processes a second, the machine's load.
void printRunDelay(qint64 runDelayMs, qint64 stallMs, const QString &where)
{
    if (runDelayMs >= 0)
        out << QStringLiteral("  %1: of the longest stall (%2 ms), waiting for a core (the "
                              "kernel's run delay): %3 ms\n")
                   .arg(where)
                   .arg(stallMs)
                   .arg(runDelayMs);
}

// `remoteChains` > 0: the store has a pg_timetable connection of that many chains.
void measureWindow(const QString &path, const QString &size, const QString &runnerPath = {},
                   int remoteChains = 0);

// The desktop's first open of its store (StoreOpenCheck: SQLite's quick_check and any
// migration on a thread of its own) while a probe watches the GUI thread; beside the same
// open bare, on this thread.
// The engine's retention look (once a minute, on its own thread): with no chain limiting its
// history it must cost nothing, however many runs are stored (it ranked all 10 M: 9 s).
void measureRetention(const QString &path, const QString &size)
{
    auto store = std::move(
        Store::open(StoreLocation::parse(path).value(), QStringLiteral("retention")).value());
    QElapsedTimer timer;
    timer.start();
    const Result<QList<RunRetention::Expired>> due =
        RunRetention(*store).due(QDateTime::currentMSecsSinceEpoch(), std::nullopt, 50000);
    const qint64 ms = timer.elapsed();
    if (!due)
        qFatal("window scale: retention: %s", qPrintable(due.error().message));
    bench::report(out,
                  {QStringLiteral("bench_windowscale"),
                   QStringLiteral("the engine's retention look, %1, no chain limited").arg(size),
                   double(ms), QStringLiteral("ms"), false, bench::Beside::Target,
                   QStringLiteral("an engine turn"), 50});
}

void measureOpening(const QString &path, const QString &size)
{
    const StoreLocation location = StoreLocation::parse(path).value();
    QElapsedTimer timer;
    timer.start();
    (void)Store::open(location, QStringLiteral("bare-open"));
    const qint64 bareMs = timer.elapsed();
    test::StallProbe probe;
    probe.start();
    timer.restart();
    StoreOpenCheck check(location);
    if (!check.run())
        qFatal("window scale: the store did not open: %s",
               qPrintable(check.error().error().message));
    const qint64 checkedMs = timer.elapsed();
    probe.stop();
    const QString bench = QStringLiteral("bench_windowscale");
    const QString where = QStringLiteral("opening the store, %1").arg(size);
    bench::report(out, {bench, where + QStringLiteral(": checked and opened"), double(checkedMs),
                        QStringLiteral("ms"), false, bench::Beside::Limit,
                        QStringLiteral("the same open bare"), double(std::max<qint64>(1, bareMs))});
    bench::report(out, {bench, where + QStringLiteral(": longest GUI stall"),
                        double(probe.longestMs()), QStringLiteral("ms"), false,
                        bench::Beside::Target, QStringLiteral("issue 39"), 50});
}

void oneSize(int chains, qint64 runsPerChain)
{
    // HOURGLASS_BENCH_STORE_DIR keeps each size's store there and measures on a copy of it
    // next time (the 10 M runs take minutes to write); without it a temporary one.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    const QString keptDir = qEnvironmentVariable("HOURGLASS_BENCH_STORE_DIR");
    const QString kept =
        QStringLiteral("%1/windowscale-%2-%3.db").arg(keptDir).arg(chains).arg(runsPerChain);
    QElapsedTimer setup;
    setup.start();
    if (keptDir.isEmpty() || !QFile::exists(kept)) {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        bench::fillStore(*store, chains, runsPerChain);
    }
    if (!keptDir.isEmpty() && !QFile::exists(kept))
        QFile::copy(path, kept);
    else if (!keptDir.isEmpty())
        QFile::copy(kept, path);
    out << QStringLiteral("the window with %1 chains and %2 runs (SQLite; setup %3 s):\n")
               .arg(chains)
               .arg(qint64(chains) * runsPerChain)
               .arg(double(setup.elapsed()) / 1000.0, 0, 'f', 1);
    out.flush();
    // On SQLite only: on PostgreSQL across a network it is the round trips' (the engine runs
    // beside its server).
    measureRetention(path, QStringLiteral("%1 chains").arg(chains));
    measureWindow(path, QStringLiteral("%1 chains").arg(chains));
}

void measureWindow(const QString &path, const QString &size, const QString &runnerPath,
                   int remoteChains)
{
    const QString bench = QStringLiteral("bench_windowscale");
    measureOpening(path, size);
    const QHash<QString, qint64> bare = bareReads(path);
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("gui")).value());
    auto window = std::make_unique<MainWindow>(*store);
    window->resize(1400, 900);
    window->show();
    // HOURGLASS_BENCH_ONLY_LIVE=1: the live updates alone (looking into the engine's pace).
    QList<bench::ViewFigure> views;
    if (!qEnvironmentVariableIsSet("HOURGLASS_BENCH_ONLY_LIVE")) {
        views = bench::openEachView(*window);
        // On PostgreSQL 20 ms away a tenth: the preview and the import write each chain's rows
        // a round trip (three with the statement's savepoint) at a time, some 15 min for 3,000.
        views << bench::importCrontab(*window, remoteChains > 0 ? 300 : 3000);
        if (remoteChains > 0)
            views << bench::openRemoteChains(*window, remoteChains);
    }
    for (const bench::ViewFigure &view : views) {
        const QString where = QStringLiteral("%1, %2").arg(view.view, size);
        bench::report(out, {bench, where + QStringLiteral(": first paint"),
                            double(view.firstPaintMs), QStringLiteral("ms"), false,
                            bench::Beside::Target, QStringLiteral("issue 39"), 100});
        bench::report(out, {bench, where + QStringLiteral(": longest GUI stall"),
                            double(view.longestStallMs), QStringLiteral("ms"), false,
                            bench::Beside::Target, QStringLiteral("issue 39"), 50});
        bench::report(out, {bench, where + QStringLiteral(": longest GUI work (thread CPU)"),
                            double(view.longestBusyMs), QStringLiteral("ms"), false,
                            bench::Beside::Target, QStringLiteral("issue 39"), 50});
        printRunDelay(view.longestStallRunDelayMs, view.longestStallMs, where);
        out << QStringLiteral("  %1: %2 statements on the window's own connection (the GUI "
                              "thread waits a round trip for each)\n")
                   .arg(where)
                   .arg(view.windowStatements.size());
        if (qEnvironmentVariableIsSet("HOURGLASS_BENCH_SHOW_SQL"))
            for (const QString &statement : view.windowStatements)
                out << QStringLiteral("    %1\n").arg(statement.left(160));
        if (bare.contains(view.view))
            bench::report(out, {bench, where + QStringLiteral(": filled"), double(view.filledMs),
                                QStringLiteral("ms"), false, bench::Beside::Limit,
                                QStringLiteral("its reads bare"),
                                double(std::max<qint64>(1, bare.value(view.view)))});
    }
    window.reset();
    // Live: 50 every-second chains run by the window's own engine (on PostgreSQL by an engine
    // beside the server), every run shown.
    constexpr int perSecond = 50;
    const bench::LiveFigure live = bench::liveUpdates(*store, path, perSecond, 10, runnerPath);
    const QString where = QStringLiteral("live updates, %1").arg(size);
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
    printRunDelay(live.longestStallRunDelayMs, live.longestStallMs, where);
}

// Runs a command of the bench's network namespace (ip, tc); false if it fails.
bool network(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.start(program, arguments);
    return process.waitForFinished(10000) && process.exitStatus() == QProcess::NormalExit
           && process.exitCode() == 0;
}

QStringList netem(const QString &verb, int delayMs)
{
    QStringList arguments{QStringLiteral("qdisc"), verb, QStringLiteral("dev"),
                          QStringLiteral("lo"), QStringLiteral("root")};
    if (delayMs > 0)
        arguments << QStringLiteral("netem") << QStringLiteral("delay")
                  << QStringLiteral("%1ms").arg(delayMs);
    return arguments;
}

// The store on a PostgreSQL server of the bench's own, `delayMs` away each way: tc netem on
// the loopback of a network namespace of the bench's own (main() goes into one by unshare
// --net) once the store is filled; where the kernel has no netem (this project's CI VMs), a
// proxy of the bench's that holds each chunk as long.
void oneSizeOnPostgres(int chains, qint64 runsPerChain, int delayMs)
{
    test::PrivatePostgres server;
    if (const QString failed = server.start(); !failed.isEmpty())
        qFatal("window scale: PostgreSQL: %s", qPrintable(failed));
    QUrl url = server.url();
    QElapsedTimer setup;
    setup.start();
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(url.toString()).value(), QStringLiteral("setup"))
                .value());
        bench::fillStore(*store, chains, runsPerChain);
    }
    // A pg_timetable database beside it, as a team's shared server holds: 10,000 chains made
    // with add_job and 100 runs each in its log.
    constexpr int remoteChains = 10000;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("ptt"));
        db.setHostName(url.host());
        db.setPort(url.port());
        db.setUserName(url.userName());
        db.setDatabaseName(url.path().mid(1));
        if (!db.open() || !QSqlQuery(db).exec(QStringLiteral("CREATE DATABASE timetable_bench")))
            qFatal("window scale: the pg_timetable database: %s",
                   qPrintable(db.lastError().text()));
        db.close();
        db.setDatabaseName(QStringLiteral("timetable_bench"));
        if (!db.open())
            qFatal("window scale: the pg_timetable database: %s",
                   qPrintable(db.lastError().text()));
        if (const Status created = PgTimetableSchema::create(db, 6); !created)
            qFatal("window scale: pg_timetable's schema: %s", qPrintable(created.error().message));
        QSqlQuery fill(db);
        if (!fill.exec(QStringLiteral("SELECT timetable.add_job('job-' || i, ((i % 60) || ' ' || "
                                      "(i % 24) || ' * * *')::timetable.cron, 'SELECT ' || i) "
                                      "FROM generate_series(1, %1) AS i")
                           .arg(remoteChains))
            || !fill.exec(
                QStringLiteral(
                    "INSERT INTO timetable.execution_log (chain_id, task_id, txid, last_run, "
                    "finished, pid, returncode, ignore_error, kind, command, output, "
                    "client_name, params) SELECT 1 + i % %1, 1 + i % %1, i, now() - "
                    "make_interval(secs => i), now() - make_interval(secs => i) + interval "
                    "'20 ms', 4242, CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END, true, 'SQL', "
                    "'SELECT 1', 'SELECT 1', 'worker-1', NULL FROM generate_series(1, %2) AS i")
                    .arg(remoteChains)
                    .arg(remoteChains * 100))
            || !fill.exec(QStringLiteral("ANALYZE")))
            qFatal("window scale: pg_timetable's rows: %s", qPrintable(fill.lastError().text()));
        fill.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("ptt"));
    const bool delayedByNetem =
        qEnvironmentVariableIsSet("HOURGLASS_BENCH_OWN_NETWORK")
        && network(QStringLiteral("tc"), netem(QStringLiteral("add"), delayMs));
    const auto undelay = qScopeGuard([delayedByNetem] {
        if (delayedByNetem)
            network(QStringLiteral("tc"), netem(QStringLiteral("del"), 0));
    });
    std::unique_ptr<test::DelayProxy> proxy;
    if (!delayedByNetem) {
        proxy = std::make_unique<test::DelayProxy>(quint16(url.port()), delayMs);
        if (proxy->port() == 0)
            qFatal("window scale: the delaying proxy could not listen");
        url.setPort(proxy->port());
    }
    const QString location = url.toString();
    { // The remote across the same network as the store.
        QUrl remote = url;
        remote.setPath(QStringLiteral("/timetable_bench"));
        const Result<ConnectionProfile> profile = ConnectionUrl::parse(
            QStringLiteral("team timetable"), ConnectionKind::PgTimetable, remote.toString());
        auto store = std::move(
            Store::open(StoreLocation::parse(location).value(), QStringLiteral("profile")).value());
        if (!profile || !ConnectionProfileRepository(*store).add(profile.value()))
            qFatal("window scale: the pg_timetable connection could not be added");
    }
    // The round trip as a connection of the window's sees it: the floor of every read.
    qint64 roundTripMs = 0;
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(location).value(), QStringLiteral("ping")).value());
        QSqlQuery ping(store->database());
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 5; ++i)
            ping.exec(QStringLiteral("SELECT 1"));
        roundTripMs = timer.elapsed() / 5;
    }
    out << QStringLiteral("the window with %1 chains and %2 runs (PostgreSQL %3 ms away by %4; "
                          "setup %5 s):\n")
               .arg(chains)
               .arg(qint64(chains) * runsPerChain)
               .arg(roundTripMs)
               .arg(delayedByNetem ? QStringLiteral("tc netem")
                                   : QStringLiteral("a delaying proxy (no netem in this kernel)"))
               .arg(double(setup.elapsed()) / 1000.0, 0, 'f', 1);
    out.flush();
    // The live runs by an engine beside the server (no added latency), the window away.
    measureWindow(location,
                  QStringLiteral("%1 chains on PostgreSQL %2 ms away").arg(chains).arg(roundTripMs),
                  delayedByNetem ? QString() : server.url().toString(), remoteChains);
}

} // namespace

int main(int argc, char *argv[])
{
    bench::useOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    // "CHAINS:RUNS_PER_CHAIN,…", "pg:CHAINS:RUNS_PER_CHAIN" on PostgreSQL 10 ms away each way
    // (needs a network namespace of its own: run as root, it goes into one by unshare
    // --net); the sizes by default.
    const QString sizes =
        app.arguments().value(1, QStringLiteral("1000:100,3000:100,10000:1000,pg:3000:100"));
    // Into a network namespace of its own for tc netem, where it may make one (root).
    const bool ownNetwork = qEnvironmentVariableIsSet("HOURGLASS_BENCH_OWN_NETWORK");
    if (sizes.contains(QLatin1String("pg:")) && !ownNetwork
        && network(QStringLiteral("unshare"), {QStringLiteral("--net"), QStringLiteral("true")})) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOURGLASS_BENCH_OWN_NETWORK"), QStringLiteral("1"));
        QProcess again;
        again.setProcessEnvironment(environment);
        again.setProcessChannelMode(QProcess::ForwardedChannels);
        again.start(QStringLiteral("unshare"), {QStringLiteral("--net"), QStringLiteral("--"),
                                                app.applicationFilePath(), sizes});
        again.waitForFinished(-1);
        return again.exitStatus() == QProcess::NormalExit ? again.exitCode() : 1;
    }
    if (ownNetwork
        && !network(QStringLiteral("ip"), {QStringLiteral("link"), QStringLiteral("set"),
                                           QStringLiteral("lo"), QStringLiteral("up")}))
        qFatal("window scale: the loopback of the bench's network namespace would not come up");
    for (const QString &size : sizes.split(QLatin1Char(','))) {
        QStringList parts = size.split(QLatin1Char(':'));
        const bool postgres = parts.value(0) == QLatin1String("pg");
        if (postgres)
            parts.removeFirst();
        const int chains = parts.value(0).toInt();
        const qint64 runsPerChain = parts.value(1, QStringLiteral("100")).toLongLong();
        if (postgres)
            oneSizeOnPostgres(chains, runsPerChain, 10);
        else
            oneSize(chains, runsPerChain);
    }
    return 0;
}
