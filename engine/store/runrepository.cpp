#include "runrepository.h"

#include "base/epochtime.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectRun = QStringLiteral(
    "SELECT id, chain_id, schedule_id, parent_run_id, rerun_of_id, trigger, scheduled_for, state, "
    "engine_name, parameters, created_at, started_at, finished_at, batch_id, batch_parallel "
    "FROM run ");

Run readRun(const StoreQuery &q)
{
    Run r;
    r.id = q.int64(0);
    r.chainId = q.int64(1);
    r.scheduleId = q.int64(2);
    r.parentRunId = q.int64(3);
    r.rerunOfId = q.int64(4);
    r.trigger = enumFromString<RunTrigger>(q.text(5)).value_or(RunTrigger::Manual);
    r.scheduledFor = q.time(6);
    r.state = enumFromString<RunState>(q.text(7)).value_or(RunState::Queued);
    r.engineName = q.text(8);
    r.parameters = q.object(9);
    r.createdAt = q.time(10);
    r.startedAt = q.time(11);
    r.finishedAt = q.time(12);
    r.batchId = q.int64(13);
    r.batchParallel = q.integer(14);
    return r;
}

} // namespace

Result<RunRepository::Inserted> RunRepository::insertScheduled(qint64 chainId, qint64 scheduleId,
                                                               const QDateTime &fireTime,
                                                               const Fence &owner,
                                                               const QString &engineName)
{
    StoreQuery insertQuery(
        m_store,
        QStringLiteral(
            "INSERT INTO run (chain_id, schedule_id, trigger, scheduled_for, state, created_at, "
            "owner_session, owner_epoch, engine_name) "
            "VALUES (?, ?, 'schedule', ?, 'queued', ?, ?, ?, ?) "
            "ON CONFLICT (schedule_id, scheduled_for) DO NOTHING RETURNING id"));
    const qint64 createdMs = QDateTime::currentMSecsSinceEpoch();
    insertQuery.bind(chainId)
        .bind(scheduleId)
        .bind(StoreQuery::fromTime(fireTime))
        .bind(createdMs)
        .bind(StoreQuery::fromId(owner.sessionId))
        .bind(owner.epoch)
        .bind(owner.isHeld() ? engineName : QString());
    if (Status s = insertQuery.exec(tr("insert scheduled run")); !s)
        return s.error();
    if (insertQuery.next()) { // new: everything about it is known, no need to read it back
        Run run;
        run.id = insertQuery.int64(0);
        run.chainId = chainId;
        run.scheduleId = scheduleId;
        run.trigger = RunTrigger::Schedule;
        run.scheduledFor = fireTime.toUTC();
        run.state = RunState::Queued;
        run.createdAt = utcFromMs(createdMs);
        if (owner.isHeld())
            run.engineName = engineName;
        return Inserted{run, true};
    }
    StoreQuery existing(m_store, selectRun
                                     + QStringLiteral("WHERE schedule_id = ? AND "
                                                      "scheduled_for = ?"));
    existing.bind(scheduleId).bind(StoreQuery::fromTime(fireTime));
    if (Status s = existing.execSingle(tr("read scheduled run"), tr("scheduled run vanished")); !s)
        return s.error();
    return Inserted{readRun(existing), false};
}

