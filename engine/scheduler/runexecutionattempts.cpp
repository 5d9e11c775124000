// A RunExecution's attempts: one task's row written, its executor made and launched once the
// row is committed, its end recorded with the run's next step in one commit, and its retry.
#include "base/epochtime.h"
#include "clock.h"
#include "executors/executorfactory.h"
#include "offeredtaskexecutor.h"
#include "runexecution.h"
#include "runrecorder.h"
#include "store/store.h"
#include "store/taskrunoffers.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace hg {

Result<std::unique_ptr<TaskExecutor>> RunExecution::createExecutor(const TaskState &state)
{
    if (state.offered)
        return std::unique_ptr<TaskExecutor>(
            std::make_unique<OfferedTaskExecutor>(*m_board, state.row));
    ExecutorContext context;
    context.task = m_parameters.applyTo(state.task);
    context.run = m_run;
    context.chainName = m_chain.name;
    context.attempt = state.attempt;
    context.config = &m_config;
    context.store = &m_store;
    context.subchains = m_subchains;
    return ExecutorFactory::create(context);
}

void RunExecution::startTask(qint64 taskId)
{
    startAttempt(taskId, false);
}

void RunExecution::offerTask(qint64 taskId)
{
    if (isOfferable(taskId))
        startAttempt(taskId, true);
}

void RunExecution::startAttempt(qint64 taskId, bool offered)
{
    TaskState &state = m_tasks[taskId];
    if (state.phase != Phase::Ready)
        return;
    const qint64 now = nowMs();
    const bool retryRowWritten = state.row.state == RunState::Waiting && state.row.id > 0
                                 && m_recorder.committed(state.rowTransaction)
                                 && !m_recorder.isRefused(state.row.id);
    TaskRun row = state.row;
    // A retry whose waiting row could not be written (the store was away) has its number.
    const bool written = state.attempt > 0 && retryRowWritten;
    if (!written) {
        row = TaskRun{};
        row.runId = m_run.id;
        row.taskId = taskId;
        row.attempt = state.row.state == RunState::Waiting ? state.attempt : state.attempt + 1;
        row.queuedAt = utcFromMs(now);
    }
    // An offered attempt waits, queued, for an engine to claim it (TaskRunOffers).
    row.state = offered ? RunState::Queued : RunState::Running;
    if (!offered)
        row.startedAt = utcFromMs(now);
    // A retry's waiting row is started as a new attempt's row is stored: at once, and only while
    // no engine claimed it (an offer a commit reported as failed made after all).
    const Result<TaskRun> stored =
        written ? m_recorder.reuseTaskRun(row) : m_recorder.insertTaskRun(row);
    if (!stored) {
        const ErrorKind why = stored.error().kind;
        if (why == ErrorKind::Unavailable || why == ErrorKind::Fenced)
            return; // nothing started; stays ready for when the store (or claim) is back
        state.phase = Phase::Running;
        state.attempt = row.attempt;
        taskFinished(taskId, TaskOutcome{RunState::Failed, std::nullopt, stored.error().message});
        return;
    }
    state.attemptBefore = state.attempt;
    state.rowBefore = state.row;
    state.rowTransactionBefore = state.rowTransaction;
    state.attempt = row.attempt;
    state.row = stored.value();
    // launch() starts nothing unless this transaction commits.
    state.rowTransaction = m_store.inTransaction() ? m_store.transactionSerial() : 0;
    // Claimed by an engine already: followed as an offer, wherever this dispatch meant it to run.
    const bool claimed = !state.row.workerName.isEmpty();
    state.offered = offered || claimed;
    state.phase = Phase::Running;
    if (offered && !claimed) {
        // In the dispatch's transaction, which a refused offer fails (it has no savepoint): should
        // it not commit, launch() finds the attempt unwritten and it is ready again.
        if (const Status s = TaskRunOffers(m_store).offer(state.row.id, now);
            !s && s.error().kind != ErrorKind::Unavailable) {
            taskFinished(taskId, TaskOutcome{RunState::Failed, std::nullopt, s.error().message});
            return;
        }
    }
    Q_EMIT taskRunChanged(state.row);

    Result<std::unique_ptr<TaskExecutor>> created = createExecutor(state);
    if (!created) {
        taskFinished(taskId, TaskOutcome{RunState::Failed, std::nullopt, created.error().message});
        return;
    }
    state.executor = std::move(created.value());
    state.launched = false;
    TaskExecutor *executor = state.executor.get();
    if (auto *offeredExecutor = qobject_cast<OfferedTaskExecutor *>(executor)) {
        // Claimed by a worker: its pid, start and engine show as this engine's own would.
        connect(offeredExecutor, &OfferedTaskExecutor::rowChanged, this,
                [this, taskId](const TaskRun &claimedRow) {
                    m_tasks[taskId].row = claimedRow;
                    Q_EMIT taskRunChanged(claimedRow);
                });
    }
    const qint64 taskRunId = state.row.id;
    connect(executor, &TaskExecutor::processStarted, this,
            [this, taskId](qint64 pid, qint64 ticks) {
                TaskState &s = m_tasks[taskId];
                s.row.pid = pid;
                s.row.processStartTicks = ticks;
                // Recorded so a later engine can kill the group if this one dies.
                if (const Status st = m_recorder.updateTaskRun(s.row); st)
                    Q_EMIT taskRunChanged(s.row);
            });
    connect(executor, &TaskExecutor::outputLine, this,
            [this, taskRunId](LogStream stream, const QString &text) {
                Q_EMIT logLine(LogLine{0, m_run.id, taskRunId, stream, utcFromMs(nowMs()), text});
            });
    connect(executor, &TaskExecutor::notificationRequested, this,
            [this](const QString &title, const QString &message) {
                Q_EMIT notificationRequested(m_run, title, message);
            });
    // Recorded with the other ends of this turn of the event loop, in one transaction.
    connect(executor, &TaskExecutor::finished, this, [this, taskId](const TaskOutcome &outcome) {
        m_recorder.coalesce(this, [this, taskId, outcome] { taskFinished(taskId, outcome); });
    });
    // Launched from the event loop, after the engine's dispatch pass has committed this
    // attempt's row: a crash can then never leave a process the store knows nothing of (the
    // next engine would run the attempt a second time beside the orphan).
    QMetaObject::invokeMethod(
        this, [this, taskId] { launch(taskId); }, Qt::QueuedConnection);
}

