#include "occurrencerepository.h"

#include "store.h"
#include "storequery.h"

#include <algorithm>

namespace hg {
namespace {

const QString ledgerColumns = QStringLiteral(
    "id, schedule_id, chain_id, outcome, cause, first_fire, last_fire, fire_count, run_id, inbox, "
    "trigger_id, detail");

Occurrence ledgerRow(const StoreQuery &q)
{
    Occurrence o;
    o.id = q.int64(0);
    o.scheduleId = q.int64(1);
    o.chainId = q.int64(2);
    o.outcome = enumFromString<OccurrenceOutcome>(q.text(3)).value_or(OccurrenceOutcome::Missed);
    o.cause = enumFromString<OccurrenceCause>(q.text(4)).value_or(OccurrenceCause::None);
    o.firstFireMs = q.int64(5);
    o.lastFireMs = q.int64(6);
    o.count = q.int64(7);
    o.runId = q.int64(8);
    o.inbox = enumFromString<InboxState>(q.text(9)).value_or(InboxState::None);
    o.triggerId = q.int64(10);
    o.detail = q.text(11);
    return o;
}

} // namespace

Result<qint64> OccurrenceRepository::insert(const Occurrence &o)
{
    StoreQuery q(m_store,
                 QStringLiteral("INSERT INTO occurrence (schedule_id, chain_id, outcome, cause, "
                                "first_fire, last_fire, fire_count, run_id, inbox, trigger_id, "
                                "detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    q.bind(StoreQuery::fromId(o.scheduleId))
        .bind(o.chainId)
        .bind(enumName(o.outcome))
        .bind(enumName(o.cause))
        .bind(o.firstFireMs)
        .bind(o.lastFireMs)
        .bind(o.count)
        .bind(StoreQuery::fromId(o.runId))
        .bind(enumName(o.inbox))
        .bind(StoreQuery::fromId(o.triggerId))
        .bind(o.detail);
    if (Status s = q.execSingle(tr("record an occurrence"), {}); !s)
        return s.error();
    return q.int64(0);
}

Status OccurrenceRepository::extend(qint64 id, qint64 lastFireMs, qint64 addCount)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE occurrence SET last_fire = ?, fire_count = "
                                         "fire_count + ? WHERE id = ?"));
    q.bind(lastFireMs).bind(addCount).bind(id);
    return q.exec(tr("record an occurrence"));
}

Result<QList<Occurrence>> OccurrenceRepository::list(qint64 chainId, qint64 fromMs, qint64 toMs,
                                                     int limit) const
{
    return read(chainId, fromMs, toMs, limit);
}

Result<QList<Occurrence>> OccurrenceRepository::listEveryChain(qint64 fromMs, qint64 toMs,
                                                               int perChain) const
{
    Result<QList<Occurrence>> all = read(std::nullopt, fromMs, toMs, 0);
    if (!all || perChain <= 0)
        return all;
    // Oldest first: walking back, a chain's first perChain entries are its latest.
    QHash<qint64, int> kept;
    QList<Occurrence> latest;
    for (auto it = all->crbegin(); it != all->crend(); ++it) {
        if (kept[it->chainId]++ < perChain)
            latest << *it;
    }
    std::reverse(latest.begin(), latest.end());
    return latest;
}

Result<QList<Occurrence>> OccurrenceRepository::read(std::optional<qint64> chainId, qint64 fromMs,
                                                     qint64 toMs, int limit) const
{
    QList<Occurrence> result;
    // With a limit, each side gives its latest `limit` entries and the merge keeps the latest
    // of both: runs newest by id, through run_chain (chain_id, id), as fire-time order is
    // about id order.
    const auto latest = [limit](const QString &column) {
        return limit > 0 ? QStringLiteral(" ORDER BY %1 DESC LIMIT %2").arg(column).arg(limit)
                         : QString();
    };
    StoreQuery ledger(m_store,
                      QStringLiteral("SELECT %1 FROM occurrence WHERE %3last_fire >= ? AND "
                                     "first_fire <= ?%2")
                          .arg(ledgerColumns, latest(QStringLiteral("last_fire")),
                               chainId ? QStringLiteral("(schedule_id IN (SELECT id FROM schedule "
                                                        "WHERE chain_id = ?) OR trigger_id IN "
                                                        "(SELECT id FROM chain_trigger WHERE "
                                                        "chain_id = ?)) AND ")
                                       : QString()));
    if (chainId)
        ledger.bind(*chainId).bind(*chainId);
    ledger.bind(fromMs).bind(toMs);
    if (Status s = ledger.exec(tr("read the occurrence ledger")); !s)
        return s.error();
    while (ledger.next())
        result << ledgerRow(ledger);
    // The runs of the chain's schedules and triggers: through run_chain (chain_id, id) and a
    // filter, as a chain holds its runs in id order, which is about fire-time order; of every
    // chain, through run_scheduled. A triggered run's scheduled_for is when it fired.
    StoreQuery runs(m_store,
                    QStringLiteral("SELECT id, schedule_id, scheduled_for, started_at, "
                                   "state, finished_at, chain_id, trigger_id FROM run WHERE "
                                   "%2(schedule_id IS NOT NULL OR trigger_id IS NOT NULL) AND "
                                   "scheduled_for >= ? AND scheduled_for <= ?%1")
                        .arg(latest(QStringLiteral("id")),
                             chainId ? QStringLiteral("chain_id = ? AND ") : QString()));
    if (chainId)
        runs.bind(*chainId);
    runs.bind(fromMs).bind(toMs);
    if (Status s = runs.exec(tr("read the occurrence ledger")); !s)
        return s.error();
    while (runs.next()) {
        Occurrence o;
        o.runId = runs.int64(0);
        o.scheduleId = runs.int64(1);
        o.chainId = runs.int64(6);
        o.triggerId = runs.int64(7);
        o.firstFireMs = o.lastFireMs = runs.int64(2);
        o.latenessMs =
            runs.value(3).isNull() ? -1 : std::max<qint64>(0, runs.int64(3) - o.firstFireMs);
        o.runState = enumFromString<RunState>(runs.text(4)).value_or(RunState::Queued);
        if (!runs.value(3).isNull() && !runs.value(5).isNull())
            o.durationMs = std::max<qint64>(0, runs.int64(5) - runs.int64(3));
        result << o;
    }
    std::sort(result.begin(), result.end(), [](const Occurrence &a, const Occurrence &b) {
        return a.firstFireMs != b.firstFireMs ? a.firstFireMs < b.firstFireMs
               : a.scheduleId != b.scheduleId ? a.scheduleId < b.scheduleId
                                              : a.triggerId < b.triggerId;
    });
    if (limit > 0 && result.size() > limit)
        result.remove(0, result.size() - limit);
    return result;
}

