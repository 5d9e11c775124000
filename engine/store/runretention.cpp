#include "runretention.h"

#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

constexpr qint64 retentionLockKey = 0x486f7572676c6172; // "Hourglar": one engine prunes at a time
constexpr qint64 msPerDay = qint64(24) * 60 * 60 * 1000;

} // namespace

Result<QList<RunRetention::Expired>> RunRetention::due(qint64 nowMs, std::optional<qint64> chainId,
                                                       int limit) const
{
    // Each run is ranked among its chain's finished runs of the same kind (failed or not),
    // newest first; the limits of its kind decide. Failed runs use the failed limits when the
    // chain sets either of them, the general ones otherwise.
    // The inner query marks each finished run failed or not; the middle one picks the limits of
    // its kind and ranks it among the chain's runs of that kind, newest first.
    StoreQuery q(
        m_store,
        QStringLiteral(
            "SELECT id, chain_id, state, finished_at FROM (SELECT id, chain_id, state, "
            "finished_at, CASE WHEN failed = 1 AND has_failed_limits THEN keep_failed_runs ELSE "
            "keep_runs END AS keep_runs, CASE WHEN failed = 1 AND has_failed_limits THEN "
            "keep_failed_days ELSE keep_days END AS keep_days, ROW_NUMBER() OVER (PARTITION BY "
            "chain_id, failed ORDER BY id DESC) AS newest FROM (SELECT r.id, r.chain_id, r.state, "
            "r.finished_at, CASE WHEN r.state IN ('failed', 'timed_out') THEN 1 ELSE 0 END AS "
            "failed, (c.keep_failed_runs > 0 OR c.keep_failed_days > 0) AS has_failed_limits, "
            "c.keep_runs, c.keep_days, c.keep_failed_runs, c.keep_failed_days FROM run r JOIN "
            "chain c ON c.id = r.chain_id WHERE r.state IN ('succeeded', 'failed', 'cancelled', "
            "'timed_out') AND (c.keep_runs > 0 OR c.keep_days > 0 OR c.keep_failed_runs > 0 OR "
            "c.keep_failed_days > 0)%1) marked) ranked WHERE (keep_runs > 0 AND newest > "
            "keep_runs) OR (keep_days > 0 AND finished_at < ? - keep_days * CAST(? AS BIGINT)) "
            "ORDER BY id LIMIT ?")
            .arg(chainId ? QStringLiteral(" AND r.chain_id = ?") : QString()));
    if (chainId)
        q.bind(*chainId);
    q.bind(nowMs).bind(msPerDay).bind(limit);
    if (Status s = q.exec(tr("find runs past their retention")); !s)
        return s.error();
    QList<Expired> expired;
    while (q.next()) {
        expired << Expired{q.int64(0), q.int64(1),
                           enumFromString<RunState>(q.text(2)).value_or(RunState::Succeeded),
                           q.time(3)};
    }
    return expired;
}

Result<int> RunRetention::applyBatch(qint64 nowMs, std::optional<qint64> chainId, int limit)
{
    int removed = 0;
    const Status done = m_store.transaction([&]() -> Status {
        if (m_store.backend() == StoreBackend::PostgreSql) {
            StoreQuery lock(m_store, QStringLiteral("SELECT pg_try_advisory_xact_lock(?)"));
            lock.bind(retentionLockKey);
            if (Status s = lock.execSingle(tr("take the retention lock"), {}); !s)
                return s;
            if (!lock.boolean(0))
                return {}; // another engine is at it
        }
        const Result<QList<Expired>> expired = due(nowMs, chainId, limit);
        if (!expired)
            return expired.error();
        if (expired->isEmpty())
            return {};
        QStringList ids;
        for (const Expired &run : expired.value())
            ids << QString::number(run.runId);
        // Numbers only, written into the statement: one DELETE for the batch.
        StoreQuery remove(
            m_store,
            QStringLiteral("DELETE FROM run WHERE id IN (%1)").arg(ids.join(QLatin1Char(','))));
        if (Status s = remove.exec(tr("remove runs past their retention")); !s)
            return s;
        removed = remove.rowsAffected();
        return {};
    });
    if (!done)
        return done.error();
    return removed;
}

} // namespace hg
