// End-to-end run throughput of the engine with every state persisted (scripts/bench), each
// figure beside its limit measured in the same run: for PROGRAM runs a posix_spawn loop of
// /bin/true with as many processes at once as the engine has slots, for NoOp builtin runs the
// store writes of a run done bare with QSqlQuery.
// Arguments: a case by its label's first word (for profiling one), and a number of runs.
#include "benchsupport.h"
#include "scheduler/engine.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

using namespace hg;

namespace {

std::unique_ptr<Store> openStore(const QString &path)
{
    return std::move(
        Store::open(StoreLocation::parse(path).value(), QStringLiteral("bench")).value());
}

struct Queued
{
    qint64 taskId = 0;
    QList<qint64> runIds;
};

// A one-task chain and `count` queued runs of it (before any clock starts).
Queued queueRuns(Store &store, const QString &chainName, TaskKind kind, const QString &command,
                 int count)
{
    const Project project = ProjectRepository(store).byName(QStringLiteral("bench")).ok()
                                ? ProjectRepository(store).byName(QStringLiteral("bench")).value()
                                : ProjectRepository(store).add(QStringLiteral("bench")).value();
    Chain chain;
    chain.projectId = project.id;
    chain.name = chainName;
    chain = ChainRepository(store).add(chain).value();
    Task task;
    task.chainId = chain.id;
    task.name = QStringLiteral("t");
    task.kind = kind;
    task.command = command;
    Queued queued;
    queued.taskId = TaskRepository(store).add(task).value().id;
    for (int i = 0; i < count; ++i) {
        Run run;
        run.chainId = chain.id;
        queued.runIds << RunRepository(store).insert(run).value().id;
    }
    return queued;
}

// Queues `count` runs of a one-task chain and returns completed runs per second.
double measure(const QString &storePath, TaskKind kind, const QString &command, int count)
{
    const QList<qint64> ids =
        queueRuns(*openStore(storePath), QStringLiteral("%1-%2").arg(enumName(kind)).arg(count),
                  kind, command, count)
            .runIds;
    Engine engine(bench::benchConfig(storePath));
    int finished = 0;
    QElapsedTimer timer;
    QObject::connect(&engine, &Engine::runChanged, &engine, [&](const Run &run) {
        if (isTerminal(run.state) && ++finished == count)
            QCoreApplication::quit();
    });
    QObject::connect(&engine, &Engine::started, &engine, [&] {
        timer.start();
        for (qint64 id : ids)
            engine.admitRun(id);
    });
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    engine.shutdown(Engine::ExitPolicy::Stop);
    return count / seconds;
}

// The limit under NoOp runs: what the engine writes for one run (RunOwnership's claim,
// RunRepository's reads and state updates, the attempt's insert and its end, as a trace of the
// engine shows them), each state in a transaction of its own, on a Store's connection (WAL,
// synchronous = NORMAL, foreign keys on), with the statements prepared once as the store keeps
// them. Each state's transaction carries `perTransaction` runs: 1 is a store that commits every
// change; the engine's slot count is the most it can have started together. Runs per second.
double bareRunCycle(const QString &storePath, int count, int perTransaction)
{
    auto store = openStore(storePath);
    const Queued queued =
        queueRuns(*store, QStringLiteral("bare-%1-%2").arg(count).arg(perTransaction),
                  TaskKind::Builtin, QStringLiteral("NoOp"), count);
    QSqlDatabase db = store->database();
    const auto prepare = [&db](const QString &sql) {
        QSqlQuery q(db);
        if (!q.prepare(sql))
            qFatal("bare run cycle: %s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
        return q;
    };
    QSqlQuery begin = prepare(QStringLiteral("BEGIN IMMEDIATE"));
    QSqlQuery commit = prepare(QStringLiteral("COMMIT"));
    QSqlQuery claim = prepare(QStringLiteral(
        "UPDATE run SET owner_session = ?, owner_epoch = ?, engine_name = ? WHERE id = ? AND "
        "state = 'queued' AND (owner_session IS NULL OR owner_session = ?) AND chain_id IN "
        "(SELECT id FROM chain WHERE client_name = '' OR client_name = ?)"));
    QSqlQuery readRun = prepare(QStringLiteral("SELECT * FROM run WHERE id = ?"));
    QSqlQuery readChain = prepare(
        QStringLiteral("SELECT c.* FROM chain c JOIN run r ON r.chain_id = c.id WHERE r.id = ?"));
    QSqlQuery running =
        prepare(QStringLiteral("UPDATE run SET state = 'running', started_at = ? WHERE id = ? AND "
                               "COALESCE(owner_session, 0) = ? AND owner_epoch = ?"));
    QSqlQuery attempt = prepare(QStringLiteral(
        "INSERT INTO task_run (run_id, task_id, attempt, state, queued_at, started_at) VALUES "
        "(?, ?, 1, 'running', ?, ?) ON CONFLICT (run_id, task_id, attempt) DO NOTHING "
        "RETURNING id"));
    QSqlQuery attemptEnded = prepare(QStringLiteral(
        "UPDATE task_run SET state = 'succeeded', exit_code = 0, finished_at = ? WHERE id = ? "
        "AND run_id IN (SELECT id FROM run WHERE id = ? AND COALESCE(owner_session, 0) = ? AND "
        "owner_epoch = ?)"));
    QSqlQuery runEnded = prepare(
        QStringLiteral("UPDATE run SET state = 'succeeded', finished_at = ? WHERE id = ? AND "
                       "COALESCE(owner_session, 0) = ? AND owner_epoch = ?"));
    constexpr qint64 session = 1;
    constexpr qint64 epoch = 1;
    // Every row read, as the repositories read them; the first value is returned.
    const auto run = [](QSqlQuery &q, const QVariantList &values) {
        for (int i = 0; i < values.size(); ++i)
            q.bindValue(i, values.at(i));
        if (!q.exec())
            qFatal("bare run cycle: %s: %s", qPrintable(q.lastQuery()),
                   qPrintable(q.lastError().text()));
        QVariant first;
        while (q.next()) {
            if (!first.isValid())
                first = q.value(0);
        }
        return first;
    };
    const auto transaction = [&](const std::function<void()> &work) {
        run(begin, {});
        work();
        run(commit, {});
    };
    const QString engineName = QStringLiteral("bench");
    QElapsedTimer timer;
    timer.start();
    for (qsizetype first = 0; first < queued.runIds.size(); first += perTransaction) {
        const QList<qint64> ids = queued.runIds.mid(first, perTransaction);
        transaction([&] {
            for (qint64 id : ids) {
                run(claim, {session, epoch, engineName, id, session, engineName});
                run(readRun, {id});
                run(readChain, {id});
                run(running, {QDateTime::currentMSecsSinceEpoch(), id, session, epoch});
            }
        });
        QList<qint64> attempts;
        transaction([&] {
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            for (qint64 id : ids)
                attempts << run(attempt, {id, queued.taskId, now, now}).toLongLong();
        });
        transaction([&] {
            for (qsizetype i = 0; i < ids.size(); ++i)
                run(attemptEnded, {QDateTime::currentMSecsSinceEpoch(), attempts.at(i), ids.at(i),
                                   session, epoch});
        });
        transaction([&] {
            for (qint64 id : ids)
                run(runEnded, {QDateTime::currentMSecsSinceEpoch(), id, session, epoch});
        });
    }
    return count * 1e9 / double(timer.nsecsElapsed());
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    // A word picks one case by its label's first word; a number sets the runs of each case.
    QString only;
    int runs = 0;
    for (const QString &argument : app.arguments().mid(1)) {
        bool number = false;
        const int value = argument.toInt(&number);
        if (number)
            runs = value;
        else
            only = argument;
    }
    const int slots = bench::benchConfig(path).slotCount;
    out << "engine runs per second, one task each, every state persisted (SQLite, WAL), " << slots
        << " slots:\n";
    out.flush();
    for (const auto &[label, kind, command, count] :
         {std::tuple{"NoOp builtin", TaskKind::Builtin, "NoOp", 3000},
          std::tuple{"PROGRAM /bin/true", TaskKind::Program, "/bin/true", 800}}) {
        if (!only.isEmpty() && !QString::fromLatin1(label).startsWith(only))
            continue;
        const int n = runs > 0 ? runs : count;
        const double perSecond = measure(path, kind, QString::fromLatin1(command), n);
        bench::Figure figure;
        figure.bench = QStringLiteral("bench_engine");
        figure.what = QStringLiteral("%1 runs (%2)").arg(QString::fromLatin1(label)).arg(n);
        figure.value = perSecond;
        figure.unit = QStringLiteral("runs/s");
        figure.higherIsBetter = true;
        if (kind == TaskKind::Program) {
            figure.besideWhat = QStringLiteral("posix_spawn loop of /bin/true, %1 at once, "
                                               "each reaped")
                                    .arg(slots);
            figure.beside = n / bench::spawnLoop("/bin/true", n, slots).seconds;
            bench::report(out, figure);
            continue;
        }
        // The engine commits many runs' changes together (RunRecorder::coalesce): beside one
        // transaction a state, and beside as many runs a transaction as it has slots.
        for (int batch : {1, slots}) {
            figure.besideWhat = QStringLiteral("the run's SQL bare (QSqlQuery, WAL), each state "
                                               "committed for %1 run(s) at once")
                                    .arg(batch);
            figure.beside = bareRunCycle(path, n, batch);
            bench::report(out, figure);
        }
    }
    return 0;
}
