#include "runownership.h"

#include "enginesessionrepository.h"
#include "store.h"
#include "storequery.h"

#include <QStringList>

namespace hg {
namespace {

bool isShared(const Store &store)
{
    return store.backend() == StoreBackend::PostgreSql;
}

const QString priorityRank =
    QStringLiteral("CASE c.priority WHEN 'highest' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 "
                   "WHEN 'low' THEN 3 ELSE 4 END");

// Admitted: running, paused or waiting (the states admission counts).
const QString admittedStates = QStringLiteral("('running', 'paused', 'waiting')");

// An arbitrary constant: the key of the admission advisory lock.
constexpr qint64 admissionLockKey = 0x486f7572676c6173; // "Hourglas"

} // namespace

Result<QList<qint64>> RunOwnership::claimQueued(const Fence &fence, const QString &engineName,
                                                int limit)
{
    return claimOrLock(fence, engineName, limit, false);
}

Result<QList<qint64>> RunOwnership::lockQueued(const Fence &fence, const QString &engineName,
                                               int limit)
{
    Q_ASSERT(isShared(m_store) && m_store.inTransaction());
    return claimOrLock(fence, engineName, limit, true);
}

Result<QList<qint64>> RunOwnership::claimOrLock(const Fence &fence, const QString &engineName,
                                                int limit, bool lockOnly)
{
    // PostgreSQL: each chain's oldest claimable runs by index (run_claimable_chain), the best
    // of them by the chain's priority, then those no other engine has locked. Sorting every
    // queued run instead cost 17 ms a claim with 10,000 waiting; engines with few slots claim
    // a few runs at a time, and claiming took two thirds of all the work of a run. Should
    // other engines' open claims hold those few candidates locked, the full sort follows.
    // SQLite, with one engine and no LATERAL, always sorts them all.
    QList<qint64> ids;
    if (isShared(m_store)) {
        const Result<QList<qint64>> quick = claimAmongOldest(fence, engineName, limit, lockOnly);
        if (!quick)
            return quick;
        ids = quick.value();
    }
    if (ids.size() < limit) {
        const QString lock =
            isShared(m_store) ? QStringLiteral(" FOR UPDATE OF r SKIP LOCKED") : QString();
        // ARRAY() on PostgreSQL: given IN, its planner joins the few candidates to the whole
        // run table by hash, reading every run ever kept at each claim; an array goes by key.
        // Locked only, the quick statement's runs still look unowned: passed over by id.
        const QString candidates =
            QStringLiteral("SELECT r.id FROM run r JOIN chain c ON c.id = r.chain_id WHERE "
                           "r.state = 'queued' AND r.owner_session IS NULL AND (c.client_name = "
                           "'' OR c.client_name = ?)%3 ORDER BY %1, r.id LIMIT ?%2")
                .arg(priorityRank, lock,
                     lockOnly ? QStringLiteral(" AND r.id <> ALL(CAST(? AS BIGINT[]))")
                              : QString());
        StoreQuery q(m_store,
                     lockOnly ? candidates
                              : QStringLiteral("UPDATE run SET owner_session = ?, owner_epoch = ?, "
                                               "engine_name = ? WHERE %1 RETURNING id")
                                    .arg(isShared(m_store)
                                             ? QStringLiteral("id = ANY(ARRAY(%1))").arg(candidates)
                                             : QStringLiteral("id IN (%1)").arg(candidates)));
        q.withoutSavepoint();
        if (!lockOnly)
            q.bind(fence.sessionId).bind(fence.epoch).bind(engineName);
        q.bind(engineName);
        if (lockOnly) {
            q.bind(StoreQuery::fromIds(ids));
        }
        q.bind(limit - int(ids.size()));
        // What the first statement claimed is this transaction's already: refused now, the
        // caller must still hear of it, or those runs stay claimed by an engine that never
        // knew (queued, owned, and run by nobody).
        if (Status s = q.exec(tr("claim queued runs")); !s) {
            if (ids.isEmpty())
                return s.error();
        }
        while (q.next())
            ids << q.int64(0);
    }
    std::sort(ids.begin(), ids.end()); // RETURNING keeps no order; oldest first is close enough
    return ids;
}

Result<QList<qint64>> RunOwnership::claimAmongOldest(const Fence &fence, const QString &engineName,
                                                     int limit, bool lockOnly)
{
    // Twice the limit and a little: room to pass over a few rows locked by another claim.
    // The candidates are then read by primary key: their state and owner are tested in a
    // form no index serves, or with stale statistics mid-burst the planner walked the whole
    // partial index instead, comparing each queued run with every candidate (6 ms a claim,
    // most of the server's time, at 5,000 queued).
    const int candidates = limit * 2 + 16;
    const QString locked =
        QStringLiteral(
            "SELECT r.id FROM run r JOIN chain c ON c.id = r.chain_id WHERE r.id = "
            "ANY(ARRAY(SELECT q.id FROM chain c CROSS JOIN LATERAL (SELECT id FROM run WHERE "
            "chain_id = c.id AND state = 'queued' AND owner_session IS NULL ORDER BY id LIMIT ?) q "
            "WHERE c.client_name = '' OR c.client_name = ? ORDER BY %1, q.id LIMIT ?)) AND "
            "(r.state = 'queued') IS TRUE AND COALESCE(r.owner_session, 0) = 0 ORDER BY %1, r.id "
            "LIMIT ? FOR UPDATE OF r SKIP LOCKED")
            .arg(priorityRank);
    StoreQuery q(m_store, lockOnly
                              ? locked
                              : QStringLiteral("UPDATE run SET owner_session = ?, owner_epoch "
                                               "= ?, engine_name = ? WHERE id = ANY(ARRAY(%1)) "
                                               "RETURNING id")
                                    .arg(locked));
    q.withoutSavepoint();
    if (!lockOnly)
        q.bind(fence.sessionId).bind(fence.epoch).bind(engineName);
    q.bind(candidates).bind(engineName).bind(candidates).bind(limit);
    if (Status s = q.exec(tr("claim queued runs")); !s)
        return s.error();
    QList<qint64> ids;
    while (q.next())
        ids << q.int64(0);
    return ids;
}

Result<bool> RunOwnership::claim(qint64 runId, const Fence &fence, const QString &engineName)
{
    StoreQuery q(m_store, QStringLiteral(
                              "UPDATE run SET owner_session = ?, owner_epoch = ?, "
                              "engine_name = ? WHERE id = ? AND state = 'queued' AND "
                              "(owner_session IS NULL OR owner_session = ?) AND chain_id IN "
                              "(SELECT id FROM chain WHERE client_name = '' OR client_name = ?)"));
    q.withoutSavepoint();
    q.bind(fence.sessionId)
        .bind(fence.epoch)
        .bind(engineName)
        .bind(runId)
        .bind(fence.sessionId)
        .bind(engineName);
    if (Status s = q.exec(tr("claim run %1").arg(runId)); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Status RunOwnership::own(qint64 runId, const Fence &fence, const QString &engineName)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE run SET owner_session = ?, owner_epoch = ?, "
                                         "engine_name = ? WHERE id = ?"));
    q.withoutSavepoint();
    q.bind(fence.sessionId).bind(fence.epoch).bind(engineName).bind(runId);
    return q.exec(tr("own run %1").arg(runId));
}

