#include "taskrunoffers.h"

#include "base/enumnames.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString chainRank =
    QStringLiteral("CASE c.priority WHEN 'highest' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 "
                   "WHEN 'low' THEN 3 ELSE 4 END");
const QString taskRank =
    QStringLiteral("CASE k.priority WHEN 'highest' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 "
                   "WHEN 'low' THEN 3 ELSE 4 END");

// The claim a worker's write carries: its session and epoch, on an attempt that still runs.
const QString workerClaim =
    QStringLiteral("worker_session = ? AND worker_epoch = ? AND state = 'running'");

// An attempt claimed but never started, offered again as it was.
const QString unclaimed = QStringLiteral(
    "state = 'queued', started_at = NULL, worker_session = NULL, worker_epoch = 0, worker_name = "
    "'', pid = 0, process_start = 0");

QVariant exitCodeOf(std::optional<int> exitCode)
{
    return exitCode ? QVariant(*exitCode) : QVariant(QMetaType::fromType<int>());
}

} // namespace

Status TaskRunOffers::offer(qint64 taskRunId, qint64 nowMs)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE task_run SET offered_at = ? WHERE id = ? AND "
                                         "state = 'queued' AND worker_session IS NULL"));
    q.withoutSavepoint();
    q.bind(nowMs).bind(taskRunId);
    return q.exec(tr("offer task run %1 to other engines").arg(taskRunId));
}

Result<bool> TaskRunOffers::withdraw(qint64 taskRunId, RunState state, qint64 nowMs,
                                     const QString &error)
{
    StoreQuery q(m_store,
                 QStringLiteral("UPDATE task_run SET state = ?, finished_at = ?, error = ? WHERE "
                                "id = ? AND state = 'queued' AND worker_session IS NULL"));
    q.bind(enumName(state)).bind(nowMs).bind(error).bind(taskRunId);
    if (Status s = q.exec(tr("withdraw offered task run %1").arg(taskRunId)); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Status TaskRunOffers::requestStop(qint64 taskRunId, RunState reason)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE task_run SET stop_request = ? WHERE id = ? AND "
                                         "state = 'running'"));
    q.bind(enumName(reason)).bind(taskRunId);
    return q.exec(tr("ask the engine running task run %1 to stop it").arg(taskRunId));
}

Result<QList<TaskRunOffers::Claimed>>
TaskRunOffers::claim(const Fence &worker, const QString &engineName, qint64 nowMs, int limit)
{
    // Offers are few (only attempts that waited for a slot), so they are sorted whole; the
    // partial index task_run_offered finds them among all attempts ever kept.
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE task_run SET state = 'running', started_at = ?, worker_session = ?, "
            "worker_epoch = ?, worker_name = ? WHERE id = ANY(ARRAY(SELECT t.id FROM task_run t "
            "JOIN run r ON r.id = t.run_id JOIN chain c ON c.id = r.chain_id JOIN task k ON "
            "k.id = t.task_id WHERE t.state = 'queued' AND t.offered_at IS NOT NULL AND "
            "t.worker_session IS NULL AND r.state = 'running' AND (c.client_name = '' OR "
            "c.client_name = ?) ORDER BY %1, %2, t.offered_at, t.id LIMIT ? FOR UPDATE OF t "
            "SKIP LOCKED)) RETURNING id, run_id, task_id, attempt")
            .arg(chainRank, taskRank));
    q.withoutSavepoint();
    q.bind(nowMs)
        .bind(worker.sessionId)
        .bind(worker.epoch)
        .bind(engineName)
        .bind(engineName)
        .bind(limit);
    if (Status s = q.exec(tr("claim offered task runs")); !s)
        return s.error();
    QList<Claimed> claimed;
    while (q.next())
        claimed << Claimed{q.int64(0), q.int64(1), q.int64(2), q.integer(3)};
    return claimed;
}

