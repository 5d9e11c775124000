// Engine cold start and memory with a large store (scripts/bench): 100,000 schedules and
// 10,000,000 stored runs. Prints figures only.
#include "benchsupport.h"
#include "scheduler/engine.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

using namespace hg;

namespace {

QTextStream out(stdout);

void exec(QSqlQuery &query, const QString &sql)
{
    if (!query.exec(sql))
        qFatal("bench setup failed: %s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int schedules = app.arguments().value(1, QStringLiteral("100000")).toInt();
    const qint64 runs = app.arguments().value(2, QStringLiteral("10000000")).toLongLong();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    QElapsedTimer setup;
    setup.start();
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        // Daily at one of the 1,440 minutes of the day.
        bench::createChains(*store, schedules, TaskKind::Builtin, QStringLiteral("NoOp"), {},
                            QStringLiteral("%M %H * * *"));
        // Daily history for every schedule, generated inside SQLite.
        QSqlQuery q(store->database());
        exec(q, QStringLiteral("PRAGMA synchronous = OFF"));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() / 86400000 * 86400000
                            - (runs / schedules + 1) * 86400000 + 3 * 3600000;
        exec(q, QStringLiteral(
                    "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                    "INSERT INTO run (chain_id, schedule_id, trigger, scheduled_for, state, "
                    "created_at, started_at, finished_at) SELECT s.chain_id, s.id, 'schedule', "
                    "%2 + (n.i / %3) * 86400000, 'succeeded', %2, %2, %2 + 1000 "
                    "FROM n JOIN schedule s ON s.id = (SELECT min(id) FROM schedule) + n.i % %3")
                    .arg(runs - 1)
                    .arg(base)
                    .arg(schedules));
        exec(q, QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    out << QStringLiteral("cold start with %1 schedules and %2 stored runs (setup took %3 s):\n")
               .arg(schedules)
               .arg(runs)
               .arg(double(setup.elapsed()) / 1000.0, 0, 'f', 1);
    out.flush();

    const qint64 before = bench::residentKiB();
    EngineConfig config = bench::benchConfig(path);
    Engine engine(config);
    QElapsedTimer startup;
    qint64 readyMs = -1;
    QObject::connect(&engine, &Engine::started, &app, [&] {
        readyMs = startup.elapsed();
        QCoreApplication::quit();
    });
    QObject::connect(&engine, &Engine::startFailed, &app, [](const QString &error) {
        qFatal("engine did not start: %s", qPrintable(error));
    });
    startup.start();
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    const qint64 after = bench::residentKiB();
    out << QStringLiteral("  engine ready after %1 ms\n").arg(readyMs);
    out << QStringLiteral("  resident memory: %1 MiB in all, %2 MiB for the engine's state\n")
               .arg(double(after) / 1024.0, 0, 'f', 1)
               .arg(double(after - before) / 1024.0, 0, 'f', 1);
    out.flush();
    engine.shutdown(Engine::ExitPolicy::Stop);
    return 0;
}