Status RunOwnership::check(qint64 runId, const Fence &fence)
{
    const QString lock =
        isShared(m_store) && m_store.inTransaction() ? QStringLiteral(" FOR SHARE") : QString();
    StoreQuery q(
        m_store,
        QStringLiteral("SELECT owner_session, owner_epoch FROM run WHERE id = ?%1").arg(lock));
    q.withoutSavepoint();
    q.bind(runId);
    if (Status s = q.exec(tr("check the claim on run %1").arg(runId)); !s)
        return s;
    if (!q.next())
        return Error::fenced(tr("run %1 no longer exists").arg(runId));
    if (q.int64(0) != fence.sessionId || q.int64(1) != fence.epoch)
        return Error::fenced(tr("run %1 was taken over by another engine").arg(runId));
    return {};
}

Result<QList<RunOwnership::ActiveElsewhere>> RunOwnership::activeElsewhere(const Fence &fence) const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT r.chain_id, COALESCE(r.batch_id, 0), c.exclusive, "
                                "COUNT(*) FROM run r JOIN chain c ON c.id = r.chain_id "
                                "WHERE r.state IN %1 AND r.owner_session IS DISTINCT FROM ? "
                                "GROUP BY r.chain_id, COALESCE(r.batch_id, 0), c.exclusive")
                     .arg(admittedStates));
    // What this engine keeps back (RunRecorder) is about its own runs, or queued ones.
    q.withoutSavepoint().leavesWriteBehind();
    q.bind(fence.sessionId);
    if (Status s = q.exec(tr("count runs of other engines")); !s)
        return s.error();
    QList<ActiveElsewhere> active;
    while (q.next())
        active << ActiveElsewhere{q.int64(0), q.int64(1), q.boolean(2), q.integer(3)};
    return active;
}