Result<bool> TaskRunOffers::recordProcess(qint64 taskRunId, const Fence &worker, qint64 pid,
                                          qint64 processStartTicks)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE task_run SET pid = ?, process_start = ? WHERE "
                                         "id = ? AND %1")
                              .arg(workerClaim));
    q.bind(pid).bind(processStartTicks).bind(taskRunId).bind(worker.sessionId).bind(worker.epoch);
    if (Status s = q.exec(tr("record the process of task run %1").arg(taskRunId)); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Result<bool> TaskRunOffers::finish(qint64 taskRunId, const Fence &worker, RunState state,
                                   std::optional<int> exitCode, const QString &error, qint64 nowMs)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE task_run SET state = ?, exit_code = ?, error = ?, "
                                         "finished_at = ? WHERE id = ? AND %1")
                              .arg(workerClaim));
    q.bind(enumName(state))
        .bind(exitCodeOf(exitCode))
        .bind(error)
        .bind(nowMs)
        .bind(taskRunId)
        .bind(worker.sessionId)
        .bind(worker.epoch);
    if (Status s = q.exec(tr("record the end of task run %1").arg(taskRunId)); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Result<QList<TaskRunOffers::Look>> TaskRunOffers::look(const QList<qint64> &taskRunIds,
                                                       const Fence &worker) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT id, worker_session = ? AND worker_epoch = ? AND "
                                         "state = 'running', stop_request FROM task_run WHERE id "
                                         "= ANY(CAST(? AS BIGINT[]))"));
    q.bind(worker.sessionId).bind(worker.epoch).bind(StoreQuery::fromIds(taskRunIds));
    if (Status s = q.exec(tr("look at the task runs this engine runs for others")); !s)
        return s.error();
    QList<Look> looks;
    while (q.next()) {
        Look look{q.int64(0), q.boolean(1), std::nullopt};
        if (const QString asked = q.text(2); !asked.isEmpty())
            look.stopRequest = enumFromString<RunState>(asked).value_or(RunState::Cancelled);
        looks << look;
    }
    return looks;
}

Status TaskRunOffers::giveBack(qint64 taskRunId, const Fence &worker)
{
    StoreQuery q(
        m_store,
        QStringLiteral("UPDATE task_run SET %1 WHERE id = ? AND %2").arg(unclaimed, workerClaim));
    q.bind(taskRunId).bind(worker.sessionId).bind(worker.epoch);
    return q.exec(tr("offer task run %1 again").arg(taskRunId));
}

Result<int> TaskRunOffers::reofferUnknown(const Fence &worker, const QList<qint64> &known)
{
    StoreQuery q(m_store, QStringLiteral(
                              "UPDATE task_run SET %1 WHERE %2 AND id <> ALL(CAST(? AS BIGINT[]))")
                              .arg(unclaimed, workerClaim));
    q.bind(worker.sessionId).bind(worker.epoch).bind(StoreQuery::fromIds(known));
    if (Status s = q.exec(tr("offer again the task runs this engine does not run")); !s)
        return s.error();
    return q.rowsAffected();
}

Result<QList<TaskRunOffers::Process>> TaskRunOffers::interruptOrphaned(qint64 nowMs)
{
    StoreQuery q(m_store,
                 QStringLiteral("UPDATE task_run t SET state = 'interrupted', finished_at = ?, "
                                "error = ? WHERE t.worker_session IS NOT NULL AND t.state = "
                                "'running' AND NOT EXISTS (SELECT 1 FROM engine_session s WHERE "
                                "s.id = t.worker_session AND s.epoch = t.worker_epoch) RETURNING "
                                "t.pid, t.process_start"));
    q.bind(nowMs).bind(tr("the engine that ran this attempt for its run's engine stopped"));
    if (Status s = q.exec(tr("interrupt task runs of gone engines")); !s)
        return s.error();
    QList<Process> processes;
    while (q.next())
        processes << Process{q.int64(0), q.int64(1)};
    return processes;
}

} // namespace hg
