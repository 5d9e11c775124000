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
