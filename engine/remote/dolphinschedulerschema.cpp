#include "dolphinschedulerschema.h"

#include "remotedatabase.h"

#include <QStringList>

namespace hg {

QString DolphinSchedulerSchema::layoutName() const
{
    return m_layout == Layout::Process ? QStringLiteral("2.0–3.2 (t_ds_process_*)")
                                       : QStringLiteral("3.3 (t_ds_workflow_*)");
}

Result<DolphinSchedulerSchema> DolphinSchedulerSchema::detect(RemoteDatabase &remote)
{
    const QStringList wanted{QStringLiteral("t_ds_project"),
                             QStringLiteral("t_ds_process_definition"),
                             QStringLiteral("t_ds_workflow_definition"),
                             QStringLiteral("t_ds_task_definition"),
                             QStringLiteral("t_ds_task_definition_log"),
                             QStringLiteral("t_ds_process_task_relation"),
                             QStringLiteral("t_ds_workflow_task_relation"),
                             QStringLiteral("t_ds_process_instance"),
                             QStringLiteral("t_ds_workflow_instance"),
                             QStringLiteral("t_ds_task_instance"),
                             QStringLiteral("t_ds_schedules"),
                             QStringLiteral("t_ds_command"),
                             QStringLiteral("t_ds_trigger_relation"),
                             QStringLiteral("t_ds_version"),
                             QStringLiteral("qrtz_triggers"),
                             QStringLiteral("qrtz_job_details"),
                             QStringLiteral("qrtz_cron_triggers"),
                             QStringLiteral("qrtz_locks")};
    const Result<QHash<QString, QStringList>> found = remote.columns(wanted);
    if (!found)
        return found.error();
    const QHash<QString, QStringList> &tables = found.value();
    const auto has = [&tables](const QString &table, const QString &column) {
        return tables.value(table).contains(column);
    };
    const bool workflow = tables.contains(QLatin1String("t_ds_workflow_definition"));
    if (!workflow && !tables.contains(QLatin1String("t_ds_process_definition")))
        return Error::notFound(tr("remote '%1': database '%2' holds no DolphinScheduler schema "
                                  "(neither t_ds_process_definition nor t_ds_workflow_definition)")
                                   .arg(remote.profile().name, remote.profile().database));
    DolphinSchedulerSchema schema(workflow ? Layout::Workflow : Layout::Process);
    QStringList missing;
    const QStringList required{QStringLiteral("t_ds_project"),
                               schema.definitionTable(),
                               QStringLiteral("t_ds_task_definition"),
                               QStringLiteral("t_ds_task_definition_log"),
                               schema.relationTable(),
                               schema.instanceTable(),
                               QStringLiteral("t_ds_task_instance"),
                               QStringLiteral("t_ds_schedules"),
                               QStringLiteral("t_ds_command")};
    for (const QString &table : required) {
        if (!tables.contains(table))
            missing << tr("table %1").arg(table);
    }
    // The columns that tell the layouts apart, where the rename went.
    const auto needColumn = [&](const QString &table, const QString &column) {
        if (tables.contains(table) && !has(table, column))
            missing << tr("column %1.%2").arg(table, column);
    };
    needColumn(QStringLiteral("t_ds_schedules"), schema.definitionCodeColumn());
    needColumn(QStringLiteral("t_ds_command"), schema.definitionCodeColumn());
    needColumn(schema.relationTable(), schema.definitionVersionColumn());
    needColumn(QStringLiteral("t_ds_task_instance"), schema.instanceIdColumn());
    const QString testFlag = QStringLiteral("test_flag");
    schema.m_hasTestFlag =
        has(QStringLiteral("t_ds_command"), testFlag) && has(schema.instanceTable(), testFlag);
    schema.m_hasTriggerRelation = tables.contains(QLatin1String("t_ds_trigger_relation"));
    schema.m_hasCommandTenantCode =
        has(QStringLiteral("t_ds_command"), QStringLiteral("tenant_code"));
    schema.m_hasQuartz = tables.contains(QLatin1String("qrtz_triggers"))
                         && tables.contains(QLatin1String("qrtz_job_details"))
                         && tables.contains(QLatin1String("qrtz_cron_triggers"))
                         && tables.contains(QLatin1String("qrtz_locks"));
    schema.m_hasStateHistory = has(schema.instanceTable(), QStringLiteral("state_history"));
    schema.m_hasVersionTable = has(QStringLiteral("t_ds_version"), QStringLiteral("version"));
    if (!missing.isEmpty())
        return Error::invalid(tr("remote '%1': the DolphinScheduler schema in database '%2' "
                                 "matches neither layout it can read; the %3 layout lacks %4")
                                  .arg(remote.profile().name, remote.profile().database,
                                       schema.layoutName(), missing.join(QLatin1String(", "))));
    return schema;
}

} // namespace hg