Result<Run> RunRepository::insert(const Run &run)
{
    Run stored = run;
    stored.createdAt = QDateTime::currentDateTimeUtc();
    if (!stored.scheduledFor.isValid())
        stored.scheduledFor = stored.createdAt;
    StoreQuery q(m_store,
                 QStringLiteral(
                     "INSERT INTO run (chain_id, schedule_id, parent_run_id, rerun_of_id, trigger, "
                     "scheduled_for, state, engine_name, parameters, created_at, batch_id, "
                     "batch_parallel) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    q.bind(stored.chainId)
        .bind(StoreQuery::fromId(stored.scheduleId))
        .bind(StoreQuery::fromId(stored.parentRunId))
        .bind(StoreQuery::fromId(stored.rerunOfId))
        .bind(enumName(stored.trigger))
        .bind(StoreQuery::fromTime(stored.scheduledFor))
        .bind(enumName(stored.state))
        .bind(stored.engineName)
        .bind(StoreQuery::fromJson(stored.parameters))
        .bind(StoreQuery::fromTime(stored.createdAt))
        .bind(StoreQuery::fromId(stored.batchId))
        .bind(stored.batchParallel);
    if (Status s = q.execSingle(tr("insert run"), {}); !s)
        return s.error();
    stored.id = q.int64(0);
    return stored;
}

Status RunRepository::setBatch(qint64 runId, qint64 batchId)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE run SET batch_id = ? WHERE id = ?"));
    q.bind(batchId).bind(runId);
    return q.exec(tr("update run %1").arg(runId));
}

namespace {

// The first failed attempt of a run that failed, as "task: error"; NULL for any other run.
const QLatin1StringView failureReasonSql(
    "CASE WHEN r.state IN ('failed', 'timed_out', 'interrupted', 'cancelled') THEN "
    "(SELECT t.name || ': ' || tr.error FROM task_run tr JOIN task t ON t.id = tr.task_id "
    "WHERE tr.run_id = r.id AND tr.state IN ('failed', 'timed_out', 'interrupted', 'cancelled') "
    "AND tr.error <> '' ORDER BY tr.id LIMIT 1) END");

} // namespace

Result<QHash<qint64, std::pair<qint64, RunState>>> RunRepository::latestPerChain() const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT r.chain_id, r.id, r.state FROM run r WHERE r.id IN "
                                "(SELECT (SELECT MAX(n.id) FROM run n WHERE n.chain_id = c.id) "
                                "FROM chain c)"));
    if (Status s = q.exec(tr("read each chain's newest run")); !s)
        return s.error();
    QHash<qint64, std::pair<qint64, RunState>> latest;
    while (q.next())
        latest.insert(q.int64(0),
                      {q.int64(1), enumFromString<RunState>(q.text(2)).value_or(RunState::Queued)});
    return latest;
}

namespace {

RunSummary readSummary(const StoreQuery &q)
{
    RunSummary summary;
    summary.chainId = q.int64(0);
    summary.id = q.int64(1);
    summary.state = enumFromString<RunState>(q.text(2)).value_or(RunState::Queued);
    const QDateTime started = q.time(3);
    const QDateTime finished = q.time(4);
    if (started.isValid() && finished.isValid())
        summary.durationMs = started.msecsTo(finished);
    return summary;
}

} // namespace

Result<QHash<qint64, QList<RunSummary>>>
RunRepository::recentPerChain(int perChain, const std::optional<QList<qint64>> &onlyChains) const
{
    QHash<qint64, QList<RunSummary>> recent;
    if (onlyChains && onlyChains->isEmpty())
        return recent;
    // Chain by chain, each reading its last runs from the (chain_id, id) index: 10,000 chains
    // of 10 M runs in a fraction of a second. A plain join let SQLite walk every run and ask
    // the subquery for each (27 s); CROSS JOIN fixes its order, PostgreSQL says it with LATERAL.
    const bool postgres = m_store.backend() == StoreBackend::PostgreSql;
    const QString only =
        onlyChains ? QStringLiteral("WHERE c.id IN (%1) ").arg(StoreQuery::idList(*onlyChains))
                   : QString();
    StoreQuery q(
        m_store,
        postgres
            ? QStringLiteral("SELECT r.chain_id, r.id, r.state, r.started_at, r.finished_at "
                             "FROM chain c CROSS JOIN LATERAL (SELECT chain_id, id, state, "
                             "started_at, finished_at FROM run n WHERE n.chain_id = c.id "
                             "ORDER BY n.id DESC LIMIT ?) r %1ORDER BY r.chain_id, r.id")
                  .arg(only)
            : QStringLiteral("SELECT r.chain_id, r.id, r.state, r.started_at, r.finished_at "
                             "FROM chain c CROSS JOIN run r %1%2r.chain_id = c.id AND r.id >= "
                             "COALESCE((SELECT n.id FROM run n WHERE n.chain_id = c.id ORDER "
                             "BY n.id DESC LIMIT 1 OFFSET ?), 0) ORDER BY r.chain_id, r.id")
                  .arg(only, only.isEmpty() ? QStringLiteral("WHERE ") : QStringLiteral("AND ")));
    q.bind(postgres ? std::max(1, perChain) : std::max(0, perChain - 1));
    if (Status s = q.exec(tr("read each chain's recent runs")); !s)
        return s.error();
    while (q.next()) {
        const RunSummary summary = readSummary(q);
        recent[summary.chainId] << summary;
    }
    return recent;
}

Result<QList<RunSummary>> RunRepository::recentOfChain(qint64 chainId, int count) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT chain_id, id, state, started_at, finished_at "
                                         "FROM run WHERE chain_id = ? ORDER BY id DESC LIMIT ?"));
    q.bind(chainId);
    q.bind(count);
    if (Status s = q.exec(tr("read a chain's recent runs")); !s)
        return s.error();
    QList<RunSummary> runs;
    while (q.next())
        runs.prepend(readSummary(q));
    return runs;
}

