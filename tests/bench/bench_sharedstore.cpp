// Many engines on one PostgreSQL (scripts/bench): claimed-and-completed NoOp runs per second
// with 1, 2 and 4 `hourglass serve` processes beside the raw limit of a plain batched
// SKIP LOCKED claim-and-complete loop, claim latency, and failover after SIGKILL.
// Each engine figure goes through bench::report() beside the raw limit measured first.
#include "benchsupport.h"
#include "privatepostgres.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "store/storequery.h"
#include "store/taskrepository.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>

#include <csignal>
#include <memory>
#include <vector>

using namespace hg;

namespace {

QTextStream out(stdout);

class Bench
{
public:
    explicit Bench(const QUrl &url)
        : m_url(url)
        , m_store(std::move(
              Store::open(StoreLocation::parse(url.toString()).value(), QStringLiteral("bench"))
                  .value()))
    {
        m_projectId = ProjectRepository(*m_store).add(QStringLiteral("bench")).value().id;
    }

    qint64 chain(const QString &name, TaskKind kind, const QString &command)
    {
        Chain chain;
        chain.projectId = m_projectId;
        chain.name = name;
        chain = ChainRepository(*m_store).add(chain).value();
        Task task;
        task.chainId = chain.id;
        task.name = QStringLiteral("t");
        task.kind = kind;
        task.command = command;
        (void)TaskRepository(*m_store).add(task).value();
        return chain.id;
    }

    void queue(qint64 chainId, int count)
    {
        StoreQuery q(*m_store, QStringLiteral("INSERT INTO run (chain_id, trigger, scheduled_for, "
                                              "state, created_at) SELECT ?, 'manual', ?, "
                                              "'queued', ? FROM generate_series(1, ?)"));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        q.bind(chainId).bind(now).bind(now).bind(count);
        (void)q.exec(QStringLiteral("queue runs"));
    }

    qint64 scalar(const QString &sql, qint64 chainId)
    {
        StoreQuery q(*m_store, sql);
        q.bind(chainId);
        if (!q.exec(QStringLiteral("read")) || !q.next())
            return -1;
        return q.int64(0);
    }

    // Empty tasks hold a slot for microseconds: the throughput figures give each engine 64
    // (`serve --slots 64`), as a server of such work would; the default is twice the cores.
    std::unique_ptr<QProcess> serve(const QString &name, double leaseSeconds = 30, int slots = 0)
    {
        auto process = std::make_unique<QProcess>();
        process->setStandardOutputFile(QProcess::nullDevice());
        process->setStandardErrorFile(QProcess::nullDevice());
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOURGLASS_ENGINE_NAME"), name);
        process->setProcessEnvironment(environment);
        process->start(
            QStringLiteral(HOURGLASS_BINARY),
            QStringList{QStringLiteral("--db"), m_url.toString(), QStringLiteral("serve"),
                        QStringLiteral("--lease"), QString::number(leaseSeconds)}
                + (slots > 0 ? QStringList{QStringLiteral("--slots"), QString::number(slots)}
                             : QStringList{}));
        process->waitForStarted();
        return process;
    }

    // Runs per second from the first start to the last end, as the store recorded them.
    double engines(int engineCount, int runCount, int slots)
    {
        const qint64 chainId = chain(QStringLiteral("noop-%1-%2").arg(engineCount).arg(slots),
                                     TaskKind::Builtin, QStringLiteral("NoOp"));
        queue(chainId, runCount);
        std::vector<std::unique_ptr<QProcess>> engines;
        for (int i = 0; i < engineCount; ++i)
            engines.push_back(serve(
                QStringLiteral("bench-%1-%2-%3").arg(engineCount).arg(slots).arg(i), 30, slots));
        const QString unfinished = QStringLiteral(
            "SELECT COUNT(*) FROM run WHERE chain_id = ? AND state NOT IN ('succeeded', 'failed')");
        QElapsedTimer deadline;
        deadline.start();
        while (scalar(unfinished, chainId) > 0 && deadline.elapsed() < 600000)
            QThread::msleep(100);
        for (auto &engine : engines) {
            engine->terminate();
            engine->waitForFinished(15000);
        }
        const qint64 spanMs = scalar(
            QStringLiteral("SELECT MAX(finished_at) - MIN(started_at) FROM run WHERE chain_id = ?"),
            chainId);
        return spanMs > 0 ? runCount * 1000.0 / double(spanMs) : 0;
    }

