// The Engine's dispatch half: queued runs claimed (on a shared store, in batches and in
// priority order), admitted within the slots and limits that hold across engines, and their
// ready tasks started, one transaction a pass. engine.cpp holds the rest.
#include "admission.h"
#include "alertwatch.h"
#include "base/epochtime.h"
#include "clock.h"
#include "engine.h"
#include "enginelease.h"
#include "logbatcher.h"
#include "networkpresence.h"
#include "offerboard.h"
#include "runexecution.h"
#include "runrecorder.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/runownership.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"
#include "taskhost.h"

#include <QPointer>

namespace hg {

void Engine::admitRun(qint64 runId)
{
    if (m_queuedRuns.contains(runId) || m_executions.contains(runId))
        return;
    // Another engine may have claimed the run already: then it is that engine's.
    const Result<bool> claimed =
        RunOwnership(*m_store).claim(runId, m_lease->fence(), m_config.name);
    if (!claimed && claimed.error().kind == ErrorKind::Unavailable) {
        m_admitWhenBack.insert(runId); // asked for while the store refuses writes
        return;
    }
    if (!claimed || !claimed.value())
        return;
    m_recorder->noteClaims({runId}, m_config.name);
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

bool Engine::admit(qint64 runId, Admission &admission)
{
    // A run this engine just made is known; anything else is read (it may have changed).
    Result<Run> run = m_knownQueued.contains(runId) ? Result<Run>(m_knownQueued.value(runId))
                                                    : RunRepository(*m_store).byId(runId);
    if (!run && run.error().kind == ErrorKind::Unavailable)
        return false; // not readable now: it stays queued here
    if (!run || run->state != RunState::Queued) {
        m_knownQueued.remove(runId);
        return true; // gone or already decided: drop it from the queue
    }
    const Result<Chain> chain = m_chains.contains(run->chainId)
                                    ? Result<Chain>(m_chains.value(run->chainId))
                                    : ChainRepository(*m_store).byId(run->chainId);
    if (!chain && chain.error().kind == ErrorKind::Unavailable)
        return false;
    if (!chain) {
        m_knownQueued.remove(runId);
        return true;
    }
    // A trigger's run waits for no network: it is not started (one the user asked for from
    // the missed-runs inbox, a batch, is).
    if (chain->needsNetwork && run->trigger == RunTrigger::Trigger && run->batchId == 0
        && !networkUp()) {
        cancelOffline(run.value());
        return true;
    }
    if (admission.decide(Admission::candidate(run.value(), chain.value()))
        != Admission::Verdict::Admit)
        return false;
    if (!startExecution(run.value(), chain.value()))
        return false;
    return true;
}

bool Engine::networkUp() const
{
    return m_config.online ? m_config.online() : NetworkPresence::online();
}

void Engine::cancelOffline(const Run &run)
{
    m_knownQueued.remove(run.id);
    const QDateTime now = utcFromMs(m_clock->nowMs());
    if (!RunRepository(*m_store).setState(run.id, RunState::Cancelled, now, m_config.name))
        return;
    LogLine line;
    line.runId = run.id;
    line.stream = LogStream::System;
    line.at = now;
    line.text = tr("not started: the computer has no network, and this chain runs only with one");
    m_logs->add(line);
    Run cancelled = run;
    cancelled.state = RunState::Cancelled;
    cancelled.finishedAt = now;
    Q_EMIT runChanged(cancelled);
    Q_EMIT m_subchains.runEnded(run.id, RunState::Cancelled);
}

RunExecution *Engine::startExecution(const Run &run, const Chain &chain)
{
    // Definitions are cached until the next reload (the definition revision moves on edits).
    ChainDefinition &definition = m_definitions[chain.id];
    if (!definition.loaded) {
        const Result<QList<Task>> loadedTasks = TaskRepository(*m_store).list(chain.id);
        const Result<QList<Dependency>> loadedEdges = DependencyRepository(*m_store).list(chain.id);
        if (!loadedTasks || !loadedEdges)
            return nullptr;
        definition = ChainDefinition{loadedTasks.value(), loadedEdges.value(), true};
    }
    // A run that never started has no attempts to restore.
    const Result<QList<TaskRun>> history = run.startedAt.isValid()
                                               ? TaskRunRepository(*m_store).listForRun(run.id)
                                               : Result<QList<TaskRun>>(QList<TaskRun>());
    if (!history)
        return nullptr;
    m_knownQueued.remove(run.id);
    auto *execution = new RunExecution(*m_store, *m_recorder, *m_clock, m_config, run, chain,
                                       definition.tasks, definition.edges, &m_subchains, this);
    execution->setOfferBoard(m_board.get());
    execution->restoreHistory(history.value());
    if (const auto only = m_restrictions.constFind(run.id); only != m_restrictions.constEnd())
        execution->restrictTo(only.value());
    m_executions.insert(run.id, execution);
    m_occupancy.add(Admission::activeRun(run, chain));
    connect(execution, &RunExecution::readyChanged, this, &Engine::scheduleDispatch);
    connect(execution, &RunExecution::taskRunChanged, this, &Engine::taskRunChanged);
    connect(execution, &RunExecution::logLine, this,
            [this](const LogLine &line) { m_logs->add(line); });
    connect(execution, &RunExecution::finishing, m_logs.get(), &LogBatcher::flush);
    connect(execution, &RunExecution::notificationRequested, this, &Engine::notificationRequested);
    connect(execution, &RunExecution::runStateChanged, this, [this, execution](const Run &changed) {
        Q_EMIT runChanged(changed);
        if (changed.state == RunState::Running)
            tellAlerts(m_alerts->runStarted(changed, m_clock->nowMs()));
        else if (isTerminal(changed.state))
            tellAlerts(m_alerts->runEnded(changed, m_clock->nowMs()));
        // An abandoned run ends here as interrupted, which is no terminal state (its new
        // owner recovers it): it must still leave, or it held its slot and its chain's
        // instance for good, and a stopping engine waited on it forever.
        if (isTerminal(changed.state) || execution->isFinished())
            QMetaObject::invokeMethod(
                this,
                [this, finished = QPointer<RunExecution>(execution)] {
                    if (finished)
                        runFinished(finished);
                },
                Qt::QueuedConnection);
    });
    execution->begin();
    return execution;
}

void Engine::dispatch()
{
    m_dispatchScheduled = false;
    if (!m_running || m_storeLostSinceMs >= 0)
        return;
    // One transaction for the whole pass: a commit costs more than all the statements of a
    // run's admission and its first task's start together.
    (void)m_store->transaction([this] {
        if (!m_shuttingDown) {
            if (m_claimMore && m_config.runSchedules)
                claimQueuedRuns();
            admitQueuedRuns();
            claimOffers();
        }
        startReadyTasks();
        if (!m_shuttingDown)
            offerWaitingTasks();
        return Status{};
    });
}

qsizetype Engine::claimRoom() const
{
    // Enough runs here to keep every slot busy with one waiting behind it, and no more: what
    // one engine claims beyond that, it would only keep from the others.
    const qsizetype active = m_executions.size();
    return std::max<qsizetype>(
        0, std::min<qsizetype>(qsizetype(2) * m_config.slotCount, m_config.maxActiveRuns) - active);
}

void Engine::claimQueuedRuns()
{
    const qsizetype room = claimRoom() - m_queuedRuns.size();
    if (room <= 0 || !m_lease->isHeld())
        return;
    constexpr qsizetype claimBatch = 64;
    const int limit = int(std::min(room, claimBatch));
    // Locked now and written with the runs' starts at the end of this pass, where the
    // recorder keeps writes back (PostgreSQL): one row update for the claim and the start.
    const bool keptBack = m_recorder->keepsBack();
    RunOwnership ownership(*m_store);
    const Result<QList<qint64>> claimed =
        keptBack ? ownership.lockQueued(m_lease->fence(), m_config.name, limit)
                 : ownership.claimQueued(m_lease->fence(), m_config.name, limit);
    if (!claimed)
        return;
    m_claimMore = claimed->size() == limit;
    if (claimed->isEmpty())
        return;
    // Read before the claims are kept back: a read would write them first.
    if (const Result<QList<Run>> runs = RunRepository(*m_store).byIds(claimed.value())) {
        for (const Run &run : runs.value())
            m_knownQueued.insert(run.id, run);
    }
    if (keptBack)
        m_recorder->keepBackClaims(claimed.value(), m_config.name);
    else
        m_recorder->noteClaims(claimed.value(), m_config.name);
    m_queuedRuns << claimed.value();
}

bool Engine::lockAdmission()
{
    if (m_store->backend() != StoreBackend::PostgreSql)
        return true;
    // Exclusively when a run waiting here is of a limited chain (or not known yet), so the
    // counts read next are still true when this pass admits.
    bool limited = m_chains.isEmpty();
    for (qsizetype i = 0; i < m_queuedRuns.size() && !limited; ++i) {
        const auto run = m_knownQueued.constFind(m_queuedRuns.at(i));
        const auto chain = run == m_knownQueued.constEnd() ? m_chains.constEnd()
                                                           : m_chains.constFind(run->chainId);
        limited = chain == m_chains.constEnd() || chain->maxInstances > 0 || chain->exclusive
                  || run->batchParallel > 0;
    }
    RunOwnership ownership(*m_store);
    if (!ownership.lockAdmission(limited))
        return false;
    const Result<QList<RunOwnership::ActiveElsewhere>> elsewhere =
        ownership.activeElsewhere(m_lease->fence());
    if (!elsewhere)
        return false;
    QList<Admission::Elsewhere> runs;
    runs.reserve(elsewhere->size());
    for (const RunOwnership::ActiveElsewhere &active : elsewhere.value())
        runs << Admission::Elsewhere{active.chainId, active.batchId, active.exclusive,
                                     active.count};
    m_occupancy.setElsewhere(runs);
    return true;
}

void Engine::admitQueuedRuns()
{
    if (m_queuedRuns.isEmpty() || m_occupancy.isFull() || !lockAdmission())
        return;
    // Bounded, so one dispatch never walks thousands of executions.
    for (qsizetype i = 0; i < m_queuedRuns.size() && !m_occupancy.isFull();) {
        if (admit(m_queuedRuns.at(i), m_occupancy))
            m_queuedRuns.removeAt(i);
        else
            ++i;
    }
}

void Engine::startReadyTasks()
{
    QList<Admission::RunTasks> runs;
    runs.reserve(m_executions.size());
    int inUse = m_host ? m_host->count() : 0; // attempts run here for other engines' runs
    for (const RunExecution *execution : std::as_const(m_executions)) {
        runs << Admission::RunTasks{execution->run().id,          execution->chain().priority,
                                    execution->chain().exclusive, execution->run().parentRunId != 0,
                                    execution->slotsInUse(),      {}};
        inUse += runs.last().slotsInUse;
    }
    if (inUse >= m_config.slotCount)
        return; // all slots taken: no run's ready tasks need to be looked at
    for (Admission::RunTasks &run : runs) {
        const RunExecution *execution = m_executions.value(run.runId);
        for (qint64 taskId : execution->readyTasks())
            run.ready << Admission::ReadyTask{taskId, execution->takesSlot(taskId)};
    }
    // A start that fails at once frees its slot again; the readyChanged() it causes brings
    // another pass, which gives the slot to the next task.
    const int ownSlots = m_config.slotCount - (m_host ? m_host->count() : 0);
    for (const Admission::TaskStart &start : Admission::startTasks(runs, ownSlots)) {
        if (RunExecution *execution = m_executions.value(start.runId))
            execution->startTask(start.taskId);
    }
}

} // namespace hg