Result<QHash<qint64, qint64>>
OccurrenceRepository::lastAccounted(std::optional<qint64> chainId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT schedule_id, MAX(last_fire) FROM occurrence "
                                         "WHERE schedule_id %1 GROUP BY schedule_id")
                              .arg(chainId ? QStringLiteral("IN (SELECT id FROM schedule WHERE "
                                                            "chain_id = ?)")
                                           : QStringLiteral("IS NOT NULL")));
    if (chainId)
        q.bind(*chainId);
    if (Status s = q.exec(tr("read the occurrence ledger")); !s)
        return s.error();
    QHash<qint64, qint64> last;
    while (q.next())
        last.insert(q.int64(0), q.int64(1));
    return last;
}

Result<QList<Occurrence>> OccurrenceRepository::pending(std::optional<qint64> chainId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM occurrence WHERE inbox = 'pending'%2 "
                                         "ORDER BY first_fire, id")
                              .arg(ledgerColumns,
                                   chainId ? QStringLiteral(" AND chain_id = ?") : QString()));
    if (chainId)
        q.bind(*chainId);
    if (Status s = q.exec(tr("read the missed-runs inbox")); !s)
        return s.error();
    QList<Occurrence> rows;
    while (q.next())
        rows << ledgerRow(q);
    return rows;
}

Result<qint64> OccurrenceRepository::pendingCount() const
{
    StoreQuery q(m_store, QStringLiteral("SELECT COALESCE(SUM(fire_count), 0) FROM occurrence "
                                         "WHERE inbox = 'pending'"));
    if (Status s = q.execSingle(tr("read the missed-runs inbox"), {}); !s)
        return s.error();
    return q.int64(0);
}

Result<int> OccurrenceRepository::decide(const QList<qint64> &ids, InboxState decision)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE occurrence SET inbox = ? WHERE id = ? AND "
                                         "inbox = 'pending'"));
    int decided = 0;
    for (qint64 id : ids) {
        q.bind(enumName(decision)).bind(id);
        if (Status s = q.exec(tr("decide on missed runs")); !s)
            return s.error();
        decided += q.rowsAffected();
    }
    return decided;
}

Status OccurrenceRepository::setRun(const QList<qint64> &ids, qint64 runId)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE occurrence SET run_id = ? WHERE id = ?"));
    for (qint64 id : ids) {
        q.bind(runId).bind(id);
        if (Status s = q.exec(tr("decide on missed runs")); !s)
            return s;
    }
    return {};
}

Result<int> OccurrenceRepository::removeBefore(qint64 chainId, qint64 beforeMs)
{
    // Waiting rows of the inbox stay until the user decides: retention never drops them.
    StoreQuery q(m_store, QStringLiteral("DELETE FROM occurrence WHERE (schedule_id IN "
                                         "(SELECT id FROM schedule WHERE chain_id = ?) OR "
                                         "trigger_id IN (SELECT id FROM chain_trigger WHERE "
                                         "chain_id = ?)) AND last_fire < ? AND inbox <> "
                                         "'pending'"));
    q.bind(chainId).bind(chainId).bind(beforeMs);
    if (Status s = q.exec(tr("prune the occurrence ledger")); !s)
        return s.error();
    const int removed = q.rowsAffected();
    // The chain's alerts are its ledger's entries too, and go with them.
    StoreQuery alerts(m_store, QStringLiteral("DELETE FROM alert WHERE chain_id = ? AND at < ?"));
    alerts.bind(chainId).bind(beforeMs);
    if (Status s = alerts.exec(tr("prune the alerts")); !s)
        return s.error();
    return removed + alerts.rowsAffected();
}

Result<int> OccurrenceRepository::applyRetention(const Chain &chain, qint64 nowMs)
{
    const Retention &keep = chain.retention;
    qint64 cutoff = -1;
    if (const int days = std::max(keep.keepDays, keep.keepFailedDays); days > 0)
        cutoff = nowMs - qint64(days) * 86400 * 1000;
    if (keep.keepRuns > 0 || keep.keepFailedRuns > 0) {
        StoreQuery oldest(m_store, QStringLiteral("SELECT MIN(scheduled_for) FROM run WHERE "
                                                  "chain_id = ?"));
        oldest.bind(chain.id);
        if (Status s = oldest.execSingle(tr("prune the occurrence ledger"), {}); !s)
            return s.error();
        if (!oldest.value(0).isNull())
            cutoff = std::max(cutoff, oldest.int64(0));
    }
    if (cutoff < 0)
        return 0;
    return removeBefore(chain.id, cutoff);
}

} // namespace hg
