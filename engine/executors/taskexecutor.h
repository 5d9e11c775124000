#pragma once

#include "domain/enums.h"

#include <QObject>
#include <QString>

#include <optional>

namespace hg {

// How one attempt of a task ended.
struct TaskOutcome
{
    RunState state = RunState::Failed; // Succeeded, Failed, TimedOut or Cancelled
    std::optional<int> exitCode;
    QString error; // empty when it succeeded
};

// Runs one attempt of one task. Lives in the engine thread; reports through signals only.
class TaskExecutor : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskExecutor)

public:
    using QObject::QObject;
    ~TaskExecutor() override = default;

    virtual void start() = 0;
    // Ends the attempt early with state Cancelled (stop) or TimedOut; finished() follows.
    virtual void stop(RunState reason) = 0;

Q_SIGNALS:
    void processStarted(qint64 pid, qint64 processStartTicks);
    void outputLine(hg::LogStream stream, const QString &line);
    // A Notify builtin asks for a desktop notification (the GUI shows it; serve prints it).
    void notificationRequested(const QString &title, const QString &message);
    void finished(const hg::TaskOutcome &outcome);

protected:
    // Reports the outcome once (later calls are ignored), always from the event loop, so a
    // caller of start() or stop() never sees finished() before that call returns.
    void deliverOutcome(const TaskOutcome &outcome);
    bool outcomeDelivered() const { return m_outcomeDelivered; }
    // Emits text as log lines (one per line of the text).
    void emitText(LogStream stream, const QString &text);

private:
    bool m_outcomeDelivered = false;
};

} // namespace hg
