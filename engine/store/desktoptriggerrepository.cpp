#include "desktoptriggerrepository.h"

#include "store.h"
#include "storequery.h"

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
    StoreQuery q(m_store, QStringLiteral("INSERT INTO run (chain_id, trigger, scheduled_for, "
                                         "state, parameters, created_at, trigger_id, "
                                         "trigger_key) VALUES (?, 'trigger', ?, 'queued', ?, ?, "
                                         "?, ?) ON CONFLICT (trigger_id, trigger_key) DO "
                                         "NOTHING RETURNING id"));
    q.bind(chainId)
        .bind(nowMs)
        .bind(StoreQuery::fromJson(parameters))
        .bind(nowMs)
        .bind(triggerId)
        .bind(QString(event + QLatin1Char('|') + QString::number(eventAtMs)));
    if (Status s = q.exec(tr("start a run of a desktop trigger")); !s)
        return s.error();
    if (q.next())
        return std::optional<qint64>(q.int64(0));
    return std::optional<qint64>();
}

} // namespace hg
