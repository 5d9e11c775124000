#include "dolphinschedulercatalog.h"

#include "dolphinschedulerorder.h"
#include "dolphinschedulerprotocol.h"
#include "dolphinschedulerquartz.h"
#include "remotedatabase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

namespace hg {

Result<DolphinSchedulerCatalog> DolphinSchedulerCatalog::open(RemoteDatabase &remote)
{
    const Result<DolphinSchedulerSchema> schema = DolphinSchedulerSchema::detect(remote);
    if (!schema)
        return schema.error();
    DolphinSchedulerCatalog catalog(remote, schema.value());
    RemoteInfo &info = catalog.m_info;
    info.system = QStringLiteral("DolphinScheduler");
    QSqlQuery server(remote.db());
    if (server.exec(remote.isMysql() ? QStringLiteral("SELECT version(), @@system_time_zone")
                                     : QStringLiteral("SELECT current_setting('server_version'), "
                                                      "current_setting('TimeZone')"))
        && server.next()) {
        info.serverVersion =
            (remote.isMysql() ? QStringLiteral("MySQL ") : QStringLiteral("PostgreSQL "))
            + server.value(0).toString();
        info.timeZone = server.value(1).toString();
    }
    // As the schema records it: 3.2.2's DDL records 3.3.0, so the layout is said beside it.
    QSqlQuery version(remote.db());
    if (schema->hasVersionTable()
        && version.exec(QStringLiteral("SELECT version FROM t_ds_version")) && version.next())
        info.version = version.value(0).toString();
    info.version = info.version.isEmpty()
                       ? schema->layoutName()
                       : tr("%1, layout %2").arg(info.version, schema->layoutName());
    info.major = schema->layout() == DolphinSchedulerSchema::Layout::Workflow ? 3 : 2;
    // Its PostgreSQL DDL (every release) lacks the index its MySQL DDL has: an instance's task
    // instances are then found by reading every task instance (2,500,000: 360-500 ms).
    const QString instanceId = schema->instanceIdColumn();
    if (const Result<bool> indexed =
            remote.hasIndexLeadingWith(QStringLiteral("t_ds_task_instance"), instanceId);
        indexed && !indexed.value())
        info.advice = tr("t_ds_task_instance has no index on %1, so a workflow instance's task "
                         "instances are found by reading them all; DolphinScheduler's MySQL "
                         "schema has one, and an administrator can add it: CREATE INDEX "
                         "idx_task_instance_%1 ON t_ds_task_instance (%1)")
                          .arg(instanceId);
    return catalog;
}

Status DolphinSchedulerCatalog::exec(QSqlQuery &query, const QString &what) const
{
    if (query.exec())
        return {};
    return m_remote->queryError(what, query.lastError().text());
}

Result<QList<DsWorkflow>> DolphinSchedulerCatalog::readWorkflows(const QString &condition,
                                                                 const QStringList &values) const
{
    const DolphinSchedulerSchema &s = m_schema;
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT d.code, d.version, d.name, p.name, d.project_code, "
                             "d.description, d.release_state, sc.id, sc.crontab, sc.timezone_id, "
                             "sc.start_time, sc.end_time, sc.release_state, sc.failure_strategy, "
                             "sc.warning_type, sc.%1, sc.worker_group "
                             "FROM %2 d JOIN t_ds_project p ON p.code = d.project_code "
                             "LEFT JOIN t_ds_schedules sc ON sc.%3 = d.code %4 "
                             "ORDER BY p.name, d.name, sc.id")
                  .arg(s.instancePriorityColumn(), s.definitionTable(), s.definitionCodeColumn(),
                       condition));
    for (const QString &value : values)
        q.addBindValue(value);
    if (Status status = exec(q, tr("read the workflow definitions")); !status)
        return status.error();
    QList<DsWorkflow> workflows;
    while (q.next()) {
        // Older releases allow more than one schedule per definition: the first is shown.
        if (!workflows.isEmpty() && workflows.last().code == q.value(0).toLongLong())
            continue;
        DsWorkflow workflow;
        workflow.code = q.value(0).toLongLong();
        workflow.version = q.value(1).toInt();
        workflow.name = q.value(2).toString();
        workflow.projectName = q.value(3).toString();
        workflow.projectCode = q.value(4).toLongLong();
        workflow.description = q.value(5).toString();
        workflow.online = q.value(6).toInt() == 1;
        if (!q.value(7).isNull()) {
            DsSchedule schedule;
            schedule.id = q.value(7).toLongLong();
            schedule.crontab = q.value(8).toString();
            schedule.timeZone = q.value(9).toString();
            schedule.start = q.value(10).toDateTime();
            schedule.end = q.value(11).toDateTime();
            schedule.online = q.value(12).toInt() == 1;
            schedule.failureStrategy = q.value(13).toInt();
            schedule.warningType = q.value(14).toInt();
            schedule.priority = q.value(15).toInt();
            schedule.workerGroup = q.value(16).toString();
            workflow.schedule = schedule;
        }
        workflows << workflow;
    }
    return workflows;
}

