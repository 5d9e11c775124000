// How late the engine starts what is due (scripts/bench): many schedules firing every second,
// and a burst of PROGRAM tasks due in the same second. Each lateness is set beside the floor
// under it, measured in the same process first: how late a QTimer (PreciseTimer) armed for each
// whole second of the wall clock wakes. The burst is set beside starting as many processes
// bare, the occurrence ledger's size beside the target (10 % of the runs').
#include "benchsupport.h"
#include "scheduler/engine.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <chrono>

using namespace hg;

namespace {

QTextStream out(stdout);

qint64 wallClockUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// How late a precise timer armed for whole seconds of the wall clock wakes here, in ms.
struct Floor
{
    double p50 = 0;
    double p99 = 0;
    double max = 0;
    qsizetype samples = 0;
};
Floor timerFloor(int seconds)
{
    QList<qint64> lateUs;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setSingleShot(true);
    qint64 aimedUs = 0;
    const auto arm = [&] {
        const qint64 now = wallClockUs();
        aimedUs = (now / 1000000 + 1) * 1000000;
        timer.start(int((aimedUs - now + 999) / 1000));
    };
    QObject::connect(&timer, &QTimer::timeout, &timer, [&] {
        lateUs << wallClockUs() - aimedUs;
        if (lateUs.size() >= seconds)
            QCoreApplication::quit();
        else
            arm();
    });
    arm();
    QCoreApplication::exec();
    Floor measured;
    measured.p50 = bench::percentile(lateUs, 50) / 1000.0;
    measured.p99 = bench::percentile(lateUs, 99) / 1000.0;
    measured.max = bench::percentile(lateUs, 100) / 1000.0;
    measured.samples = lateUs.size();
    return measured;
}

Floor timerLate; // measured first, in main()

// A lateness (ms) beside the timer's at the same percentile. Near zero the timer's would make
// any ratio huge: it counts as 1 ms at least.
void reportLateness(const QString &what, double ms, int percent)
{
    const double timer = percent == 50 ? timerLate.p50 : timerLate.p99;
    bench::Figure figure;
    figure.bench = QStringLiteral("bench_lateness");
    figure.what = QStringLiteral("%1, p%2").arg(what).arg(percent);
    figure.value = ms;
    figure.unit = QStringLiteral("ms");
    figure.besideWhat = QStringLiteral("QTimer woken for whole seconds, p%1 %2 ms, counted as "
                                       "1 ms at least")
                            .arg(percent)
                            .arg(timer, 0, 'f', 2);
    figure.beside = std::max(1.0, timer);
    bench::report(out, figure);
}

void reportLateness(const QString &what, const QList<qint64> &lateMs)
{
    for (int percent : {50, 99})
        reportLateness(what, bench::percentile(lateMs, percent), percent);
}

// Runs the engine on the store until `stopAtMs` (wall clock).
void serveUntil(Engine &engine, qint64 stopAtMs)
{
    QObject::connect(&engine, &Engine::startFailed, [](const QString &error) {
        qFatal("engine did not start: %s", qPrintable(error));
    });
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QTimer::singleShot(int(stopAtMs - QDateTime::currentMSecsSinceEpoch()), qApp,
                       &QCoreApplication::quit);
    QCoreApplication::exec();
    engine.shutdown(Engine::ExitPolicy::Stop);
}

void everySecond(int schedules, int seconds)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        bench::createChains(*store, schedules, TaskKind::Builtin, QStringLiteral("NoOp"), {},
                            QStringLiteral("* * * * * *"));
    }
    EngineConfig config = bench::benchConfig(path);
    config.maxActiveRuns = 4096;
    const qint64 begin = QDateTime::currentMSecsSinceEpoch();
    {
        Engine engine(config);
        serveUntil(engine, begin + (seconds + 2) * 1000);
    }
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("read")).value());
    QSqlQuery q(store->database());
    // The first two seconds warm up (the schedules load, the first runs prepare statements).
    q.exec(QStringLiteral("SELECT scheduled_for, created_at, started_at FROM run "
                          "WHERE scheduled_for >= %1 AND scheduled_for < %2")
               .arg(begin + 2000)
               .arg(begin + (seconds + 1) * 1000));
    QList<qint64> fire, start;
    QHash<qint64, qint64> firstOfSecond; // due second -> lateness of its first recorded fire
    qint64 notStarted = 0;
    while (q.next()) {
        const qint64 late = q.value(1).toLongLong() - q.value(0).toLongLong();
        fire << late;
        const qint64 second = q.value(0).toLongLong();
        firstOfSecond[second] =
            firstOfSecond.contains(second) ? std::min(firstOfSecond.value(second), late) : late;
        if (q.value(2).isNull())
            ++notStarted;
        else
            start << q.value(2).toLongLong() - q.value(0).toLongLong();
    }
    out << QStringLiteral("  %1 schedules every second, %2 fires measured:\n")
               .arg(schedules)
               .arg(fire.size());
    out << "    engine awake (first fire of each second written): "
        << bench::figures(firstOfSecond.values()) << '\n';
    out << "    fire recorded (run row written): " << bench::figures(fire) << '\n';
    out << "    run started:                     " << bench::figures(start);
    if (notStarted > 0)
        out << QStringLiteral(" (%1 never started: more fires than runs per second)")
                   .arg(notStarted);
    out << '\n';
    const QString label =
        QStringLiteral("%1 schedules every second, %2 s").arg(schedules).arg(seconds);
    reportLateness(label + QStringLiteral(": engine awake"), firstOfSecond.values());
    reportLateness(label + QStringLiteral(": run started"), start);
    // What the occurrence ledger costs beside the runs: pages of each table and its indexes
    // (SQLite's dbstat), and its rows by outcome.
    const auto pages = [&](const QString &table) -> qint64 {
        QSqlQuery size(store->database());
        size.exec(QStringLiteral("SELECT COALESCE(SUM(d.pgsize), 0) FROM dbstat d JOIN "
                                 "sqlite_schema s ON s.name = d.name WHERE s.tbl_name = '%1'")
                      .arg(table));
        return size.next() ? size.value(0).toLongLong() : -1;
    };
    const qint64 runBytes = pages(QStringLiteral("run"));
    const qint64 ledgerBytes = pages(QStringLiteral("occurrence"));
    QSqlQuery outcomes(store->database());
    outcomes.exec(QStringLiteral("SELECT outcome, COUNT(*), SUM(fire_count) FROM occurrence "
                                 "GROUP BY outcome ORDER BY outcome"));
    QStringList rows;
    while (outcomes.next())
        rows << QStringLiteral("%1: %2 rows for %3 fire times")
                    .arg(outcomes.value(0).toString())
                    .arg(outcomes.value(1).toLongLong())
                    .arg(outcomes.value(2).toLongLong());
    out << QStringLiteral("    store: runs %1 KiB, occurrence ledger %2 KiB (%3 % of the runs)%4\n")
               .arg(runBytes / 1024)
               .arg(ledgerBytes / 1024)
               .arg(runBytes > 0 ? 100.0 * double(ledgerBytes) / double(runBytes) : 0.0, 0, 'f', 1)
               .arg(rows.isEmpty() ? QString()
                                   : QStringLiteral("; ") + rows.join(QStringLiteral("; ")));
    bench::Figure ledger;
    ledger.bench = QStringLiteral("bench_lateness");
    ledger.what = label + QStringLiteral(": occurrence ledger");
    ledger.value = double(ledgerBytes) / 1024.0;
    ledger.unit = QStringLiteral("KiB");
    ledger.kind = bench::Beside::Target;
    ledger.besideWhat = QStringLiteral("10 % of the runs' %1 KiB (issue)").arg(runBytes / 1024);
    ledger.beside = double(runBytes) / 1024.0 / 10.0;
    bench::report(out, ledger);
}

