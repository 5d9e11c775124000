#include "engine.h"

#include "admission.h"
#include "alertwatch.h"
#include "base/epochtime.h"
#include "clock.h"
#include "commandpump.h"
#include "desktoptriggerwatch.h"
#include "elsewherewatch.h"
#include "enginelease.h"
#include "filetriggerwatch.h"
#include "heldjournal.h"
#include "logbatcher.h"
#include "offerboard.h"
#include "recovery.h"
#include "runexecution.h"
#include "runrecorder.h"
#include "scheduleloader.h"
#include "store/chainrepository.h"
#include "store/definitionchangerepository.h"
#include "store/logrepository.h"
#include "store/occurrencerepository.h"
#include "store/runownership.h"
#include "store/runrepository.h"
#include "store/runretention.h"
#include "store/store.h"
#include "subchainlineage.h"
#include "taskhost.h"

#include <QDateTime>
#include <QSysInfo>

namespace hg {

Engine::Engine(EngineConfig config, std::shared_ptr<Clock> clock, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_clock(clock ? std::move(clock) : std::make_shared<SystemClock>())
    // Children, so that moveToThread() (EngineHost) takes them along to the engine thread.
    , m_offerTimer(this)
    , m_subchains(this)
    , m_timer(this)
    , m_commandTimer(this)
    , m_heartbeatTimer(this)
    , m_reconnectTimer(this)
    , m_clockTimer(this)
    , m_shutdownDeadline(this)
    , m_clockWatch(*m_clock)
{
    m_schedulesPaused = m_config.schedulesPaused;
    m_occupancy = Admission(m_config.maxActiveRuns);
    if (m_config.name.isEmpty())
        m_config.name = QSysInfo::machineHostName();
    if (m_config.baseEnvironment.isEmpty())
        m_config.baseEnvironment =
            EngineConfig::safeEnvironment(QProcessEnvironment::systemEnvironment());
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Engine::checkDue);
    connect(&m_commandTimer, &QTimer::timeout, this, &Engine::processCommands);
    connect(&m_heartbeatTimer, &QTimer::timeout, this, &Engine::heartbeat);
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &Engine::reconnect);
    m_shutdownDeadline.setSingleShot(true);
    connect(&m_shutdownDeadline, &QTimer::timeout, this, &Engine::forceShutdown);
    m_clockTimer.setInterval(1000);
    connect(&m_clockTimer, &QTimer::timeout, this, &Engine::watchClock);
    m_subchains.launch = [this](const QString &path, const Run &parentRun) {
        return launchChildRun(path, parentRun);
    };
    m_subchains.stop = [this](qint64 runId) {
        stopRun(runId);
    };
}

Engine::~Engine()
{
    // Executions own processes; deleting them kills what still runs.
    qDeleteAll(m_executions);
    m_executions.clear();
    m_host.reset(); // kills what it still runs, before the log it writes to goes
    m_board.reset();
    m_elsewhere.reset();
    m_logs.reset();
    if (m_lease && m_storeLostSinceMs >= 0)
        m_lease->forget(); // the store is away: the session is left to expire
    m_lease.reset();       // gives the session up, before the store closes
    m_recorder.reset();
}

