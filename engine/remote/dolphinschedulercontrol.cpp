#include "dolphinschedulercontrol.h"

#include "dolphinschedulercatalog.h"
#include "dolphinschedulerjson.h"
#include "remotedatabase.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

#include <iterator>

namespace hg {
namespace ds = dolphinscheduler;
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

// 2.0.9's ExecutorServiceImpl.checkExecuteType: ExecutionStatus's typeIsFinished,
// typeIsFailure and typeIsCancel.
QList<int> allowedStates20(DolphinSchedulerControl::Action action)
{
    using Old = dolphinscheduler::ExecutionStatus20;
    switch (action) {
    case DolphinSchedulerControl::Action::Rerun:
        return {int(Old::Success), int(Old::ForcedSuccess),
                int(Old::Failure), int(Old::NeedFaultTolerance),
                int(Old::Pause),   int(Old::Stop),
                int(Old::Kill)};
    case DolphinSchedulerControl::Action::RerunFailedTasks:
        return {int(Old::Failure), int(Old::NeedFaultTolerance)};
    case DolphinSchedulerControl::Action::Resume:
        return {int(Old::Pause), int(Old::Stop), int(Old::Kill)};
    }
    return {};
}

// 2.0's ExecuteType names, as its refusal prints them.
QString executeType20(DolphinSchedulerControl::Action action)
{
    switch (action) {
    case DolphinSchedulerControl::Action::Rerun:
        return QStringLiteral("REPEAT_RUNNING");
    case DolphinSchedulerControl::Action::RerunFailedTasks:
        return QStringLiteral("START_FAILURE_TASK_PROCESS");
    case DolphinSchedulerControl::Action::Resume:
        return QStringLiteral("RECOVER_SUSPENDED_PROCESS");
    }
    return {};
}

// 2.0's ExecutionStatus enum names (its refusals print the enum, not the description).
QString statusName20(int state)
{
    static const char *const names[] = {"SUBMITTED_SUCCESS",
                                        "RUNNING_EXECUTION",
                                        "READY_PAUSE",
                                        "PAUSE",
                                        "READY_STOP",
                                        "STOP",
                                        "FAILURE",
                                        "SUCCESS",
                                        "NEED_FAULT_TOLERANCE",
                                        "KILL",
                                        "WAITING_THREAD",
                                        "WAITING_DEPEND",
                                        "DELAY_EXECUTION",
                                        "FORCED_SUCCESS"};
    if (state < 0 || state >= int(std::size(names)))
        return QString::number(state);
    return QLatin1String(names[state]);
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

} // namespace

DolphinSchedulerControl::DolphinSchedulerControl(RemoteDatabase &remote,
                                                 const DolphinSchedulerCatalog &catalog)
    : m_remote(&remote)
    , m_catalog(&catalog)
    , m_schema(catalog.schema())
{}

Result<qint64> DolphinSchedulerControl::act(qint64 instanceId, Action action,
                                            const QString &userName) const
{
    QSqlDatabase &db = m_remote->db();
    const DolphinSchedulerSchema &s = m_schema;
    const bool workflowLayout = s.layout() == DolphinSchedulerSchema::Layout::Workflow;
    const auto failed = [this](const QString &what, const QSqlQuery &q) {
        return m_remote->queryError(what, q.lastError().text());
    };
    const Result<qint64> user = m_catalog->userId(userName);
    if (!user)
        return user.error();
    const qint64 userId = user.value();

    const bool hasTestFlag = s.hasTestFlag();
    QSqlQuery read(db);
    read.prepare(
        QStringLiteral("SELECT name, state, %1, %2, %3, command_param, %4%5 "
                       "FROM %6 WHERE id = ?")
            .arg(s.definitionCodeColumn(), s.definitionVersionColumn(), s.instancePriorityColumn(),
                 s.hasStateHistory() ? QStringLiteral("state_history") : QStringLiteral("NULL"),
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

    const bool release20 = s.isRelease20();
    if (release20) {
        // 2.0.9's ExecutorServiceImpl.execute: the definition, at the instance's version, must
        // be online (checkProcessDefinitionValid), then checkExecuteType.
        const Result<bool> online =
            definitionOnline20(instance.definitionCode, instance.definitionVersion);
        if (!online)
            return online.error();
        if (!online.value())
            return Error::invalid(tr("remote '%1': process definition %2 not on line")
                                      .arg(m_remote->profile().name)
                                      .arg(instance.definitionCode));
        if (!allowedStates20(action).contains(instance.state))
            return Error::invalid(tr("remote '%1': the status of process instance %2 is %3,Cannot "
                                     "perform %4 operation")
                                      .arg(m_remote->profile().name, instance.name,
                                           statusName20(instance.state), executeType20(action)));
    } else if (!allowedStates(action, workflowLayout).contains(instance.state)) {
        return Error::invalid(
            tr("remote '%1': the workflow instance %2 status is %3, %4")
                .arg(m_remote->profile().name, instance.name,
                     DolphinSchedulerCatalog::workflowStateName(instance.state, s),
                     refusal(action)));
    }

    // 3.2's API server adds the schedule's zone to the parameters when the definition has one;
    // 2.0.9's insertCommand does not.
    QString scheduleZone;
    if (!workflowLayout && !release20) {
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
        // 2.0.9's insertCommand puts the instance in for every act; 3.2's FailureRecovery
        // leaves it out. Merged with the zone, every value is a string.
        if (release20 || action != Action::RerunFailedTasks)
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
            param = ds::compactJson(object);
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
        history.append(ds::submittedHistoryEntry(QStringLiteral("START_FAILURE_TASK_PROCESS")));
        QSqlQuery reset(db);
        reset.prepare(QStringLiteral("UPDATE %1 SET state = ?, state_history = ?, run_times = "
                                     "run_times + 1, restart_time = CURRENT_TIMESTAMP, end_time = "
                                     "NULL WHERE id = ? AND state = ?")
                          .arg(s.instanceTable()));
        reset.addBindValue(int(State::SubmittedSuccess));
        reset.addBindValue(ds::compactJson(history));
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
    // 2.0.9's ExecutorServiceImpl.insertCommand refuses when one is already queued for the
    // instance (ProcessService.verifyIsNeedCreateCommand); 3.2 and 3.3 do not look.
    if (release20) {
        const Result<bool> pending = commandPending20(instanceId);
        if (!pending)
            return rollback(pending.error());
        if (pending.value())
            return rollback(Error::invalid(
                tr("remote '%1': process instance %2 is executing the command, please wait ... "
                   "(a rerun, rerun from failed tasks or resume of workflow instance %3 is "
                   "already queued in t_ds_command)")
                    .arg(m_remote->profile().name)
                    .arg(instance.definitionCode)
                    .arg(instanceId)));
    }
    // 3.2's RepeatRunningExecuteFunction leaves executor_id unset (0); every other act, and
    // 2.0.9's insertCommand always, records the user.
    const qint64 executor = !workflowLayout && !release20 && action == Action::Rerun ? 0 : userId;
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
    // 3.2's RepeatRunningExecuteFunction copies the instance's priority; 2.0.9's insertCommand
    // does not (the column keeps its default).
    if (!workflowLayout && s.hasCommandTenantCode() && action == Action::Rerun) {
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
                            placeholders.join(QLatin1String(", ")), m_remote->returningId()));
    for (const QVariant &value : std::as_const(values))
        insert.addBindValue(value);
    if (!insert.exec())
        return rollback(failed(tr("insert the command"), insert));
    const qint64 commandId = m_remote->insertedId(insert);
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
    // 2.0.9's ExecutorServiceImpl.checkExecuteType: ExecutionStatus.typeIsRunning for both.
    if (m_schema.isRelease20()) {
        using Old = dolphinscheduler::ExecutionStatus20;
        if (!QList<int>{int(Old::RunningExecution), int(Old::WaitingDepend),
                        int(Old::DelayExecution)}
                 .contains(instance->state))
            return Error::invalid(
                tr("remote '%1': the status of process instance %2 is %3,Cannot "
                   "perform %4 operation")
                    .arg(m_remote->profile().name, instance->name, statusName20(instance->state),
                         stop ? QStringLiteral("STOP") : QStringLiteral("PAUSE")));
    } else if (!allowed.contains(instance->state))
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

Result<bool> DolphinSchedulerControl::definitionOnline20(qint64 code, int version) const
{
    // 2.0.9's ProcessService.findProcessDefinition: the definition when it is at that version,
    // else that version from the log.
    const QStringList tables{m_schema.definitionTable(),
                             QString(m_schema.definitionTable() + QStringLiteral("_log"))};
    for (const QString &table : tables) {
        QSqlQuery q(m_remote->db());
        q.prepare(QStringLiteral("SELECT release_state FROM %1 WHERE code = ? AND version = ?")
                      .arg(table));
        q.addBindValue(code);
        q.addBindValue(version);
        if (!q.exec())
            return m_remote->queryError(tr("read workflow definition %1").arg(code),
                                        q.lastError().text());
        if (q.next())
            return q.value(0).toInt() == 1;
    }
    return Error::notFound(tr("remote '%1': process definition %2 does not exist")
                               .arg(m_remote->profile().name)
                               .arg(code));
}

Result<bool> DolphinSchedulerControl::commandPending20(qint64 instanceId) const
{
    // ProcessService.verifyIsNeedCreateCommand (2.0.9): any queued rerun, rerun from failed
    // tasks or resume whose command_param names the instance (a number or a string of one).
    QSqlQuery q(m_remote->db());
    q.prepare(
        QStringLiteral("SELECT command_param FROM t_ds_command WHERE command_type IN (?, ?, ?)"));
    q.addBindValue(int(CommandType::RecoverSuspendedProcess));
    q.addBindValue(int(CommandType::StartFailureTaskProcess));
    q.addBindValue(int(CommandType::RepeatRunning));
    if (!q.exec())
        return m_remote->queryError(tr("read the queued commands"), q.lastError().text());
    while (q.next()) {
        const QJsonValue id = QJsonDocument::fromJson(q.value(0).toString().toUtf8())
                                  .object()
                                  .value(QLatin1String(ds::kCmdRecoverProcessId));
        const qint64 named = id.isString() ? id.toString().toLongLong() : qint64(id.toDouble());
        if (named == instanceId)
            return true;
    }
    return false;
}

} // namespace hg
