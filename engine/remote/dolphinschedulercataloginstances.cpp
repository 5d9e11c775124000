// DolphinSchedulerCatalog: state names and the listings of workflow and task instances,
// filtered, sorted and paged by keyset in SQL.
#include "dolphinschedulercatalog.h"
#include "dolphinschedulerorder.h"
#include "dolphinschedulerprotocol.h"
#include "remotedatabase.h"

#include <QSqlQuery>

#include <algorithm>

namespace hg {

template<typename Row, typename Read>
Result<QList<Row>>
DolphinSchedulerCatalog::readPage(const QList<DolphinSchedulerOrder::Statement> &statements,
                                  int limit, const QString &what, Read read) const
{
    QList<Row> rows;
    for (const DolphinSchedulerOrder::Statement &statement : statements) {
        if (rows.size() >= limit)
            break;
        QSqlQuery q(m_remote->db());
        q.prepare(statement.sql);
        for (const QVariant &value : statement.values)
            q.addBindValue(value);
        if (Status status = exec(q, what); !status)
            return status.error();
        while (rows.size() < limit && q.next())
            rows << read(q);
    }
    return rows;
}

QString DolphinSchedulerCatalog::workflowStateName(int state, const DolphinSchedulerSchema &schema)
{
    // 2.0's ExecutionStatus descriptions for the codes it alone has (3.2 split them off into
    // the task states or dropped them); 14 and above do not exist there.
    if (schema.isRelease20()) {
        using Old = dolphinscheduler::ExecutionStatus20;
        switch (Old(state)) {
        case Old::NeedFaultTolerance:
            return QStringLiteral("need fault tolerance");
        case Old::Kill:
            return QStringLiteral("kill");
        case Old::WaitingThread:
            return QStringLiteral("waiting thread");
        case Old::WaitingDepend:
            return QStringLiteral("waiting depend node complete");
        case Old::ForcedSuccess:
            return QStringLiteral("forced success");
        default:
            if (state > int(Old::ForcedSuccess))
                return QStringLiteral("state %1").arg(state);
            break;
        }
    }
    using State = dolphinscheduler::WorkflowExecutionStatus32;
    switch (State(state)) {
    case State::SubmittedSuccess:
        return QStringLiteral("submitted");
    case State::RunningExecution:
        return QStringLiteral("running");
    case State::ReadyPause:
        return QStringLiteral("ready pause");
    case State::Pause:
        return QStringLiteral("pause");
    case State::ReadyStop:
        return QStringLiteral("ready stop");
    case State::Stop:
        return QStringLiteral("stop");
    case State::Failure:
        return QStringLiteral("failure");
    case State::Success:
        return QStringLiteral("success");
    case State::DelayExecution:
        return QStringLiteral("delay execution");
    case State::SerialWait:
        return QStringLiteral("serial wait");
    case State::ReadyBlock:
        return QStringLiteral("ready block");
    case State::Block:
        return QStringLiteral("block");
    case State::WaitToRun:
        return QStringLiteral("wait to run");
    }
    // 3.3 added one code of its own.
    if (schema.layout() == DolphinSchedulerSchema::Layout::Workflow
        && state == int(dolphinscheduler::WorkflowExecutionStatus33::Failover))
        return QStringLiteral("failover");
    return QStringLiteral("state %1").arg(state);
}

QString DolphinSchedulerCatalog::taskStateName(int state)
{
    using State = dolphinscheduler::TaskExecutionStatus;
    switch (State(state)) {
    case State::SubmittedSuccess:
        return QStringLiteral("submitted");
    case State::RunningExecution:
        return QStringLiteral("running");
    case State::Pause:
        return QStringLiteral("pause");
    case State::Stop:
        return QStringLiteral("stop");
    case State::Failure:
        return QStringLiteral("failure");
    case State::Success:
        return QStringLiteral("success");
    case State::NeedFaultTolerance:
        return QStringLiteral("need fault tolerance");
    case State::Kill:
        return QStringLiteral("kill");
    case State::DelayExecution:
        return QStringLiteral("delay execution");
    case State::ForcedSuccess:
        return QStringLiteral("forced success");
    case State::Dispatch:
        return QStringLiteral("dispatch");
    }
    return QStringLiteral("state %1").arg(state);
}

namespace {

// The columns readInstance() reads, with the workflow's path, from instanceTables().
QString instanceColumns(const DolphinSchedulerSchema &s)
{
    return QStringLiteral("i.id, i.name, p.name, d.name, i.%1, i.state, i.command_type, i.host, "
                          "i.start_time, i.end_time, i.schedule_time, i.run_times")
        .arg(s.definitionVersionColumn());
}

QString instanceTables(const DolphinSchedulerSchema &s)
{
    return QStringLiteral("%1 i JOIN %2 d ON d.code = i.%3 JOIN t_ds_project p ON p.code = "
                          "d.project_code")
        .arg(s.instanceTable(), s.definitionTable(), s.definitionCodeColumn());
}
// A listing's sort key (DolphinSchedulerOrder::keyAsText) is read after instanceColumns().
constexpr int instanceKeyColumn = 12;

DsInstance readInstance(const QSqlQuery &q)
{
    DsInstance instance;
    instance.id = q.value(0).toLongLong();
    instance.name = q.value(1).toString();
    instance.workflowPath = q.value(2).toString() + QLatin1Char('/') + q.value(3).toString();
    instance.definitionVersion = q.value(4).toInt();
    instance.state = q.value(5).toInt();
    instance.commandType = q.value(6).toInt();
    instance.host = q.value(7).toString();
    instance.start = q.value(8).toDateTime();
    instance.end = q.value(9).toDateTime();
    instance.scheduleTime = q.value(10).toDateTime();
    instance.runTimes = q.value(11).toInt();
    return instance;
}

} // namespace

Result<QStringList> DolphinSchedulerCatalog::projectAndWorkflow(const QString &path)
{
    const qsizetype slash = path.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return Error::invalid(tr("'%1' is no workflow: name it PROJECT/WORKFLOW").arg(path));
    return QStringList{path.left(slash), path.mid(slash + 1)};
}

Result<QList<DsInstance>> DolphinSchedulerCatalog::instances(const DsInstanceFilter &filter) const
{
    const DolphinSchedulerSchema &s = m_schema;
    QStringList conditions;
    QVariantList values;
    if (!filter.workflowPath.isEmpty()) {
        const Result<QStringList> names = projectAndWorkflow(filter.workflowPath);
        if (!names)
            return names.error();
        conditions << QStringLiteral("p.name = ? AND d.name = ?");
        values << names->at(0) << names->at(1);
    }
    if (filter.since.isValid()) {
        conditions << QStringLiteral("i.start_time >= ?");
        values << filter.since;
    }
    if (filter.failedOnly) {
        conditions << QStringLiteral("i.state = ?");
        values << int(dolphinscheduler::WorkflowExecutionStatus32::Failure);
    }
    const Result<DolphinSchedulerOrder> order = DolphinSchedulerOrder::make(
        DolphinSchedulerOrder::Listing::WorkflowInstances, filter.sort, m_remote->isMysql());
    if (!order)
        return order.error();
    const int limit = std::clamp(filter.limit, 1, 10000);
    return readPage<DsInstance>(
        order->page(instanceColumns(s) + QStringLiteral(", ") + order->keyAsText(),
                    instanceTables(s), conditions, values, filter.after, limit),
        limit, tr("read the workflow instances"), [](const QSqlQuery &q) {
            DsInstance instance = readInstance(q);
            instance.keyset = DolphinSchedulerOrder::keyset(q, 0, instanceKeyColumn);
            return instance;
        });
}

Result<DsInstance> DolphinSchedulerCatalog::instance(qint64 id) const
{
    const DolphinSchedulerSchema &s = m_schema;
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT %1 FROM %2 WHERE i.id = ?")
                  .arg(instanceColumns(s), instanceTables(s)));
    q.addBindValue(id);
    if (Status status = exec(q, tr("read workflow instance %1").arg(id)); !status)
        return status.error();
    if (!q.next())
        return Error::notFound(
            tr("remote '%1' has no workflow instance %2").arg(m_remote->profile().name).arg(id));
    return readInstance(q);
}