void Engine::start()
{
    const Result<StoreLocation> location = StoreLocation::resolve(m_config.storeLocation);
    if (!location) {
        m_startFailureKind = location.error().kind;
        Q_EMIT startFailed(location.error().message);
        return;
    }
    Store::Options options;
    options.alreadyChecked = m_config.storeChecked;
    Result<std::unique_ptr<Store>> store =
        Store::open(location.value(), QStringLiteral("engine"), options);
    if (!store) {
        m_startFailureKind = store.error().kind;
        Q_EMIT startFailed(store.error().message);
        return;
    }
    m_store = std::move(store.value());
    m_store->setReconnectsItself(false); // reconnect() checks the lease first
    // Woken at once by what other engines and windows write; the poll is a safety net.
    // Run events ('runs …') only inform windows: waking on each would have every engine look
    // at every other engine's every run.
    if (m_store->listen(QStringLiteral("hourglass"), [this](const QString &payload) {
            if (payload == QLatin1String("offers")) {
                m_offersWaiting = true;
                scheduleDispatch();
                return;
            }
            if (payload == QLatin1String("taskruns")) {
                if (m_board)
                    m_board->lookSoon();
                if (m_host)
                    m_host->lookSoon();
            }
            if (payload == QLatin1String("taskruns") || payload == QLatin1String("logs")) {
                watchElsewhere(payload);
                return;
            }
            if (!payload.startsWith(QLatin1String("runs "))) {
                wake();
                return;
            }
            if (m_config.tellRunsElsewhere)
                tellRunsFromElsewhere(payload.mid(5));
        }))
        m_config.commandPollMs = std::max(m_config.commandPollMs, 2000);
    // What was told, so a notification of the same change (this engine's own writes come
    // back too) is not told again.
    connect(this, &Engine::runChanged, this, [this](const Run &run) {
        if (m_toldStates.size() > 100000)
            m_toldStates.clear(); // a bound; at worst a state is told twice
        m_toldStates.insert(run.id, run.state);
    });
    m_recorder = std::make_unique<RunRecorder>(*m_store);
    m_ledger = std::make_unique<OccurrenceLedger>(*m_store);
    m_ledger->claimWriting();
    m_alerts = std::make_unique<AlertWatch>(*m_store, m_config.defaultZone);
    connect(m_recorder.get(), &RunRecorder::storeUnavailable, this, &Engine::storeLost);
    connect(m_recorder.get(), &RunRecorder::runFenced, this, &Engine::runFenced);
    connect(m_recorder.get(), &RunRecorder::writable, this, [this] {
        m_claimMore = true;
        scheduleDispatch();
    });
    m_logs = std::make_unique<LogBatcher>(*m_store, *m_recorder);
    connect(m_logs.get(), &LogBatcher::linesWritten, this, [this](QList<LogLine> lines) {
        // Output of attempts run here for other engines' runs: a window hears it from
        // ElsewhereWatch, with the rest of those runs.
        if (m_elsewhere && m_host)
            lines.removeIf([this](const LogLine &line) { return m_host->hosts(line.taskRunId); });
        if (!lines.isEmpty())
            Q_EMIT logLinesWritten(lines);
    });
    m_lease = std::make_unique<EngineLease>(
        *m_store, EngineLease::Options{m_config.name, m_config.slotCount, m_config.leaseMs});
    if (const Status session = m_lease->acquire(m_clock->nowMs()); !session) {
        m_startFailureKind = session.error().kind;
        Q_EMIT startFailed(session.error().message);
        return;
    }
    // Only once this engine has the store to itself, and before it holds a claim (the
    // journal's runs are a stopped engine's) or recovers anything.
    if (const Status replayed = writeHeldJournal(); !replayed) {
        m_startFailureKind = replayed.error().kind;
        Q_EMIT startFailed(replayed.error().message);
        return;
    }
    m_recorder->setFence(m_lease->fence());
    // Whatever was running when an engine of this store died (or lost its lease): queued
    // again, for any engine to claim.
    if (const Result<QList<qint64>> recovered =
            Recovery(*m_store).recover(m_lease->fence(), m_clock->nowMs());
        !recovered) {
        m_startFailureKind = recovered.error().kind;
        Q_EMIT startFailed(recovered.error().message);
        return;
    }
    if (m_config.tellRunsElsewhere && m_store->backend() == StoreBackend::PostgreSql) {
        m_elsewhere = std::make_unique<ElsewhereWatch>(
            *m_store, [this] { return m_lease->fence().sessionId; });
        connect(m_elsewhere.get(), &ElsewhereWatch::taskRunChanged, this, &Engine::taskRunChanged);
        connect(m_elsewhere.get(), &ElsewhereWatch::logLinesWritten, this,
                &Engine::logLinesWritten);
        m_elsewhere->start();
    }
    setUpOffers();
    m_commands = std::make_unique<CommandPump>(*m_store, m_config.name, commandHandlers());
    m_commands->setSessionId(m_lease->sessionId());
    // The engine of one `run --wait` takes no other run: those stay queued for serve (before,
    // it ran them and cancelled them when its own run ended).
    m_commands->setOwnRunsOnly(m_config.onlyHandedRuns);
    m_running = true;
    if (m_config.runSchedules) {
        m_fileTriggers = std::make_unique<FileTriggerWatch>(
            *m_store, m_config.name, [clock = m_clock] { return clock->monotonicMs(); },
            [clock = m_clock] { return clock->nowMs(); });
        connect(m_fileTriggers.get(), &FileTriggerWatch::runsStarted, this, [this] {
            m_claimMore = true; // the runs are queued in the store: claimed as any other
            scheduleDispatch();
        });
        connect(m_fileTriggers.get(), &FileTriggerWatch::noted, this, &Engine::fileTriggerNoted);
        m_desktopTriggers = std::make_unique<DesktopTriggerWatch>(
            *m_store, m_config.name, [clock = m_clock] { return clock->nowMs(); });
        connect(m_desktopTriggers.get(), &DesktopTriggerWatch::runsStarted, this, [this] {
            m_claimMore = true;
            scheduleDispatch();
        });
        connect(m_desktopTriggers.get(), &DesktopTriggerWatch::noted, this,
                &Engine::fileTriggerNoted);
        reloadSchedules();
    }
    m_commandTimer.start(m_config.commandPollMs);
    m_heartbeatTimer.start(m_config.heartbeatMs);
    m_clockWatch.reset();
    m_clockTimer.start();
    Q_EMIT started();
    armTimer();
    scheduleDispatch();
}