Result<QString> RunRepository::failureReason(qint64 runId) const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT %1 FROM run r WHERE r.id = ?").arg(failureReasonSql));
    q.bind(runId);
    if (Status s = q.exec(tr("read a run's failure")); !s)
        return s.error();
    return q.next() ? q.text(0) : QString();
}

Result<QList<RunListing>> RunRepository::page(const RunPageQuery &query) const
{
    // The sort key as SQL; NULL times sort as 0 so the keyset comparison stays total.
    QString key;
    switch (query.sort) {
    case RunPageQuery::SortKey::Id:
        key = QStringLiteral("r.id");
        break;
    case RunPageQuery::SortKey::ScheduledFor:
        key = QStringLiteral("r.scheduled_for");
        break;
    case RunPageQuery::SortKey::StartedAt:
        key = QStringLiteral("COALESCE(r.started_at, 0)");
        break;
    case RunPageQuery::SortKey::Duration:
        key = QStringLiteral("(COALESCE(r.finished_at, r.started_at, 0) - "
                             "COALESCE(r.started_at, 0))");
        break;
    }
    QStringList conditions;
    QVariantList values;
    if (query.chainId) {
        conditions << QStringLiteral("r.chain_id = ?");
        values << *query.chainId;
    }
    if (query.state) {
        conditions << QStringLiteral("r.state = ?");
        values << enumName(*query.state);
    }
    if (query.trigger) {
        conditions << QStringLiteral("r.trigger = ?");
        values << enumName(*query.trigger);
    }
    const QLatin1StringView direction(query.ascending ? ">" : "<");
    if (query.after) {
        conditions << QStringLiteral("(%1 %2 ? OR (%1 = ? AND r.id %2 ?))").arg(key, direction);
        values << query.after->first << query.after->first << query.after->second;
    }
    const QLatin1StringView order(query.ascending ? "ASC" : "DESC");
    QString sql = QStringLiteral("SELECT r.id, r.chain_id, r.schedule_id, r.parent_run_id, "
                                 "r.rerun_of_id, r.trigger, r.scheduled_for, r.state, "
                                 "r.engine_name, r.parameters, r.created_at, r.started_at, "
                                 "r.finished_at, r.batch_id, r.batch_parallel, "
                                 "p.name || '/' || c.name, %1, %2 FROM run r "
                                 "JOIN chain c ON c.id = r.chain_id "
                                 "JOIN project p ON p.id = c.project_id ")
                      .arg(key, failureReasonSql);
    if (!conditions.isEmpty())
        sql +=
            QStringLiteral("WHERE ") + conditions.join(QLatin1String(" AND ")) + QLatin1Char(' ');
    sql += QStringLiteral("ORDER BY %1 %2, r.id %2 LIMIT ?").arg(key, order);
    StoreQuery q(m_store, sql);
    for (const QVariant &value : std::as_const(values))
        q.bind(value);
    q.bind(query.limit);
    if (Status s = q.exec(tr("list runs")); !s)
        return s.error();
    QList<RunListing> rows;
    while (q.next())
        rows << RunListing{readRun(q), q.text(15), q.int64(16), q.text(17)};
    return rows;
}

Result<Run> RunRepository::byId(qint64 id) const
{
    StoreQuery q(m_store, selectRun + QStringLiteral("WHERE id = ?"));
    q.bind(id);
    if (Status s = q.execSingle(tr("read run"), tr("unknown run %1").arg(id)); !s)
        return s.error();
    return readRun(q);
}

Result<QList<Run>> RunRepository::byIds(const QList<qint64> &ids) const
{
    if (ids.isEmpty())
        return QList<Run>();
    // One read for a whole claimed batch.
    StoreQuery q(m_store,
                 selectRun
                     + QStringLiteral("WHERE id IN (%1) ORDER BY id").arg(StoreQuery::idList(ids)));
    q.withoutSavepoint();
    if (Status s = q.exec(tr("read runs")); !s)
        return s.error();
    QList<Run> runs;
    runs.reserve(ids.size());
    while (q.next())
        runs << readRun(q);
    return runs;
}

Result<QList<Run>> RunRepository::list(const RunFilter &filter) const
{
    QStringList conditions;
    QVariantList values;
    if (filter.chainId) {
        conditions << QStringLiteral("chain_id = ?");
        values << *filter.chainId;
    }
    if (filter.state) {
        conditions << QStringLiteral("state = ?");
        values << enumName(*filter.state);
    }
    if (filter.beforeId > 0) {
        conditions << QStringLiteral("id < ?");
        values << filter.beforeId;
    }
    if (filter.createdSinceMs) {
        conditions << QStringLiteral("created_at >= ?");
        values << *filter.createdSinceMs;
    }
    QString sql = selectRun;
    if (!conditions.isEmpty())
        sql +=
            QStringLiteral("WHERE ") + conditions.join(QLatin1String(" AND ")) + QLatin1Char(' ');
    sql += QStringLiteral("ORDER BY id DESC LIMIT ?");
    StoreQuery q(m_store, sql);
    for (const QVariant &value : values)
        q.bind(value);
    q.bind(qMax(filter.limit, 1));
    if (Status s = q.exec(tr("list runs")); !s)
        return s.error();
    QList<Run> runs;
    while (q.next())
        runs << readRun(q);
    return runs;
}

