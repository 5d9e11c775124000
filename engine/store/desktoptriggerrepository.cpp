#include "desktoptriggerrepository.h"

#include "triggerrunwriter.h"

#include <QDateTime>
#include <QJsonObject>
#include <QTimeZone>

namespace hg {

Result<std::optional<qint64>> DesktopTriggerRepository::start(qint64 triggerId, qint64 chainId,
                                                              const DesktopTriggerSpec &spec,
                                                              qint64 eventAtMs, qint64 nowMs)
{
    const QString event = enumName(spec.event);
    QJsonObject parameters{
        {QStringLiteral("trigger.event"), event},
        {QStringLiteral("trigger.at"),
         QDateTime::fromMSecsSinceEpoch(eventAtMs, QTimeZone::utc()).toString(Qt::ISODateWithMs)}};
    if (spec.event == DesktopEvent::Idle)
        parameters.insert(QStringLiteral("trigger.idle_ms"), QString::number(spec.idleMs));
    return TriggerRunWriter::insert(m_store, triggerId, chainId,
                                    event + QLatin1Char('|') + QString::number(eventAtMs),
                                    parameters, nowMs, tr("start a run of a desktop trigger"));
}

} // namespace hg