void RunExecution::launch(qint64 taskId)
{
    TaskState &state = m_tasks[taskId];
    if (state.phase != Phase::Running || !state.executor || state.launched)
        return;
    if (m_stopping && state.offered && !m_abandoned) { // withdrawn, or its worker told
        state.launched = true;
        state.executor->start();
        state.executor->stop(m_stopReason.value_or(RunState::Cancelled));
        return;
    }
    if (m_stopping) { // stopped between the dispatch and now: it never starts
        taskFinished(taskId, TaskOutcome{m_stopReason.value_or(RunState::Cancelled), std::nullopt,
                                         QStringLiteral("stopped before it started")});
        return;
    }
    if (!m_recorder.committed(state.rowTransaction) || m_recorder.isRefused(state.row.id)) {
        // The dispatch that wrote this attempt's row did not commit (or cannot say it did): an
        // attempt the store may not know must not start. Ready again, written anew (or, when
        // the commit did happen, its row taken over: RunRecorder::insertTaskRun()).
        state.executor.reset();
        state.phase = Phase::Ready;
        state.offered = false;
        state.attempt = state.attemptBefore;
        state.row = state.rowBefore;
        state.rowTransaction = state.rowTransactionBefore;
        Q_EMIT readyChanged();
        return;
    }
    state.launched = true;
    state.executor->start();
}

void RunExecution::taskFinished(qint64 taskId, const TaskOutcome &outcome)
{
    if (m_abandoned) {
        m_tasks[taskId].phase = Phase::Done;
        if (TaskState &state = m_tasks[taskId]; state.executor) {
            state.executor->disconnect(this);
            state.executor.release()->deleteLater();
        }
        finishIfDone();
        return;
    }
    // The attempt's end, the retry or the run's end: one commit. With the store away no
    // transaction begins: the end is recorded all the same, and the recorder holds its writes.
    bool recorded = false;
    (void)m_store.transaction([&] {
        recorded = true;
        recordTaskEnd(taskId, outcome);
        return Status{};
    });
    if (!recorded)
        recordTaskEnd(taskId, outcome);
}

