#include "outboxrepository.h"

#include "store.h"
#include "storequery.h"

#include <QUuid>

namespace hg {
namespace {

const QString deliveryColumns = QStringLiteral(
    "o.id, o.channel_id, c.name, o.event, COALESCE(o.run_id, 0), COALESCE(o.chain_id, 0), "
    "COALESCE(o.subject_id, 0), o.recipients, o.state, o.attempts, o.next_attempt_at, "
    "o.last_answer, o.subject, o.body, o.delivery_id, o.created_at, o.sent_at");

Delivery readDelivery(const StoreQuery &q)
{
    Delivery d;
    d.id = q.int64(0);
    d.channelId = q.int64(1);
    d.channelName = q.text(2);
    d.event = q.text(3);
    d.runId = q.int64(4);
    d.chainId = q.int64(5);
    d.subjectId = q.int64(6);
    d.recipients = q.text(7).split(QLatin1Char(','), Qt::SkipEmptyParts);
    d.state = enumFromString<DeliveryState>(q.text(8)).value_or(DeliveryState::Queued);
    d.attempts = q.integer(9);
    d.nextAttemptAt = q.time(10);
    d.lastAnswer = q.text(11);
    d.subject = q.text(12);
    d.body = q.text(13);
    d.deliveryId = q.text(14);
    d.createdAt = q.time(15);
    d.sentAt = q.time(16);
    return d;
}

} // namespace

Result<QList<Delivery>> OutboxRepository::claimDue(const QString &engine, qint64 nowMs,
                                                   qint64 leaseMs, int limit,
                                                   const QList<qint64> &busyChannels,
                                                   const DesktopScope &desktop)
{
    const bool postgres = m_store.backend() == StoreBackend::PostgreSql;
    QList<qint64> ids;
    const Status claimed = m_store.transaction([&]() -> Status {
        // A desktop channel's rows wait for a desktop that may show them (any, or the one host
        // the channel names); once too old for any to, whoever looks fails them.
        StoreQuery due(
            m_store,
            QStringLiteral("SELECT id FROM notify_outbox WHERE state = 'queued' AND "
                           "next_attempt_at <= ? AND claimed_until < ?%1 AND (channel_id NOT IN "
                           "(SELECT id FROM notify_channel WHERE kind = 'desktop'%3) OR created_at "
                           "< ?) ORDER BY next_attempt_at, id LIMIT ?%2")
                .arg(busyChannels.isEmpty() ? QString()
                                            : QStringLiteral(" AND channel_id NOT IN (%1)")
                                                  .arg(StoreQuery::idList(busyChannels)),
                     postgres ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString(),
                     desktop.host.isEmpty() ? QString()
                                            : QStringLiteral(" AND url <> '' AND url <> ?")));
        due.bind(nowMs).bind(nowMs);
        if (!desktop.host.isEmpty())
            due.bind(desktop.host);
        due.bind(desktop.unshownBeforeMs).bind(limit);
        if (Status s = due.exec(tr("read the notifications due")); !s)
            return s;
        while (due.next())
            ids << due.int64(0);
        if (ids.isEmpty())
            return {};
        StoreQuery take(m_store, QStringLiteral("UPDATE notify_outbox SET claimed_by = ?, "
                                                "claimed_until = ? WHERE id IN (%1)")
                                     .arg(StoreQuery::idList(ids)));
        take.bind(engine).bind(nowMs + leaseMs);
        return take.exec(tr("claim the notifications due"));
    });
    if (!claimed)
        return claimed.error();
    if (ids.isEmpty())
        return QList<Delivery>();
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM notify_outbox o JOIN notify_channel c ON "
                                         "c.id = o.channel_id WHERE o.id IN (%2) ORDER BY o.id")
                              .arg(deliveryColumns, StoreQuery::idList(ids)));
    if (Status s = q.exec(tr("read the notifications due")); !s)
        return s.error();
    QList<Delivery> deliveries;
    while (q.next())
        deliveries << readDelivery(q);
    return deliveries;
}

Status OutboxRepository::release(const QList<qint64> &ids, const QString &engine)
{
    if (ids.isEmpty())
        return {};
    StoreQuery q(m_store, QStringLiteral("UPDATE notify_outbox SET claimed_by = '', claimed_until "
                                         "= 0 WHERE id IN (%1) AND claimed_by = ?")
                              .arg(StoreQuery::idList(ids)));
    q.bind(engine);
    return q.exec(tr("give notifications back"));
}