Result<QList<DsWorkflow>> DolphinSchedulerCatalog::workflows() const
{
    return readWorkflows(QString(), {});
}

Result<DsWorkflow> DolphinSchedulerCatalog::workflow(const QString &path) const
{
    const qsizetype slash = path.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == path.size() - 1)
        return Error::invalid(tr("'%1' is no workflow: name it PROJECT/WORKFLOW").arg(path));
    const Result<QList<DsWorkflow>> found = readWorkflows(
        QStringLiteral("WHERE p.name = ? AND d.name = ?"), {path.left(slash), path.mid(slash + 1)});
    if (!found)
        return found.error();
    if (found->isEmpty())
        return Error::notFound(
            tr("remote '%1' has no workflow '%2'").arg(m_remote->profile().name, path));
    DsWorkflow workflow = found->first();
    const DolphinSchedulerSchema &s = m_schema;

    // The tasks at the versions the definition's current relations name (the log keeps each).
    QSqlQuery tasks(m_remote->db());
    tasks.prepare(
        QStringLiteral("SELECT DISTINCT l.code, l.version, l.name, l.task_type, "
                       "l.description, l.fail_retry_times, l.fail_retry_interval, "
                       "l.timeout_flag, l.timeout, l.task_priority, l.worker_group, "
                       "l.task_params "
                       "FROM %1 r JOIN t_ds_task_definition_log l ON l.code = "
                       "r.post_task_code AND l.version = r.post_task_version "
                       "WHERE r.%2 = ? AND r.%3 = ? ORDER BY l.name")
            .arg(s.relationTable(), s.definitionCodeColumn(), s.definitionVersionColumn()));
    tasks.addBindValue(workflow.code);
    tasks.addBindValue(workflow.version);
    if (Status status = exec(tasks, tr("read the tasks of %1").arg(path)); !status)
        return status.error();
    while (tasks.next()) {
        DsTask task;
        task.code = tasks.value(0).toLongLong();
        task.version = tasks.value(1).toInt();
        task.name = tasks.value(2).toString();
        task.type = tasks.value(3).toString();
        task.description = tasks.value(4).toString();
        task.retries = tasks.value(5).toInt();
        task.retryIntervalMinutes = tasks.value(6).toInt();
        task.timeoutMinutes = tasks.value(7).toInt() == 1 ? tasks.value(8).toInt() : 0;
        task.priority = tasks.value(9).toInt();
        task.workerGroup = tasks.value(10).toString();
        if (task.type.compare(QLatin1String("CONDITIONS"), Qt::CaseInsensitive) == 0) {
            // ConditionsParameters: {"dependence": ..., "conditionResult": {"successNode":
            // [codes], "failedNode": [codes]}}, codes as numbers (2.0 on).
            const QJsonObject result = QJsonDocument::fromJson(tasks.value(11).toString().toUtf8())
                                           .object()
                                           .value(QLatin1String("conditionResult"))
                                           .toObject();
            const auto codes = [&result](const char *key) {
                QList<qint64> nodes;
                const QJsonArray values = result.value(QLatin1String(key)).toArray();
                for (const auto &value : values)
                    nodes << (value.isString() ? value.toString().toLongLong()
                                               : qint64(value.toDouble()));
                return nodes;
            };
            task.successNodes = codes("successNode");
            task.failedNodes = codes("failedNode");
        }
        workflow.tasks << task;
    }
    QSqlQuery relations(m_remote->db());
    relations.prepare(
        QStringLiteral("SELECT pre_task_code, post_task_code, condition_type "
                       "FROM %1 WHERE %2 = ? AND %3 = ? ORDER BY id")
            .arg(s.relationTable(), s.definitionCodeColumn(), s.definitionVersionColumn()));
    relations.addBindValue(workflow.code);
    relations.addBindValue(workflow.version);
    if (Status status = exec(relations, tr("read the relations of %1").arg(path)); !status)
        return status.error();
    while (relations.next()) {
        DsRelation relation{relations.value(0).toLongLong(), relations.value(1).toLongLong(),
                            relations.value(2).toInt(), DsRelation::Branch::Always};
        for (const DsTask &task : std::as_const(workflow.tasks)) {
            if (task.code != relation.preTaskCode)
                continue;
            if (task.successNodes.contains(relation.postTaskCode))
                relation.branch = DsRelation::Branch::OnSuccess;
            else if (task.failedNodes.contains(relation.postTaskCode))
                relation.branch = DsRelation::Branch::OnFailure;
        }
        workflow.relations << relation;
    }
    // An empty canvas and "0 tasks" said nothing of why (issue 34): name what is missing.
    QSet<qint64> named;
    for (const DsRelation &relation : std::as_const(workflow.relations))
        named.insert(relation.postTaskCode);
    for (const DsTask &task : std::as_const(workflow.tasks))
        named.remove(task.code);
    if (workflow.relations.isEmpty())
        workflow.dagProblem =
            tr("%1 has no rows for version %2 of this workflow, so its tasks and their order "
               "cannot be read")
                .arg(s.relationTable())
                .arg(workflow.version);
    else if (!named.isEmpty())
        workflow.dagProblem = tr("%n task(s) its relations name have no row in "
                                 "t_ds_task_definition_log at that version: left out",
                                 nullptr, int(named.size()));
    return workflow;
}

