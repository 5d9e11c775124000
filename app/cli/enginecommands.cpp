#include "api/apihost.h"
#include "base/terminaltext.h"
#include "clicontext.h"
#include "cron/isotime.h"
#include "engineconfigfactory.h"
#include "executors/taskprocesses.h"
#include "notify/deliverer.h"
#include "notify/engineeventrecorder.h"
#include "runfollower.h"
#include "scheduler/backfill.h"
#include "scheduler/engine.h"
#include "scheduler/runcontrol.h"
#include "signalwatcher.h"
#include "store/chainrepository.h"
#include "store/enginesessionrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "subcommands.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSysInfo>
#include <QThread>
#include <QTimer>

#include <optional>

namespace hg {
namespace {

// A self-destructing chain removes itself (and its runs) after a successful run.
bool selfDestructed(Store &store, const Run &run)
{
    const Result<Chain> chain = ChainRepository(store).byId(run.chainId);
    return !chain && chain.error().kind == ErrorKind::NotFound;
}

int exitFor(const Result<Run> &run, CliContext &context)
{
    if (!run)
        return context.fail(run.error());
    return run->state == RunState::Succeeded ? ExitOk : ExitFailure;
}

// How a run here ended: an exit code, or nothing when the run is another engine's to run now
// (one began serving the store meanwhile), or when this engine could not start because the
// store refuses writes for now (a full disk): then the run stays queued and the wait goes on.
struct InProcessEnd
{
    std::optional<int> exitCode;
    bool storeRefused = false;
    QString why; // what the store said, when it refused
};

InProcessEnd exited(int exitCode)
{
    return InProcessEnd{exitCode, false, {}};
}

// No engine serves the store: run this one run here, with an engine of its own.
InProcessEnd runInProcess(CliContext &context, qint64 runId, RunFollower &follower)
{
    const EngineConfig config = EngineConfigFactory::forSingleRun(
        context.storeArgument(), QCoreApplication::applicationPid());
    Engine engine(config);
    Store &store = *context.store().value();
    std::optional<Run> finished;
    QString failure;
    QObject::connect(&engine, &Engine::logLinesWritten, &engine, [&](const QList<LogLine> &lines) {
        for (const LogLine &line : lines) {
            if (line.runId == runId)
                follower.print(line);
        }
    });
    // While the store refuses writes the run's end is held in memory: the engine stays until
    // it is written, since leaving would lose it (and the next engine would run it again).
    QString storeTrouble;
    QObject::connect(&engine, &Engine::storeReachabilityChanged, &engine,
                     [&](qint64 sinceMs, const QString &why) {
                         storeTrouble = sinceMs >= 0 ? why : QString();
                         if (storeTrouble.isEmpty() && finished)
                             engine.shutdown(Engine::ExitPolicy::Stop);
                     });
    QObject::connect(&engine, &Engine::runChanged, &engine, [&](const Run &run) {
        if (run.id != runId || !isTerminal(run.state))
            return;
        finished = run;
        if (storeTrouble.isEmpty()) {
            engine.shutdown(Engine::ExitPolicy::Stop);
            return;
        }
        context.err() << "hourglass: run " << runId << " ended (" << enumName(run.state)
                      << ") but the store cannot be written (" << storeTrouble
                      << "); waiting up to a minute to record it\n";
        context.err().flush();
        // A script waiting on us needs an answer: after a minute, exit 1 with the reason.
        QTimer::singleShot(60000, &engine,
                           [&engine] { engine.shutdown(Engine::ExitPolicy::Stop); });
    });
    QObject::connect(&engine, &Engine::startFailed, &engine, [&](const QString &error) {
        failure = error;
        QCoreApplication::quit();
    });
    QString gone; // the store's file deleted or replaced
    QObject::connect(&engine, &Engine::storeGone, &engine,
                     [&gone](const QString &why) { gone = why; });
    QObject::connect(&engine, &Engine::stopped, &engine, [] { QCoreApplication::quit(); });
    QObject::connect(&engine, &Engine::started, &engine, [&] { engine.admitRun(runId); });
    // Fenced out (paused past its lease, or its clock stepped): another engine has taken the
    // run over. This one leaves, and the wait follows the run there. Before, it registered
    // again and held a SQLite store for good, waiting for an end it would never be told,
    // while `serve` could not start (found by the torture test).
    bool takenOver = false;
    QObject::connect(&engine, &Engine::leaseLost, &engine, [&] {
        takenOver = true;
        engine.shutdown(Engine::ExitPolicy::Stop);
    });
    SignalWatcher terminations;
    // Again and again if need be: a second signal ends what the first let finish. One that
    // came while the engine was still starting is obeyed once it has started.
    bool terminationAsked = false;
    QObject::connect(&terminations, &SignalWatcher::terminationRequested, &engine, [&] {
        terminationAsked = true;
        engine.shutdownHarder();
    });
    QObject::connect(&engine, &Engine::started, &engine, [&] {
        if (terminationAsked)
            engine.shutdown(Engine::ExitPolicy::Stop);
    });
    // What the engine is not told, the store says: the run ended before this engine could run
    // it (a stopped engine's held end, recorded by this engine at its start: before, the wait
    // went on for good, found by helper-10), or another engine claimed it meanwhile.
    QTimer look;
    look.setInterval(1000);
    QObject::connect(&look, &QTimer::timeout, &engine, [&] {
        if (finished || takenOver)
            return;
        const Result<Run> stored = RunRepository(store).byId(runId);
        if (!stored)
            return; // the store away, or the run removed: the engine tells its end
        if (isTerminal(stored->state)) {
            finished = stored.value();
            engine.shutdown(Engine::ExitPolicy::Stop);
        } else if (!stored->engineName.isEmpty() && stored->engineName != config.name) {
            takenOver = true;
            engine.shutdown(Engine::ExitPolicy::Stop);
        }
    });
    QObject::connect(&engine, &Engine::started, &look, qOverload<>(&QTimer::start));
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    look.stop();
    if (!gone.isEmpty())
        return exited(context.fail(Error::storage(
            QStringLiteral("how run %1 ends cannot be known: %2").arg(runId).arg(gone))));
    if (takenOver && !finished) {
        context.err() << "hourglass: another engine took run " << runId
                      << " over; following it there\n";
        context.err().flush();
        return InProcessEnd{std::nullopt, false, {}};
    }
    // One started while this one tried: the run is its to run.
    if (!failure.isEmpty() && EngineSessionRepository(store).anyServes())
        return InProcessEnd{std::nullopt, false, {}};
    // Before, a full disk at this moment ended the wait with exit 1 while the run stayed
    // queued and later ran (the torture test, full-wait).
    if (!failure.isEmpty() && engine.startFailureKind() == ErrorKind::Unavailable)
        return InProcessEnd{std::nullopt, true, failure};
    if (!failure.isEmpty())
        return exited(context.fail(Error::runtime(failure)));
    if (!finished)
        return exited(
            context.fail(Error::runtime(QStringLiteral("run %1 did not finish").arg(runId))));
    // Success is what the store says, not what the engine saw.
    const Result<Run> stored = RunRepository(store).byId(runId);
    if (!stored && finished->state == RunState::Succeeded
        && selfDestructed(store, finished.value()))
        return exited(ExitOk);
    if (!stored || stored->state != finished->state)
        return exited(context.fail(Error::runtime(
            QStringLiteral("run %1 ended (%2) but its end could not be stored: %3")
                .arg(runId)
                .arg(enumName(finished->state),
                     stored ? QStringLiteral("the store still says %1").arg(enumName(stored->state))
                            : stored.error().message))));
    return exited(finished->state == RunState::Succeeded ? ExitOk : ExitFailure);
}

// Waits for a run wherever it runs: here while no engine serves the store, on the serving
// engine otherwise. Either can change during the wait (an engine starts; the engine dies or
// leaves): the wait goes with the run, a bounded number of times.
int waitFor(CliContext &context, qint64 runId, bool inProcess)
{
    RunFollower follower(*context.store().value(), context.out(), context.err());
    QElapsedTimer refused; // since the store first refused the writes of an engine here
    for (int handovers = 0;; ++handovers) {
        if (inProcess) {
            const InProcessEnd end = runInProcess(context, runId, follower);
            if (end.exitCode)
                return *end.exitCode;
            if (end.storeRefused) {
                --handovers; // not a handover: bounded by time, as any outage of the store is
                if (!refused.isValid()) {
                    refused.start();
                    context.err() << "hourglass: cannot run run " << runId << " here yet ("
                                  << terminaltext::escaped(end.why)
                                  << "); this command waits and tries again\n";
                    context.err().flush();
                } else if (refused.elapsed() >= RunFollower::storeOutageMs)
                    return context.fail(Error::runtime(
                        QStringLiteral("the store has refused writes for %1 minutes: run %2 "
                                       "stays queued")
                            .arg(RunFollower::storeOutageMs / 60000)
                            .arg(runId)));
                QThread::msleep(1000);
                continue; // tried again here (or followed, should an engine start meanwhile)
            } else {
                context.err() << "hourglass: an engine began serving the store; run " << runId
                              << " is its to run now\n";
                context.err().flush();
            }
        }
        const Result<Run> followed = follower.follow(runId);
        if (followed || followed.error().kind != ErrorKind::Unavailable || handovers >= 8)
            return exitFor(followed, context);
        context.err() << "hourglass: " << followed.error().message
                      << "; this command runs it now\n";
        context.err().flush();
        inProcess = true;
    }
}

int serve(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption onExit(QStringLiteral("on-exit"),
                                    QStringLiteral("On SIGTERM/SIGINT: stop running tasks (stop, "
                                                   "the default) or let them finish (wait)."),
                                    QStringLiteral("wait|stop"));
    const QCommandLineOption lease(
        QStringLiteral("lease"),
        QStringLiteral("On a shared store: how long this engine's claim on its runs lasts "
                       "without a heartbeat (default 30 s); after that other engines take its "
                       "runs over. It heartbeats six times per lease."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption slots(
        QStringLiteral("slots"),
        QStringLiteral("Tasks this engine runs at once, across all runs (default: twice the "
                       "number of cores)."),
        QStringLiteral("N"));
    const QCommandLineOption notifyRetry(
        QStringLiteral("notify-retry"),
        QStringLiteral("A notification not delivered is sent again after this long, then twice "
                       "as long each time, at most an hour apart (default 30)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption notifyRetryFor(
        QStringLiteral("notify-retry-for"),
        QStringLiteral("How long a notification is retried before it is failed (default 24)."),
        QStringLiteral("HOURS"));
    const QCommandLineOption notifyStoreAway(
        QStringLiteral("notify-store-away"),
        QStringLiteral("The store unreachable this long is an `engine` event (told once it is "
                       "back; default 5)."),
        QStringLiteral("MINUTES"));
    const QCommandLineOption api(
        QStringLiteral("api"),
        QStringLiteral("Serve the local API (REST, /metrics, webhooks) on this address and port "
                       "(127.0.0.1:8080); an address other machines reach needs --api-cert "
                       "and --api-key, or --api-insecure."),
        QStringLiteral("ADDR:PORT"));
    const QCommandLineOption apiCert(QStringLiteral("api-cert"),
                                     QStringLiteral("The API's TLS certificate (PEM)."),
                                     QStringLiteral("FILE"));
    const QCommandLineOption apiKey(QStringLiteral("api-key"),
                                    QStringLiteral("The API's TLS private key (PEM)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption apiInsecure(
        QStringLiteral("api-insecure"),
        QStringLiteral("Plain HTTP on an address other machines reach (said in the log)."));
    const QCommandLineOption apiMetricsOpen(
        QStringLiteral("api-metrics-open"),
        QStringLiteral("Clients on this machine may read /metrics without a token."));
    const QCommandLineOption apiBodyLimit(
        QStringLiteral("api-body-limit"),
        QStringLiteral("The largest request body the API reads (default 1024 KB)."),
        QStringLiteral("KB"));
    parser.addOptions({onExit, lease, slots, notifyRetry, notifyRetryFor, notifyStoreAway, api,
                       apiCert, apiKey, apiInsecure, apiMetricsOpen, apiBodyLimit});
    if (!context.parse(parser, args,
                       QStringLiteral("serve [--on-exit wait|stop] [--lease SECONDS] [--slots N] "
                                      "[--notify-retry SECONDS] [--notify-retry-for HOURS] "
                                      "[--notify-store-away MINUTES] [--api ADDR:PORT "
                                      "[--api-cert FILE --api-key FILE] [--api-insecure] "
                                      "[--api-metrics-open] [--api-body-limit KB]]"))
        || !context.expectPositionals(parser, {}))
        return context.exitCode();
    std::optional<ApiServer::Options> apiOptions;
    if (parser.isSet(api)) {
        const Result<std::pair<QHostAddress, quint16>> listen =
            ApiServer::parseListen(parser.value(api));
        if (!listen)
            return context.usage(QStringLiteral("--api: ") + listen.error().message);
        ApiServer::Options options;
        options.address = listen->first;
        options.port = listen->second;
        options.insecure = parser.isSet(apiInsecure);
        options.metricsOpenOnLoopback = parser.isSet(apiMetricsOpen);
        int bodyKb = 1024;
        if (!context.intOption(parser, apiBodyLimit, bodyKb, 1, 1024 * 1024))
            return context.exitCode();
        options.maxBodyBytes = qint64(bodyKb) * 1024;
        if (Status s = ApiServer::check(options, parser.value(apiCert), parser.value(apiKey)); !s)
            return context.usage(s.error().message);
        apiOptions = options;
    } else {
        for (const QCommandLineOption *option :
             {&apiCert, &apiKey, &apiInsecure, &apiMetricsOpen, &apiBodyLimit})
            if (parser.isSet(*option))
                return context.usage(
                    QStringLiteral("--%1 needs --api ADDR:PORT").arg(option->names().constFirst()));
    }
    int retrySeconds = 30;
    int retryHours = 24;
    int storeAwayMinutes = 5;
    if (!context.intOption(parser, notifyStoreAway, storeAwayMinutes, 1, 24 * 60)
        || !context.intOption(parser, notifyRetry, retrySeconds, 1, 3600)
        || !context.intOption(parser, notifyRetryFor, retryHours, 1, 24 * 30))
        return context.exitCode();
    EngineConfig config = EngineConfigFactory::forServe(context.storeArgument());
    int leaseSeconds = config.leaseMs / 1000;
    if (!context.intOption(parser, lease, leaseSeconds, 1, 3600)
        || !context.intOption(parser, slots, config.slotCount, 1, 4096))
        return context.exitCode();
    config.leaseMs = leaseSeconds * 1000;
    config.heartbeatMs = config.leaseMs / 6;
    const QString policyText = parser.value(onExit);
    if (!policyText.isEmpty() && policyText != QLatin1String("wait")
        && policyText != QLatin1String("stop"))
        return context.usage(QStringLiteral("--on-exit: '%1' is not wait or stop").arg(policyText));
    const Engine::ExitPolicy policy =
        policyText == QLatin1String("wait") ? Engine::ExitPolicy::Wait : Engine::ExitPolicy::Stop;
    Engine engine(config);
    QString failure;
    QTextStream &out = context.out();
    QObject::connect(&engine, &Engine::startFailed, &engine, [&](const QString &error) {
        failure = error;
        QCoreApplication::quit();
    });
    // Notifications go out from here, on a connection of their own (the outbox is written by
    // the store as runs end; on a shared store one engine sends each).
    std::unique_ptr<Store> notifyStore;
    std::unique_ptr<Deliverer> deliverer;
    std::unique_ptr<EngineEventRecorder> engineEvents;
    std::unique_ptr<ApiHost> apiHost;
    QObject::connect(&engine, &Engine::started, &engine, [&] {
        if (apiOptions) {
            apiOptions->engineName =
                config.name.isEmpty() ? QSysInfo::machineHostName() : config.name;
            apiHost = std::make_unique<ApiHost>(engine.store()->location(), *apiOptions);
            apiHost->watch(engine);
            QObject::connect(apiHost.get(), &ApiHost::started, &engine, [&context, &apiHost] {
                context.err() << "hourglass: the API listens on " << apiHost->url() << '\n';
                context.err().flush();
            });
            QObject::connect(apiHost.get(), &ApiHost::startFailed, &engine,
                             [&failure, &engine](const QString &why) {
                                 failure = QStringLiteral("the API: ") + why;
                                 engine.shutdown(Engine::ExitPolicy::Stop);
                             });
            QObject::connect(
                apiHost.get(), &ApiHost::logged, &engine, [&context](const QString &line) {
                    context.err() << "hourglass: api: " << terminaltext::escaped(line) << '\n';
                    context.err().flush();
                });
            apiHost->start();
        }
        context.err() << "hourglass: serving " << engine.store()->location().displayName()
                      << "; a task's processes are tracked by " << TaskProcesses::mechanism()
                      << '\n';
        context.err().flush();
        Result<std::unique_ptr<Store>> opened =
            Store::open(engine.store()->location(), QStringLiteral("notify"));
        if (!opened) {
            context.err() << "hourglass: notifications are not sent: " << opened.error().message
                          << '\n';
            return;
        }
        notifyStore = std::move(opened.value());
        Deliverer::Options options;
        options.firstRetryMs = qint64(retrySeconds) * 1000;
        options.retryForMs = qint64(retryHours) * 3600 * 1000;
        options.engineName = config.name.isEmpty() ? QStringLiteral("%1/%2")
                                                         .arg(QSysInfo::machineHostName())
                                                         .arg(QCoreApplication::applicationPid())
                                                   : config.name;
        deliverer = std::make_unique<Deliverer>(*notifyStore, options);
        QObject::connect(deliverer.get(), &Deliverer::settled, &engine,
                         [&out](const Delivery &delivery, const SendOutcome &) {
                             out << QDateTime::currentDateTime().toString(Qt::ISODate)
                                 << " notification " << delivery.id << " to '"
                                 << terminaltext::escaped(delivery.channelName) << "' "
                                 << enumName(delivery.state) << ": "
                                 << terminaltext::escaped(delivery.lastAnswer) << '\n';
                             out.flush();
                         });
        deliverer->start();
        engineEvents = std::make_unique<EngineEventRecorder>(*notifyStore, options.engineName,
                                                             qint64(storeAwayMinutes) * 60000);
        QObject::connect(engineEvents.get(), &EngineEventRecorder::recorded, deliverer.get(),
                         &Deliverer::lookSoon);
    });
    // An engine event (a lease lost, the store away a while) for the global `engine` routes.
    QObject::connect(&engine, &Engine::leaseLost, &engine, [&engineEvents](const QString &why) {
        if (engineEvents)
            engineEvents->leaseLost(why);
    });
    QObject::connect(&engine, &Engine::storeReachabilityChanged, &engine,
                     [&engineEvents](qint64 sinceMs, const QString &why) {
                         if (engineEvents)
                             engineEvents->reachabilityChanged(sinceMs, why);
                     });
    QObject::connect(&engine, &Engine::runChanged, &engine, [&deliverer](const Run &run) {
        if (deliverer && isTerminal(run.state))
            deliverer->lookSoon();
    });
    QObject::connect(&engine, &Engine::runChanged, &engine, [&](const Run &run) {
        out << QDateTime::currentDateTime().toString(Qt::ISODate) << " run " << run.id << ' '
            << enumName(run.state) << '\n';
        out.flush();
    });
    // What a sleep or a step of the clock cost, said once.
    QObject::connect(&engine, &Engine::clockJumped, &engine, [&](const QString &summary) {
        out << QDateTime::currentDateTime().toString(Qt::ISODate) << ' ' << summary << '\n';
        out.flush();
    });
    // A file trigger's folder gone or back, polling chosen: said once each time.
    QObject::connect(&engine, &Engine::fileTriggerNoted, &engine, [&](const QString &message) {
        out << QDateTime::currentDateTime().toString(Qt::ISODate) << ' '
            << terminaltext::escaped(message) << '\n';
        out.flush();
    });
    QObject::connect(&engine, &Engine::missedRunsWaiting, &engine, [&] {
        out << QDateTime::currentDateTime().toString(Qt::ISODate)
            << " missed runs wait for a decision (misfire policy ask): hourglass missed\n";
        out.flush();
    });
    // Headless there is no tray: a Notify task's message (and an alert) goes to the output.
    QObject::connect(&engine, &Engine::notificationRequested, &engine,
                     [&](const Run &run, const QString &title, const QString &message) {
                         out << QDateTime::currentDateTime().toString(Qt::ISODate) << " run "
                             << run.id << " notify: "
                             << (title.isEmpty() ? message : title + QLatin1String(": ") + message)
                             << '\n';
                         out.flush();
                     });
    QObject::connect(&engine, &Engine::storeGone, &engine,
                     [&failure](const QString &why) { failure = why; });
    QObject::connect(&engine, &Engine::stopped, &engine, [&deliverer, &apiHost] {
        if (deliverer)
            deliverer->stop(); // the sends under way are cut off: sent again by the next engine
        apiHost.reset();
        QCoreApplication::quit();
    });
    SignalWatcher terminations;
    // The first signal ends as --on-exit says; the next one stops tasks, and the one after
    // that ends at once. One that came while the engine was starting is obeyed once started.
    int terminationsAsked = 0;
    QObject::connect(&terminations, &SignalWatcher::terminationRequested, &engine,
                     [&engine, policy, &terminationsAsked] {
                         if (terminationsAsked++ == 0)
                             engine.shutdown(policy);
                         else
                             engine.shutdownHarder();
                     });
    QObject::connect(&engine, &Engine::started, &engine, [&engine, policy, &terminationsAsked] {
        if (terminationsAsked > 0)
            engine.shutdown(policy);
    });
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    if (!failure.isEmpty())
        return context.fail(Error::runtime(failure));
    return ExitOk;
}

int run(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption param(QStringLiteral("param"),
                                   QStringLiteral("A parameter for ${K} (repeatable)."),
                                   QStringLiteral("K=V"));
    const QCommandLineOption wait(
        QStringLiteral("wait"),
        QStringLiteral("Stream the log and exit 0 only if the run succeeded."));
    parser.addOptions({param, wait});
    Store *store =
        context.prepare(parser, args, QStringLiteral("run PROJECT/CHAIN [--param K=V]... [--wait]"),
                        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    QJsonObject parameters;
    for (const QString &pair : parser.values(param)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return context.usage(QStringLiteral("--param %1: expected K=V").arg(pair));
        parameters.insert(pair.left(equals), pair.mid(equals + 1));
    }
    // With --wait and no engine serving the store, this process runs it: no start command.
    const bool inProcess = parser.isSet(wait) && !EngineSessionRepository(*store).anyServes();
    RunControl control(*store);
    const Result<Run> created = inProcess ? control.createManual(chain->id, parameters)
                                          : control.start(chain->id, parameters);
    if (!created)
        return context.fail(created.error());
    context.out() << created->id << '\n';
    context.out().flush();
    if (!parser.isSet(wait))
        return ExitOk;
    return waitFor(context, created->id, inProcess);
}

} // namespace

int runEngineCommand(CliContext &context, const QString &command, const QStringList &args)
{
    if (command == QLatin1String("serve"))
        return serve(context, args);
    if (command == QLatin1String("run"))
        return run(context, args);
    return runRunCommand(context, command, args);
}

} // namespace hg
