#include "runexecution.h"

#include "base/epochtime.h"
#include "clock.h"
#include "executors/executorfactory.h"
#include "offeredtaskexecutor.h"
#include "recovery.h"
#include "runrecorder.h"
#include "store/store.h"
#include "store/taskrunoffers.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace hg {
namespace {

int priorityRank(Priority priority)
{
    return int(priority); // Highest = 0 ... Lowest = 4
}

} // namespace

RunExecution::RunExecution(Store &store, RunRecorder &recorder, const Clock &clock,
                           const EngineConfig &config, Run run, Chain chain, QList<Task> tasks,
                           QList<Dependency> dependencies, SubchainLauncher *subchains,
                           QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_recorder(recorder)
    , m_subchains(subchains)
    , m_clock(clock)
    , m_config(config)
    , m_run(std::move(run))
    , m_chain(std::move(chain))
    , m_dependencies(std::move(dependencies))
{
    for (Task &task : tasks) {
        TaskState state;
        state.task = std::move(task);
        const qint64 id = state.task.id;
        m_tasks.emplace(id, std::move(state));
    }
    m_parameters = ParameterSubstitution::forRun(m_run, m_chain);

    connect(&m_chainTimeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
}

RunExecution::~RunExecution() = default;

qint64 RunExecution::nowMs() const
{
    return m_clock.nowMs();
}

void RunExecution::begin()
{
    setRunState(RunState::Running);
    if (m_chain.timeoutSeconds > 0)
        m_chainTimeout.start(qint64(m_chain.timeoutSeconds) * 1000);
    refreshReadiness();
    finishIfDone(); // a chain without tasks ends at once
}

void RunExecution::restrictTo(const QSet<qint64> &taskIds)
{
    for (auto &[id, state] : m_tasks) {
        if (!taskIds.contains(state.task.id)) {
            state.phase = Phase::Done;
            state.outcome = RunState::Succeeded;
        }
    }
}

void RunExecution::restoreHistory(const QList<TaskRun> &attempts)
{
    QHash<qint64, TaskRun> last;
    for (const TaskRun &attempt : attempts) {
        if (!last.contains(attempt.taskId) || last.value(attempt.taskId).attempt < attempt.attempt)
            last.insert(attempt.taskId, attempt);
    }
    for (auto it = last.cbegin(); it != last.cend(); ++it) {
        if (!m_tasks.contains(it.key()))
            continue;
        TaskState &state = m_tasks[it.key()];
        const TaskRun &attempt = it.value();
        state.attempt = attempt.attempt;
        state.row = attempt;
        const Recovery::Fate fate = Recovery::fateOf(attempt, state.task.maxRetries);
        if (fate.retry) {
            writeSystemLine(attempt.id, QStringLiteral("%1: attempt %2 was interrupted; it is "
                                                       "retried as attempt %3")
                                            .arg(state.task.name, QString::number(attempt.attempt),
                                                 QString::number(attempt.attempt + 1)));
            continue; // stays Pending; its next start writes a new attempt
        }
        state.phase = Phase::Done;
        state.outcome = fate.outcome;
        const bool failed =
            state.outcome == RunState::Failed || state.outcome == RunState::TimedOut;
        state.effectiveFailure = failed && !state.task.ignoreError;
    }
}

bool RunExecution::edgeSatisfied(const Dependency &edge, bool *impossible) const
{
    const TaskState &upstream = m_tasks.at(edge.upstreamId);
    *impossible = false;
    if (upstream.phase == Phase::Blocked) {
        *impossible = true;
        return false;
    }
    if (upstream.phase != Phase::Done)
        return false;
    bool met = false;
    switch (edge.condition) {
    case DependencyCondition::Success:
        met = !upstream.effectiveFailure && upstream.outcome != RunState::Cancelled;
        break;
    case DependencyCondition::Completion:
        met = upstream.outcome != RunState::Cancelled;
        break;
    case DependencyCondition::Failure:
        met = upstream.effectiveFailure;
        break;
    }
    *impossible = !met;
    return met;
}

void RunExecution::refreshReadiness()
{
    // Blocking spreads along the DAG, so repeat until nothing changes.
    for (bool changed = true; changed;) {
        changed = false;
        for (auto &[id, state] : m_tasks) {
            if (state.phase != Phase::Pending)
                continue;
            bool ready = true;
            bool blocked = false;
            for (const Dependency &edge : m_dependencies) {
                if (edge.taskId != state.task.id)
                    continue;
                bool impossible = false;
                if (!edgeSatisfied(edge, &impossible))
                    ready = false;
                blocked = blocked || impossible;
            }
            if (blocked) {
                state.phase = Phase::Blocked;
                changed = true;
            } else if (ready) {
                markReady(state);
                changed = true;
            }
        }
    }
    Q_EMIT readyChanged();
}

void RunExecution::markReady(TaskState &state)
{
    state.phase = Phase::Ready;
    state.readySinceMs = nowMs();
}

bool RunExecution::isOfferable(qint64 taskId) const
{
    const auto state = m_tasks.find(taskId);
    return m_board && state != m_tasks.cend() && state->second.phase == Phase::Ready
           && state->second.task.kind != TaskKind::Subchain
           && state->second.task.kind != TaskKind::Builtin;
}

QList<qint64> RunExecution::offerableTasks() const
{
    QList<qint64> ids;
    if (!m_board || m_paused || m_stopping || m_finished)
        return ids;
    for (const auto &[id, state] : m_tasks) {
        if (isOfferable(id))
            ids << id;
    }
    return ids;
}

qint64 RunExecution::readySinceMs(qint64 taskId) const
{
    const auto state = m_tasks.find(taskId);
    return state == m_tasks.cend() ? 0 : state->second.readySinceMs;
}

QList<qint64> RunExecution::readyTasks() const
{
    QList<const TaskState *> ready;
    if (m_paused || m_stopping || m_finished)
        return {};
    for (const auto &[id, state] : m_tasks) {
        if (state.phase == Phase::Ready)
            ready << &state;
    }
    std::sort(ready.begin(), ready.end(), [](const TaskState *a, const TaskState *b) {
        if (a->task.priority != b->task.priority)
            return priorityRank(a->task.priority) < priorityRank(b->task.priority);
        return a->task.name < b->task.name;
    });
    QList<qint64> ids;
    for (const TaskState *state : ready)
        ids << state->task.id;
    return ids;
}

int RunExecution::runningCount() const
{
    return int(std::count_if(m_tasks.cbegin(), m_tasks.cend(), [](const auto &entry) {
        return entry.second.phase == Phase::Running;
    }));
}

int RunExecution::slotsInUse() const
{
    return int(std::count_if(m_tasks.cbegin(), m_tasks.cend(), [](const auto &entry) {
        return entry.second.phase == Phase::Running && entry.second.task.kind != TaskKind::Subchain
               && !entry.second.offered;
    }));
}

bool RunExecution::takesSlot(qint64 taskId) const
{
    const auto state = m_tasks.find(taskId);
    return state != m_tasks.cend() && state->second.task.kind != TaskKind::Subchain;
}

void RunExecution::pause()
{
    if (m_finished || m_paused)
        return;
    m_paused = true;
    setRunState(RunState::Paused);
}

void RunExecution::resume()
{
    if (m_finished || !m_paused)
        return;
    m_paused = false;
    setRunState(RunState::Running);
    Q_EMIT readyChanged();
}

void RunExecution::stop(RunState reason, const QString &why)
{
    if (m_finished)
        return;
    m_stopping = true;
    m_stopReason = reason;
    m_stopWhy = why;
    for (auto &[id, state] : m_tasks) {
        if (state.phase == Phase::Running && state.executor && state.launched) {
            auto *offered = qobject_cast<OfferedTaskExecutor *>(state.executor.get());
            if (offered && m_abandoned)
                offered->abandon(); // the new owner decides what becomes of it
            else
                state.executor->stop(reason);
        } else if (state.phase == Phase::Waiting) {
            state.phase = Phase::Done;
            state.outcome = RunState::Cancelled;
            state.row.state = RunState::Cancelled;
            state.row.finishedAt = utcFromMs(nowMs());
            if (state.row.id == 0 || m_abandoned)
                continue; // its row was never written (the store was away), or is not ours
            if (const Status s = m_recorder.updateTaskRun(state.row); s)
                Q_EMIT taskRunChanged(state.row);
        }
    }
    finishIfDone();
}

bool RunExecution::startedAnyTask() const
{
    return std::any_of(m_tasks.cbegin(), m_tasks.cend(), [](const auto &entry) {
        return entry.second.attempt > 0 || entry.second.launched || entry.second.offered;
    });
}

void RunExecution::abandon()
{
    m_abandoned = true;
    stop(RunState::Interrupted);
}

void RunExecution::finishIfDone()
{
    if (m_finished)
        return;
    for (const auto &[id, state] : m_tasks) {
        if (state.phase == Phase::Running || state.phase == Phase::Waiting)
            return;
        if (state.phase == Phase::Ready && !m_stopping)
            return;
    }
    m_finished = true;
    m_chainTimeout.stop();
    Q_EMIT finishing();
    RunState final = RunState::Succeeded;
    if (m_stopReason) {
        final = *m_stopReason;
    } else {
        for (const auto &[id, state] : m_tasks) {
            if (state.effectiveFailure)
                final = RunState::Failed;
        }
    }
    setRunState(final);
}

void RunExecution::setRunState(RunState state)
{
    m_run.state = state;
    const QDateTime now = utcFromMs(nowMs());
    if (m_abandoned) {
        Q_EMIT runStateChanged(m_run); // the engine lets go of it; the store is not told
        return;
    }
    if (const Status s = m_recorder.setRunState(m_run.id, state, now, m_config.name); !s)
        writeSystemLine(0, s.error().message);
    if (state == RunState::Running && !m_run.startedAt.isValid())
        m_run.startedAt = now;
    if (isTerminal(state))
        m_run.finishedAt = now;
    m_run.engineName = m_config.name;
    Q_EMIT runStateChanged(m_run);
}

void RunExecution::writeSystemLine(qint64 taskRunId, const QString &text, LogStream stream)
{
    if (m_abandoned)
        return;
    Q_EMIT logLine(LogLine{0, m_run.id, taskRunId, stream, utcFromMs(nowMs()), text});
}

} // namespace hg