Result<int> OutboxRepository::waiting(qint64 channelId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT count(*) FROM notify_outbox WHERE channel_id = ? "
                                         "AND (state = 'queued' OR (state = 'held' AND digest_id "
                                         "IS NULL))"));
    q.bind(channelId);
    if (Status s = q.execSingle(tr("count notifications"), {}); !s)
        return s.error();
    return q.integer(0);
}

Status OutboxRepository::keepMessage(qint64 id, const QString &subject, const QString &body,
                                     qint64 nowMs)
{
    StoreQuery q(m_store,
                 QStringLiteral("UPDATE notify_outbox SET subject = ?, body = ?, passed_at "
                                "= COALESCE(passed_at, ?) WHERE id = ?"));
    q.bind(subject).bind(body).bind(nowMs).bind(id);
    return q.exec(tr("keep a notification's message"));
}

Result<bool> OutboxRepository::settle(qint64 id, const QString &engine, DeliveryState state,
                                      int attempts, const QString &answer, qint64 nextAttemptMs,
                                      qint64 nowMs)
{
    StoreQuery q(m_store,
                 QStringLiteral("UPDATE notify_outbox SET state = ?, attempts = ?, last_answer = "
                                "?, next_attempt_at = ?, claimed_by = '', claimed_until = 0, "
                                "sent_at = CASE WHEN ? THEN CAST(? AS BIGINT) ELSE sent_at END "
                                "WHERE id = ? AND claimed_by = ?"));
    q.bind(enumName(state))
        .bind(attempts)
        .bind(answer.left(1000))
        .bind(nextAttemptMs)
        .bind(state == DeliveryState::Sent)
        .bind(nowMs)
        .bind(id)
        .bind(engine);
    if (Status s = q.exec(tr("settle a notification")); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Result<QList<Delivery>> OutboxRepository::list(std::optional<DeliveryState> state, int limit) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM notify_outbox o JOIN notify_channel c ON "
                                         "c.id = o.channel_id %2 ORDER BY o.id DESC LIMIT ?")
                              .arg(deliveryColumns,
                                   state ? QStringLiteral("WHERE o.state = ?") : QString()));
    if (state)
        q.bind(enumName(*state));
    q.bind(limit);
    if (Status s = q.exec(tr("list notifications")); !s)
        return s.error();
    QList<Delivery> deliveries;
    while (q.next())
        deliveries << readDelivery(q);
    return deliveries;
}

Result<qint64> OutboxRepository::addTest(qint64 channelId, const QString &subject,
                                         const QString &body, qint64 nowMs)
{
    const QString deliveryId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    StoreQuery q(m_store, QStringLiteral("INSERT INTO notify_outbox (dedupe_key, channel_id, "
                                         "event, next_attempt_at, delivery_id, created_at, "
                                         "subject, body) VALUES (?, ?, 'test', ?, ?, ?, ?, ?) "
                                         "RETURNING id"));
    q.bind(QString(QStringLiteral("test:") + deliveryId))
        .bind(channelId)
        .bind(nowMs)
        .bind(deliveryId)
        .bind(nowMs)
        .bind(subject)
        .bind(body);
    if (Status s = q.execSingle(tr("queue a test message"), {}); !s)
        return s.error();
    return q.int64(0);
}

Result<bool> OutboxRepository::withdraw(qint64 id, qint64 nowMs)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM notify_outbox WHERE id = ? AND state = "
                                         "'queued' AND claimed_until < ?"));
    q.bind(id).bind(nowMs);
    if (Status s = q.exec(tr("withdraw a test message")); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Result<Delivery> OutboxRepository::byId(qint64 id) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM notify_outbox o JOIN notify_channel c ON "
                                         "c.id = o.channel_id WHERE o.id = ?")
                              .arg(deliveryColumns));
    q.bind(id);
    if (Status s = q.execSingle(tr("read a notification"),
                                tr("notification %1 is gone (its channel was removed)").arg(id));
        !s)
        return s.error();
    return readDelivery(q);
}

Result<int> OutboxRepository::passedSince(qint64 channelId, qint64 sinceMs, qint64 exceptId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT count(*) FROM notify_outbox WHERE channel_id = ? "
                                         "AND passed_at >= ? AND id <> ?"));
    q.bind(channelId).bind(sinceMs).bind(exceptId);
    if (Status s = q.execSingle(tr("count notifications"), {}); !s)
        return s.error();
    return q.integer(0);
}

