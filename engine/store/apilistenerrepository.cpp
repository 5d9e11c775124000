#include "apilistenerrepository.h"

#include "store.h"
#include "storequery.h"

namespace hg {

Status ApiListenerRepository::announce(const Listener &l)
{
    StoreQuery q(m_store, QStringLiteral("INSERT INTO api_listener (host, pid, engine_name, url, "
                                         "insecure, started_at, seen_at) VALUES (?, ?, ?, ?, ?, "
                                         "?, ?) ON CONFLICT (host, pid) DO UPDATE SET "
                                         "engine_name = excluded.engine_name, url = "
                                         "excluded.url, insecure = excluded.insecure, started_at "
                                         "= excluded.started_at, seen_at = excluded.seen_at, "
                                         "requests = 0, last_request_at = NULL"));
    q.bind(l.host)
        .bind(l.pid)
        .bind(l.engineName)
        .bind(l.url)
        .bind(l.insecure)
        .bind(StoreQuery::fromTime(l.startedAt))
        .bind(StoreQuery::fromTime(l.seenAt));
    return q.exec(tr("note where the API listens"));
}

Status ApiListenerRepository::refresh(const QString &host, qint64 pid, qint64 requests,
                                      const QDateTime &lastRequestAt, const QDateTime &now)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE api_listener SET seen_at = ?, requests = ?, "
                                         "last_request_at = ? WHERE host = ? AND pid = ?"));
    q.bind(StoreQuery::fromTime(now))
        .bind(requests)
        .bind(StoreQuery::fromTime(lastRequestAt))
        .bind(host)
        .bind(pid);
    return q.exec(tr("note the API's requests"));
}

Status ApiListenerRepository::remove(const QString &host, qint64 pid)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM api_listener WHERE host = ? AND pid = ?"));
    q.bind(host).bind(pid);
    return q.exec(tr("note that the API stopped"));
}

Result<QList<ApiListenerRepository::Listener>> ApiListenerRepository::list(const QDateTime &now)
{
    if (!m_store.isReadOnly()) {
        StoreQuery old(m_store, QStringLiteral("DELETE FROM api_listener WHERE seen_at < ?"));
        old.bind(now.toMSecsSinceEpoch() - qint64(24) * 3600 * 1000);
        (void)old.exec(tr("forget API servers gone a day"));
    }
    StoreQuery q(m_store, QStringLiteral("SELECT host, pid, engine_name, url, insecure, "
                                         "started_at, seen_at, requests, last_request_at FROM "
                                         "api_listener ORDER BY seen_at DESC"));
    if (Status s = q.exec(tr("list the API servers")); !s)
        return s.error();
    QList<Listener> listeners;
    while (q.next())
        listeners << Listener{q.text(0), q.int64(1), q.text(2),  q.text(3), q.boolean(4),
                              q.time(5), q.time(6),  q.int64(7), q.time(8)};
    return listeners;
}

} // namespace hg