namespace {

QString taskInstanceColumns(const DolphinSchedulerSchema &s)
{
    return QStringLiteral("t.id, t.name, t.task_type, t.state, t.host, t.submit_time, "
                          "t.start_time, t.end_time, t.retry_times, t.max_retry_times, "
                          "t.log_path, t.%1")
        .arg(s.instanceIdColumn());
}
constexpr int taskInstanceKeyColumn = 12; // after taskInstanceColumns()

DsTaskInstance readTaskInstance(const QSqlQuery &q)
{
    DsTaskInstance task;
    task.id = q.value(0).toLongLong();
    task.name = q.value(1).toString();
    task.type = q.value(2).toString();
    task.state = q.value(3).toInt();
    task.host = q.value(4).toString();
    task.submitted = q.value(5).toDateTime();
    task.start = q.value(6).toDateTime();
    task.end = q.value(7).toDateTime();
    task.retryTimes = q.value(8).toInt();
    task.maxRetryTimes = q.value(9).toInt();
    task.logPath = q.value(10).toString();
    task.instanceId = q.value(11).toLongLong();
    return task;
}

} // namespace

Result<QList<DsTaskInstance>> DolphinSchedulerCatalog::taskInstances(qint64 instanceId) const
{
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT %1 FROM t_ds_task_instance t WHERE t.%2 = ? ORDER BY t.id")
                  .arg(taskInstanceColumns(m_schema), m_schema.instanceIdColumn()));
    q.addBindValue(instanceId);
    if (Status status = exec(q, tr("read the task instances of %1").arg(instanceId)); !status)
        return status.error();
    QList<DsTaskInstance> tasks;
    while (q.next())
        tasks << readTaskInstance(q);
    return tasks;
}

