#include "dolphinschedulerfixture.h"

#include "remote/dolphinschedulerschema.h"
#include "store/migrator.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>

namespace hg::test {
namespace {

Status execAll(QSqlDatabase &db, const QStringList &statements)
{
    for (const QString &statement : statements) {
        QSqlQuery q(db);
        if (!q.exec(statement))
            return Error::storage(q.lastError().text() + QLatin1String(": ") + statement.left(200));
    }
    return {};
}

} // namespace

Status DolphinSchedulerFixture::loadSchema(QSqlDatabase &db, const QString &release,
                                           const QString &server)
{
    QFile ddl(QStringLiteral(HOURGLASS_DS_DDL_DIR "/%1/%2.sql").arg(release, server));
    if (!ddl.open(QIODevice::ReadOnly))
        return Error::notFound(QStringLiteral("cannot read %1").arg(ddl.fileName()));
    return execAll(db, Migrator::splitStatements(QString::fromUtf8(ddl.readAll())));
}

Status DolphinSchedulerFixture::insertWorkflows(QSqlDatabase &db,
                                                const DolphinSchedulerSchema &schema)
{
    const QString at = QStringLiteral("'2026-01-05 10:00:00'");
    const QString relations =
        QStringLiteral("INSERT INTO %1 (project_code, %2, %3, pre_task_code, pre_task_version, "
                       "post_task_code, post_task_version, condition_type, create_time, "
                       "update_time) VALUES "
                       "(100, 200, 2, 0, 0, 301, 1, 0, %4, %4), "
                       "(100, 200, 2, 301, 1, 302, 1, 0, %4, %4), "
                       "(100, 200, 2, 302, 1, 303, 2, 0, %4, %4), "
                       "(100, 200, 1, 0, 0, 303, 1, 0, %4, %4)")
            .arg(schema.relationTable(), schema.definitionCodeColumn(),
                 schema.definitionVersionColumn(), at);
    return execAll(
        db,
        {QStringLiteral("INSERT INTO t_ds_project (name, code, user_id, flag, create_time, "
                        "update_time) VALUES ('etl', 100, 1, 1, %1, %1)")
             .arg(at),
         QStringLiteral("INSERT INTO %1 (code, name, version, description, project_code, "
                        "release_state, user_id, flag, create_time, update_time) VALUES "
                        "(200, 'nightly', 2, 'the nightly load', 100, 1, 1, 1, %2, %2), "
                        "(201, 'adhoc', 1, '', 100, 0, 1, 1, %2, %2)")
             .arg(schema.definitionTable(), at),
         // As the task log keeps each version: "load" changed its retries in version 2. "check"
         // is a CONDITIONS task: when extract succeeded, load runs (its success branch).
         QStringLiteral(
             "INSERT INTO t_ds_task_definition_log (code, name, version, project_code, user_id, "
             "task_type, task_params, flag, task_priority, worker_group, fail_retry_times, "
             "fail_retry_interval, timeout_flag, timeout, operator, operate_time, create_time, "
             "update_time) VALUES "
             "(301, 'extract', 1, 100, 1, 'SHELL', '{}', 1, 2, 'default', 0, 1, 0, 0, 1, %1, %1, "
             "%1), "
             "(302, 'check', 1, 100, 1, 'CONDITIONS', '{\"localParams\":[],\"resourceList\":[],"
             "\"dependence\":{\"relation\":\"AND\",\"dependTaskList\":[{\"relation\":\"AND\","
             "\"dependItemList\":[{\"depTaskCode\":301,\"status\":\"SUCCESS\"}]}]},"
             "\"conditionResult\":{\"successNode\":[303],\"failedNode\":[]}}', 1, 1, "
             "'etl-workers', 2, 5, 1, 30, 1, %1, %1, %1), "
             "(303, 'load', 1, 100, 1, 'SHELL', '{}', 1, 2, 'default', 0, 1, 0, 0, 1, %1, %1, %1), "
             "(303, 'load', 2, 100, 1, 'SHELL', '{}', 1, 2, 'default', 3, 10, 0, 0, 1, %1, %1, %1)")
             .arg(at),
         relations,
         QStringLiteral("INSERT INTO t_ds_schedules (%1, start_time, end_time, timezone_id, "
                        "crontab, failure_strategy, user_id, release_state, warning_type, "
                        "warning_group_id, %2, worker_group, create_time, update_time) VALUES "
                        "(200, '2026-01-01 00:00:00', '2126-01-01 00:00:00', 'Europe/Berlin', "
                        "'0 30 2 * * ? *', 1, 1, 1, 2, 0, 1, 'default', %3, %3)")
             .arg(schema.definitionCodeColumn(), schema.instancePriorityColumn(), at)});
}

Status DolphinSchedulerFixture::insertInstances(QSqlDatabase &db,
                                                const DolphinSchedulerSchema &schema)
{
    return execAll(
        db,
        {QStringLiteral("INSERT INTO %1 (id, name, %2, %3, state, start_time, end_time, "
                        "run_times, host, command_type, schedule_time, executor_id) VALUES "
                        "(11, 'nightly-11', 200, 2, 7, '2026-11-23 02:30:00', "
                        "'2026-11-23 02:31:00', 1, 'master-1:5678', 6, '2026-11-23 02:30:00', 1), "
                        "(12, 'nightly-12', 200, 2, 6, '2026-11-24 02:30:00', "
                        "'2026-11-24 02:30:42', 1, 'master-1:5678', 6, '2026-11-24 02:30:00', 1), "
                        "(13, 'nightly-13', 200, 2, 1, '2026-11-25 02:30:00', NULL, 1, "
                        "'master-2:5678', 6, '2026-11-25 02:30:00', 1)")
             .arg(schema.instanceTable(), schema.definitionCodeColumn(),
                  schema.definitionVersionColumn()),
         QStringLiteral("INSERT INTO t_ds_task_instance (name, task_type, task_code, "
                        "task_definition_version, %1, state, submit_time, start_time, end_time, "
                        "host, retry_times, max_retry_times, log_path, flag, executor_id) VALUES "
                        "('extract', 'SHELL', 301, 1, 12, 7, '2026-11-24 02:30:01', "
                        "'2026-11-24 02:30:01', '2026-11-24 02:30:20', 'worker-1:1234', 0, 0, "
                        "'/opt/ds/logs/12/extract.log', 1, 1), "
                        "('check', 'CONDITIONS', 302, 1, 12, 7, '2026-11-24 02:30:20', "
                        "'2026-11-24 02:30:20', '2026-11-24 02:30:20', 'master-1:5678', 0, 2, "
                        "'/opt/ds/logs/12/check.log', 1, 1), "
                        "('load', 'SHELL', 303, 2, 12, 6, '2026-11-24 02:30:21', "
                        "'2026-11-24 02:30:21', '2026-11-24 02:30:42', 'worker-2:1234', 3, 3, "
                        "'/opt/ds/logs/12/load.log', 1, 1)")
             .arg(schema.instanceIdColumn())});
}

} // namespace hg::test
