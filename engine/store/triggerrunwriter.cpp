#include "triggerrunwriter.h"

#include "storequery.h"

namespace hg {

Result<std::optional<qint64>> TriggerRunWriter::insert(Store &store, qint64 triggerId,
                                                       qint64 chainId, const QString &key,
                                                       const QJsonObject &parameters, qint64 nowMs,
                                                       const QString &doing)
{
    StoreQuery q(store, QStringLiteral("INSERT INTO run (chain_id, trigger, scheduled_for, "
                                       "state, parameters, created_at, trigger_id, trigger_key) "
                                       "VALUES (?, 'trigger', ?, 'queued', ?, ?, ?, ?) ON "
                                       "CONFLICT (trigger_id, trigger_key) DO NOTHING "
                                       "RETURNING id"));
    q.bind(chainId)
        .bind(nowMs)
        .bind(StoreQuery::fromJson(parameters))
        .bind(nowMs)
        .bind(triggerId)
        .bind(key);
    if (Status s = q.exec(doing); !s)
        return s.error();
    if (q.next())
        return std::optional<qint64>(q.int64(0));
    return std::optional<qint64>();
}

} // namespace hg
