#include "dolphinschedulercontrol.h"

#include "dolphinschedulercatalog.h"
#include "dolphinschedulerprotocol.h"
#include "remotedatabase.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

namespace hg {
namespace {

using dolphinscheduler::CommandType;
using State = dolphinscheduler::WorkflowExecutionStatus32; // the codes 3.3 kept are the same

struct Instance
{
    QString name;
    int state = 0;
    qint64 definitionCode = 0;
    int definitionVersion = 0;
    QVariant priority;
    QVariant testFlag; // absent in 3.3
    QJsonObject commandParam;
    QJsonArray stateHistory;
};

// What DolphinScheduler allows each act from, and the words it refuses with.
QList<int> allowedStates(DolphinSchedulerControl::Action action, bool workflowLayout)
{
    switch (action) {
    case DolphinSchedulerControl::Action::Rerun:
        if (workflowLayout)
            return {int(State::Success), int(State::Failure), int(State::Stop), int(State::Pause)};
        return {int(State::Success), int(State::Failure), int(State::Stop), int(State::Pause),
                int(State::Block)};
    case DolphinSchedulerControl::Action::RerunFailedTasks:
        return {int(State::Failure)};
    case DolphinSchedulerControl::Action::Resume:
        return {int(State::Pause), int(State::Stop)};
    }
    return {};
}

QString refusal(DolphinSchedulerControl::Action action)
{
    switch (action) {
    case DolphinSchedulerControl::Action::Rerun:
        return QStringLiteral("cannot repeat running");
    case DolphinSchedulerControl::Action::RerunFailedTasks:
        return QStringLiteral("can not be recovered");
    case DolphinSchedulerControl::Action::Resume:
        return QStringLiteral("cannot recovery");
    }
    return {};
}

CommandType commandType(DolphinSchedulerControl::Action action)
{
    switch (action) {
    case DolphinSchedulerControl::Action::Rerun:
        return CommandType::RepeatRunning;
    case DolphinSchedulerControl::Action::RerunFailedTasks:
        return CommandType::StartFailureTaskProcess;
    case DolphinSchedulerControl::Action::Resume:
        return CommandType::RecoverSuspendedProcess;
    }
    return CommandType::RepeatRunning;
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

DolphinSchedulerControl::DolphinSchedulerControl(RemoteDatabase &remote,
                                                 const DolphinSchedulerCatalog &catalog)
    : m_remote(&remote)
    , m_catalog(&catalog)
    , m_schema(catalog.schema())
{}

Result<qint64> DolphinSchedulerControl::userId(const QString &userName) const
{
    QSqlQuery user(m_remote->db());
    user.prepare(QStringLiteral("SELECT id FROM t_ds_user WHERE user_name = ?"));
    user.addBindValue(userName);
    if (!user.exec())
        return m_remote->queryError(tr("read DolphinScheduler's users"), user.lastError().text());
    if (!user.next())
        return Error::notFound(tr("remote '%1': DolphinScheduler has no user '%2'")
                                   .arg(m_remote->profile().name, userName));
    return user.value(0).toLongLong();
}

Result<qint64> DolphinSchedulerControl::act(qint64 instanceId, Action action,
                                            const QString &userName) const
{
    QSqlDatabase &db = m_remote->db();
    const DolphinSchedulerSchema &s = m_schema;
    const bool workflowLayout = s.layout() == DolphinSchedulerSchema::Layout::Workflow;
    const auto failed = [this](const QString &what, const QSqlQuery &q) {
        return m_remote->queryError(what, q.lastError().text());
    };
    const Result<qint64> user = userId(userName);
    if (!user)
        return user.error();
    const qint64 userId = user.value();

    const bool hasTestFlag =
        db.record(s.instanceTable()).contains(QStringLiteral("test_flag"))
        && db.record(QStringLiteral("t_ds_command")).contains(QStringLiteral("test_flag"));
    QSqlQuery read(db);
    read.prepare(
        QStringLiteral("SELECT name, state, %1, %2, %3, command_param, state_history%4 "
                       "FROM %5 WHERE id = ?")
            .arg(s.definitionCodeColumn(), s.definitionVersionColumn(), s.instancePriorityColumn(),
                 hasTestFlag ? QStringLiteral(", test_flag") : QString(), s.instanceTable()));
    read.addBindValue(instanceId);
    if (!read.exec())
        return failed(tr("read workflow instance %1").arg(instanceId), read);
    if (!read.next())
        return Error::notFound(tr("remote '%1': workflow instance %2 does not exist")
                                   .arg(m_remote->profile().name)
                                   .arg(instanceId));
    Instance instance;
    instance.name = read.value(0).toString();
    instance.state = read.value(1).toInt();
    instance.definitionCode = read.value(2).toLongLong();
    instance.definitionVersion = read.value(3).toInt();
    instance.priority = read.value(4);
    instance.commandParam = QJsonDocument::fromJson(read.value(5).toString().toUtf8()).object();
    instance.stateHistory = QJsonDocument::fromJson(read.value(6).toString().toUtf8()).array();
    if (hasTestFlag)
        instance.testFlag = read.value(7);

    if (!allowedStates(action, workflowLayout).contains(instance.state))
        return Error::invalid(
            tr("remote '%1': the workflow instance %2 status is %3, %4")
                .arg(m_remote->profile().name, instance.name,
                     DolphinSchedulerCatalog::workflowStateName(instance.state, s.layout()),
                     refusal(action)));

    // 3.2's API server adds the schedule's zone to the parameters when the definition has one.
    QString scheduleZone;
    if (!workflowLayout) {
        QSqlQuery zone(db);
        zone.prepare(QStringLiteral("SELECT timezone_id FROM t_ds_schedules WHERE %1 = ?")
                         .arg(s.definitionCodeColumn()));
        zone.addBindValue(instance.definitionCode);
        if (!zone.exec())
            return failed(tr("read the schedule of workflow instance %1").arg(instanceId), zone);
        if (zone.next())
            scheduleZone = zone.value(0).toString();
    }

    // command_param as each version writes it (see dolphinschedulerprotocol.h).
    QVariant param(QMetaType::fromType<QString>());
    if (!workflowLayout) {
        QJsonObject object;
        if (action != Action::RerunFailedTasks) // merged with the zone, every value is a string
            object.insert(QLatin1String(dolphinscheduler::kCmdRecoverProcessId),
                          scheduleZone.isEmpty() ? QJsonValue(instanceId)
                                                 : QJsonValue(QString::number(instanceId)));
        if (action == Action::Rerun
            && instance.commandParam.contains(QLatin1String(dolphinscheduler::kCmdStartParams)))
            object.insert(
                QLatin1String(dolphinscheduler::kCmdStartParams),
                instance.commandParam.value(QLatin1String(dolphinscheduler::kCmdStartParams)));
        if (!scheduleZone.isEmpty())
            object.insert(QLatin1String(dolphinscheduler::kCmdScheduleTimezone), scheduleZone);
        if (!object.isEmpty())
            param = compact(object);
    }

    if (!db.transaction())
        return m_remote->queryError(tr("begin a transaction"), db.lastError().text());
    const auto rollback = [&db](const Error &error) {
        db.rollback();
        return error;
    };
    // 3.3's master resets the instance before it queues a rerun from failed tasks or a resume
    // (WorkflowInstanceRecoverFailureTaskTrigger, WorkflowInstanceRecoverSuspendTaskTrigger).
    if (workflowLayout && action != Action::Rerun) {
        QJsonArray history = instance.stateHistory;
        history.append(QJsonObject{
            {QStringLiteral("time"),
             QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))},
            {QStringLiteral("state"), QStringLiteral("SUBMITTED_SUCCESS")},
            {QStringLiteral("desc"), QStringLiteral("START_FAILURE_TASK_PROCESS")}});
        QSqlQuery reset(db);
        reset.prepare(QStringLiteral("UPDATE %1 SET state = ?, state_history = ?, run_times = "
                                     "run_times + 1, restart_time = CURRENT_TIMESTAMP, end_time = "
                                     "NULL WHERE id = ? AND state = ?")
                          .arg(s.instanceTable()));
        reset.addBindValue(int(State::SubmittedSuccess));
        reset.addBindValue(
            QString::fromUtf8(QJsonDocument(history).toJson(QJsonDocument::Compact)));
        reset.addBindValue(instanceId);
        reset.addBindValue(instance.state);
        if (!reset.exec())
            return rollback(failed(tr("reset workflow instance %1").arg(instanceId), reset));
        if (reset.numRowsAffected() != 1)
            return rollback(Error::invalid(tr("remote '%1': workflow instance %2 changed state "
                                              "meanwhile; nothing was written")
                                               .arg(m_remote->profile().name)
                                               .arg(instanceId)));
    }
    // 3.2's rerun leaves executor_id unset (0); every other act records the user.
    const qint64 executor = !workflowLayout && action == Action::Rerun ? 0 : userId;
    QStringList columns{QStringLiteral("command_type"),     s.definitionCodeColumn(),
                        s.definitionVersionColumn(),        s.instanceIdColumn(),
                        QStringLiteral("command_param"),    QStringLiteral("executor_id"),
                        QStringLiteral("task_depend_type"), QStringLiteral("failure_strategy"),
                        QStringLiteral("start_time"),       QStringLiteral("update_time")};
    QVariantList values{int(commandType(action)),
                        instance.definitionCode,
                        instance.definitionVersion,
                        instanceId,
                        param,
                        executor,
                        int(dolphinscheduler::TaskDependType::TaskPost),
                        int(dolphinscheduler::FailureStrategy::Continue)};
    if (!workflowLayout && action == Action::Rerun) { // copied from the instance
        columns << s.instancePriorityColumn();
        values << instance.priority;
    }
    if (hasTestFlag) {
        columns << QStringLiteral("test_flag");
        values << instance.testFlag;
    }
    QStringList placeholders(qsizetype(values.size()), QStringLiteral("?"));
    placeholders.insert(8, QStringLiteral("CURRENT_TIMESTAMP")); // start_time
    placeholders.insert(9, QStringLiteral("CURRENT_TIMESTAMP")); // update_time
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO t_ds_command (%1) VALUES (%2)%3")
                       .arg(columns.join(QLatin1String(", ")),
                            placeholders.join(QLatin1String(", ")),
                            m_remote->isMysql() ? QString() : QStringLiteral(" RETURNING id")));
    for (const QVariant &value : std::as_const(values))
        insert.addBindValue(value);
    if (!insert.exec())
        return rollback(failed(tr("insert the command"), insert));
    const qint64 commandId = m_remote->isMysql()
                                 ? insert.lastInsertId().toLongLong()
                                 : (insert.next() ? insert.value(0).toLongLong() : 0);
    if (!db.commit())
        return m_remote->queryError(tr("commit"), db.lastError().text());
    return commandId;
}

