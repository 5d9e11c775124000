// Engine cold start and memory with a large store (scripts/bench): 100,000 schedules and
// 10,000,000 stored runs. The time to ready is set beside the reads the engine sent while
// starting, recorded and run again bare on the same file; its memory beside the size of what
// those reads return.
#include "benchsupport.h"
#include "scheduler/engine.h"
#include "sqlrecorder.h"
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

    // Created first: the engine's connections are traced from their opening. The trace's own
    // cost (microseconds a statement) stays in the engine's figure.
    bench::SqlRecorder recorder;
    const qint64 before = bench::residentKiB();
    EngineConfig config = bench::benchConfig(path);
    Engine engine(config);
    QElapsedTimer startup;
    double readyMs = -1;
    QObject::connect(&engine, &Engine::started, &app, [&] {
        readyMs = double(startup.nsecsElapsed()) / 1e6;
        QCoreApplication::quit();
    });
    QObject::connect(&engine, &Engine::startFailed, &app, [](const QString &error) {
        qFatal("engine did not start: %s", qPrintable(error));
    });
    recorder.start();
    startup.start();
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    const QList<bench::RecordedStatement> sent = recorder.stop();
    const qint64 after = bench::residentKiB();
    out << QStringLiteral("  resident memory: %1 MiB in all\n")
               .arg(double(after) / 1024.0, 0, 'f', 1);
    engine.shutdown(Engine::ExitPolicy::Stop);

    const bench::Replayed bare = bench::replay(sent, 3);
    bench::Figure figure;
    figure.bench = QStringLiteral("bench_coldstart");
    figure.what = QStringLiteral("engine ready (%1 schedules, %2 runs)").arg(schedules).arg(runs);
    figure.value = readyMs;
    figure.unit = QStringLiteral("ms");
    figure.besideWhat = QStringLiteral("its %1 start-up reads bare (of %2 statements), %3 rows")
                            .arg(bare.statements)
                            .arg(sent.size())
                            .arg(bare.rows);
    figure.beside = bare.ms;
    bench::report(out, figure);
    figure.what = QStringLiteral("resident memory for the engine's state");
    figure.value = double(after - before) / 1024.0;
    figure.unit = QStringLiteral("MiB");
    figure.besideWhat = QStringLiteral("the values its start-up reads return (text as UTF-16)");
    figure.beside = double(bare.bytes) / 1024.0 / 1024.0;
    bench::report(out, figure);
    return 0;
}
