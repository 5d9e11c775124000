// How late the engine starts what is due (scripts/bench): many schedules firing every second,
// and a burst of PROGRAM tasks due in the same second. Prints figures only.
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

using namespace hg;

namespace {

QTextStream out(stdout);

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
    out.flush();
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
    out << QStringLiteral("  burst of %1 PROGRAM tasks due in one second: %2 started, the last "
                          "%3 ms after the due time (%4)\n")
               .arg(tasks)
               .arg(started.size())
               .arg(bench::percentile(started, 100))
               .arg(bench::figures(started));
    out.flush();
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

void whileEditing()
{
    constexpr int schedules = 10000;
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
    out.flush();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString only = app.arguments().value(1);
    out << "start lateness (SQLite store, NoOp tasks, every state persisted):\n";
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
        burst(1000);
    if (only.isEmpty() || only == QLatin1String("editing"))
        whileEditing();
    return 0;
}