    // The floor under any engine: claim 64 queued runs, mark them done, again, on one
    // connection, with no task and no log.
    double rawLimit(int runCount)
    {
        const qint64 chainId =
            chain(QStringLiteral("raw"), TaskKind::Builtin, QStringLiteral("NoOp"));
        queue(chainId, runCount);
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            int claimed = 0;
            (void)m_store->transaction([&]() -> Status {
                StoreQuery claim(
                    *m_store, QStringLiteral("UPDATE run SET state = 'running', started_at = ? "
                                             "WHERE id IN (SELECT id FROM run WHERE chain_id = ? "
                                             "AND state = 'queued' ORDER BY id LIMIT 64 FOR "
                                             "UPDATE SKIP LOCKED) RETURNING id"));
                claim.bind(QDateTime::currentMSecsSinceEpoch()).bind(chainId);
                if (Status s = claim.exec(QStringLiteral("claim")); !s)
                    return s;
                QStringList ids;
                while (claim.next())
                    ids << QString::number(claim.int64(0));
                claimed = int(ids.size());
                if (ids.isEmpty())
                    return {};
                StoreQuery done(*m_store,
                                QStringLiteral("UPDATE run SET state = 'succeeded', finished_at = "
                                               "? WHERE id IN (%1)")
                                    .arg(ids.join(u',')));
                done.bind(QDateTime::currentMSecsSinceEpoch());
                return done.exec(QStringLiteral("complete"));
            });
            if (claimed == 0)
                break;
        }
        return runCount * 1e9 / double(timer.nsecsElapsed());
    }

    // Single runs queued one by one into idle engines: queued -> started.
    QString claimLatency(int runCount)
    {
        const qint64 chainId =
            chain(QStringLiteral("latency"), TaskKind::Builtin, QStringLiteral("NoOp"));
        std::vector<std::unique_ptr<QProcess>> engines;
        engines.push_back(serve(QStringLiteral("latency-a")));
        engines.push_back(serve(QStringLiteral("latency-b")));
        QThread::msleep(1500);
        for (int i = 0; i < runCount; ++i) {
            queue(chainId, 1);
            QThread::msleep(50);
        }
        QThread::msleep(1000);
        StoreQuery q(*m_store, QStringLiteral("SELECT started_at - created_at FROM run WHERE "
                                              "chain_id = ? AND started_at IS NOT NULL"));
        q.bind(chainId);
        QList<qint64> latencies;
        if (q.exec(QStringLiteral("latency")))
            while (q.next())
                latencies << q.int64(0);
        for (auto &engine : engines) {
            engine->terminate();
            engine->waitForFinished(15000);
        }
        return QStringLiteral("%1 of %2 started; %3")
            .arg(latencies.size())
            .arg(runCount)
            .arg(bench::figures(latencies));
    }

    // One run of `taskCount` tasks side by side, each sleeping 0.5 s, on engines of two slots:
    // how long the run takes, how many tasks ran on another engine than the run's, and how
    // long an offer waited for its claim.
    QString spread(int engineCount, int taskCount)
    {
        Chain chain;
        chain.projectId = m_projectId;
        chain.name = QStringLiteral("spread-%1").arg(engineCount);
        chain = ChainRepository(*m_store).add(chain).value();
        for (int i = 0; i < taskCount; ++i) {
            Task task;
            task.chainId = chain.id;
            task.name = QStringLiteral("t%1").arg(i);
            task.kind = TaskKind::Shell;
            task.command = QStringLiteral("sleep 0.5");
            (void)TaskRepository(*m_store).add(task).value();
        }
        std::vector<std::unique_ptr<QProcess>> engines;
        for (int i = 0; i < engineCount; ++i)
            engines.push_back(serve(QStringLiteral("spread-%1-%2").arg(engineCount).arg(i), 30, 2));
        QThread::msleep(1500); // all registered before the run is queued
        queue(chain.id, 1);
        const QString unfinished = QStringLiteral(
            "SELECT COUNT(*) FROM run WHERE chain_id = ? AND state NOT IN ('succeeded', 'failed')");
        QElapsedTimer deadline;
        deadline.start();
        while (scalar(unfinished, chain.id) > 0 && deadline.elapsed() < 120000)
            QThread::msleep(50);
        for (auto &engine : engines) {
            engine->terminate();
            engine->waitForFinished(15000);
        }
        const qint64 spanMs = scalar(
            QStringLiteral("SELECT MAX(finished_at) - MIN(started_at) FROM run WHERE chain_id = ?"),
            chain.id);
        const qint64 elsewhere =
            scalar(QStringLiteral("SELECT COUNT(*) FROM task_run t JOIN run r ON r.id = t.run_id "
                                  "WHERE r.chain_id = ? AND t.worker_name NOT IN ('', "
                                  "r.engine_name)"),
                   chain.id);
        StoreQuery q(*m_store, QStringLiteral("SELECT t.started_at - t.offered_at FROM task_run t "
                                              "JOIN run r ON r.id = t.run_id WHERE r.chain_id = ? "
                                              "AND t.offered_at IS NOT NULL AND t.worker_name NOT "
                                              "IN ('', r.engine_name)"));
        q.bind(chain.id);
        QList<qint64> waits;
        if (q.exec(QStringLiteral("offer waits")))
            while (q.next())
                waits << q.int64(0);
        return QStringLiteral("run took %1 ms, %2 of %3 tasks on other engines; an offer "
                              "waited for a free slot elsewhere %4")
            .arg(spanMs)
            .arg(elsewhere)
            .arg(taskCount)
            .arg(waits.isEmpty() ? QStringLiteral("(none)") : bench::figures(waits));
    }

