#include "engine.h"

#include "clock.h"
#include "domain/command.h"
#include "base/epochtime.h"
#include "base/processinfo.h"
#include "logbatcher.h"
#include "runexecution.h"
#include "store/chainrepository.h"
#include "store/commandrepository.h"
#include "store/dependencyrepository.h"
#include "store/enginesessionrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QSysInfo>

#include <csignal>

namespace hg {
Engine::Engine(EngineConfig config, std::shared_ptr<Clock> clock, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_clock(clock ? std::move(clock) : std::make_shared<SystemClock>())
    // Children, so that moveToThread() (EngineHost) takes them along to the engine thread.
    , m_subchains(this)
    , m_timer(this)
    , m_commandTimer(this)
    , m_heartbeatTimer(this)
{
    m_schedulesPaused = m_config.schedulesPaused;
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
    m_logs.reset();
    if (m_sessionId > 0 && m_store)
        (void)EngineSessionRepository(*m_store).release(m_sessionId);
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
    m_logs = std::make_unique<LogBatcher>(*m_store);
    connect(m_logs.get(), &LogBatcher::linesWritten, this, &Engine::logLinesWritten);
    if (const Status session = acquireSession(); !session) {
        Q_EMIT startFailed(session.error().message);
        return;
    }
    if (const Status recovered = recover(); !recovered) {
        Q_EMIT startFailed(recovered.error().message);
        return;
    }
    m_running = true;
    if (m_config.runSchedules) {
        reloadSchedules();
        const Result<QList<qint64>> queued =
            RunRepository(*m_store).idsInStates({RunState::Queued});
        if (queued)
            m_queuedRuns << queued.value();
    }
    m_commandTimer.start(m_config.commandPollMs);
    m_heartbeatTimer.start(m_config.heartbeatMs);
    Q_EMIT started();
    armTimer();
    scheduleDispatch();
}

Status Engine::acquireSession()
{
    EngineSessionRepository sessions(*m_store);
    const qint64 now = m_clock->nowMs();
    if (m_store->backend() == StoreBackend::Sqlite) {
        // One engine per SQLite file: any live lease, whatever its name, keeps us out.
        const Result<QList<EngineSession>> live = sessions.live(utcFromMs(now));
        if (!live)
            return live.error();
        for (const EngineSession &session : live.value()) {
            if (session.name != m_config.name)
                return Error::exists(QStringLiteral("another engine ('%1', pid %2 on %3) is "
                                                    "already serving %4")
                                         .arg(session.name)
                                         .arg(session.pid)
                                         .arg(session.host, m_store->location().displayName()));
        }
    }
    EngineSession session;
    session.name = m_config.name;
    session.host = QSysInfo::machineHostName();
    session.pid = QCoreApplication::applicationPid();
    session.capacity = m_config.slotCount;
    session.leaseUntil = utcFromMs(now + m_config.leaseMs);
    const Result<EngineSession> acquired = sessions.acquire(session, utcFromMs(now));
    if (!acquired)
        return acquired.error();
    m_sessionId = acquired->id;
    return {};
}

Status Engine::recover()
{
    // Whatever was running when the previous engine of this store died: its processes are
    // killed (if they are still the same processes) and the attempts marked interrupted.
    TaskRunRepository taskRuns(*m_store);
    const qint64 now = m_clock->nowMs();
    for (RunState state : {RunState::Running, RunState::Waiting, RunState::Queued}) {
        const Result<QList<TaskRun>> left = taskRuns.listInState(state);
        if (!left)
            return left.error();
        for (TaskRun attempt : left.value()) {
            if (attempt.pid > 0)
                processinfo::killGroupIfSameProcess(attempt.pid, attempt.processStartTicks);
            attempt.state = RunState::Interrupted;
            attempt.finishedAt = utcFromMs(now);
            attempt.error = QStringLiteral("the engine stopped while this attempt ran");
            if (const Status s = taskRuns.update(attempt); !s)
                return s;
        }
    }
    RunRepository runs(*m_store);
    const Result<QList<qint64>> unfinished = runs.idsInStates(
        {RunState::Running, RunState::Paused, RunState::Waiting, RunState::Interrupted});
    if (!unfinished)
        return unfinished.error();
    for (qint64 runId : unfinished.value()) {
        // Queued again: admission restores its history and carries on.
        if (const Status s = runs.setState(runId, RunState::Queued, utcFromMs(now)); !s)
            return s;
        m_queuedRuns << runId;
    }
    return {};
}

void Engine::reloadSchedules()
{
    if (!m_store)
        return;
    // What is due now fires under the old plans first: a reload must never swallow a fire.
    if (m_running && !m_plans.isEmpty())
        checkDue();
    if (const Result<qint64> revision = ScheduleRepository(*m_store).definitionRevision())
        m_definitionRevision = revision.value();
    const Result<QList<Schedule>> schedules = ScheduleRepository(*m_store).list();
    const Result<QList<Chain>> chains = ChainRepository(*m_store).list();
    const Result<QHash<qint64, RunRepository::ScheduleHistory>> history =
        RunRepository(*m_store).scheduleHistory();
    if (!schedules || !chains || !history)
        return;
    m_chains.clear();
    m_definitions.clear();
    for (const Chain &chain : chains.value())
        m_chains.insert(chain.id, chain);
    const bool firstLoad = m_plans.isEmpty() && m_queue.size() == 0;
    m_plans.clear();
    m_queue = FireQueue();
    const qint64 now = m_clock->nowMs();
    SchedulePlan::Cache cache;
    m_plans.reserve(schedules->size());
    for (const Schedule &schedule : schedules.value()) {
        const Chain chain = m_chains.value(schedule.chainId);
        if (!schedule.enabled || !chain.enabled
            || (!chain.clientName.isEmpty() && chain.clientName != m_config.name))
            continue;
        Result<SchedulePlan> plan = SchedulePlan::create(schedule, m_config.defaultZone, &cache);
        if (!plan)
            continue;
        const RunRepository::ScheduleHistory past = history->value(schedule.id);
        const qint64 last =
            past.lastFireMs >= 0 ? past.lastFireMs : schedule.createdAt.toMSecsSinceEpoch();
        std::optional<qint64> next;
        switch (schedule.kind) {
        case ScheduleKind::Startup:
            if (firstLoad && !m_schedulesPaused)
                fireSchedule(plan.value(), now / 1000 * 1000);
            break;
        case ScheduleKind::After:
            if (past.lastFireMs < 0)
                next = now;
            else if (!past.unfinished && past.lastFinishMs >= 0)
                next = std::max(now, plan->nextAfterRunEnded(past.lastFinishMs).value_or(now));
            break;
        default:
            if (m_schedulesPaused) {
                // Kept due, not fired: resuming hands it to the misfire policy.
                next = plan->nextFireMs(last);
                break;
            }
            for (qint64 missed : plan->missedFires(last, now))
                fireSchedule(plan.value(), missed);
            next = plan->nextFireMs(std::max(now, last));
            break;
        }
        if (next)
            m_queue.set(schedule.id, *next);
        m_plans.insert(schedule.id, std::move(plan.value()));
    }
    armTimer();
}

void Engine::armTimer()
{
    if (!m_running)
        return;
    const qint64 next = m_queue.nextDueMs();
    if (const qint64 announced = m_schedulesPaused ? -1 : next; announced != m_announcedNextFire) {
        m_announcedNextFire = announced;
        Q_EMIT nextFireChanged(announced);
    }
    if (next < 0 || m_schedulesPaused) {
        m_timer.stop();
        return;
    }
    // At most a second between looks at the wall clock: a resume from sleep or a clock step
    // is noticed within that second.
    const qint64 now = m_clock->nowMs();
    const qint64 delay = std::clamp<qint64>(next - now, 0, 1000);
    m_timer.start(int(delay));
}

void Engine::setSchedulesPaused(bool paused)
{
    if (paused == m_schedulesPaused)
        return;
    m_schedulesPaused = paused;
    armTimer(); // announces the paused state's "no next fire"
    // Resuming: what came due meanwhile is late now, so each schedule's misfire policy
    // decides (skip, once, all), as after downtime.
    if (!paused)
        checkDue();
    else
        m_timer.stop();
}

void Engine::checkDue()
{
    if (!m_running || m_shuttingDown || m_schedulesPaused)
        return;
    const qint64 now = m_clock->nowMs();
    const std::vector<FireQueue::Due> due = m_queue.takeDue(now);
    // All fires of this instant in one transaction: one commit instead of one per fire.
    (void)m_store->transaction([&] {
        for (const FireQueue::Due &fire : due) {
            const auto plan = m_plans.constFind(fire.scheduleId);
            if (plan == m_plans.constEnd())
                continue;
            if (now - fire.dueMs > m_config.lateToleranceMs) {
                for (qint64 missed : plan->missedFires(fire.dueMs - 1, now))
                    fireSchedule(plan.value(), missed);
            } else {
                fireSchedule(plan.value(), fire.dueMs);
            }
            if (const auto next = plan->nextFireMs(std::max(now, fire.dueMs)))
                m_queue.set(fire.scheduleId, *next);
        }
        return Status{};
    });
    armTimer();
}

void Engine::fireSchedule(const SchedulePlan &plan, qint64 fireMs)
{
    // The chain as loaded with the schedules (reloadSchedules() runs when definitions change).
    const auto chain = m_chains.constFind(plan.chainId());
    if (chain == m_chains.constEnd())
        return;
    if (chain->maxInstances > 0 && chain->overlap == OverlapPolicy::Skip) {
        int active = 0;
        for (const RunExecution *execution : std::as_const(m_executions))
            active += execution->run().chainId == chain->id ? 1 : 0;
        if (active >= chain->maxInstances)
            return; // this fire is skipped: the chain is at its limit
    }
    const Result<RunRepository::Inserted> inserted =
        RunRepository(*m_store).insertScheduled(chain->id, plan.scheduleId(), utcFromMs(fireMs));
    if (!inserted || !inserted->created)
        return; // another engine (or an earlier pass) already made this fire's run
    m_queuedRuns << inserted->run.id;
    m_knownQueued.insert(inserted->run.id, inserted->run);
    Q_EMIT runChanged(inserted->run);
    scheduleDispatch();
}

void Engine::admitRun(qint64 runId)
{
    if (!m_queuedRuns.contains(runId) && !m_executions.contains(runId))
        m_queuedRuns << runId;
    scheduleDispatch();
}

void Engine::scheduleDispatch()
{
    if (m_dispatchScheduled)
        return;
    m_dispatchScheduled = true;
    QMetaObject::invokeMethod(this, &Engine::dispatch, Qt::QueuedConnection);
}

bool Engine::admit(qint64 runId)
{
    // A run this engine just made is known; anything else is read (it may have changed).
    Result<Run> run = m_knownQueued.contains(runId) ? Result<Run>(m_knownQueued.value(runId))
                                                    : RunRepository(*m_store).byId(runId);
    if (!run || run->state != RunState::Queued) {
        m_knownQueued.remove(runId);
        return true; // gone or already decided: drop it from the queue
    }
    const Result<Chain> chain = m_chains.contains(run->chainId)
                                    ? Result<Chain>(m_chains.value(run->chainId))
                                    : ChainRepository(*m_store).byId(run->chainId);
    if (!chain) {
        m_knownQueued.remove(runId);
        return true;
    }
    int sameChain = 0;
    bool exclusiveActive = false;
    for (const RunExecution *execution : std::as_const(m_executions)) {
        sameChain += execution->run().chainId == chain->id ? 1 : 0;
        exclusiveActive = exclusiveActive || execution->chain().exclusive;
    }
    // Nothing runs beside an exclusive chain, except the child runs its SUBCHAIN tasks wait for.
    const bool childOfActive = run->parentRunId > 0 && m_executions.contains(run->parentRunId);
    if (!childOfActive && (exclusiveActive || (chain->exclusive && !m_executions.isEmpty())))
        return false;
    if (chain->maxInstances > 0 && sameChain >= chain->maxInstances)
        return false;
    if (run->batchId > 0 && run->batchParallel > 0) {
        // A backfill batch: at most batch_parallel of its runs at once (the queue keeps them
        // in the order they were asked for).
        int sameBatch = 0;
        for (const RunExecution *execution : std::as_const(m_executions))
            sameBatch += execution->run().batchId == run->batchId ? 1 : 0;
        if (sameBatch >= run->batchParallel)
            return false;
    }
    // Definitions are cached until the next reload (the definition revision moves on edits).
    ChainDefinition &definition = m_definitions[chain->id];
    if (!definition.loaded) {
        const Result<QList<Task>> loadedTasks = TaskRepository(*m_store).list(chain->id);
        const Result<QList<Dependency>> loadedEdges =
            DependencyRepository(*m_store).list(chain->id);
        if (!loadedTasks || !loadedEdges)
            return false;
        definition = ChainDefinition{loadedTasks.value(), loadedEdges.value(), true};
    }
    const Result<QList<Task>> tasks = definition.tasks;
    const Result<QList<Dependency>> edges = definition.edges;
    // A run that never started has no attempts to restore.
    const Result<QList<TaskRun>> history = run->startedAt.isValid()
                                               ? TaskRunRepository(*m_store).listForRun(runId)
                                               : Result<QList<TaskRun>>(QList<TaskRun>());
    if (!tasks || !edges || !history)
        return false;
    m_knownQueued.remove(runId);
    auto *execution = new RunExecution(*m_store, *m_clock, m_config, run.value(), chain.value(),
                                       tasks.value(), edges.value(), &m_subchains, this);
    execution->restoreHistory(history.value());
    if (const auto only = m_restrictions.constFind(runId); only != m_restrictions.constEnd())
        execution->restrictTo(only.value());
    m_executions.insert(runId, execution);
    connect(execution, &RunExecution::readyChanged, this, &Engine::scheduleDispatch);
    connect(execution, &RunExecution::taskRunChanged, this, &Engine::taskRunChanged);
    connect(execution, &RunExecution::logLine, this,
            [this](const LogLine &line) { m_logs->add(line); });
    connect(execution, &RunExecution::finishing, m_logs.get(), &LogBatcher::flush);
    connect(execution, &RunExecution::notificationRequested, this, &Engine::notificationRequested);
    connect(execution, &RunExecution::runStateChanged, this, [this, execution](const Run &changed) {
        Q_EMIT runChanged(changed);
        if (isTerminal(changed.state))
            QMetaObject::invokeMethod(
                this, [this, execution] { runFinished(execution); }, Qt::QueuedConnection);
    });
    execution->begin();
    return true;
}

void Engine::dispatch()
{
    m_dispatchScheduled = false;
    if (!m_running)
        return;
    // One transaction for the whole pass: a commit costs more than all the statements of a
    // run's admission and its first task's start together.
    (void)m_store->transaction([this] {
        if (!m_shuttingDown)
            admitQueuedRuns();
        startReadyTasks();
        return Status{};
    });
}

void Engine::admitQueuedRuns()
{
    // Bounded, so one dispatch never walks thousands of executions.
    for (qsizetype i = 0;
         i < m_queuedRuns.size() && m_executions.size() < m_config.maxActiveRuns;) {
        if (admit(m_queuedRuns.at(i)))
            m_queuedRuns.removeAt(i);
        else
            ++i;
    }
}

void Engine::startReadyTasks()
{
    int running = 0;
    QList<RunExecution *> executions;
    bool exclusive = false;
    for (RunExecution *execution : std::as_const(m_executions)) {
        running += execution->slotsInUse();
        executions << execution;
        exclusive = exclusive || execution->chain().exclusive;
    }
    std::sort(executions.begin(), executions.end(), [](RunExecution *a, RunExecution *b) {
        if (a->chain().priority != b->chain().priority)
            return int(a->chain().priority) < int(b->chain().priority);
        return a->run().id < b->run().id;
    });
    for (RunExecution *execution : std::as_const(executions)) {
        if (exclusive && !execution->chain().exclusive && execution->run().parentRunId == 0)
            continue; // nothing runs beside an exclusive chain but its child runs
        for (qint64 taskId : execution->readyTasks()) {
            if (running >= m_config.slotCount)
                return;
            // Only this run's count can change (a SUBCHAIN task takes no slot).
            const int before = execution->slotsInUse();
            execution->startTask(taskId);
            running += execution->slotsInUse() - before;
        }
    }
}

void Engine::runFinished(RunExecution *execution)
{
    const Run run = execution->run();
    const Chain chain = execution->chain();
    m_executions.remove(run.id);
    m_restrictions.remove(run.id);
    execution->deleteLater();
    Q_EMIT m_subchains.runEnded(run.id, run.state);
    if (chain.selfDestruct && run.state == RunState::Succeeded) {
        (void)ChainRepository(*m_store).remove(chain.id);
        reloadSchedules();
    }
    if (const auto plan = m_plans.constFind(run.scheduleId); plan != m_plans.constEnd()) {
        if (const auto next = plan->nextAfterRunEnded(run.finishedAt.toMSecsSinceEpoch())) {
            m_queue.set(run.scheduleId, *next);
            armTimer();
        }
    }
    if (m_shuttingDown && m_executions.isEmpty()) {
        finishShutdown();
        return;
    }
    scheduleDispatch();
}

void Engine::processCommands()
{
    if (!m_running)
        return;
    // Definitions edited elsewhere (the command line, the GUI's own connection) take effect.
    if (m_config.runSchedules) {
        const Result<qint64> revision = ScheduleRepository(*m_store).definitionRevision();
        if (revision && revision.value() != m_definitionRevision)
            reloadSchedules();
    }
    CommandRepository commands(*m_store);
    for (int i = 0; i < 100; ++i) {
        const Result<std::optional<Command>> next = commands.claimNext(m_config.name);
        if (!next || !next.value())
            return;
        executeCommand(*next.value());
    }
}

void Engine::executeCommand(const Command &command)
{
    CommandRepository commands(*m_store);
    QString error;
    RunExecution *execution = m_executions.value(command.runId);
    switch (command.kind) {
    case CommandKind::Start:
    case CommandKind::Rerun:
    case CommandKind::Backfill:
        admitRun(command.runId);
        break;
    case CommandKind::RerunFailed: {
        QSet<qint64> only;
        for (const QJsonValue &id : command.payload.value(QStringLiteral("tasks")).toArray())
            only.insert(id.toInteger());
        m_restrictions.insert(command.runId, only);
        admitRun(command.runId);
        break;
    }
    case CommandKind::Stop:
        if (!stopRun(command.runId))
            error = QStringLiteral("run %1 is not active").arg(command.runId);
        break;
    case CommandKind::Pause:
    case CommandKind::Resume:
        if (!execution)
            error = QStringLiteral("run %1 is not running").arg(command.runId);
        else if (command.kind == CommandKind::Pause)
            execution->pause();
        else
            execution->resume();
        break;
    }
    (void)commands.complete(command.id, error);
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
    const Result<Chain> chain = ChainRepository(*m_store).byPath(path);
    if (!chain)
        return Error::invalid(QStringLiteral("subchain %1: %2").arg(path, chain.error().message));
    // A chain that (through its subchains) starts itself would never end.
    QStringList lineage{path};
    RunRepository runs(*m_store);
    for (Run ancestor = parentRun; ancestor.id > 0;) {
        const Result<ChainPath> ancestorPath = ChainRepository(*m_store).pathOf(ancestor.chainId);
        lineage.prepend(ancestorPath ? ancestorPath->toString()
                                     : QString::number(ancestor.chainId));
        if (ancestor.chainId == chain->id)
            return Error::invalid(
                QStringLiteral("subchain cycle: %1").arg(lineage.join(QStringLiteral(" → "))));
        if (ancestor.parentRunId == 0)
            break;
        const Result<Run> up = runs.byId(ancestor.parentRunId);
        if (!up)
            break;
        ancestor = up.value();
    }
    Run child;
    child.chainId = chain->id;
    child.parentRunId = parentRun.id;
    child.trigger = RunTrigger::Subchain;
    child.scheduledFor = parentRun.scheduledFor;
    child.parameters = parentRun.parameters;
    const Result<Run> inserted = runs.insert(child);
    if (!inserted)
        return inserted.error();
    Q_EMIT runChanged(inserted.value());
    admitRun(inserted->id);
    return inserted->id;
}

void Engine::heartbeat()
{
    const qint64 now = m_clock->nowMs();
    int load = 0;
    for (const RunExecution *execution : std::as_const(m_executions))
        load += execution->runningCount();
    const Status beat = EngineSessionRepository(*m_store).heartbeat(
        m_sessionId, utcFromMs(now), utcFromMs(now + m_config.leaseMs), load);
    if (!beat && beat.error().kind == ErrorKind::NotFound)
        shutdown(ExitPolicy::Stop); // another engine took over our session
}

void Engine::shutdown(ExitPolicy policy)
{
    if (!m_running || m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_timer.stop();
    m_commandTimer.stop();
    if (policy == ExitPolicy::Stop) {
        for (RunExecution *execution : std::as_const(m_executions))
            execution->stop(RunState::Cancelled);
    }
    if (m_executions.isEmpty())
        finishShutdown();
}

void Engine::finishShutdown()
{
    if (!m_running)
        return;
    m_running = false;
    m_heartbeatTimer.stop();
    m_logs->flush();
    if (m_sessionId > 0)
        (void)EngineSessionRepository(*m_store).release(m_sessionId);
    m_sessionId = 0;
    Q_EMIT stopped();
}

} // namespace hg