Status DolphinSchedulerCatalog::checkSubWorkflowsOnline(const DsWorkflow &workflow,
                                                        const QString &why) const
{
    // A sub-workflow task names its definition in its parameters.
    const DolphinSchedulerSchema &s = m_schema;
    QSqlDatabase &db = m_remote->db();
    const QString path = workflow.path();
    QSqlQuery subs(db);
    subs.prepare(
        QStringLiteral("SELECT l.name, l.task_params FROM %1 r "
                       "JOIN t_ds_task_definition_log l ON l.code = r.post_task_code "
                       "AND l.version = r.post_task_version WHERE r.%2 = ? AND "
                       "r.%3 = ? AND l.task_type IN ('SUB_PROCESS', 'SUB_WORKFLOW')")
            .arg(s.relationTable(), s.definitionCodeColumn(), s.definitionVersionColumn()));
    subs.addBindValue(workflow.code);
    subs.addBindValue(workflow.version);
    if (Status status = exec(subs, tr("read the sub-workflows of %1").arg(path)); !status)
        return status;
    while (subs.next()) {
        const QJsonObject params =
            QJsonDocument::fromJson(subs.value(1).toString().toUtf8()).object();
        const QJsonValue code = params.value(QLatin1String("processDefinitionCode")).isUndefined()
                                    ? params.value(QLatin1String("workflowDefinitionCode"))
                                    : params.value(QLatin1String("processDefinitionCode"));
        QSqlQuery sub(db);
        sub.prepare(QStringLiteral("SELECT name, release_state FROM %1 WHERE code = ?")
                        .arg(s.definitionTable()));
        sub.addBindValue(code.toVariant().toLongLong());
        if (Status status = exec(sub, tr("read a sub-workflow of %1").arg(path)); !status)
            return status;
        if (!sub.next() || sub.value(1).toInt() != 1)
            return Error::invalid(
                tr("remote '%1': workflow %2 %3: its sub-workflow %4 (task %5) is not online")
                    .arg(m_remote->profile().name, path, why,
                         sub.isValid() ? sub.value(0).toString() : code.toVariant().toString(),
                         subs.value(0).toString()));
    }
    return {};
}

