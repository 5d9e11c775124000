#include "taskhost.h"

#include "base/epochtime.h"
#include "clock.h"
#include "domain/parametersubstitution.h"
#include "executors/executorfactory.h"
#include "logbatcher.h"
#include "runrecorder.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"

namespace hg {

TaskHost::TaskHost(Store &store, RunRecorder &recorder, LogBatcher &logs, const Clock &clock,
                   const EngineConfig &config, std::function<Fence()> fence, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_recorder(recorder)
    , m_logs(logs)
    , m_clock(clock)
    , m_config(config)
    , m_fence(std::move(fence))
{
    m_soon.setSingleShot(true);
    m_soon.setInterval(100);
    connect(&m_soon, &QTimer::timeout, this, &TaskHost::look);
}

TaskHost::~TaskHost() = default;

int TaskHost::claim(int room)
{
    const Fence fence = m_fence();
    if (room <= 0 || !fence.isHeld() || m_stopping)
        return 0;
    const Result<QList<TaskRunOffers::Claimed>> claimed =
        TaskRunOffers(m_store).claim(fence, m_config.name, m_clock.nowMs(), room);
    if (!claimed)
        return 0;
    const quint64 transaction = m_store.inTransaction() ? m_store.transactionSerial() : 0;
    for (const TaskRunOffers::Claimed &attempt : claimed.value()) {
        Hosted &hosted = m_hosted[attempt.taskRunId];
        hosted.claim = attempt;
        hosted.fence = fence;
        hosted.transaction = transaction;
        prepare(hosted);
        // Started from the event loop, once the claim has committed: a process the store does
        // not know to be this engine's must never run.
        QMetaObject::invokeMethod(
            this, [this, id = attempt.taskRunId] { launch(id); }, Qt::QueuedConnection);
    }
    if (!claimed->isEmpty())
        Q_EMIT countChanged(count());
    return int(claimed->size());
}

void TaskHost::prepare(Hosted &hosted)
{
    const TaskRunOffers::Claimed &attempt = hosted.claim;
    const Result<Run> run = RunRepository(m_store).byId(attempt.runId);
    const Result<Chain> chain =
        run ? ChainRepository(m_store).byId(run->chainId) : Result<Chain>(run.error());
    const Result<Task> task = TaskRepository(m_store).byId(attempt.taskId);
    const Error *missing = !run ? &run.error() : !chain ? &chain.error() : nullptr;
    if (!missing && !task)
        missing = &task.error();
    if (missing) {
        hosted.unwrittenEnd = TaskOutcome{RunState::Failed, std::nullopt, missing->message};
        return;
    }
    ExecutorContext context;
    context.task = ParameterSubstitution::forRun(run.value(), chain.value()).applyTo(task.value());
    context.run = run.value();
    context.chainName = chain->name;
    context.attempt = attempt.attempt;
    context.config = &m_config;
    context.store = &m_store;
    Result<std::unique_ptr<TaskExecutor>> created = ExecutorFactory::create(context);
    if (!created) {
        hosted.unwrittenEnd = TaskOutcome{RunState::Failed, std::nullopt, created.error().message};
        return;
    }
    hosted.executor = std::move(created.value());
    TaskExecutor *executor = hosted.executor.get();
    const qint64 taskRunId = attempt.taskRunId;
    const qint64 runId = attempt.runId;
    connect(executor, &TaskExecutor::processStarted, this,
            [this, taskRunId](qint64 pid, qint64 ticks) {
                auto it = m_hosted.find(taskRunId);
                if (it == m_hosted.end() || it->second.abandoned)
                    return;
                // Recorded so that whoever recovers the attempt knows the process.
                const Result<bool> recorded =
                    TaskRunOffers(m_store).recordProcess(taskRunId, it->second.fence, pid, ticks);
                if (recorded && !recorded.value()) {
                    it->second.abandoned = true; // not ours any more: it must not run on
                    it->second.executor->stop(RunState::Cancelled);
                }
            });
    connect(executor, &TaskExecutor::outputLine, this,
            [this, runId, taskRunId](LogStream stream, const QString &text) {
                m_logs.add(LogLine{0, runId, taskRunId, stream, utcFromMs(m_clock.nowMs()), text});
            });
    connect(executor, &TaskExecutor::finished, this,
            [this, taskRunId](const TaskOutcome &outcome) { ended(taskRunId, outcome); });
}

void TaskHost::launch(qint64 taskRunId)
{
    const auto it = m_hosted.find(taskRunId);
    if (it == m_hosted.end() || it->second.launched)
        return;
    Hosted &hosted = it->second;
    if (!m_recorder.committed(hosted.transaction) || hosted.abandoned) {
        // The claim did not commit (or cannot say it did): not this engine's to run. A claim
        // that did commit is offered again by reconcile().
        release(taskRunId);
        return;
    }
    hosted.launched = true;
    if (m_stopping && !hosted.unwrittenEnd) {
        // Stopping before it started: another engine may take it (or the store is away, and
        // recovery interrupts it once this engine's session expired).
        (void)TaskRunOffers(m_store).giveBack(taskRunId, hosted.fence);
        release(taskRunId);
        return;
    }
    if (hosted.unwrittenEnd) {
        if (writeEnd(hosted) || m_stopping)
            release(taskRunId);
        return;
    }
    hosted.executor->start();
}

void TaskHost::ended(qint64 taskRunId, TaskOutcome outcome)
{
    const auto it = m_hosted.find(taskRunId);
    if (it == m_hosted.end())
        return;
    Hosted &hosted = it->second;
    if (hosted.abandoned) {
        release(taskRunId);
        return;
    }
    if (hosted.interrupting)
        outcome = TaskOutcome{RunState::Interrupted, outcome.exitCode,
                              tr("engine %1 stopped while it ran the attempt").arg(m_config.name)};
    hosted.unwrittenEnd = outcome;
    m_logs.flush(); // its output first, while the attempt is still this engine's
    if (writeEnd(hosted) || m_stopping)
        release(taskRunId);
}

bool TaskHost::writeEnd(Hosted &hosted)
{
    const TaskOutcome &end = *hosted.unwrittenEnd;
    const Result<bool> written = TaskRunOffers(m_store).finish(
        hosted.claim.taskRunId, hosted.fence, end.state, end.exitCode, end.error, m_clock.nowMs());
    if (!written && written.error().kind == ErrorKind::Unavailable) {
        Q_EMIT storeUnavailable(written.error().message);
        return false; // written again by reconcile() once the store is back
    }
    if (!written)
        qWarning("hourglass: %s", qUtf8Printable(written.error().message));
    else if (!written.value())
        qInfo("hourglass: task run %lld is no longer this engine's; its end was not written",
              qlonglong(hosted.claim.taskRunId));
    return true;
}

void TaskHost::release(qint64 taskRunId)
{
    const auto it = m_hosted.find(taskRunId);
    if (it == m_hosted.end())
        return;
    if (it->second.executor) {
        it->second.executor->disconnect(this);
        it->second.executor.release()->deleteLater();
    }
    m_hosted.erase(it);
    Q_EMIT countChanged(count());
    Q_EMIT slotFreed();
}

void TaskHost::lookSoon()
{
    if (!m_hosted.empty() && !m_soon.isActive())
        m_soon.start();
}

void TaskHost::look()
{
    m_soon.stop();
    QList<qint64> running;
    for (const auto &[id, hosted] : m_hosted) {
        if (hosted.launched && hosted.executor && !hosted.abandoned && !hosted.unwrittenEnd)
            running << id;
    }
    if (running.isEmpty())
        return;
    // Attempts of an earlier claim were all abandoned when the engine registered anew.
    const Result<QList<TaskRunOffers::Look>> looks =
        TaskRunOffers(m_store).look(running, m_fence());
    if (!looks)
        return; // the store is away: the attempts go on, looked at again at the next heartbeat
    QSet<qint64> seen;
    for (const TaskRunOffers::Look &look : looks.value()) {
        seen.insert(look.taskRunId);
        Hosted &hosted = m_hosted.at(look.taskRunId);
        if (!look.stillClaimed) {
            hosted.abandoned = true;
            qInfo("hourglass: task run %lld is no longer this engine's (its run's engine "
                  "withdrew it, or this engine's session was taken over): stopped",
                  qlonglong(look.taskRunId));
            hosted.executor->stop(RunState::Cancelled);
        } else if (look.stopRequest) {
            hosted.executor->stop(*look.stopRequest);
        }
    }
    for (qint64 id : std::as_const(running)) {
        if (!seen.contains(id)) { // its run was removed meanwhile
            m_hosted.at(id).abandoned = true;
            m_hosted.at(id).executor->stop(RunState::Cancelled);
        }
    }
}

void TaskHost::reconcile()
{
    QList<qint64> unwritten;
    QList<qint64> known;
    for (const auto &[id, hosted] : m_hosted) {
        known << id;
        if (hosted.launched && hosted.unwrittenEnd && !hosted.abandoned)
            unwritten << id;
    }
    for (qint64 id : std::as_const(unwritten)) {
        if (!writeEnd(m_hosted.at(id)))
            return;
        release(id);
    }
    const Fence fence = m_fence();
    if (!fence.isHeld())
        return;
    if (const Result<int> reoffered = TaskRunOffers(m_store).reofferUnknown(fence, known);
        reoffered && reoffered.value() > 0)
        qInfo("hourglass: %d task runs claimed by a commit that seemed to fail are offered again",
              reoffered.value());
    look();
}

void TaskHost::forEachHosted(const std::function<void(qint64, Hosted &)> &act)
{
    QList<qint64> ids;
    for (const auto &[id, hosted] : m_hosted)
        ids << id;
    for (qint64 id : std::as_const(ids)) {
        if (const auto it = m_hosted.find(id); it != m_hosted.end())
            act(id, it->second);
    }
}

void TaskHost::stopAll()
{
    m_stopping = true;
    forEachHosted([this](qint64 id, Hosted &hosted) {
        hosted.interrupting = true;
        if (hosted.launched && hosted.unwrittenEnd)
            release(id); // ended, its end refused by the store: recovery interrupts it
        else if (hosted.launched && hosted.executor)
            hosted.executor->stop(RunState::Cancelled); // ended() writes it as interrupted
    });
}

void TaskHost::abandonAll()
{
    forEachHosted([this](qint64 id, Hosted &hosted) {
        hosted.abandoned = true;
        if (hosted.launched && hosted.executor && !hosted.unwrittenEnd)
            hosted.executor->stop(RunState::Cancelled);
        else
            release(id);
    });
}

} // namespace hg