Result<qint64> DolphinSchedulerControl::start(const QString &path,
                                              const StartOptions &options) const
{
    QSqlDatabase &db = m_remote->db();
    const DolphinSchedulerSchema &s = m_schema;
    const bool workflowLayout = s.layout() == DolphinSchedulerSchema::Layout::Workflow;
    const auto failed = [this](const QString &what, const QSqlQuery &q) {
        return m_remote->queryError(what, q.lastError().text());
    };
    const Result<qint64> user = userId(options.userName);
    if (!user)
        return user.error();
    const Result<DsWorkflow> workflow = m_catalog->workflow(path);
    if (!workflow)
        return workflow.error();
    // ExecutorServiceImpl::execProcessInstance (3.2) and 3.3's trigger both refuse these.
    if (!workflow->online)
        return Error::invalid(tr("remote '%1': workflow %2 (code %3, version %4) is not online: "
                                 "DolphinScheduler starts only online workflows")
                                  .arg(m_remote->profile().name, path)
                                  .arg(workflow->code)
                                  .arg(workflow->version));
    if (Status subs = m_catalog->checkSubWorkflowsOnline(workflow.value(), tr("cannot start"));
        !subs)
        return subs.error();
    const QString zone = workflow->schedule ? workflow->schedule->timeZone : QString();
    QJsonObject startParams;
    for (auto parameter = options.parameters.cbegin(); parameter != options.parameters.cend();
         ++parameter)
        startParams.insert(parameter.key(), parameter.value());

    if (!db.transaction())
        return m_remote->queryError(tr("begin a transaction"), db.lastError().text());
    const auto rollback = [&db](const Error &error) {
        db.rollback();
        return error;
    };
    const QString returning = m_remote->isMysql() ? QString() : QStringLiteral(" RETURNING id");
    const auto insertedId = [this](QSqlQuery &q) {
        return m_remote->isMysql() ? q.lastInsertId().toLongLong()
                                   : (q.next() ? q.value(0).toLongLong() : 0);
    };
    qint64 instanceId = 0;
    QVariant param;
    if (workflowLayout) {
        // 3.3's master (WorkflowManualTrigger): the instance first, then its command.
        const QDateTime now = QDateTime::currentDateTime();
        const QJsonArray history{QJsonObject{
            {QStringLiteral("time"), now.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))},
            {QStringLiteral("state"), QStringLiteral("SUBMITTED_SUCCESS")},
            {QStringLiteral("desc"), QStringLiteral("START_PROCESS")}}};
        QSqlQuery instance(db);
        instance.prepare(
            QStringLiteral("INSERT INTO %1 (name, %2, %3, project_code, command_type, state, "
                           "state_history, recovery, start_time, restart_time, run_times, "
                           "task_depend_type, failure_strategy, warning_type, executor_id, "
                           "executor_name, tenant_code, is_sub_workflow, history_cmd, %4, "
                           "worker_group, environment_code, timeout, dry_run, flag) VALUES (?, ?, "
                           "?, ?, 0, 0, ?, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1, 2, ?, 0, "
                           "?, ?, 'default', 0, 'START_PROCESS', 2, ?, -1, 0, ?, 1)%5")
                .arg(s.instanceTable(), s.definitionCodeColumn(), s.definitionVersionColumn(),
                     s.instancePriorityColumn(), returning));
        instance.addBindValue(QString(workflow->name + QLatin1Char('-')
                                      + now.toString(QStringLiteral("yyyyMMddHHmmsszzz"))));
        instance.addBindValue(workflow->code);
        instance.addBindValue(workflow->version);
        instance.addBindValue(workflow->projectCode);
        instance.addBindValue(
            QString::fromUtf8(QJsonDocument(history).toJson(QJsonDocument::Compact)));
        instance.addBindValue(options.failureStrategy);
        instance.addBindValue(user.value());
        instance.addBindValue(options.userName);
        instance.addBindValue(options.workerGroup);
        instance.addBindValue(options.dryRun ? 1 : 0);
        if (!instance.exec())
            return rollback(failed(tr("insert the workflow instance"), instance));
        instanceId = insertedId(instance);
        QJsonArray commandParams;
        for (auto parameter = options.parameters.cbegin(); parameter != options.parameters.cend();
             ++parameter)
            commandParams << QJsonObject{{QStringLiteral("prop"), parameter.key()},
                                         {QStringLiteral("direct"), QStringLiteral("IN")},
                                         {QStringLiteral("type"), QStringLiteral("VARCHAR")},
                                         {QStringLiteral("value"), parameter.value()}};
        param = compact(
            QJsonObject{{QLatin1String(dolphinscheduler::kParamCommandType),
                         QLatin1String(dolphinscheduler::kCommandStartProcess)},
                        {QLatin1String(dolphinscheduler::kParamSubWorkflowInstance), false},
                        {QLatin1String(dolphinscheduler::kParamStartNodes), QJsonArray()},
                        {QLatin1String(dolphinscheduler::kParamCommandParams), commandParams},
                        // The master's own zone is not in the database: the schedule's, else UTC.
                        {QLatin1String(dolphinscheduler::kParamTimeZone),
                         zone.isEmpty() ? QStringLiteral("UTC") : zone}});
    } else {
        // 3.2's API server: StartParams as a JSON string, the schedule's zone when it has one.
        QJsonObject object;
        if (!startParams.isEmpty())
            object.insert(
                QLatin1String(dolphinscheduler::kCmdStartParams),
                QString::fromUtf8(QJsonDocument(startParams).toJson(QJsonDocument::Compact)));
        if (workflow->schedule)
            object.insert(QLatin1String(dolphinscheduler::kCmdScheduleTimezone), zone);
        param = compact(object);
    }
    const bool hasTestFlag =
        db.record(QStringLiteral("t_ds_command")).contains(QStringLiteral("test_flag"));
    QSqlQuery command(db);
    command.prepare(
        QStringLiteral("INSERT INTO t_ds_command (command_type, %1, %2, %3, command_param, "
                       "executor_id, failure_strategy, warning_type, task_depend_type, %4, "
                       "worker_group, tenant_code, environment_code, dry_run, start_time, "
                       "update_time%5) VALUES (0, ?, ?, ?, ?, ?, ?, 0, 2, 2, ?, 'default', -1, ?, "
                       "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP%6)%7")
            .arg(s.definitionCodeColumn(), s.definitionVersionColumn(), s.instanceIdColumn(),
                 s.instancePriorityColumn(),
                 hasTestFlag ? QStringLiteral(", test_flag") : QString(),
                 hasTestFlag ? QStringLiteral(", 0") : QString(), returning));
    command.addBindValue(workflow->code);
    command.addBindValue(workflow->version);
    command.addBindValue(instanceId);
    command.addBindValue(param);
    command.addBindValue(user.value());
    command.addBindValue(options.failureStrategy);
    command.addBindValue(options.workerGroup);
    command.addBindValue(options.dryRun ? 1 : 0);
    if (!command.exec())
        return rollback(failed(tr("insert the command"), command));
    const qint64 commandId = insertedId(command);
    // 3.2 records what made the command (ApiTriggerType COMMAND) under a code of its own.
    if (!workflowLayout
        && db.tables().contains(QStringLiteral("t_ds_trigger_relation"), Qt::CaseInsensitive)) {
        QSqlQuery trigger(db);
        trigger.prepare(QStringLiteral("INSERT INTO t_ds_trigger_relation (trigger_type, "
                                       "trigger_code, job_id, create_time, update_time) VALUES "
                                       "(?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"));
        trigger.addBindValue(int(dolphinscheduler::ApiTriggerType::Command));
        // A 64-bit code like DolphinScheduler's: the time in ms, then 20 random bits.
        trigger.addBindValue((QDateTime::currentMSecsSinceEpoch() << 20)
                             | qint64(QRandomGenerator::global()->bounded(1 << 20)));
        trigger.addBindValue(commandId);
        if (!trigger.exec())
            return rollback(failed(tr("record what started it"), trigger));
    }
    if (!db.commit())
        return m_remote->queryError(tr("commit"), db.lastError().text());
    return commandId;
}

