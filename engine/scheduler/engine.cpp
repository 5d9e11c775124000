#include "engine.h"

#include "admission.h"
#include "alertwatch.h"
#include "base/epochtime.h"
#include "clock.h"
#include "commandpump.h"
#include "elsewherewatch.h"
#include "enginelease.h"
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
        Q_EMIT startFailed(location.error().message);
        return;
    }
    Result<std::unique_ptr<Store>> store = Store::open(location.value(), QStringLiteral("engine"));
    if (!store) {
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
        Q_EMIT startFailed(session.error().message);
        return;
    }
    // Only once this engine has the store to itself, and before it holds a claim (the
    // journal's runs are a stopped engine's) or recovers anything.
    if (const Status replayed = writeHeldJournal(); !replayed) {
        Q_EMIT startFailed(replayed.error().message);
        return;
    }
    m_recorder->setFence(m_lease->fence());
    // Whatever was running when an engine of this store died (or lost its lease): queued
    // again, for any engine to claim.
    if (const Result<QList<qint64>> recovered =
            Recovery(*m_store).recover(m_lease->fence(), m_clock->nowMs());
        !recovered) {
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
    m_running = true;
    if (m_config.runSchedules)
        reloadSchedules();
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
        (void)ChainRepository(*m_store).remove(chain.id);
        applyDefinitionChanges();
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
        execution->stop(RunState::Cancelled);
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

void Engine::heartbeat()
{
    if (m_storeLostSinceMs >= 0)
        return; // the reconnect timer is at work
    int load = m_host ? m_host->count() : 0;
    for (const RunExecution *execution : std::as_const(m_executions))
        load += execution->runningCount();
    const Status beat = m_lease->heartbeat(m_clock->nowMs(), load);
    if (!beat && beat.error().kind == ErrorKind::Unavailable) {
        storeLost(beat.error().message);
        return;
    }
    if (!beat && beat.error().kind == ErrorKind::Fenced) {
        fencedOut(beat.error().message);
        return;
    }
    m_ledger->claimWriting(); // the writer of the ledger may have gone
    // Retention reads every finished run of the chains that set it: once a minute is enough.
    if (const qint64 now = m_clock->nowMs(); now - m_lastPruneMs >= 60000) {
        m_lastPruneMs = now;
        pruneRuns();
        // Engines an hour behind the change feed reload everything instead.
        (void)DefinitionChangeRepository(*m_store).prune(qint64(3600) * 1000);
    }
    // Sessions whose lease ran out are taken over: their runs are queued again here.
    if (const Result<QList<qint64>> recovered =
            Recovery(*m_store).recover(m_lease->fence(), m_clock->nowMs());
        recovered && !recovered->isEmpty()) {
        m_claimMore = true;
        scheduleDispatch();
    }
    // Offered attempts: a notification missed, an end the store refused, a claim half-made.
    if (m_board)
        m_board->look();
    if (m_host) {
        m_host->reconcile();
        m_offersWaiting = true;
        scheduleDispatch();
    }
}

void Engine::pruneRuns()
{
    if (!m_config.runSchedules || m_shuttingDown || m_storeLostSinceMs >= 0)
        return;
    // Small batches, one per turn of the event loop while more are due, so claims and task
    // ends are never held up for long.
    constexpr int batch = 200;
    const Result<int> removed =
        RunRetention(*m_store).applyBatch(m_clock->nowMs(), std::nullopt, batch);
    if (removed && removed.value() == batch) {
        QTimer::singleShot(50, this, &Engine::pruneRuns);
        return;
    }
    // The ledger's rows go as the runs beside them do, once the runs are done with.
    if (!m_ledger->isWriting())
        return;
    for (const Chain &chain : std::as_const(m_chains)) {
        if (chain.retention.isSet())
            (void)OccurrenceRepository(*m_store).applyRetention(chain, m_clock->nowMs());
    }
}

void Engine::wake()
{
    if (m_wakePending)
        return;
    m_wakePending = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_wakePending = false;
            processCommands();
        },
        Qt::QueuedConnection);
}

void Engine::storeLost(const QString &why)
{
    if (m_storeLostSinceMs >= 0 || !m_store)
        return;
    m_storeLostSinceMs = m_clock->nowMs();
    m_recorder->hold();
    m_timer.stop();
    qWarning("hourglass: the store cannot be used (%s); running tasks go on, nothing new "
             "starts until it is back",
             qUtf8Printable(why));
    Q_EMIT storeReachabilityChanged(m_storeLostSinceMs, why);
    m_reconnectDelayMs = m_config.storeRetryMs;
    m_reconnectTimer.start(m_reconnectDelayMs);
}

