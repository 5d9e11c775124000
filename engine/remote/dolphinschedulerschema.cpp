#include "dolphinschedulerschema.h"

#include "remotedatabase.h"

#include <QSqlRecord>
#include <QStringList>

namespace hg {

QString DolphinSchedulerSchema::layoutName() const
{
    return m_layout == Layout::Process ? QStringLiteral("2.0–3.2 (t_ds_process_*)")
                                       : QStringLiteral("3.3 (t_ds_workflow_*)");
}

Result<DolphinSchedulerSchema> DolphinSchedulerSchema::detect(RemoteDatabase &remote)
{
    QStringList tables = remote.db().tables();
    for (QString &name : tables)
        name = name.toLower();
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
        if (tables.contains(table) && !remote.db().record(table).contains(column))
            missing << tr("column %1.%2").arg(table, column);
    };
    needColumn(QStringLiteral("t_ds_schedules"), schema.definitionCodeColumn());
    needColumn(QStringLiteral("t_ds_command"), schema.definitionCodeColumn());
    needColumn(schema.relationTable(), schema.definitionVersionColumn());
    needColumn(QStringLiteral("t_ds_task_instance"), schema.instanceIdColumn());
    schema.m_hasTestFlag =
        remote.db().record(QStringLiteral("t_ds_command")).contains(QStringLiteral("test_flag"))
        && remote.db().record(schema.instanceTable()).contains(QStringLiteral("test_flag"));
    schema.m_hasTriggerRelation = tables.contains(QLatin1String("t_ds_trigger_relation"));
    schema.m_hasCommandTenantCode =
        remote.db().record(QStringLiteral("t_ds_command")).contains(QStringLiteral("tenant_code"));
    schema.m_hasQuartz = tables.contains(QLatin1String("qrtz_triggers"))
                         && tables.contains(QLatin1String("qrtz_job_details"))
                         && tables.contains(QLatin1String("qrtz_cron_triggers"))
                         && tables.contains(QLatin1String("qrtz_locks"));
    schema.m_hasStateHistory =
        remote.db().record(schema.instanceTable()).contains(QStringLiteral("state_history"));
    if (!missing.isEmpty())
        return Error::invalid(tr("remote '%1': the DolphinScheduler schema in database '%2' "
                                 "matches neither layout it can read; the %3 layout lacks %4")
                                  .arg(remote.profile().name, remote.profile().database,
                                       schema.layoutName(), missing.join(QLatin1String(", "))));
    return schema;
}

} // namespace hg