    // The scale form of the exactly-once test: three engines, `count` one-shot schedules due at
    // the same moment, each run's task appending its run id to a ledger file. Every engine
    // computes every fire; each must become one run, executed once.
    QString exactlyOnce(int count, bool *held)
    {
        QTemporaryDir dir;
        const QString ledger = dir.filePath(QStringLiteral("ledger"));
        const qint64 chainId = chain(QStringLiteral("once"), TaskKind::Shell,
                                     QStringLiteral("echo $HOURGLASS_RUN_ID >> %1").arg(ledger));
        StoreQuery q(*m_store,
                     QStringLiteral("INSERT INTO schedule (chain_id, kind, expression, created_at) "
                                    "SELECT ?, 'once', ?, ? FROM generate_series(1, ?)"));
        const QDateTime due = QDateTime::currentDateTimeUtc().addSecs(8);
        q.bind(chainId)
            .bind(due.toString(Qt::ISODateWithMs))
            .bind(QDateTime::currentMSecsSinceEpoch())
            .bind(count);
        (void)q.exec(QStringLiteral("add schedules"));
        std::vector<std::unique_ptr<QProcess>> engines;
        for (int i = 0; i < 3; ++i)
            engines.push_back(serve(QStringLiteral("once-%1").arg(i)));
        const QString finished = QStringLiteral(
            "SELECT COUNT(*) FROM run WHERE chain_id = ? AND state IN ('succeeded', 'failed')");
        QElapsedTimer deadline;
        deadline.start();
        while (scalar(finished, chainId) < count && deadline.elapsed() < 600000)
            QThread::msleep(200);
        QThread::msleep(1000); // a second chance for a duplicate to show
        for (auto &engine : engines) {
            engine->terminate();
            engine->waitForFinished(15000);
        }
        QFile file(ledger);
        QStringList lines;
        if (file.open(QIODevice::ReadOnly))
            lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        const qsizetype distinct = QSet<QString>(lines.cbegin(), lines.cend()).size();
        const qint64 runs =
            scalar(QStringLiteral("SELECT COUNT(*) FROM run WHERE chain_id = ?"), chainId);
        const qint64 succeeded = scalar(
            QStringLiteral("SELECT COUNT(*) FROM run WHERE chain_id = ? AND state = 'succeeded'"),
            chainId);
        const qint64 spanMs = scalar(
            QStringLiteral("SELECT MAX(finished_at) - MIN(started_at) FROM run WHERE chain_id = ?"),
            chainId);
        *held = runs == count && succeeded == count && lines.size() == count && distinct == count;
        return QStringLiteral("%1 runs, %2 succeeded, %3 ledger lines (%4 distinct) in %5 ms: %6")
            .arg(runs)
            .arg(succeeded)
            .arg(lines.size())
            .arg(distinct)
            .arg(spanMs)
            .arg(*held ? QStringLiteral("each executed exactly once")
                       : QStringLiteral("NOT exactly once"));
    }

