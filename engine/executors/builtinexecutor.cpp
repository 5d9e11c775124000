#include "builtinexecutor.h"

namespace hg {

BuiltinExecutor::BuiltinExecutor(BuiltinArguments arguments, qint64 timeoutMs, QObject *parent)
    : TaskExecutor(parent)
    , m_arguments(std::move(arguments))
    , m_timeoutMs(timeoutMs)
{
    connect(&m_sleep, &LongTimer::timeout, this, [this] {
        m_timeout.stop();
        deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
    });
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
}

void BuiltinExecutor::start()
{
    switch (m_arguments.builtin()) {
    case Builtin::Sleep:
        if (m_timeoutMs > 0)
            m_timeout.start(m_timeoutMs);
        m_sleep.start(qint64(m_arguments.as<SleepArguments>().seconds * 1000.0));
        return;
    case Builtin::Log:
        emitText(LogStream::Stdout, m_arguments.as<LogArguments>().message);
        break;
    case Builtin::Notify: {
        const NotifyArguments &notify = m_arguments.as<NotifyArguments>();
        Q_EMIT outputLine(
            LogStream::System,
            QStringLiteral("notification: %1%2")
                .arg(notify.title.isEmpty() ? QString() : notify.title + QLatin1String(": "),
                     notify.message));
        Q_EMIT notificationRequested(notify.title, notify.message);
        break;
    }
    case Builtin::NoOp:
        break;
    case Builtin::HttpRequest:
    case Builtin::Download:
    case Builtin::CopyFile:
    case Builtin::SendMail:
    case Builtin::CopyFromFile:
    case Builtin::CopyToFile:
    case Builtin::CopyFromProgram:
    case Builtin::CopyToProgram:
        deliverOutcome(
            TaskOutcome{RunState::Failed, std::nullopt,
                        QStringLiteral("%1 is not an engine builtin").arg(m_arguments.name())});
        return;
    }
    deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
}

void BuiltinExecutor::stop(RunState reason)
{
    m_sleep.stop();
    m_timeout.stop();
    deliverOutcome(TaskOutcome{reason, std::nullopt,
                               reason == RunState::TimedOut ? QStringLiteral("timed out")
                                                            : QStringLiteral("stopped")});
}

} // namespace hg