void Engine::reconnect()
{
    if (m_storeLostSinceMs < 0 || !m_store)
        return;
    const auto retryLater = [this] {
        m_reconnectDelayMs = std::min(m_reconnectDelayMs * 2, m_config.storeRetryMaxMs);
        m_reconnectTimer.start(m_reconnectDelayMs);
    };
    if (!m_store->reconnect()) {
        retryLater();
        return;
    }
    // Back: is the claim still ours? Then what was held is written, and work goes on.
    int load = 0;
    for (const RunExecution *execution : std::as_const(m_executions))
        load += execution->runningCount();
    const Status beat = m_lease->heartbeat(m_clock->nowMs(), load);
    if (!beat && beat.error().kind == ErrorKind::Unavailable) {
        retryLater();
        return;
    }
    if (!beat) {
        m_storeLostSinceMs = -1;
        fencedOut(beat.error().message);
    } else if (!m_recorder->flushHeld()) {
        retryLater();
        return;
    }
    m_storeLostSinceMs = -1;
    m_logs->flush();
    if (m_storeLostSinceMs >= 0)
        return; // the held output did not fit (a full disk): still away, tried again later
    qInfo("hourglass: the store is back");
    Q_EMIT storeReachabilityChanged(-1, QString());
    if (m_shuttingDown)
        return;
    m_ledger->connectionRenewed();
    m_ledger->claimWriting();
    if (m_config.runSchedules) {
        m_storeCameBack = true;
        reloadSchedules(); // definitions may have changed meanwhile; what came due fires now
        m_storeCameBack = false;
    }
    m_claimMore = true;
    for (qint64 runId : std::exchange(m_admitWhenBack, {}))
        admitRun(runId);
    scheduleDispatch();
}

void Engine::fencedOut(const QString &why)
{
    qWarning("hourglass: engine '%s' lost its session (%s); its runs were taken over and its "
             "tasks here are stopped",
             qUtf8Printable(m_config.name), qUtf8Printable(why));
    for (RunExecution *execution : std::as_const(m_executions))
        execution->abandon();
    if (m_host)
        m_host->abandonAll();
    m_recorder->dropHeld();
    m_logs->dropAll();
    m_queuedRuns.clear();
    m_knownQueued.clear();
    Q_EMIT leaseLost(why);
    if (m_shuttingDown)
        return;
    m_lease->forget();
    if (const Status again = m_lease->acquire(m_clock->nowMs()); !again) {
        qWarning("hourglass: cannot register again: %s", qUtf8Printable(again.error().message));
        shutdown(ExitPolicy::Stop);
        return;
    }
    m_recorder->setFence(m_lease->fence());
    m_commands->setSessionId(m_lease->sessionId());
    m_claimMore = true;
}

void Engine::runFenced(qint64 runId)
{
    if (RunExecution *execution = m_executions.value(runId); execution && !execution->isAbandoned())
        execution->abandon();
}

void Engine::shutdown(ExitPolicy policy)
{
    if (!m_running || m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_timer.stop();
    m_clockTimer.stop();
    m_commandTimer.stop();
    if (policy == ExitPolicy::Stop) {
        for (RunExecution *execution : std::as_const(m_executions))
            execution->stop(RunState::Cancelled);
        if (m_host)
            m_host->stopAll();
    }
    if (nothingRuns())
        finishShutdown();
}

Status Engine::writeHeldJournal()
{
    if (m_store->backend() != StoreBackend::Sqlite)
        return {}; // on a server the session expires and another engine takes the runs over
    QStringList files;
    const HeldJournal journal(m_store->location().sqlitePath());
    const Result<HeldJournal::Contents> held = journal.load(&files);
    if (!held)
        return held.error();
    if (held->changes.isEmpty() && held->lines.isEmpty()) {
        HeldJournal::remove(files);
        return {};
    }
    QList<LogLine> lines = held->lines;
    const Status written = m_store->transaction([&]() -> Status {
        if (const Status changes = m_recorder->writeJournal(held->changes); !changes)
            return changes;
        // A marker of a run removed since refers to nothing: it goes with the run.
        const Status markers = LogRepository(*m_store).append(lines);
        return !markers && markers.error().kind == ErrorKind::Invalid ? Status{} : markers;
    });
    if (!written)
        return Error(written.error().kind,
                     tr("what an engine held when it stopped (%1) cannot be written to the store "
                        "yet: %2; nothing is started or recovered until it can")
                         .arg(files.join(QStringLiteral(", ")), written.error().message));
    qInfo("hourglass: recorded %lld state changes that a stopped engine had held (%s)",
          qlonglong(held->changes.size()), qUtf8Printable(files.join(QStringLiteral(", "))));
    HeldJournal::remove(files);
    return {};
}

void Engine::finishShutdown()
{
    if (!m_running)
        return;
    m_running = false;
    m_heartbeatTimer.stop();
    m_reconnectTimer.stop();
    m_logs->flush();
    // The store still refuses writes: what was held goes to a journal for the next engine,
    // so a task that ended here is not taken for interrupted and run again. So does the
    // marker of dropped output that the last flush could not write, also when every state
    // change got through (the run's end is small; the marker may still not fit).
    const bool heldChanges = m_storeLostSinceMs >= 0 && m_recorder->heldCount() > 0;
    const QList<LogLine> markers = m_logs->droppedMarkers();
    if (m_store->backend() == StoreBackend::Sqlite && (heldChanges || !markers.isEmpty())) {
        const QList<RunRecorder::Held> changes =
            heldChanges ? m_recorder->held() : QList<RunRecorder::Held>{};
        const Result<QString> saved =
            HeldJournal(m_store->location().sqlitePath()).save({changes, markers});
        if (saved)
            qWarning("hourglass: %lld state changes and %lld notes of dropped output could not "
                     "be written to the store; they are kept in %s and recorded when an engine "
                     "next opens it",
                     qlonglong(changes.size()), qlonglong(markers.size()),
                     qUtf8Printable(saved.value()));
        else
            qWarning("hourglass: %s", qUtf8Printable(saved.error().message));
    }
    // With the store away the session is left to expire: its held writes are lost, and the
    // next engine recovers those runs as interrupted.
    if (m_storeLostSinceMs < 0)
        m_lease->release();
    Q_EMIT stopped();
}

} // namespace hg
