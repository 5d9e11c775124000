#include "taskrepository.h"

#include "connectionprofilerepository.h"
#include "domain/taskvalidator.h"
#include "runsinflight.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectTask = QStringLiteral(
    "SELECT t.id, t.chain_id, t.name, t.kind, t.command, t.arguments, t.working_dir, "
    "t.environment, COALESCE(cp.name, ''), t.ignore_error, t.autonomous, t.timeout_s, "
    "t.max_retries, t.retry_delay_s, t.retry_backoff, t.priority, t.pos_x, t.pos_y "
    "FROM task t LEFT JOIN connection_profile cp ON cp.id = t.connection_id ");

Task readTask(const StoreQuery &q)
{
    Task t;
    t.id = q.int64(0);
    t.chainId = q.int64(1);
    t.name = q.text(2);
    t.kind = enumFromString<TaskKind>(q.text(3)).value_or(TaskKind::Program);
    t.command = q.text(4);
    for (const QJsonValue argument : q.array(5))
        t.arguments << argument.toString();
    t.workingDirectory = q.text(6);
    t.environment = q.object(7);
    t.connectionName = q.text(8);
    t.ignoreError = q.boolean(9);
    t.autonomous = q.boolean(10);
    t.timeoutSeconds = q.integer(11);
    t.maxRetries = q.integer(12);
    t.retryDelaySeconds = q.integer(13);
    t.retryBackoff = q.value(14).toDouble();
    t.priority = enumFromString<Priority>(q.text(15)).value_or(Priority::Medium);
    if (!q.value(16).isNull() && !q.value(17).isNull())
        t.position = QPointF(q.value(16).toDouble(), q.value(17).toDouble());
    return t;
}

void bindEditable(StoreQuery &q, const Task &t, const QVariant &connectionId)
{
    const QVariant noPosition(QMetaType::fromType<double>());
    q.bind(t.name)
        .bind(enumName(t.kind))
        .bind(t.command)
        .bind(StoreQuery::fromJson(QJsonArray::fromStringList(t.arguments)))
        .bind(t.workingDirectory)
        .bind(StoreQuery::fromJson(t.environment))
        .bind(connectionId)
        .bind(t.ignoreError)
        .bind(t.autonomous)
        .bind(t.timeoutSeconds)
        .bind(t.maxRetries)
        .bind(t.retryDelaySeconds)
        .bind(t.retryBackoff)
        .bind(enumName(t.priority))
        .bind(t.position ? QVariant(t.position->x()) : noPosition)
        .bind(t.position ? QVariant(t.position->y()) : noPosition);
}

Status duplicateOr(const Status &status, const Task &task)
{
    if (!status && status.error().kind == ErrorKind::AlreadyExists)
        return Error::exists(QCoreApplication::translate("hg::TaskRepository",
                                                         "task '%1' already exists in this chain")
                                 .arg(task.name));
    return status;
}

} // namespace

Result<QVariant> TaskRepository::connectionIdFor(const Task &task) const
{
    if (task.connectionName.isEmpty())
        return QVariant(QMetaType::fromType<qint64>());
    const Result<ConnectionProfile> profile =
        ConnectionProfileRepository(m_store).byName(task.connectionName);
    if (!profile)
        return profile.error();
    return QVariant(profile->id);
}

