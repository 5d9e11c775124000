#include "desktoptriggerspec.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace hg {
namespace {

constexpr qint64 minuteMs = 60'000;
constexpr qint64 longestIdleMs = qint64(7) * 24 * 60 * minuteMs;

// Idle times are whole minutes (the desktop's idle hint is no finer): "90 min", "2 h".
QString idleLength(qint64 ms)
{
    const qint64 minutes = ms / minuteMs;
    if (minutes >= 60 && minutes % 60 == 0)
        return DesktopTriggerSpec::tr("%1 h").arg(minutes / 60);
    return DesktopTriggerSpec::tr("%1 min").arg(minutes);
}

} // namespace

QString DesktopTriggerSpec::problem() const
{
    if (event != DesktopEvent::Idle)
        return idleMs == 0 ? QString() : tr("an idle time belongs to --on-idle only");
    if (idleMs < minuteMs || idleMs > longestIdleMs || idleMs % minuteMs != 0)
        return tr("--on-idle: whole minutes from 1 min to 7 d (the desktop's idle hint is no "
                  "finer)");
    return {};
}

QString DesktopTriggerSpec::toJson() const
{
    QJsonObject object{{QStringLiteral("event"), enumName(event)}};
    if (event == DesktopEvent::Idle)
        object.insert(QStringLiteral("idle_ms"), idleMs);
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

DesktopTriggerSpec DesktopTriggerSpec::fromJson(const QString &json)
{
    const QJsonObject object = QJsonDocument::fromJson(json.toUtf8()).object();
    DesktopTriggerSpec spec;
    spec.event = enumFromString<DesktopEvent>(object.value(QLatin1String("event")).toString())
                     .value_or(DesktopEvent::Unlock);
    if (spec.event == DesktopEvent::Idle)
        spec.idleMs = qint64(object.value(QLatin1String("idle_ms")).toDouble());
    return spec;
}

QString DesktopTriggerSpec::describe(DesktopEvent event, qint64 idleMs)
{
    switch (event) {
    case DesktopEvent::Unlock:
        return tr("session unlocked");
    case DesktopEvent::Resume:
        return tr("resumed from sleep");
    case DesktopEvent::Network:
        return tr("network came up");
    case DesktopEvent::Idle:
        return tr("idle for %1").arg(idleLength(idleMs));
    case DesktopEvent::AcPower:
        return tr("on AC power");
    }
    return {};
}

QString DesktopTriggerSpec::option() const
{
    if (event == DesktopEvent::Idle)
        return QStringLiteral("--on-idle ") + idleLength(idleMs);
    return QStringLiteral("--on-") + enumName(event);
}

} // namespace hg
