#include "taskrunrepository.h"

#include "runselsewhere.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectTaskRun = QStringLiteral(
    "SELECT id, run_id, task_id, attempt, state, pid, process_start, exit_code, error, "
    "queued_at, started_at, finished_at, worker_name FROM task_run ");

TaskRun readTaskRun(const StoreQuery &q)
{
    TaskRun t;
    t.id = q.int64(0);
    t.runId = q.int64(1);
    t.taskId = q.int64(2);
    t.attempt = q.integer(3);
    t.state = enumFromString<RunState>(q.text(4)).value_or(RunState::Queued);
    t.pid = q.int64(5);
    t.processStartTicks = q.int64(6);
    if (!q.value(7).isNull())
        t.exitCode = q.integer(7);
    t.error = q.text(8);
    t.queuedAt = q.time(9);
    t.startedAt = q.time(10);
    t.finishedAt = q.time(11);
    t.workerName = q.text(12);
    return t;
}

QVariant exitCodeValue(const TaskRun &t)
{
    return t.exitCode ? QVariant(*t.exitCode) : QVariant(QMetaType::fromType<int>());
}

} // namespace

Result<TaskRun> TaskRunRepository::insert(const TaskRun &taskRun)
{
    return add(taskRun, nullptr);
}

Result<TaskRun> TaskRunRepository::insertFenced(const TaskRun &taskRun, const Fence &fence)
{
    return add(taskRun, &fence);
}

Result<TaskRun> TaskRunRepository::add(const TaskRun &taskRun, const Fence *fence)
{
    TaskRun stored = taskRun;
    if (!stored.queuedAt.isValid())
        stored.queuedAt = QDateTime::currentDateTimeUtc();
    // Fenced, the row comes from the run's own while it names the claim; SELECT's values
    // need their types spelled out, where VALUES takes them from the columns.
    const QString columns = QStringLiteral(
        "INSERT INTO task_run (run_id, task_id, attempt, state, pid, process_start, exit_code, "
        "error, queued_at, started_at, finished_at) ");
    const QString source =
        fence ? QStringLiteral(
                    "SELECT id, CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), "
                    "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), "
                    "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM run WHERE id = ? "
                    "AND COALESCE(owner_session, 0) = ? AND owner_epoch = ?%1 ")
                    .arg(m_store.backend() == StoreBackend::PostgreSql && m_store.inTransaction()
                             ? QStringLiteral(" FOR SHARE")
                             : QString())
              : QStringLiteral("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ");
    StoreQuery q(m_store, columns + source
                              + QStringLiteral("ON CONFLICT (run_id, task_id, attempt) DO NOTHING "
                                               "RETURNING id"));
    q.withoutSavepoint();
    if (!fence)
        q.bind(stored.runId);
    q.bind(stored.taskId)
        .bind(stored.attempt)
        .bind(enumName(stored.state))
        .bind(stored.pid)
        .bind(stored.processStartTicks)
        .bind(exitCodeValue(stored))
        .bind(stored.error)
        .bind(StoreQuery::fromTime(stored.queuedAt))
        .bind(StoreQuery::fromTime(stored.startedAt))
        .bind(StoreQuery::fromTime(stored.finishedAt));
    if (fence)
        q.bind(stored.runId).bind(fence->sessionId).bind(fence->epoch);
    // A conflict returns no row rather than failing: the caller (RunRecorder::insertTaskRun)
    // goes on in the same transaction, which a failed statement would abort on PostgreSQL.
    // Fenced, no row may also mean the claim is gone: the caller's check tells which.
    if (Status s = q.execSingle(tr("insert task run"), QString()); !s) {
        if (s.error().kind != ErrorKind::NotFound)
            return s.error();
        return Error::exists(tr("attempt %1 of task %2 in run %3 is stored already")
                                 .arg(stored.attempt)
                                 .arg(stored.taskId)
                                 .arg(stored.runId));
    }
    stored.id = q.int64(0);
    return stored;
}

Status TaskRunRepository::update(const TaskRun &t)
{
    const Result<bool> written = write(t, nullptr, Writer::RunOwner);
    if (!written)
        return written.error();
    if (!written.value())
        return Error::notFound(tr("unknown task run %1, or another engine runs it").arg(t.id));
    return {};
}

Status TaskRunRepository::updateInRecovery(const TaskRun &t)
{
    const Result<bool> written = write(t, nullptr, Writer::Recovery);
    if (!written)
        return written.error();
    if (!written.value())
        return Error::notFound(tr("unknown task run %1").arg(t.id));
    return {};
}

Result<bool> TaskRunRepository::updateFenced(const TaskRun &t, const Fence &fence)
{
    return write(t, &fence, Writer::RunOwner);
}