Result<Task> TaskRepository::add(const Task &task)
{
    if (Status valid = TaskValidator::validate(task); !valid)
        return valid.error();
    const Result<QVariant> connectionId = connectionIdFor(task);
    if (!connectionId)
        return connectionId.error();
    StoreQuery q(
        m_store,
        QStringLiteral(
            "INSERT INTO task (name, kind, command, arguments, working_dir, environment, "
            "connection_id, ignore_error, autonomous, timeout_s, max_retries, retry_delay_s, "
            "retry_backoff, priority, pos_x, pos_y, chain_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    bindEditable(q, task, connectionId.value());
    q.bind(task.chainId);
    if (Status s = duplicateOr(q.execSingle(tr("add task '%1'").arg(task.name), {}), task); !s)
        return s.error();
    Task stored = task;
    stored.id = q.int64(0);
    return stored;
}

Status TaskRepository::update(const Task &task)
{
    if (Status valid = TaskValidator::validate(task); !valid)
        return valid;
    const Result<QVariant> connectionId = connectionIdFor(task);
    if (!connectionId)
        return connectionId.error();
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE task SET name = ?, kind = ?, command = ?, arguments = ?, working_dir = ?, "
            "environment = ?, connection_id = ?, ignore_error = ?, autonomous = ?, timeout_s = ?, "
            "max_retries = ?, retry_delay_s = ?, retry_backoff = ?, priority = ?, pos_x = ?, "
            "pos_y = ? WHERE id = ?"));
    bindEditable(q, task, connectionId.value());
    q.bind(task.id);
    if (Status s = duplicateOr(q.exec(tr("update task '%1'").arg(task.name)), task); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown task id %1").arg(task.id));
    return {};
}

Status TaskRepository::setPosition(qint64 taskId, const std::optional<QPointF> &position)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE task SET pos_x = ?, pos_y = ? WHERE id = ?"));
    const QVariant none(QMetaType::fromType<double>());
    q.bind(position ? QVariant(position->x()) : none)
        .bind(position ? QVariant(position->y()) : none)
        .bind(taskId);
    if (Status s = q.exec(tr("move task %1").arg(taskId)); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown task id %1").arg(taskId));
    return {};
}

Result<Task> TaskRepository::byName(qint64 chainId, const QString &name) const
{
    StoreQuery q(m_store, selectTask + QStringLiteral("WHERE t.chain_id = ? AND t.name = ?"));
    q.bind(chainId).bind(name);
    if (Status s = q.execSingle(tr("read task"), tr("unknown task '%1'").arg(name)); !s)
        return s.error();
    return readTask(q);
}

Result<Task> TaskRepository::byId(qint64 id) const
{
    StoreQuery q(m_store, selectTask + QStringLiteral("WHERE t.id = ?"));
    q.bind(id);
    if (Status s = q.execSingle(tr("read task"), tr("unknown task id %1").arg(id)); !s)
        return s.error();
    return readTask(q);
}

Result<QList<Task>> TaskRepository::list(qint64 chainId) const
{
    StoreQuery q(m_store, selectTask + QStringLiteral("WHERE t.chain_id = ? ORDER BY t.name"));
    q.bind(chainId);
    if (Status s = q.exec(tr("list tasks")); !s)
        return s.error();
    QList<Task> tasks;
    while (q.next())
        tasks << readTask(q);
    return tasks;
}

Result<bool> TaskRepository::anyArgumentsHold(const QString &text) const
{
    // instr/strpos, not LIKE: a key's text may hold LIKE's wildcards.
    StoreQuery q(m_store,
                 QStringLiteral("SELECT count(*) FROM task WHERE %1(arguments, ?) > 0")
                     .arg(m_store.backend() == StoreBackend::PostgreSql ? QStringLiteral("strpos")
                                                                        : QStringLiteral("instr")));
    q.bind(text);
    if (Status s = q.execSingle(tr("look for a task's key"), {}); !s)
        return s.error();
    return q.int64(0) > 0;
}

Status TaskRepository::remove(qint64 id)
{
    return m_store.transaction([&]() -> Status {
        // A run in flight holds attempts of this task: they would cascade away under it.
        const Result<Task> task = byId(id);
        if (!task)
            return task.error();
        if (Status idle =
                RunsInFlight::refuseRemoval(m_store, RunsInFlight::Scope::Chain, task->chainId,
                                            tr("the chain of task '%1'").arg(task->name));
            !idle)
            return idle;
        return removeRow(id);
    });
}

Status TaskRepository::removeRow(qint64 id)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM task WHERE id = ?"));
    q.bind(id);
    if (Status s = q.exec(tr("remove task")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown task id %1").arg(id));
    return {};
}

} // namespace hg
