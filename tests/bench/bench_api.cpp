// The local API under load (scripts/bench): GET /api/v1/runs on a store of 1,000,000 runs,
// POST …/runs, and /metrics with 10,000 chains, through real HTTP on loopback with several
// keep-alive connections at once. Each figure is set beside the same store work done bare on
// a connection of the bench's own (the limit the HTTP layer adds to), and the goals:
// p99 under 20 ms for reads, /metrics under 50 ms.
#include "api/apihost.h"
#include "api/apimetrics.h"
#include "benchsupport.h"
#include "scheduler/runcontrol.h"
#include "store/apitokenrepository.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTextStream>

#include <atomic>
#include <thread>
#include <vector>

using namespace hg;

namespace {

QTextStream out(stdout);

void exec(QSqlQuery &query, const QString &sql)
{
    if (!query.exec(sql))
        qFatal("bench setup failed: %s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
}

// One keep-alive HTTP/1.1 connection, blocking (its own thread): a request's time from the
// first byte written to the last byte of its answer read.
class Client
{
public:
    explicit Client(quint16 port)
    {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!m_socket.waitForConnected(10000))
            qFatal("bench: cannot connect");
    }
    // The status, or 0 when the answer did not come.
    int request(const QByteArray &method, const QByteArray &path, const QByteArray &token,
                qint64 &micros)
    {
        QElapsedTimer took;
        took.start();
        m_socket.write(method + ' ' + path + " HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer "
                       + token + "\r\nContent-Length: 0\r\n\r\n");
        QByteArray answer;
        qsizetype headerEnd = -1;
        qint64 length = -1;
        while (true) {
            if (!m_socket.waitForReadyRead(30000))
                return 0;
            answer += m_socket.readAll();
            if (headerEnd < 0 && (headerEnd = answer.indexOf("\r\n\r\n")) >= 0) {
                const qsizetype at = answer.toLower().indexOf("content-length:");
                length =
                    answer.mid(at + 15, answer.indexOf('\r', at) - at - 15).trimmed().toLongLong();
            }
            if (headerEnd >= 0 && answer.size() >= headerEnd + 4 + length)
                break;
        }
        micros = took.nsecsElapsed() / 1000;
        return answer.mid(9, 3).toInt();
    }

private:
    QTcpSocket m_socket;
};

struct Load
{
    QList<qint64> micros;
    double seconds = 0;
    int failed = 0;
};

// `connections` clients at once, `perConnection` requests each.
Load hammer(quint16 port, int connections, int perConnection, const QByteArray &method,
            const std::function<QByteArray(int)> &path, const QByteArray &token)
{
    std::vector<std::thread> threads;
    std::vector<QList<qint64>> times(static_cast<size_t>(connections));
    std::atomic<int> failed{0};
    QElapsedTimer wall;
    wall.start();
    for (int c = 0; c < connections; ++c)
        threads.emplace_back([&, c] {
            Client client(port);
            for (int i = 0; i < perConnection; ++i) {
                qint64 us = 0;
                const int status = client.request(method, path(c * perConnection + i), token, us);
                if (status < 200 || status > 299)
                    ++failed;
                times[size_t(c)] << us;
            }
        });
    for (std::thread &t : threads)
        t.join();
    Load load;
    load.seconds = double(wall.nsecsElapsed()) / 1e9;
    load.failed = failed;
    for (const QList<qint64> &t : times)
        load.micros += t;
    return load;
}

QList<qint64> toMs(const QList<qint64> &micros)
{
    QList<qint64> ms;
    for (const qint64 us : micros)
        ms << (us + 500) / 1000;
    return ms;
}

double percentileMs(const QList<qint64> &micros, double percent)
{
    return bench::percentile(micros, percent) / 1000.0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int chains = app.arguments().value(1, QStringLiteral("10000")).toInt();
    const qint64 runs = app.arguments().value(2, QStringLiteral("1000000")).toLongLong();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    const StoreLocation location = StoreLocation::parse(path).value();
    auto store = std::move(Store::open(location, QStringLiteral("bench")).value());
    QElapsedTimer setup;
    setup.start();
    bench::createChains(*store, chains, TaskKind::Builtin, QStringLiteral("NoOp"), {},
                        QStringLiteral("%M %H * * *"));
    {
        QSqlQuery q(store->database());
        exec(q, QStringLiteral("PRAGMA synchronous = OFF"));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - runs * 1000;
        exec(q, QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
                               "WHERE i < %1) INSERT INTO run (chain_id, trigger, scheduled_for, "
                               "state, created_at, started_at, finished_at) SELECT (SELECT "
                               "min(id) FROM chain) + n.i % %2, 'schedule', %3 + n.i * 1000, "
                               "CASE WHEN n.i % 17 = 0 THEN 'failed' ELSE 'succeeded' END, %3 + "
                               "n.i * 1000, %3 + n.i * 1000 + 5, %3 + n.i * 1000 + 900 FROM n")
                    .arg(runs - 1)
                    .arg(chains)
                    .arg(base));
        exec(q, QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    const QByteArray reader = ApiTokenRepository(*store)
                                  .make(QStringLiteral("reader"), ApiRole::Read, {})
                                  ->text.toLatin1();
    const QByteArray operate = ApiTokenRepository(*store)
                                   .make(QStringLiteral("ops"), ApiRole::Operate, {})
                                   ->text.toLatin1();
    out << QStringLiteral("the local API with %1 chains and %2 runs (setup took %3 s):\n")
               .arg(chains)
               .arg(runs)
               .arg(double(setup.elapsed()) / 1000.0, 0, 'f', 1);
    out.flush();

    ApiServer::Options options;
    ApiHost host(location, options);
    quint16 port = 0;
    QObject::connect(&host, &ApiHost::started, &app, [&](quint16 p) {
        port = p;
        QCoreApplication::quit();
    });
    QObject::connect(&host, &ApiHost::startFailed, &app, [](const QString &why) {
        qFatal("bench: the API did not start: %s", qPrintable(why));
    });
    host.start();
    QCoreApplication::exec();

    // The limit: one page of the same runs, read bare on this connection (the query and
    // the chains' paths, as the endpoint reads them).
    QList<qint64> bare;
    for (int i = 0; i < 200; ++i) {
        QElapsedTimer t;
        t.start();
        RunFilter filter;
        filter.limit = 100;
        filter.beforeId = runs - qint64(i) * 997 % runs;
        const Result<QList<Run>> page = RunRepository(*store).list(filter);
        QList<qint64> ids;
        for (const Run &r : page.value())
            ids << r.chainId;
        (void)ChainRepository(*store).pathsOf(ids);
        bare << t.nsecsElapsed() / 1000;
    }
    const QByteArray before = QByteArrayLiteral("/api/v1/runs?limit=100&before=");
    const Load reads = hammer(
        port, 4, 500, "GET",
        [&](int i) -> QByteArray {
            return before + QByteArray::number(runs - qint64(i) * 997 % runs);
        },
        reader);
    out << "  GET /api/v1/runs?limit=100 (4 connections, " << reads.micros.size() << " requests, "
        << reads.failed << " failed): " << bench::figures(toMs(reads.micros)) << ", "
        << int(reads.micros.size() / reads.seconds) << " requests/s\n";
    bench::reportMs(out, QStringLiteral("bench_api"), QStringLiteral("GET /runs p99"),
                    percentileMs(reads.micros, 99), bench::Beside::Target,
                    QStringLiteral("the issue's goal"), 20);
    bench::reportMs(out, QStringLiteral("bench_api"), QStringLiteral("GET /runs p50"),
                    percentileMs(reads.micros, 50), bench::Beside::Limit,
                    QStringLiteral("the same page read bare, p50"), percentileMs(bare, 50));

    // Run starts: each writes the run and its start command; no engine consumes them here.
    QList<qint64> bareStarts;
    const Result<Chain> first = ChainRepository(*store).byPath(QStringLiteral("bench/c0"));
    for (int i = 0; i < 200; ++i) {
        QElapsedTimer t;
        t.start();
        (void)RunControl(*store).start(first->id, {});
        bareStarts << t.nsecsElapsed() / 1000;
    }
    const Load starts = hammer(
        port, 4, 250, "POST",
        [](int i) -> QByteArray {
            return QByteArrayLiteral("/api/v1/chains/bench/c") + QByteArray::number(i % 100)
                   + QByteArrayLiteral("/runs");
        },
        operate);
    out << "  POST /api/v1/chains/…/runs (4 connections, " << starts.micros.size() << " requests, "
        << starts.failed << " failed): " << bench::figures(toMs(starts.micros)) << ", "
        << int(starts.micros.size() / starts.seconds) << " starts/s\n";
    bench::reportMs(out, QStringLiteral("bench_api"), QStringLiteral("POST …/runs p50"),
                    percentileMs(starts.micros, 50), bench::Beside::Limit,
                    QStringLiteral("RunControl::start bare, p50"), percentileMs(bareStarts, 50));

    // /metrics: every chain with ended runs in the counters (as an engine that ran them all
    // reports), rendered in process and fetched over HTTP.
    ApiMetrics metrics;
    for (int i = 0; i < chains; ++i) {
        Run run;
        run.id = i + 1;
        run.state = RunState::Succeeded;
        run.trigger = RunTrigger::Schedule;
        run.scheduledFor = QDateTime::currentDateTimeUtc();
        run.startedAt = run.scheduledFor.addMSecs(3);
        run.finishedAt = run.startedAt.addMSecs(900);
        metrics.observe(run, QStringLiteral("bench/c%1").arg(i));
    }
    QList<qint64> rendered;
    qsizetype size = 0;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer t;
        t.start();
        size = metrics.render(*store).size();
        rendered << t.nsecsElapsed() / 1000;
    }
    out << "  /metrics rendered with " << chains << " chains' series (" << size / 1024
        << " KiB): " << bench::figures(toMs(rendered)) << '\n';
    bench::reportMs(out, QStringLiteral("bench_api"),
                    QStringLiteral("/metrics with %1 chains, p50").arg(chains),
                    percentileMs(rendered, 50), bench::Beside::Target,
                    QStringLiteral("the issue's goal"), 50);
    const Load scrapes = hammer(
        port, 1, 20, "GET", [](int) -> QByteArray { return QByteArrayLiteral("/metrics"); },
        reader);
    out << "  GET /metrics over HTTP (the server's own counters, gauges of " << chains
        << " chains): " << bench::figures(toMs(scrapes.micros)) << '\n';
    out.flush();
    return reads.failed + starts.failed + scrapes.failed == 0 ? 0 : 1;
}
