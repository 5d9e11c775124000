#include "runretention.h"

#include "store.h"
#include "storequery.h"

#include <algorithm>

namespace hg {
namespace {

constexpr qint64 retentionLockKey = 0x486f7572676c6172; // "Hourglar": one engine prunes at a time
constexpr qint64 msPerDay = qint64(24) * 60 * 60 * 1000;

} // namespace

Result<QList<RunRetention::Expired>> RunRetention::due(qint64 nowMs, std::optional<qint64> chainId,
                                                       int limit) const
{
    // The chains that set a limit first, then each one's runs through its index: most chains
    // set none, and one ranking of every finished run took 9 s on a store of 10 M runs (the
    // engine does this once a minute).
    StoreQuery chains(m_store,
                      QStringLiteral("SELECT id FROM chain WHERE (keep_runs > 0 OR keep_days > 0 "
                                     "OR keep_failed_runs > 0 OR keep_failed_days > 0)%1")
                          .arg(chainId ? QStringLiteral(" AND id = ?") : QString()));
    if (chainId)
        chains.bind(*chainId);
    if (Status s = chains.exec(tr("find the chains that keep a limited history")); !s)
        return s.error();
    QList<qint64> limited;
    while (chains.next())
        limited << chains.int64(0);
    QList<Expired> expired;
    for (const qint64 chain : std::as_const(limited)) {
        const Result<QList<Expired>> ofChain = dueOfChain(nowMs, chain, limit);
        if (!ofChain)
            return ofChain.error();
        expired << ofChain.value();
    }
    // The oldest first, over every chain.
    std::sort(expired.begin(), expired.end(),
              [](const Expired &a, const Expired &b) { return a.runId < b.runId; });
    if (expired.size() > limit)
        expired.resize(limit);
    return expired;
}

Result<QList<RunRetention::Expired>> RunRetention::dueOfChain(qint64 nowMs, qint64 chainId,
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
            "failed ORDER BY id DESC) AS newest FROM (SELECT r.id, r.chain_id, r.state, "
            "r.finished_at, CASE WHEN r.state IN ('failed', 'timed_out') THEN 1 ELSE 0 END AS "
            "failed, (c.keep_failed_runs > 0 OR c.keep_failed_days > 0) AS has_failed_limits, "
            "c.keep_runs, c.keep_days, c.keep_failed_runs, c.keep_failed_days FROM run r JOIN "
            "chain c ON c.id = r.chain_id WHERE r.chain_id = ? AND r.state IN ('succeeded', "
            "'failed', 'cancelled', 'timed_out')) marked) ranked WHERE (keep_runs > 0 AND "
            "newest > keep_runs) OR (keep_days > 0 AND finished_at < ? - keep_days * "
            "CAST(? AS BIGINT)) ORDER BY id LIMIT ?"));
    q.bind(chainId).bind(nowMs).bind(msPerDay).bind(limit);
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
    const Result<QList<Expired>> expired = due(nowMs, chainId, limit);
    if (!expired)
        return expired.error();
    QList<qint64> ids;
    for (const Expired &run : expired.value())
        ids << run.runId;
    return remove(ids);
}

Result<int> RunRetention::remove(const QList<qint64> &runIds)
{
    if (runIds.isEmpty())
        return 0;
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
        QStringList ids;
        for (const qint64 id : runIds)
            ids << QString::number(id);
        // Numbers only, written into the statement: one DELETE for the batch. Only runs that
        // are finished: a run past its limit stays past it, and one gone already is no error.
        StoreQuery remove(m_store, QStringLiteral("DELETE FROM run WHERE id IN (%1) AND state IN "
                                                  "('succeeded', 'failed', 'cancelled', "
                                                  "'timed_out')")
                                       .arg(ids.join(QLatin1Char(','))));
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