Status DolphinSchedulerCatalog::setWorkflowOnline(const QString &path, bool online) const
{
    const Result<DsWorkflow> workflow = this->workflow(path);
    if (!workflow)
        return workflow.error();
    if (workflow->online == online)
        return {}; // as DolphinScheduler: nothing to do
    const DolphinSchedulerSchema &s = m_schema;
    QSqlDatabase &db = m_remote->db();
    if (online) {
        // ProcessDefinitionServiceImpl / WorkflowDefinitionServiceImpl::onlineWorkflowDefinition.
        if (workflow->relations.isEmpty())
            return Error::invalid(tr("remote '%1': workflow %2 cannot go online: its DAG is "
                                     "empty")
                                      .arg(m_remote->profile().name, path));
        if (Status subs = checkSubWorkflowsOnline(workflow.value(), tr("cannot go online")); !subs)
            return subs;
    }
    // Offline takes the schedule offline with it (its Quartz job then deletes itself at its
    // next fire, when it finds the schedule offline): one transaction for both.
    if (!db.transaction())
        return m_remote->queryError(tr("begin a transaction"), db.lastError().text());
    QSqlQuery definition(db);
    definition.prepare(
        QStringLiteral("UPDATE %1 SET release_state = ? WHERE code = ?").arg(s.definitionTable()));
    definition.addBindValue(online ? 1 : 0);
    definition.addBindValue(workflow->code);
    Status status = exec(definition, tr("set the release state of %1").arg(path));
    if (status && !online) {
        QSqlQuery schedule(db);
        schedule.prepare(QStringLiteral("UPDATE t_ds_schedules SET release_state = 0 WHERE %1 = ?")
                             .arg(s.definitionCodeColumn()));
        schedule.addBindValue(workflow->code);
        status = exec(schedule, tr("take the schedule of %1 offline").arg(path));
        // offlineSchedulerByWorkflowCode: its Quartz job goes too.
        if (status && workflow->schedule && s.hasQuartz()) {
            const Result<int> project = projectId(workflow->projectCode);
            status = project ? DolphinSchedulerQuartz::unschedule(*m_remote, project.value(),
                                                                  int(workflow->schedule->id))
                             : Status(project.error());
        }
    }
    if (!status) {
        db.rollback();
        return status;
    }
    if (!db.commit())
        return m_remote->queryError(tr("commit"), db.lastError().text());
    return {};
}

Result<int> DolphinSchedulerCatalog::projectId(qint64 projectCode) const
{
    QSqlQuery project(m_remote->db());
    project.prepare(QStringLiteral("SELECT id FROM t_ds_project WHERE code = ?"));
    project.addBindValue(projectCode);
    if (Status status = exec(project, tr("read the project")); !status)
        return status.error();
    if (!project.next())
        return Error::notFound(tr("remote '%1': no project with code %2")
                                   .arg(m_remote->profile().name)
                                   .arg(projectCode));
    return project.value(0).toInt();
}