void Engine::checkAlerts()
{
    if (!m_running || m_storeLostSinceMs >= 0)
        return;
    QList<Run> running;
    for (const RunExecution *execution : std::as_const(m_executions)) {
        if (execution->run().state == RunState::Running)
            running << execution->run();
    }
    // Deadlines by the ledger's writer only: on a shared store each is raised once.
    tellAlerts(m_alerts->look(running, m_clock->nowMs(), m_ledger->isWriting()));
}

void Engine::tellAlerts(const QList<Alert> &alerts)
{
    for (const Alert &alert : alerts) {
        auto chain = m_chains.constFind(alert.chainId);
        Chain read;
        if (chain == m_chains.constEnd()) {
            const Result<Chain> byId = ChainRepository(*m_store).byId(alert.chainId);
            if (!byId)
                continue;
            read = byId.value();
        }
        const Chain &of = chain == m_chains.constEnd() ? read : chain.value();
        // Routed as a failure is: a chain that wants no failure notification gets none.
        if (of.notify != NotifyPolicy::Failure && of.notify != NotifyPolicy::All)
            continue;
        Run run;
        run.id = alert.runId;
        run.chainId = alert.chainId;
        QString title;
        switch (alert.kind) {
        case AlertKind::Late:
            title = tr("%1 started late").arg(of.name);
            break;
        case AlertKind::TooLong:
            title = tr("%1 runs too long").arg(of.name);
            break;
        case AlertKind::TooShort:
            title = tr("%1 ended too soon").arg(of.name);
            break;
        case AlertKind::Deadline:
            title = tr("%1 missed its deadline").arg(of.name);
            break;
        }
        Q_EMIT notificationRequested(run, title,
                                     alert.runId > 0
                                         ? tr("Run %1 %2.").arg(alert.runId).arg(alert.detail)
                                         : tr("%1.").arg(alert.detail));
    }
}