void RunExecution::recordTaskEnd(qint64 taskId, const TaskOutcome &outcome)
{
    TaskState &state = m_tasks[taskId];
    if (state.phase == Phase::Done)
        return;
    const auto *offered = qobject_cast<const OfferedTaskExecutor *>(state.executor.get());
    if (offered && offered->endWritten()) {
        state.row = offered->row(); // its worker (or recovery) wrote the end
    } else {
        state.row.state = outcome.state;
        state.row.exitCode = outcome.exitCode;
        state.row.error = outcome.state == RunState::Cancelled && !m_stopWhy.isEmpty()
                              ? m_stopWhy
                              : outcome.error;
        state.row.finishedAt = utcFromMs(nowMs());
        if (const Status s = m_recorder.updateTaskRun(state.row); !s)
            writeSystemLine(state.row.id, s.error().message);
    }
    if (!state.row.error.isEmpty())
        writeSystemLine(state.row.id,
                        QStringLiteral("%1 attempt %2: %3")
                            .arg(state.task.name, QString::number(state.attempt), state.row.error),
                        LogStream::Failure);
    Q_EMIT taskRunChanged(state.row);
    if (state.executor) {
        state.executor->disconnect(this);
        state.executor.release()->deleteLater();
    }

    // Interrupted: the engine that ran an offered attempt went away. Retried as the task's
    // retries allow, as a run taken over is; with none left it counts as failed.
    const bool interrupted = outcome.state == RunState::Interrupted;
    const bool failed =
        outcome.state == RunState::Failed || outcome.state == RunState::TimedOut || interrupted;
    state.offered = false;
    if (failed && !m_stopping && state.attempt <= state.task.maxRetries) {
        scheduleRetry(state);
        Q_EMIT readyChanged();
        return;
    }
    state.phase = Phase::Done;
    state.outcome = interrupted ? RunState::Failed : outcome.state;
    state.effectiveFailure = failed && !state.task.ignoreError;
    if (state.effectiveFailure && m_chain.onFailure == FailureStrategy::End && !m_stopping) {
        // "end": nothing more starts and what still runs is stopped.
        m_stopping = true;
        for (auto &[otherId, other] : m_tasks) {
            if (other.phase == Phase::Running && other.executor && other.launched) {
                m_stopWhy =
                    tr("stopped: %1 failed, and the chain ends on a failure").arg(state.task.name);
                other.executor->stop(RunState::Cancelled);
            } else if (other.phase == Phase::Waiting)
                other.phase = Phase::Blocked;
        }
    }
    refreshReadiness();
    finishIfDone();
}

void RunExecution::scheduleRetry(TaskState &state)
{
    // In double, then clamped: a backoff of 10 after 20 attempts is no longer an int.
    const double delayMs = 1000.0 * state.task.retryDelaySeconds
                           * std::pow(state.task.retryBackoff, state.attempt - 1);
    const qint64 retryMs = qint64(std::min(delayMs, double(LongTimer::maximumMs)));
    const qint64 delaySeconds = retryMs / 1000;
    ++state.attempt;
    state.phase = Phase::Waiting;
    TaskRun row;
    row.runId = m_run.id;
    row.taskId = state.task.id;
    row.attempt = state.attempt;
    row.state = RunState::Waiting;
    row.queuedAt = utcFromMs(nowMs());
    const Result<TaskRun> inserted = m_recorder.insertTaskRun(row);
    if (!inserted && inserted.error().kind != ErrorKind::Unavailable) {
        state.phase = Phase::Done;
        state.outcome = RunState::Failed;
        state.effectiveFailure = !state.task.ignoreError;
        return;
    }
    // Unwritten while the store is away: the attempt's row is written when it starts.
    state.row = inserted ? inserted.value() : row;
    state.rowTransaction = inserted && m_store.inTransaction() ? m_store.transactionSerial() : 0;
    Q_EMIT taskRunChanged(state.row);
    writeSystemLine(state.row.id, QStringLiteral("%1: retry %2 of %3 in %4 s")
                                      .arg(state.task.name, QString::number(state.attempt - 1),
                                           QString::number(state.task.maxRetries),
                                           QString::number(delaySeconds)));
    const qint64 taskId = state.task.id;
    state.retryTimer = std::make_unique<LongTimer>();
    connect(state.retryTimer.get(), &LongTimer::timeout, this, [this, taskId] {
        TaskState &s = m_tasks[taskId];
        if (s.phase == Phase::Waiting && !m_stopping) {
            markReady(s);
            Q_EMIT readyChanged();
        }
    });
    state.retryTimer->start(retryMs);
}

} // namespace hg
