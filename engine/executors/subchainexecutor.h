#pragma once

#include "base/longtimer.h"
#include "domain/run.h"
#include "taskexecutor.h"

#include <QPointer>
#include <QTimer>

namespace hg {

class SubchainLauncher;

// SUBCHAIN tasks: start the chain named by the task's command as a child run (trigger
// subchain, same scheduled_for, the parent's parameters) and wait for it. The task succeeds
// when the child run succeeds; stopping the task stops the child. While it waits the task
// holds no slot, so a child can always run.
class SubchainExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SubchainExecutor)

public:
    SubchainExecutor(SubchainLauncher *launcher, QString chainPath, Run parentRun, qint64 timeoutMs,
                     QObject *parent = nullptr);

    void start() override;
    void stop(RunState reason) override;

private:
    void childEnded(qint64 runId, RunState state);

    QPointer<SubchainLauncher> m_launcher;
    QString m_chainPath;
    Run m_parent;
    qint64 m_timeoutMs = 0;
    qint64 m_childRunId = 0;
    LongTimer m_timeout;
    std::optional<RunState> m_stopReason;
};

} // namespace hg
