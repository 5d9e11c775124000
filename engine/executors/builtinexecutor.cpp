#include "builtinexecutor.h"

#include "domain/result.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace hg {
namespace {

Result<QJsonObject> parseArguments(const QString &name, const QString &text)
{
    if (text.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return Error::invalid(QStringLiteral("%1: the argument must be a JSON object, like %2")
                                  .arg(name, name == QLatin1String("Sleep")
                                                 ? QStringLiteral("{\"seconds\": 5}")
                                                 : QStringLiteral("{\"message\": \"text\"}")));
    return document.object();
}

} // namespace

BuiltinExecutor::BuiltinExecutor(QString name, QString argument, int timeoutMs, QObject *parent)
    : TaskExecutor(parent)
    , m_name(std::move(name))
    , m_argumentText(std::move(argument))
    , m_timeoutMs(timeoutMs)
{
    m_sleep.setSingleShot(true);
    m_sleep.setTimerType(Qt::PreciseTimer);
    m_timeout.setSingleShot(true);
    connect(&m_sleep, &QTimer::timeout, this, [this] {
        finish(TaskOutcome{RunState::Succeeded, 0, {}});
    });
    connect(&m_timeout, &QTimer::timeout, this, [this] { stop(RunState::TimedOut); });
}

QString BuiltinExecutor::validate(const QString &name, const QString &argument)
{
    const Result<QJsonObject> arguments = parseArguments(name, argument);
    if (!arguments)
        return arguments.error().message;
    if (name == QLatin1String("NoOp"))
        return arguments->isEmpty() ? QString() : QStringLiteral("NoOp takes no arguments");
    if (name == QLatin1String("Sleep")) {
        const double seconds = arguments->value(QStringLiteral("seconds")).toDouble(-1);
        if (seconds <= 0 || seconds > 86400)
            return QStringLiteral("Sleep: \"seconds\" must be a number above 0 and at most 86400");
        return {};
    }
    if (name == QLatin1String("Log")) {
        if (!arguments->value(QStringLiteral("message")).isString())
            return QStringLiteral("Log: \"message\" must be text");
        return {};
    }
    return QStringLiteral("the builtin %1 is not available yet").arg(name);
}

void BuiltinExecutor::start()
{
    if (const QString problem = validate(m_name, m_argumentText); !problem.isEmpty()) {
        finish(TaskOutcome{RunState::Failed, std::nullopt, problem});
        return;
    }
    m_arguments = parseArguments(m_name, m_argumentText).value();
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
    if (m_name == QLatin1String("Sleep")) {
        m_sleep.start(int(m_arguments.value(QStringLiteral("seconds")).toDouble() * 1000));
        return;
    }
    if (m_name == QLatin1String("Log"))
        emit outputLine(LogStream::Stdout, m_arguments.value(QStringLiteral("message")).toString());
    finish(TaskOutcome{RunState::Succeeded, 0, {}});
}

void BuiltinExecutor::stop(RunState reason)
{
    finish(TaskOutcome{reason, std::nullopt,
                       reason == RunState::TimedOut ? QStringLiteral("timed out")
                                                    : QStringLiteral("stopped")});
}

void BuiltinExecutor::finish(const TaskOutcome &outcome)
{
    if (m_done)
        return;
    m_done = true;
    m_sleep.stop();
    m_timeout.stop();
    // Delivered from the event loop, so a caller of start() never sees finished() first.
    QMetaObject::invokeMethod(
        this, [this, outcome] { emit finished(outcome); }, Qt::QueuedConnection);
}

} // namespace hg