Status RunOwnership::lockAdmission(bool exclusive)
{
    if (!isShared(m_store))
        return {};
    StoreQuery q(m_store, exclusive ? QStringLiteral("SELECT pg_advisory_xact_lock(?)")
                                    : QStringLiteral("SELECT pg_advisory_xact_lock_shared(?)"));
    q.withoutSavepoint().leavesWriteBehind();
    q.bind(admissionLockKey);
    return q.exec(tr("lock admission"));
}

Result<int> RunOwnership::expireSessions(const Fence &self, qint64 engineNowMs)
{
    int expired = 0;
    if (isShared(m_store)) { // leases judged by the database's clock, the same for every engine
        StoreQuery q(m_store, QStringLiteral("DELETE FROM engine_session WHERE id IN (SELECT id "
                                             "FROM engine_session WHERE lease_until < "
                                             "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 "
                                             "AS BIGINT) AND id <> ? FOR UPDATE SKIP LOCKED)"));
        q.bind(self.sessionId);
        if (Status s = q.exec(tr("take over expired engine sessions")); !s)
            return s.error();
        expired = q.rowsAffected();
    }
    // A session of this host whose process is gone (killed, crashed) is over now, not when its
    // lease runs out: a `run --wait` that takes its run over must not wait half a minute. On
    // SQLite one whose process lives is not over, whatever its lease says (serves()).
    const Result<QList<EngineSession>> sessions = EngineSessionRepository(m_store).list();
    if (!sessions)
        return sessions.error();
    const QDateTime now = QDateTime::fromMSecsSinceEpoch(engineNowMs, Qt::UTC);
    for (const EngineSession &session : sessions.value()) {
        const bool over = isShared(m_store)
                              ? EngineSessionRepository::processGone(session)
                              : !EngineSessionRepository::serves(session, now, m_store.backend());
        if (session.id == self.sessionId || !over)
            continue;
        StoreQuery dead(m_store, QStringLiteral("DELETE FROM engine_session WHERE id = ? AND "
                                                "epoch = ?"));
        dead.bind(session.id).bind(session.epoch);
        if (Status s = dead.exec(tr("take over the session of a dead engine")); !s)
            return s.error();
        expired += dead.rowsAffected();
    }
    return expired;
}

Result<QList<qint64>> RunOwnership::lockOrphans()
{
    const QString lock = isShared(m_store) ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString();
    const QString orphaned =
        QStringLiteral("(owner_session IS NULL OR NOT EXISTS (SELECT 1 FROM engine_session s "
                       "WHERE s.id = run.owner_session AND s.epoch = run.owner_epoch))");
    // A queued run of a gone session only needs its claim dropped: nothing of it ran.
    StoreQuery queued(m_store,
                      QStringLiteral("UPDATE run SET owner_session = NULL WHERE id IN (SELECT id "
                                     "FROM run WHERE state = 'queued' AND owner_session IS NOT "
                                     "NULL AND %1%2)")
                          .arg(orphaned, lock));
    if (Status s = queued.exec(tr("release queued runs of gone engines")); !s)
        return s.error();
    StoreQuery q(m_store, QStringLiteral("SELECT id FROM run WHERE state IN ('running', 'paused', "
                                         "'waiting', 'interrupted') AND %1 ORDER BY id%2")
                              .arg(orphaned, lock));
    if (Status s = q.exec(tr("find runs of gone engines")); !s)
        return s.error();
    QList<qint64> ids;
    while (q.next())
        ids << q.int64(0);
    return ids;
}

Status RunOwnership::release(qint64 runId)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE run SET state = 'queued', owner_session = NULL, "
                                         "owner_epoch = 0 WHERE id = ?"));
    q.bind(runId);
    return q.exec(tr("queue run %1 again").arg(runId));
}

} // namespace hg