Status OutboxRepository::lockChannel(qint64 channelId)
{
    if (m_store.backend() != StoreBackend::PostgreSql)
        return {};
    StoreQuery q(m_store, QStringLiteral("SELECT id FROM notify_channel WHERE id = ? FOR UPDATE"));
    q.bind(channelId);
    return q.exec(tr("lock a channel"));
}

Status OutboxRepository::hold(qint64 id, const QString &engine, const QString &answer)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE notify_outbox SET state = 'held', last_answer = "
                                         "?, claimed_by = '', claimed_until = 0 WHERE id = ? AND "
                                         "claimed_by = ?"));
    q.bind(answer.left(1000)).bind(id).bind(engine);
    return q.exec(tr("hold a notification back"));
}

Status OutboxRepository::addDigestRow(qint64 channelId, const QString &event,
                                      const QString &dedupeKey, qint64 dueMs, qint64 nowMs)
{
    StoreQuery q(m_store,
                 QStringLiteral("INSERT INTO notify_outbox (dedupe_key, channel_id, event, "
                                "next_attempt_at, delivery_id, created_at) VALUES (?, ?, "
                                "?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING"));
    q.bind(dedupeKey)
        .bind(channelId)
        .bind(event)
        .bind(dueMs)
        .bind(QUuid::createUuid().toString(QUuid::Id128))
        .bind(nowMs);
    return q.exec(tr("add a digest of held notifications"));
}

Result<QList<Delivery>> OutboxRepository::takeHeld(qint64 channelId, qint64 digestId)
{
    StoreQuery take(m_store, QStringLiteral("UPDATE notify_outbox SET digest_id = ?, last_answer = "
                                            "? WHERE channel_id = ? AND state = 'held' AND "
                                            "digest_id IS NULL"));
    take.bind(digestId).bind(tr("held back; told of in digest %1").arg(digestId)).bind(channelId);
    if (Status s = take.exec(tr("take the held notifications")); !s)
        return s.error();
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM notify_outbox o JOIN notify_channel c ON "
                                         "c.id = o.channel_id WHERE o.digest_id = ? AND o.state = "
                                         "'held' ORDER BY o.id")
                              .arg(deliveryColumns));
    q.bind(digestId);
    if (Status s = q.exec(tr("read the held notifications")); !s)
        return s.error();
    QList<Delivery> held;
    while (q.next())
        held << readDelivery(q);
    return held;
}

Result<int> OutboxRepository::addEngineEvent(const QString &key, const QString &subject,
                                             const QString &body, qint64 nowMs)
{
    const bool postgres = m_store.backend() == StoreBackend::PostgreSql;
    StoreQuery q(
        m_store,
        QStringLiteral(
            "INSERT INTO notify_outbox (dedupe_key, channel_id, route_id, event, recipients, "
            "next_attempt_at, delivery_id, created_at, subject, body) SELECT ? || ':' || "
            "c.channel_id, c.channel_id, c.id, 'engine', c.recipients, ?, %1, ?, ?, ? FROM "
            "(SELECT r.id, r.recipients, COALESCE(r.channel_id, (SELECT d.id FROM notify_channel "
            "d WHERE d.is_default = %2 AND d.kind = 'email' ORDER BY d.id LIMIT 1)) AS channel_id "
            "FROM notify_route r WHERE r.chain_id IS NULL AND r.project_id IS NULL AND r.events "
            "LIKE '%,engine,%') c WHERE c.channel_id IS NOT NULL ON CONFLICT (dedupe_key) DO "
            "NOTHING")
            .arg(postgres ? QStringLiteral("md5(random()::text || clock_timestamp()::text)")
                          : QStringLiteral("lower(hex(randomblob(16)))"),
                 postgres ? QStringLiteral("TRUE") : QStringLiteral("1")));
    q.bind(key).bind(nowMs).bind(nowMs).bind(subject).bind(body);
    if (Status s = q.exec(tr("write an engine event")); !s)
        return s.error();
    return q.rowsAffected();
}

Result<int> OutboxRepository::heldUntold(qint64 channelId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT count(*) FROM notify_outbox WHERE channel_id = ? "
                                         "AND state = 'held' AND digest_id IS NULL"));
    q.bind(channelId);
    if (Status s = q.execSingle(tr("count notifications"), {}); !s)
        return s.error();
    return q.integer(0);
}

} // namespace hg
