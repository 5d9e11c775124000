// Notifications end to end (scripts/bench): the time from a run's end, as the store records
// it, to the receiver's reading of its webhook request, p50 and p99 over runs that end one
// after another, beside the target (p99 under 1 s on loopback). The engine runs in
// this process as the desktop's does; the deliverer sends from a thread of its own with the
// settle delay it uses everywhere (300 ms for the run's last lines: most of the figure).
// Then the engine's throughput of NoOp runs with a route on every run beside none, the cost
// of the outbox's triggers. Arguments: a number of runs (default 100).
#include "benchsupport.h"
#include "notify/delivererthread.h"
#include "scheduler/engine.h"
#include "store/chainrepository.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "testhttpserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

using namespace hg;

namespace {

std::unique_ptr<Store> openStore(const QString &path)
{
    return std::move(
        Store::open(StoreLocation::parse(path).value(), QStringLiteral("bench")).value());
}

qint64 makeChain(Store &store, const QString &name)
{
    const Result<Project> found = ProjectRepository(store).byName(QStringLiteral("bench"));
    const Project project =
        found ? found.value() : ProjectRepository(store).add(QStringLiteral("bench")).value();
    Chain chain;
    chain.projectId = project.id;
    chain.name = name;
    chain = ChainRepository(store).add(chain).value();
    Task task;
    task.chainId = chain.id;
    task.name = QStringLiteral("t");
    task.kind = TaskKind::Builtin;
    task.command = QStringLiteral("NoOp");
    (void)TaskRepository(store).add(task).value();
    return chain.id;
}

void routeTo(Store &store, const QUrl &url, qint64 chainId)
{
    NotifyChannel channel;
    channel.name = QStringLiteral("hook-%1").arg(chainId);
    channel.kind = ChannelKind::Webhook;
    channel.url = url.toString();
    channel.floodLimit = 0; // every message, however many
    channel.dailyCap = 0;
    NotifyRoute route;
    route.channelId = NotifyChannelRepository(store).add(channel).value().id;
    route.chainId = chainId;
    route.events = {NotifyEvent::Success};
    (void)NotifyRouteRepository(store).add(route).value();
}

// Waits, serving events, until `done` holds or `ms` passed.
bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    return done();
}

// Runs `count` runs of one chain one after another, each once the last one's request came:
// milliseconds from each run's end to its request.
QList<qint64> endToReceiver(const QString &storePath, int count)
{
    test::TestHttpServer http;
    if (!http.start())
        qFatal("bench_notify: no HTTP receiver");
    auto store = openStore(storePath);
    const qint64 chainId = makeChain(*store, QStringLiteral("latency"));
    routeTo(*store, http.url(QStringLiteral("/echo")), chainId);
    Engine engine(bench::benchConfig(storePath));
    DelivererThread deliverer;
    Deliverer::Options options;
    options.engineName = QStringLiteral("bench");
    QObject::connect(&engine, &Engine::runChanged, &engine, [&deliverer](const Run &run) {
        if (isTerminal(run.state))
            deliverer.lookSoon(); // as the desktop and serve do
    });
    bool started = false;
    QObject::connect(&engine, &Engine::started, &engine, [&started] { started = true; });
    engine.start();
    if (!waitFor([&started] { return started; }, 30000))
        qFatal("bench_notify: the engine did not start");
    deliverer.start(StoreLocation::parse(storePath).value(), options);
    QList<qint64> latencies;
    for (int i = 0; i < count; ++i) {
        Run run;
        run.chainId = chainId;
        const qint64 id = RunRepository(*store).insert(run).value().id;
        engine.admitRun(id);
        if (!waitFor([&http, i] { return http.requests().size() > i; }, 30000))
            qFatal("bench_notify: run %lld's message did not come", id);
        const Run ended = RunRepository(*store).byId(id).value();
        latencies << http.requests().at(i).receivedMs - ended.finishedAt.toMSecsSinceEpoch();
    }
    deliverer.stop();
    engine.shutdown(Engine::ExitPolicy::Stop);
    return latencies;
}

// NoOp runs per second of `count` queued runs of a chain, with a route on it or none.
double throughput(const QString &storePath, int count, const QUrl &receiver)
{
    auto store = openStore(storePath);
    const qint64 chainId =
        makeChain(*store, QStringLiteral("throughput-%1").arg(receiver.isEmpty() ? 0 : 1));
    if (!receiver.isEmpty())
        routeTo(*store, receiver, chainId);
    QList<qint64> ids;
    for (int i = 0; i < count; ++i) {
        Run run;
        run.chainId = chainId;
        ids << RunRepository(*store).insert(run).value().id;
    }
    Engine engine(bench::benchConfig(storePath));
    int finished = 0;
    QElapsedTimer timer;
    QObject::connect(&engine, &Engine::runChanged, &engine, [&](const Run &run) {
        if (isTerminal(run.state) && ++finished == count)
            QCoreApplication::quit();
    });
    QObject::connect(&engine, &Engine::started, &engine, [&] {
        timer.start();
        for (const qint64 id : std::as_const(ids))
            engine.admitRun(id);
    });
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    engine.shutdown(Engine::ExitPolicy::Stop);
    return count / seconds;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const int count = argc > 1 ? std::max(10, QString::fromLocal8Bit(argv[1]).toInt()) : 100;
    QTemporaryDir dir;
    const QString storePath = dir.filePath(QStringLiteral("bench.db"));
    out << "bench_notify: " << count << " runs, each's webhook to a receiver on loopback\n";
    out.flush();
    const QList<qint64> latencies = endToReceiver(storePath, count);
    out << "  run's end to the receiver's request: " << bench::figures(latencies) << '\n';
    bench::reportMs(out, QStringLiteral("bench_notify"),
                    QStringLiteral("run's end to webhook request, p50"),
                    bench::percentile(latencies, 50), bench::Beside::Target,
                    QStringLiteral("the issue's p99 goal"), 1000);
    bench::reportMs(out, QStringLiteral("bench_notify"),
                    QStringLiteral("run's end to webhook request, p99"),
                    bench::percentile(latencies, 99), bench::Beside::Target,
                    QStringLiteral("the issue's p99 goal"), 1000);
    test::TestHttpServer http;
    http.start();
    const double without = throughput(storePath, 2000, QUrl());
    const double with = throughput(storePath, 2000, http.url(QStringLiteral("/echo")));
    bench::report(out, {QStringLiteral("bench_notify"),
                        QStringLiteral("NoOp runs with a route (outbox rows written)"), with,
                        QStringLiteral("runs/s"), true, bench::Beside::Peer,
                        QStringLiteral("the same runs with no route"), without});
    return 0;
}