void Engine::runFinished(RunExecution *execution)
{
    const Run run = execution->run();
    if (m_executions.value(run.id) != execution)
        return; // told twice: it left already
    const Chain chain = execution->chain();
    m_executions.remove(run.id);
    m_occupancy.remove(run.id);
    m_restrictions.remove(run.id);
    const bool abandoned = execution->isAbandoned();
    execution->deleteLater();
    m_claimMore = true; // a place came free
    if (abandoned) {    // another engine has it now: nothing here may follow from its end
        if (m_shuttingDown && nothingRuns())
            finishShutdown();
        return;
    }
    Q_EMIT m_subchains.runEnded(run.id, run.state);
    if (chain.selfDestruct && run.state == RunState::Succeeded) {
        selfDestructLater(chain);
        return; // nothing of it fires again
    }
    if (const auto plan = m_plans.constFind(run.scheduleId); plan != m_plans.constEnd()) {
        if (const auto next = plan->nextAfterRunEnded(run.finishedAt.toMSecsSinceEpoch())) {
            m_queue.set(run.scheduleId, *next);
            armTimer();
        }
    }
    if (m_shuttingDown && nothingRuns()) {
        finishShutdown();
        return;
    }
    scheduleDispatch();
}

void Engine::processCommands()
{
    if (!m_running || m_storeLostSinceMs >= 0)
        return;
    // Definitions edited elsewhere (the command line, the GUI's own connection) take effect.
    if (m_config.runSchedules)
        applyDefinitionChanges();
    m_commands->pump();
    if (m_config.runSchedules) { // runs queued elsewhere (the GUI, another engine's recovery)
        m_claimMore = true;
        scheduleDispatch();
    } else if (!m_queuedRuns.isEmpty()) {
        // Runs claimed here but held back by a limit (an exclusive chain's run on another
        // engine): looked at again at each poll, since nothing else wakes an engine that
        // takes only the runs it is handed when another engine's run ends. Before, the engine
        // of a `run --wait` held its run queued for good (the torture test, inprocess-stuck).
        scheduleDispatch();
    }
}

CommandPump::Handlers Engine::commandHandlers()
{
    CommandPump::Handlers handlers;
    handlers.admit = [this](qint64 runId, const std::optional<QSet<qint64>> &onlyTasks) {
        if (onlyTasks)
            m_restrictions.insert(runId, *onlyTasks);
        admitRun(runId);
    };
    handlers.stop = [this](qint64 runId) {
        return stopRun(runId);
    };
    handlers.pause = [this](qint64 runId) {
        RunExecution *execution = m_executions.value(runId);
        if (execution)
            execution->pause();
        return execution != nullptr;
    };
    handlers.resume = [this](qint64 runId) {
        RunExecution *execution = m_executions.value(runId);
        if (execution)
            execution->resume();
        return execution != nullptr;
    };
    return handlers;
}

bool Engine::stopRun(qint64 runId)
{
    if (RunExecution *execution = m_executions.value(runId)) {
        execution->stop(RunState::Cancelled, tr("stopped on request"));
        return true;
    }
    m_knownQueued.remove(runId);
    const Result<Run> run = RunRepository(*m_store).byId(runId);
    if (m_queuedRuns.removeAll(runId) == 0 && (!run || run->state != RunState::Queued))
        return false;
    const QDateTime now = utcFromMs(m_clock->nowMs());
    if (const Status s = RunRepository(*m_store).setState(runId, RunState::Cancelled, now); !s)
        return false;
    Run cancelled = run ? run.value() : Run{};
    cancelled.id = runId;
    cancelled.state = RunState::Cancelled;
    cancelled.finishedAt = now;
    Q_EMIT runChanged(cancelled);
    Q_EMIT m_subchains.runEnded(runId, RunState::Cancelled);
    return true;
}

Result<qint64> Engine::launchChildRun(const QString &path, const Run &parentRun)
{
    const Result<Run> child = SubchainLineage(*m_store).childRun(path, parentRun);
    if (!child)
        return child.error();
    // A child run is its parent's engine's (the parent waits for it here): owned as it is
    // made, before any other engine could claim it.
    Result<Run> inserted = Error::runtime(QString());
    const Status made = m_store->transaction([&]() -> Status {
        inserted = RunRepository(*m_store).insert(child.value());
        if (!inserted)
            return inserted.error();
        return RunOwnership(*m_store).own(inserted->id, m_lease->fence(), m_config.name);
    });
    if (!made)
        return made.error();
    Q_EMIT runChanged(inserted.value());
    admitRun(inserted->id);
    return inserted->id;
}

} // namespace hg
