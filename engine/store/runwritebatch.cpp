#include "runwritebatch.h"

#include "store.h"
#include "storequery.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace hg {
namespace {

// Times and ids travel as JSON numbers (exact below 2^53, which ms since 1970 stay under).
QJsonValue batchTime(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(double(time.toMSecsSinceEpoch())) : QJsonValue();
}

// The columns an update writes; an insert adds the attempt's identity.
QJsonObject taskRunRow(const TaskRun &t)
{
    return QJsonObject{
        {QStringLiteral("id"), double(t.id)},
        {QStringLiteral("run_id"), double(t.runId)},
        {QStringLiteral("state"), enumName(t.state)},
        {QStringLiteral("pid"), double(t.pid)},
        {QStringLiteral("process_start"), double(t.processStartTicks)},
        {QStringLiteral("exit_code"), t.exitCode ? QJsonValue(*t.exitCode) : QJsonValue()},
        {QStringLiteral("error"), t.error.isNull() ? QString::fromLatin1("") : t.error},
        {QStringLiteral("started_at"), batchTime(t.startedAt)},
        {QStringLiteral("finished_at"), batchTime(t.finishedAt)}};
}

} // namespace

Result<QSet<qint64>> RunWriteBatch::writeRuns(const QList<RunChange> &changes, const Fence &fence)
{
    if (changes.isEmpty())
        return QSet<qint64>();
    // The rows as one JSON parameter: a text the driver quotes like any other, where arrays
    // of text would need quoting of their own. Same rules as RunRepository::writeState() and
    // RunOwnership::claim(). The ids once more as an array, for the primary key: a prepared
    // statement's generic plan takes any set-returning function for 100 rows and, on a small
    // table, joined it to a sequential scan of all runs (1 ms a batch at 3,000 runs, and
    // growing with the table).
    QJsonArray rows;
    QList<qint64> runIds;
    for (const RunChange &change : changes) {
        runIds << change.runId;
        rows.append(QJsonObject{{QStringLiteral("id"), double(change.runId)},
                                {QStringLiteral("claim"), change.claim},
                                {QStringLiteral("state"),
                                 change.state ? QJsonValue(enumName(*change.state)) : QJsonValue()},
                                {QStringLiteral("at"), batchTime(change.at)},
                                {QStringLiteral("starts"), change.state == RunState::Running},
                                {QStringLiteral("ends"), change.state && isTerminal(*change.state)},
                                {QStringLiteral("engine"), change.engineName}});
    }
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE run r SET owner_session = CASE WHEN v.claim THEN CAST(? AS BIGINT) ELSE "
            "r.owner_session END, owner_epoch = CASE WHEN v.claim THEN CAST(? AS BIGINT) ELSE "
            "r.owner_epoch END, state = COALESCE(v.state, r.state), "
            "started_at = CASE WHEN v.starts AND r.started_at IS NULL THEN v.at ELSE "
            "r.started_at END, "
            "finished_at = CASE WHEN v.state IS NULL THEN r.finished_at WHEN v.ends THEN v.at "
            "END, "
            "engine_name = CASE WHEN v.engine <> '' THEN v.engine ELSE r.engine_name END "
            "FROM json_to_recordset(CAST(? AS json)) AS v(id bigint, claim boolean, state text, "
            "at bigint, starts boolean, ends boolean, engine text) "
            "WHERE r.id = v.id AND CASE WHEN v.claim THEN r.state = 'queued' AND "
            "(r.owner_session IS NULL OR r.owner_session = ?) ELSE COALESCE(r.owner_session, 0) "
            "= ? AND r.owner_epoch = ? END AND r.id = ANY(CAST(? AS BIGINT[])) RETURNING r.id"));
    q.withoutSavepoint().leavesWriteBehind();
    q.bind(fence.sessionId)
        .bind(fence.epoch)
        .bind(StoreQuery::fromJson(rows))
        .bind(fence.sessionId)
        .bind(fence.sessionId)
        .bind(fence.epoch)
        .bind(StoreQuery::fromIds(runIds));
    if (Status s = q.exec(tr("update runs")); !s)
        return s.error();
    QSet<qint64> written;
    while (q.next())
        written.insert(q.int64(0));
    return written;
}

