#include "subchainexecutor.h"

#include "subchainlauncher.h"

namespace hg {

SubchainExecutor::SubchainExecutor(SubchainLauncher *launcher, QString chainPath, Run parentRun,
                                   qint64 timeoutMs, QObject *parent)
    : TaskExecutor(parent)
    , m_launcher(launcher)
    , m_chainPath(std::move(chainPath))
    , m_parent(std::move(parentRun))
    , m_timeoutMs(timeoutMs)
{
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
}

void SubchainExecutor::start()
{
    if (!m_launcher || !m_launcher->launch) {
        deliverOutcome(TaskOutcome{RunState::Failed, std::nullopt,
                                   QStringLiteral("subchains need a running engine")});
        return;
    }
    connect(m_launcher, &SubchainLauncher::runEnded, this, &SubchainExecutor::childEnded);
    const Result<qint64> child = m_launcher->launch(m_chainPath, m_parent);
    if (!child) {
        deliverOutcome(TaskOutcome{RunState::Failed, std::nullopt, child.error().message});
        return;
    }
    m_childRunId = child.value();
    Q_EMIT outputLine(LogStream::System,
                      QStringLiteral("started run %1 of %2").arg(m_childRunId).arg(m_chainPath));
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
}

void SubchainExecutor::childEnded(qint64 runId, RunState state)
{
    if (runId != m_childRunId || m_childRunId == 0)
        return;
    m_timeout.stop();
    if (m_stopReason) {
        deliverOutcome(
            TaskOutcome{*m_stopReason, std::nullopt,
                        QStringLiteral("stopped run %1 of %2").arg(runId).arg(m_chainPath)});
        return;
    }
    if (state == RunState::Succeeded) {
        deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
        return;
    }
    deliverOutcome(TaskOutcome{
        RunState::Failed, std::nullopt,
        QStringLiteral("run %1 of %2 ended %3").arg(runId).arg(m_chainPath, enumName(state))});
}

void SubchainExecutor::stop(RunState reason)
{
    if (outcomeDelivered() || m_stopReason)
        return;
    m_stopReason = reason;
    m_timeout.stop();
    if (m_childRunId > 0 && m_launcher && m_launcher->stop)
        m_launcher->stop(m_childRunId); // its end arrives through runEnded
    else
        deliverOutcome(TaskOutcome{reason, std::nullopt, QStringLiteral("stopped")});
}

} // namespace hg