Status DolphinSchedulerCatalog::setScheduleOnline(const QString &path, bool online) const
{
    const Result<DsWorkflow> workflow = this->workflow(path);
    if (!workflow)
        return workflow.error();
    if (!workflow->schedule)
        return Error::invalid(
            tr("remote '%1': workflow %2 has no schedule").arg(m_remote->profile().name, path));
    const DsSchedule &schedule = *workflow->schedule;
    if (schedule.online == online)
        return {}; // 3.2's doOnlineScheduler returns without a word; so does this
    const DolphinSchedulerSchema &s = m_schema;
    const bool release20 =
        s.layout() == DolphinSchedulerSchema::Layout::Process && !s.hasStateHistory();
    if (online) {
        if (!workflow->online)
            return Error::invalid(tr("remote '%1': workflow %2 is not online, so its schedule "
                                     "cannot go online (DolphinScheduler: process definition "
                                     "%2 not online); bring the workflow online first")
                                      .arg(m_remote->profile().name, path));
        if (release20) { // 2.0.9's setScheduleState checks the DAG and its sub-workflows too
            if (workflow->relations.isEmpty())
                return Error::invalid(tr("remote '%1': workflow %2's DAG is empty: its schedule "
                                         "cannot go online")
                                          .arg(m_remote->profile().name, path));
            if (Status subs = checkSubWorkflowsOnline(workflow.value(), tr("cannot go online"));
                !subs)
                return subs;
        }
    }
    if (!s.hasQuartz())
        return Error::invalid(tr("remote '%1': database '%2' has no Quartz tables (QRTZ_TRIGGERS "
                                 "and the rest), where DolphinScheduler keeps an online "
                                 "schedule's job")
                                  .arg(m_remote->profile().name, m_remote->profile().database));
    const Result<int> project = projectId(workflow->projectCode);
    if (!project)
        return project.error();
    QSqlDatabase &db = m_remote->db();
    if (!db.transaction())
        return m_remote->queryError(tr("begin a transaction"), db.lastError().text());
    QSqlQuery update(db);
    update.prepare(QStringLiteral("UPDATE t_ds_schedules SET release_state = ?, update_time = "
                                  "CURRENT_TIMESTAMP WHERE id = ?"));
    update.addBindValue(online ? 1 : 0);
    update.addBindValue(schedule.id);
    Status status = exec(update, tr("set the release state of %1's schedule").arg(path));
    if (status && online) {
        DolphinSchedulerQuartz::Job job;
        job.projectId = project.value();
        job.scheduleId = int(schedule.id);
        job.crontab = schedule.crontab;
        job.timeZone = schedule.timeZone;
        job.start = schedule.start;
        job.end = schedule.end;
        if (release20) // QuartzExecutors.buildDataMap: the schedule as JSON beside the ids
            job.scheduleJson = QString::fromUtf8(
                QJsonDocument(
                    QJsonObject{{QStringLiteral("id"), qint64(schedule.id)},
                                {QStringLiteral("processDefinitionCode"), workflow->code},
                                {QStringLiteral("processDefinitionName"), workflow->name},
                                {QStringLiteral("projectName"), workflow->projectName},
                                {QStringLiteral("crontab"), schedule.crontab},
                                {QStringLiteral("timezoneId"), schedule.timeZone},
                                {QStringLiteral("releaseState"), QStringLiteral("ONLINE")}})
                    .toJson(QJsonDocument::Compact));
        status = DolphinSchedulerQuartz::schedule(*m_remote, job,
                                                  release20 ? DolphinSchedulerQuartz::Release::V20
                                                            : DolphinSchedulerQuartz::Release::V3,
                                                  QDateTime::currentDateTimeUtc());
    } else if (status) {
        status = DolphinSchedulerQuartz::unschedule(*m_remote, project.value(), int(schedule.id));
    }
    if (!status) {
        db.rollback();
        return status;
    }
    if (!db.commit())
        return m_remote->queryError(tr("commit"), db.lastError().text());
    return {};
}

Result<qint64> DolphinSchedulerCatalog::userId(const QString &userName) const
{
    QSqlQuery user(m_remote->db());
    user.prepare(QStringLiteral("SELECT id FROM t_ds_user WHERE user_name = ?"));
    user.addBindValue(userName);
    if (Status status = exec(user, tr("read DolphinScheduler's users")); !status)
        return status.error();
    if (!user.next())
        return Error::notFound(tr("remote '%1': DolphinScheduler has no user '%2'")
                                   .arg(m_remote->profile().name, userName));
    return user.value(0).toLongLong();
}

} // namespace hg