Result<QSet<qint64>> RunWriteBatch::insertTaskRuns(const QList<TaskRun> &attempts,
                                                   const Fence &fence)
{
    if (attempts.isEmpty())
        return QSet<qint64>();
    QJsonArray rows;
    QList<qint64> runIds;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const TaskRun &t : attempts) {
        QJsonObject row = taskRunRow(t);
        row.insert(QStringLiteral("task_id"), double(t.taskId));
        row.insert(QStringLiteral("attempt"), t.attempt);
        row.insert(QStringLiteral("queued_at"), batchTime(t.queuedAt.isValid() ? t.queuedAt : now));
        rows.append(row);
        runIds << t.runId;
    }
    // The runs share-locked as TaskRunRepository::insertFenced() does.
    StoreQuery q(m_store,
                 QStringLiteral(
                     "INSERT INTO task_run (id, run_id, task_id, attempt, state, pid, "
                     "process_start, exit_code, error, queued_at, started_at, finished_at) "
                     "SELECT v.id, v.run_id, v.task_id, v.attempt, v.state, v.pid, "
                     "v.process_start, v.exit_code, v.error, v.queued_at, v.started_at, "
                     "v.finished_at FROM json_to_recordset(CAST(? AS json)) AS v(id bigint, "
                     "run_id bigint, task_id bigint, attempt integer, state text, pid bigint, "
                     "process_start bigint, exit_code integer, error text, queued_at bigint, "
                     "started_at bigint, finished_at bigint) WHERE v.run_id = ANY(ARRAY(SELECT "
                     "id FROM run WHERE id = ANY(CAST(? AS bigint[])) AND COALESCE(owner_session, "
                     "0) = ? AND owner_epoch = ? FOR SHARE)) ON CONFLICT (run_id, task_id, "
                     "attempt) DO NOTHING RETURNING id"));
    return writeRows(q, rows, runIds, fence, tr("add task runs"));
}

Result<QList<qint64>> RunWriteBatch::reserveTaskRunIds(int count)
{
    StoreQuery q(m_store, QStringLiteral("SELECT nextval(pg_get_serial_sequence('task_run', "
                                         "'id')) FROM generate_series(1, ?)"));
    q.withoutSavepoint().leavesWriteBehind();
    q.bind(count);
    if (Status s = q.exec(tr("reserve task run ids")); !s)
        return s.error();
    QList<qint64> ids;
    while (q.next())
        ids << q.int64(0);
    return ids;
}

Result<QSet<qint64>> RunWriteBatch::updateTaskRuns(const QList<TaskRun> &attempts,
                                                   const Fence &fence)
{
    if (attempts.isEmpty())
        return QSet<qint64>();
    QJsonArray rows;
    QList<qint64> runIds;
    QList<qint64> ids;
    for (const TaskRun &t : attempts) {
        rows.append(taskRunRow(t));
        runIds << t.runId;
        ids << t.id;
    }
    // The runs share-locked as TaskRunRepository::updateFenced() does: a takeover waits for
    // this transaction's end.
    StoreQuery q(m_store,
                 QStringLiteral(
                     "UPDATE task_run t SET state = v.state, pid = v.pid, process_start = "
                     "v.process_start, exit_code = v.exit_code, error = v.error, started_at = "
                     "v.started_at, finished_at = v.finished_at "
                     "FROM json_to_recordset(CAST(? AS json)) AS v(id bigint, run_id bigint, "
                     "state text, pid bigint, process_start bigint, exit_code integer, error "
                     "text, started_at bigint, finished_at bigint) "
                     "WHERE t.id = v.id AND t.run_id = v.run_id AND t.run_id = ANY(ARRAY(SELECT "
                     "id FROM run WHERE id = ANY(CAST(? AS bigint[])) AND COALESCE(owner_session, "
                     "0) = ? AND owner_epoch = ? FOR SHARE)) AND t.id = ANY(CAST(? AS bigint[])) "
                     "AND t.worker_session IS NULL RETURNING t.id"));
    // By primary key, as writeRuns() says why; a worker's claim is its own to write
    // (TaskRunRepository::updateFenced()).
    return writeRows(q, rows, runIds, fence, tr("update task runs"), ids);
}

Result<QSet<qint64>> RunWriteBatch::writeRows(StoreQuery &q, const QJsonArray &rows,
                                              const QList<qint64> &runIds, const Fence &fence,
                                              const QString &whatFor, const QList<qint64> &rowIds)
{
    q.withoutSavepoint().leavesWriteBehind();
    q.bind(StoreQuery::fromJson(rows))
        .bind(StoreQuery::fromIds(runIds))
        .bind(fence.sessionId)
        .bind(fence.epoch);
    if (!rowIds.isEmpty())
        q.bind(StoreQuery::fromIds(rowIds));
    if (Status s = q.exec(whatFor); !s)
        return s.error();
    QSet<qint64> written;
    while (q.next())
        written.insert(q.int64(0));
    return written;
}

} // namespace hg