Result<bool> TaskRunRepository::takeOver(const TaskRun &t, const Fence *fence)
{
    return write(t, fence, Writer::TakeOver);
}

Result<bool> TaskRunRepository::write(const TaskRun &t, const Fence *fence, Writer writer)
{
    // The claim is compared through COALESCE so the planner keeps to the run's primary key
    // (RunRepository::setStateFenced() says why).
    QString claim;
    if (fence) {
        claim = QStringLiteral(" AND run_id IN (SELECT id FROM run WHERE id = ? AND "
                               "COALESCE(owner_session, 0) = ? AND owner_epoch = ?%1)")
                    .arg(m_store.backend() == StoreBackend::PostgreSql && m_store.inTransaction()
                             ? QStringLiteral(" FOR SHARE")
                             : QString());
    }
    // An attempt a worker claimed is the worker's to write (TaskRunOffers): a write of its
    // run's engine over that claim (a stale state, an attempt taken over after a commit
    // reported as failed) left it "queued" with its worker named, never claimed again, and
    // its run never ended; or "running" here too, the attempt run twice.
    if (writer != Writer::Recovery)
        claim += QStringLiteral(" AND worker_session IS NULL");
    if (writer == Writer::TakeOver)
        claim += QStringLiteral(" AND pid = 0 AND state IN ('queued', 'waiting', 'running')");
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE task_run SET state = ?, pid = ?, process_start = ?, exit_code = ?, error = ?, "
            "started_at = ?, finished_at = ? WHERE id = ?%1")
            .arg(claim));
    q.withoutSavepoint();
    q.bind(enumName(t.state))
        .bind(t.pid)
        .bind(t.processStartTicks)
        .bind(exitCodeValue(t))
        .bind(t.error)
        .bind(StoreQuery::fromTime(t.startedAt))
        .bind(StoreQuery::fromTime(t.finishedAt))
        .bind(t.id);
    if (fence)
        q.bind(t.runId).bind(fence->sessionId).bind(fence->epoch);
    if (Status s = q.exec(tr("update task run %1").arg(t.id)); !s)
        return s.error();
    return q.rowsAffected() > 0;
}

Result<TaskRun> TaskRunRepository::byId(qint64 id) const
{
    StoreQuery q(m_store, selectTaskRun + QStringLiteral("WHERE id = ?"));
    q.bind(id);
    if (Status s = q.execSingle(tr("read task run"), tr("unknown task run %1").arg(id)); !s)
        return s.error();
    return readTaskRun(q);
}

Result<TaskRun> TaskRunRepository::byAttempt(qint64 runId, qint64 taskId, int attempt) const
{
    StoreQuery q(m_store, selectTaskRun
                              + QStringLiteral("WHERE run_id = ? AND task_id = ? AND attempt = ?"));
    q.bind(runId).bind(taskId).bind(attempt);
    if (Status s = q.execSingle(
            tr("read task run"),
            tr("run %1 has no attempt %2 of task %3").arg(runId).arg(attempt).arg(taskId));
        !s)
        return s.error();
    return readTaskRun(q);
}

Result<QList<TaskRun>> TaskRunRepository::listElsewhere(qint64 sessionId,
                                                        const QList<qint64> &alsoRuns) const
{
    return listWhere(RunsElsewhere::condition(alsoRuns), sessionId);
}

Result<QList<TaskRun>> TaskRunRepository::listForRun(qint64 runId) const
{
    return listWhere(QStringLiteral("run_id = ?"), runId);
}

Result<QList<TaskRun>> TaskRunRepository::listByIds(const QList<qint64> &ids) const
{
    if (ids.isEmpty())
        return QList<TaskRun>();
    StoreQuery q(m_store,
                 selectTaskRun
                     + QStringLiteral("WHERE id IN (%1) ORDER BY id").arg(StoreQuery::idList(ids)));
    if (Status s = q.exec(tr("read task runs")); !s)
        return s.error();
    QList<TaskRun> taskRuns;
    while (q.next())
        taskRuns << readTaskRun(q);
    return taskRuns;
}

Result<QList<TaskRun>> TaskRunRepository::listInState(RunState state) const
{
    return listWhere(QStringLiteral("state = ?"), enumName(state));
}

Result<QList<TaskRun>> TaskRunRepository::listWhere(const QString &condition,
                                                    const QVariant &value) const
{
    StoreQuery q(m_store, selectTaskRun + QStringLiteral("WHERE %1 ORDER BY id").arg(condition));
    q.bind(value);
    if (Status s = q.exec(tr("list task runs")); !s)
        return s.error();
    QList<TaskRun> taskRuns;
    while (q.next())
        taskRuns << readTaskRun(q);
    return taskRuns;
}

} // namespace hg