void burst(int tasks)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    // Due in one second, a few seconds from now (UTC, seconds dialect).
    const QDateTime due =
        QDateTime::fromSecsSinceEpoch(QDateTime::currentSecsSinceEpoch() + 4, Qt::UTC);
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        bench::createChains(*store, tasks, TaskKind::Program, QStringLiteral("/bin/sleep"),
                            {QStringLiteral("5")},
                            QStringLiteral("%1 %2 %3 * * *")
                                .arg(due.time().second())
                                .arg(due.time().minute())
                                .arg(due.time().hour()));
    }
    EngineConfig config = bench::benchConfig(path);
    config.slotCount = tasks; // enough slots: this measures how fast processes start
    config.maxActiveRuns = tasks;
    QList<qint64> started;
    Engine engine(config);
    QObject::connect(&engine, &Engine::taskRunChanged, [&](const TaskRun &attempt) {
        if (attempt.pid > 0)
            started << QDateTime::currentMSecsSinceEpoch() - due.toMSecsSinceEpoch();
    });
    serveUntil(engine, due.toMSecsSinceEpoch() + 4000);
    out << QStringLiteral("  burst of %1 PROGRAM tasks due in one second: %2 started (%3)\n")
               .arg(tasks)
               .arg(started.size())
               .arg(bench::figures(started));
    bench::Figure figure;
    figure.bench = QStringLiteral("bench_lateness");
    figure.what =
        QStringLiteral("burst of %1 PROGRAM tasks: the last started after the due time").arg(tasks);
    figure.value = bench::percentile(started, 100);
    figure.unit = QStringLiteral("ms");
    figure.besideWhat = QStringLiteral("posix_spawn of %1 /bin/true at once, the last").arg(tasks);
    figure.beside = bench::spawnLoop("/bin/true", tasks, tasks).lastStartedMs;
    bench::report(out, figure);
}