    // SIGKILL of the engine that runs two long tasks: when does the other own them?
    qint64 failover(double leaseSeconds)
    {
        const qint64 chainId =
            chain(QStringLiteral("failover"), TaskKind::Shell, QStringLiteral("sleep 60"));
        auto a = serve(QStringLiteral("failover-a"), leaseSeconds);
        QThread::msleep(1500);
        queue(chainId, 2);
        const QString runningOnA = QStringLiteral(
            "SELECT COUNT(*) FROM run r JOIN engine_session s ON s.id = r.owner_session WHERE "
            "r.chain_id = ? AND r.state = 'running' AND s.name = 'failover-a'");
        QElapsedTimer wait;
        wait.start();
        while (scalar(runningOnA, chainId) < 2 && wait.elapsed() < 20000)
            QThread::msleep(20);
        auto b = serve(QStringLiteral("failover-b"), leaseSeconds);
        QThread::msleep(1500);
        ::kill(pid_t(a->processId()), SIGKILL);
        a->waitForFinished();
        QElapsedTimer timer;
        timer.start();
        // Claimed by b (its interrupted attempts then end the runs: no retries are set).
        const QString takenOver = QStringLiteral(
            "SELECT COUNT(*) FROM run WHERE chain_id = ? AND engine_name = 'failover-b'");
        while (scalar(takenOver, chainId) < 2 && timer.elapsed() < 60000)
            QThread::msleep(20);
        const qint64 elapsed = timer.elapsed();
        b->terminate();
        b->waitForFinished(15000);
        return elapsed;
    }

private:
    QUrl m_url;
    std::unique_ptr<Store> m_store;
    qint64 m_projectId = 0;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (!test::PrivatePostgres::isInstalled()) {
        out << "bench_sharedstore: PostgreSQL 15 is not installed; skipped\n";
        return 0;
    }
    test::PrivatePostgres server;
    if (const QString failed = server.start(); !failed.isEmpty()) {
        out << "bench_sharedstore: " << failed << '\n';
        return 1;
    }
    Bench bench(server.url());
    const int runs =
        app.arguments().value(1).toInt() > 0 ? app.arguments().value(1).toInt() : 10000;
    out << "shared PostgreSQL store, NoOp runs claimed and completed (" << runs << " runs):\n";
    const double raw = bench.rawLimit(runs);
    out << QStringLiteral("  raw SKIP LOCKED claim-and-complete loop: %1 runs/s\n")
               .arg(raw, 0, 'f', 0);
    out.flush();
    for (int slots : {0, 64}) {
        for (int engines : {1, 2, 4}) {
            bench::Figure figure;
            figure.bench = QStringLiteral("bench_sharedstore");
            figure.what = QStringLiteral("%1 engine(s), %2, NoOp runs (%3)")
                              .arg(engines)
                              .arg(slots > 0 ? QStringLiteral("--slots %1").arg(slots)
                                             : QStringLiteral("default slots"))
                              .arg(runs);
            figure.value = bench.engines(engines, runs, slots);
            figure.unit = QStringLiteral("runs/s");
            figure.higherIsBetter = true;
            figure.besideWhat = QStringLiteral("raw SKIP LOCKED claim-and-complete loop, 64 a "
                                               "batch, one connection");
            figure.beside = raw;
            bench::report(out, figure);
        }
    }
    out << "  claim latency, one run at a time into 2 idle engines: " << bench.claimLatency(100)
        << '\n';
    out.flush();
    constexpr double lease = 3;
    out << QStringLiteral("  failover: SIGKILL of an engine, its runs owned by another after "
                          "%1 ms (lease %2 s)\n")
               .arg(bench.failover(lease))
               .arg(lease);
    out.flush();
    bool held = false;
    out << QStringLiteral("3 engines, %1 one-shot schedules due at once, shell tasks writing a "
                          "ledger: %2\n")
               .arg(runs)
               .arg(bench.exactlyOnce(runs, &held));
    out.flush();
    constexpr int wideTasks = 32;
    out << "one run of " << wideTasks
        << " tasks side by side (sleep 0.5 s each), engines of 2 slots; a task that waited 1 s "
           "for a slot is offered to the others:\n";
    for (int engines : {1, 2, 4}) {
        out << QStringLiteral("  %1 engine(s): %2\n")
                   .arg(engines)
                   .arg(bench.spread(engines, wideTasks));
        out.flush();
    }
    return held ? 0 : 1;
}