Status DolphinSchedulerControl::stopOrPause(qint64 instanceId, bool stop) const
{
    const Result<DsInstance> instance = m_catalog->instance(instanceId);
    if (!instance)
        return instance.error();
    const bool workflowLayout = m_schema.layout() == DolphinSchedulerSchema::Layout::Workflow;
    const QString state = m_catalog->workflowStateName(instance->state);
    // 3.2 StopExecuteFunction / PauseExecuteFunction; 3.3
    // Stop/PauseWorkflowInstanceExecutorDelegate.
    const QList<int> allowed =
        stop ? (workflowLayout ? QList<int>{int(State::RunningExecution), int(State::ReadyPause),
                                            int(State::ReadyStop), int(State::SerialWait)}
                               : QList<int>{int(State::RunningExecution), int(State::ReadyPause)})
             : (workflowLayout ? QList<int>{int(State::RunningExecution), int(State::ReadyPause),
                                            int(State::SerialWait)}
                               : QList<int>{int(State::RunningExecution)});
    const QString host = instance->host.isEmpty() ? tr("not yet assigned") : instance->host;
    if (!allowed.contains(instance->state))
        return Error::invalid(
            (stop ? tr("remote '%1': the workflow instance %2 status is %3, can not stop")
                  : tr("remote '%1': the workflow instance %2 status is %3, can not pause"))
                .arg(m_remote->profile().name, instance->name, state));
    if (!workflowLayout || instance->state != int(State::SerialWait))
        return Error::unavailable(
            (stop ? tr("remote '%1': DolphinScheduler stops a %2 instance by telling its master "
                       "(%3) over RPC; a database write is not seen by the master, so Hourglass "
                       "does not stop it")
                  : tr("remote '%1': DolphinScheduler pauses a %2 instance by telling its master "
                       "(%3) over RPC; a database write is not seen by the master, so Hourglass "
                       "does not pause it"))
                .arg(m_remote->profile().name, state, host));
    // Waiting its turn, it has no master yet: DolphinScheduler writes the end state in place.
    QSqlQuery update(m_remote->db());
    update.prepare(QStringLiteral("UPDATE %1 SET state = ? WHERE id = ? AND state = ?")
                       .arg(m_schema.instanceTable()));
    update.addBindValue(int(stop ? State::Stop : State::Pause));
    update.addBindValue(instanceId);
    update.addBindValue(instance->state);
    if (!update.exec())
        return m_remote->queryError(tr("update workflow instance %1").arg(instanceId),
                                    update.lastError().text());
    if (update.numRowsAffected() != 1)
        return Error::invalid(tr("remote '%1': workflow instance %2 changed state meanwhile; "
                                 "nothing was written")
                                  .arg(m_remote->profile().name)
                                  .arg(instanceId));
    return {};
}

} // namespace hg