Status RunRepository::setState(qint64 runId, RunState state, const QDateTime &at,
                               const QString &engineName)
{
    const Result<bool> written = writeState(runId, state, at, engineName, nullptr);
    if (!written)
        return written.error();
    if (!written.value())
        return Error::notFound(tr("unknown run %1").arg(runId));
    return {};
}

Result<bool> RunRepository::setStateFenced(qint64 runId, RunState state, const QDateTime &at,
                                           const QString &engineName, const Fence &fence)
{
    return writeState(runId, state, at, engineName, &fence);
}

Result<bool> RunRepository::writeState(qint64 runId, RunState state, const QDateTime &at,
                                       const QString &engineName, const Fence *fence)
{
    // started_at keeps the first start; finished_at is set by terminal states only. The claim
    // is compared through COALESCE so the planner keeps to the primary key: a new session's
    // id has no statistics yet, and the owner index would walk all that session's runs.
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE run SET state = ?, "
            "started_at = CASE WHEN ? AND started_at IS NULL THEN ? ELSE started_at END, "
            "finished_at = CASE WHEN ? THEN CAST(? AS BIGINT) ELSE NULL END, "
            "engine_name = CASE WHEN ? <> '' THEN ? ELSE engine_name END WHERE id = ?%1")
            .arg(fence ? QStringLiteral(" AND COALESCE(owner_session, 0) = ? AND owner_epoch = ?")
                       : QString()));
    q.withoutSavepoint();
    const QVariant when = StoreQuery::fromTime(at);
    q.bind(enumName(state))
        .bind(state == RunState::Running)
        .bind(when)
        .bind(isTerminal(state))
        .bind(when)
        .bind(engineName)
        .bind(engineName)
        .bind(runId);
    if (fence)
        q.bind(fence->sessionId).bind(fence->epoch);
    if (Status s = q.exec(tr("update run %1").arg(runId)); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Result<int> RunRepository::countActive(qint64 chainId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT COUNT(*) FROM run WHERE chain_id = ? AND state "
                                         "IN ('running', 'waiting', 'paused')"));
    q.bind(chainId);
    if (Status s = q.execSingle(tr("count active runs"), {}); !s)
        return s.error();
    return q.integer(0);
}

} // namespace hg

namespace hg {

Result<QHash<qint64, RunRepository::ScheduleHistory>>
RunRepository::scheduleHistory(std::optional<qint64> chainId) const
{
    // Only each schedule's latest run, found through the (schedule_id, scheduled_for) unique
    // index: a store with millions of runs still answers at once, where an aggregate over
    // the whole run table would take seconds.
    StoreQuery q(m_store,
                 QStringLiteral("SELECT s.id, r.scheduled_for, r.finished_at FROM schedule s "
                                "JOIN run r ON r.id = (SELECT id FROM run WHERE schedule_id = "
                                "s.id ORDER BY scheduled_for DESC LIMIT 1)%1")
                     .arg(chainId ? QStringLiteral(" WHERE s.chain_id = ?") : QString()));
    if (chainId)
        q.bind(*chainId);
    if (Status s = q.exec(tr("read schedule history")); !s)
        return s.error();
    QHash<qint64, ScheduleHistory> history;
    while (q.next()) {
        const bool finished = !q.value(2).isNull();
        history.insert(q.int64(0),
                       ScheduleHistory{q.int64(1), finished ? q.int64(2) : -1, !finished});
    }
    return history;
}

Result<QList<qint64>> RunRepository::idsInStates(const QList<RunState> &states) const
{
    QStringList names;
    for (RunState state : states)
        names << QLatin1Char('\'') + enumName(state) + QLatin1Char('\'');
    StoreQuery q(m_store, QStringLiteral("SELECT id FROM run WHERE state IN (%1) ORDER BY id")
                              .arg(names.join(QLatin1Char(','))));
    if (Status s = q.exec(tr("list runs by state")); !s)
        return s.error();
    QList<qint64> ids;
    while (q.next())
        ids << q.int64(0);
    return ids;
}

} // namespace hg