// 10,000 schedules, each once a minute at its own second, for `seconds`; with `edit` one
// definition edit per second through a second connection (as the window makes them).
// Returns run-started lateness (started_at - scheduled_for) of the fires measured.
QList<qint64> minuteSchedules(int schedules, int seconds, bool edit)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
    bench::createChains(*store, schedules, TaskKind::Builtin, QStringLiteral("NoOp"), {},
                        QStringLiteral("0 * * * * *"));
    QSqlQuery spread(store->database());
    spread.exec(QStringLiteral("UPDATE schedule SET expression = (id % 60) || ' * * * * *'"));
    EngineConfig config = bench::benchConfig(path);
    config.maxActiveRuns = 4096;
    const qint64 begin = QDateTime::currentMSecsSinceEpoch();
    int edits = 0;
    QTimer editor;
    QObject::connect(&editor, &QTimer::timeout, [&] {
        ++edits;
        QSqlQuery q(store->database());
        // A change the engine runs on (a description would be none): it reloads that chain.
        q.exec(QStringLiteral("UPDATE schedule SET misfire_window_s = %1 WHERE chain_id = %2")
                   .arg(86400 + edits)
                   .arg(1 + edits % schedules));
    });
    if (edit)
        editor.start(1000);
    {
        Engine engine(config);
        serveUntil(engine, begin + (seconds + 3) * 1000);
    }
    editor.stop();
    QSqlQuery q(store->database());
    q.exec(QStringLiteral("SELECT started_at - scheduled_for FROM run WHERE scheduled_for >= %1 "
                          "AND scheduled_for < %2 AND started_at IS NOT NULL")
               .arg(begin + 3000)
               .arg(begin + (seconds + 2) * 1000));
    QList<qint64> started;
    while (q.next())
        started << q.value(0).toLongLong();
    return started;
}

void whileEditing(int schedules)
{
    constexpr int seconds = 62;
    const QList<qint64> quiet = minuteSchedules(schedules, seconds, false);
    const QList<qint64> edited = minuteSchedules(schedules, seconds, true);
    out << QStringLiteral("  %1 schedules, each once a minute at its own second, %2 s:\n")
               .arg(schedules)
               .arg(seconds);
    out << "    run started, no edits:              " << bench::figures(quiet) << " ("
        << quiet.size() << " fires)\n";
    out << "    run started, one edit per second:   " << bench::figures(edited) << " ("
        << edited.size() << " fires)\n";
    const QString label =
        QStringLiteral("%1 schedules once a minute, %2 s: run started").arg(schedules).arg(seconds);
    reportLateness(label + QStringLiteral(", no edits"), quiet);
    reportLateness(label + QStringLiteral(", one edit a second"), edited);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString only = app.arguments().value(1);
    // A second argument scales the burst's tasks and the editing case's schedules down.
    const int size = app.arguments().value(2).toInt();
    // Whole seconds, so few wake-ups: p99 of 20 is the largest.
    timerLate = timerFloor(20);
    out << QStringLiteral("start lateness (SQLite store, NoOp tasks, every state persisted); a "
                          "QTimer woken for whole seconds here: p50 %1 ms, p99 %2 ms, max %3 ms "
                          "(%4 wake-ups)\n")
               .arg(timerLate.p50, 0, 'f', 2)
               .arg(timerLate.p99, 0, 'f', 2)
               .arg(timerLate.max, 0, 'f', 2)
               .arg(timerLate.samples);
    out.flush();
    if (only.isEmpty() || only == QLatin1String("1000"))
        everySecond(1000, 5);
    if (only.isEmpty() || only == QLatin1String("10000"))
        everySecond(10000, 5);
    // The occurrence ledger's cost (issue: at most 10 % of the runs' size, p99 at most 2 ms
    // worse): a minute of it.
    if (only.isEmpty() || only == QLatin1String("ledger")) {
        everySecond(1000, 60);
        everySecond(10000, 60);
    }
    if (only.isEmpty() || only == QLatin1String("burst"))
        burst(size > 0 ? size : 1000);
    if (only.isEmpty() || only == QLatin1String("editing"))
        whileEditing(size > 0 ? size : 10000);
    return 0;
}
