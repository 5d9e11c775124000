#include "apirequestkeyrepository.h"

#include "store.h"
#include "storequery.h"

namespace hg {

Status ApiRequestKeyRepository::check(const QString &key)
{
    if (key.isEmpty() || key.size() > 200)
        return Error::invalidField(QStringLiteral("Idempotency-Key"), 0,
                                   tr("an idempotency key is 1 to 200 characters"));
    for (const QChar c : key)
        if (c.unicode() < 0x21 || c.unicode() > 0x7e)
            return Error::invalidField(QStringLiteral("Idempotency-Key"), 0,
                                       tr("an idempotency key is printable ASCII"));
    return {};
}

Result<std::optional<qint64>> ApiRequestKeyRepository::claim(const QString &scope,
                                                             const QString &key, qint64 nowMs)
{
    StoreQuery insert(m_store, QStringLiteral("INSERT INTO api_request_key (scope, request_key, "
                                              "created_at) VALUES (?, ?, ?) ON CONFLICT (scope, "
                                              "request_key) DO NOTHING"));
    insert.bind(scope).bind(key).bind(nowMs);
    if (Status s = insert.exec(tr("claim an idempotency key")); !s)
        return s.error();
    if (insert.rowsAffected() == 1)
        return std::optional<qint64>();
    StoreQuery q(m_store, QStringLiteral("SELECT run_id FROM api_request_key WHERE scope = ? AND "
                                         "request_key = ?"));
    q.bind(scope).bind(key);
    if (Status s = q.execSingle(tr("read an idempotency key"), tr("the key went away")); !s)
        return s.error();
    if (q.value(0).isNull())
        return Error::exists(tr("a request with this key is being answered"));
    return std::optional<qint64>(q.int64(0));
}

Status ApiRequestKeyRepository::setRun(const QString &scope, const QString &key, qint64 runId)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE api_request_key SET run_id = ? WHERE scope = ? "
                                         "AND request_key = ?"));
    q.bind(runId).bind(scope).bind(key);
    return q.exec(tr("note an idempotency key's run"));
}

Result<int> ApiRequestKeyRepository::removeBefore(qint64 ms)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM api_request_key WHERE created_at < ?"));
    q.bind(ms);
    if (Status s = q.exec(tr("forget old idempotency keys")); !s)
        return s.error();
    return q.rowsAffected();
}

} // namespace hg
