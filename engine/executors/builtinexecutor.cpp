#include "builtinexecutor.h"

namespace hg {

BuiltinExecutor::BuiltinExecutor(QString name, QJsonObject arguments, int timeoutMs,
                                 QObject *parent)
    : TaskExecutor(parent)
    , m_name(std::move(name))
    , m_arguments(std::move(arguments))
    , m_timeoutMs(timeoutMs)
{
    m_sleep.setSingleShot(true);
    m_sleep.setTimerType(Qt::PreciseTimer);
    m_timeout.setSingleShot(true);
    connect(&m_sleep, &QTimer::timeout, this, [this] {
        m_timeout.stop();
        deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
    });
    connect(&m_timeout, &QTimer::timeout, this, [this] { stop(RunState::TimedOut); });
}

void BuiltinExecutor::start()
{
    if (m_name == QLatin1String("Sleep")) {
        if (m_timeoutMs > 0)
            m_timeout.start(m_timeoutMs);
        m_sleep.start(int(m_arguments.value(QStringLiteral("seconds")).toDouble() * 1000));
        return;
    }
    const QString message = m_arguments.value(QStringLiteral("message")).toString();
    if (m_name == QLatin1String("Log")) {
        emitText(LogStream::Stdout, message);
    } else if (m_name == QLatin1String("Notify")) {
        const QString title = m_arguments.value(QStringLiteral("title")).toString();
        Q_EMIT outputLine(
            LogStream::System,
            QStringLiteral("notification: %1%2")
                .arg(title.isEmpty() ? QString() : title + QLatin1String(": "), message));
        Q_EMIT notificationRequested(title, message);
    } else if (m_name != QLatin1String("NoOp")) {
        deliverOutcome(TaskOutcome{RunState::Failed, std::nullopt,
                                   QStringLiteral("%1 is not an engine builtin").arg(m_name)});
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