Result<QList<DsTaskInstance>>
DolphinSchedulerCatalog::taskInstances(const DsTaskInstanceFilter &filter) const
{
    const DolphinSchedulerSchema &s = m_schema;
    QStringList conditions;
    QVariantList values;
    if (!filter.workflowPath.isEmpty()) {
        const Result<QStringList> names = projectAndWorkflow(filter.workflowPath);
        if (!names)
            return names.error();
        // Its instances by their definition's code, looked up once.
        conditions << QStringLiteral(
                          "t.%1 IN (SELECT i.id FROM %2 i JOIN %3 d ON d.code = i.%4 JOIN "
                          "t_ds_project p ON p.code = d.project_code WHERE p.name = ? AND "
                          "d.name = ?)")
                          .arg(s.instanceIdColumn(), s.instanceTable(), s.definitionTable(),
                               s.definitionCodeColumn());
        values << names->at(0) << names->at(1);
    }
    if (filter.instanceId > 0) {
        conditions << QStringLiteral("t.%1 = ?").arg(s.instanceIdColumn());
        values << filter.instanceId;
    }
    if (filter.since.isValid()) {
        conditions << QStringLiteral("t.submit_time >= ?");
        values << filter.since;
    }
    if (filter.failedOnly) {
        conditions << QStringLiteral("t.state = ?");
        values << int(dolphinscheduler::TaskExecutionStatus::Failure);
    }
    if (!filter.host.isEmpty()) {
        // "worker-1" matches "worker-1:1234", as DolphinScheduler stores it.
        conditions << QStringLiteral("(t.host = ? OR t.host LIKE ?)");
        values << filter.host << QString(filter.host + QStringLiteral(":%"));
    }
    if (!filter.taskName.isEmpty()) {
        conditions << QStringLiteral("t.name = ?");
        values << filter.taskName;
    }
    const Result<DolphinSchedulerOrder> order = DolphinSchedulerOrder::make(
        DolphinSchedulerOrder::Listing::TaskInstances, filter.sort, m_remote->isMysql());
    if (!order)
        return order.error();
    const int limit = std::clamp(filter.limit, 1, 10000);
    return readPage<DsTaskInstance>(
        order->page(taskInstanceColumns(s) + QStringLiteral(", ") + order->keyAsText(),
                    QStringLiteral("t_ds_task_instance t"), conditions, values, filter.after,
                    limit),
        limit, tr("read the task instances"), [](const QSqlQuery &q) {
            DsTaskInstance task = readTaskInstance(q);
            task.keyset = DolphinSchedulerOrder::keyset(q, 0, taskInstanceKeyColumn);
            return task;
        });
}

Result<DsKeyset> DolphinSchedulerCatalog::instanceKeyset(qint64 id, const DsSort &sort) const
{
    return keysetOf(id, sort, false);
}

Result<DsKeyset> DolphinSchedulerCatalog::taskInstanceKeyset(qint64 id, const DsSort &sort) const
{
    return keysetOf(id, sort, true);
}

Result<DsKeyset> DolphinSchedulerCatalog::keysetOf(qint64 id, const DsSort &sort, bool task) const
{
    const Result<DolphinSchedulerOrder> order =
        DolphinSchedulerOrder::make(task ? DolphinSchedulerOrder::Listing::TaskInstances
                                         : DolphinSchedulerOrder::Listing::WorkflowInstances,
                                    sort, m_remote->isMysql());
    if (!order)
        return order.error();
    QSqlQuery q(m_remote->db());
    q.prepare(task ? QStringLiteral("SELECT t.id, %1 FROM t_ds_task_instance t WHERE t.id = ?")
                         .arg(order->keyAsText())
                   : QStringLiteral("SELECT i.id, %1 FROM %2 i WHERE i.id = ?")
                         .arg(order->keyAsText(), m_schema.instanceTable()));
    q.addBindValue(id);
    if (Status status = exec(q, tr("read instance %1").arg(id)); !status)
        return status.error();
    if (!q.next())
        return Error::notFound(
            task ? tr("remote '%1' has no task instance %2").arg(m_remote->profile().name).arg(id)
                 : tr("remote '%1' has no workflow instance %2")
                       .arg(m_remote->profile().name)
                       .arg(id));
    return DolphinSchedulerOrder::keyset(q, 0, 1);
}

} // namespace hg
