#include "dolphinschedulerfixture.h"
#include "dolphinschedulertest.h"
#include "domain/connectionurl.h"
#include "remote/dolphinschedulercatalog.h"
#include "remote/dolphinschedulercontrol.h"
#include "remote/dolphinschedulerlauncher.h"
#include "remote/dolphinschedulerorder.h"
#include "remote/quartzjobdatamap.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "testservers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <optional>
#include <variant>

using namespace hg;

// The DolphinScheduler console's writes, against the same real servers and schemas: release
// online and offline, commands on instances, starts, complements and schedules written as
// each release's API server writes them, and the command line driving it all.
class TestDolphinSchedulerControl final : public DolphinSchedulerTest
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { dropDatabase(); }
    void release_onlineAndOfflineAsTheApiServerDoes_data() { layouts(); }
    void release_onlineAndOfflineAsTheApiServerDoes();
    void control_writesCommandsAsDolphinSchedulerDoes_data() { layouts(); }
    void control_writesCommandsAsDolphinSchedulerDoes();
    void control_followsEachVersionsStateRules_data() { layouts(); }
    void control_followsEachVersionsStateRules();
    void control_secondPendingCommand_refusedOnlyWhereDolphinSchedulerLooks_data() { layouts(); }
    void control_secondPendingCommand_refusedOnlyWhereDolphinSchedulerLooks();
    void start_writesWhatDolphinSchedulerWrites_data() { layouts(); }
    void start_writesWhatDolphinSchedulerWrites();
    void start_carriesTheRunSettings_data() { layouts(); }
    void start_carriesTheRunSettings();
    void complement_withoutSchedule_takesEveryMidnight_data() { layouts(); }
    void complement_withoutSchedule_takesEveryMidnight();
    void startFromTasks_data() { layouts(); }
    void startFromTasks();
    void complement_splitsAsEachVersionDoes_data() { layouts(); }
    void complement_splitsAsEachVersionDoes();
    void scheduleOnline_writesItsQuartzJob_data() { layouts(); }
    void scheduleOnline_writesItsQuartzJob();
    void complementDependents_data() { layouts(); }
    void complementDependents();
    void commandLine_drivesTheConsoleThroughTheBinary_data();
    void commandLine_drivesTheConsoleThroughTheBinary();
};

void TestDolphinSchedulerControl::release_onlineAndOfflineAsTheApiServerDoes()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    insertWorkflow(schema);
    const auto releaseStates = [&] {
        QSqlQuery q(m_db);
        q.exec(QStringLiteral("SELECT d.release_state, s.release_state FROM %1 d JOIN "
                              "t_ds_schedules s ON s.%2 = d.code WHERE d.code = 200")
                   .arg(schema.definitionTable(), schema.definitionCodeColumn()));
        return q.next() ? QPair<int, int>(q.value(0).toInt(), q.value(1).toInt())
                        : QPair<int, int>(-1, -1);
    };
    QCOMPARE(releaseStates(), (QPair<int, int>(1, 1)));
    // Offline takes the schedule along; online again leaves the schedule offline.
    QVERIFY(catalog->setWorkflowOnline(QStringLiteral("etl/nightly"), false));
    QCOMPARE(releaseStates(), (QPair<int, int>(0, 0)));
    QVERIFY(catalog->setWorkflowOnline(QStringLiteral("etl/nightly"), false)); // already: no-op
    QVERIFY(catalog->setWorkflowOnline(QStringLiteral("etl/nightly"), true));
    QCOMPARE(releaseStates(), (QPair<int, int>(1, 0)));

    // "adhoc" has no DAG: refused, as DolphinScheduler refuses it.
    const Status empty = catalog->setWorkflowOnline(QStringLiteral("etl/adhoc"), true);
    QVERIFY(!empty);
    QVERIFY2(empty.error().message.contains(QLatin1String("DAG is empty")),
             qPrintable(empty.error().message));
    // A parent whose sub-workflow task runs the offline "adhoc": refused, naming it.
    const QString key = release == QLatin1String("3.3") ? QStringLiteral("workflowDefinitionCode")
                                                        : QStringLiteral("processDefinitionCode");
    const QString type = release == QLatin1String("3.3") ? QStringLiteral("SUB_WORKFLOW")
                                                         : QStringLiteral("SUB_PROCESS");
    exec(QStringLiteral("INSERT INTO %1 (code, name, version, project_code, release_state, "
                        "user_id, flag, create_time, update_time) VALUES (202, 'parent', 1, 100, "
                        "0, 1, 1, '2026-01-05 10:00:00', '2026-01-05 10:00:00')")
             .arg(schema.definitionTable()));
    exec(QStringLiteral("INSERT INTO t_ds_task_definition_log (code, name, version, project_code, "
                        "user_id, task_type, task_params, flag, operator, operate_time, "
                        "create_time, update_time) VALUES (304, 'run-adhoc', 1, 100, 1, '%1', "
                        "'{\"%2\":201}', 1, 1, '2026-01-05 10:00:00', '2026-01-05 10:00:00', "
                        "'2026-01-05 10:00:00')")
             .arg(type, key));
    exec(QStringLiteral("INSERT INTO %1 (project_code, %2, %3, pre_task_code, pre_task_version, "
                        "post_task_code, post_task_version, condition_type, create_time, "
                        "update_time) VALUES (100, 202, 1, 0, 0, 304, 1, 0, "
                        "'2026-01-05 10:00:00', '2026-01-05 10:00:00')")
             .arg(schema.relationTable(), schema.definitionCodeColumn(),
                  schema.definitionVersionColumn()));
    const Status sub = catalog->setWorkflowOnline(QStringLiteral("etl/parent"), true);
    QVERIFY(!sub);
    QVERIFY2(sub.error().message.contains(QLatin1String("sub-workflow adhoc")),
             qPrintable(sub.error().message));
    QVERIFY(!catalog->workflow(QStringLiteral("etl/parent"))->online); // nothing written
}

void TestDolphinSchedulerControl::control_writesCommandsAsDolphinSchedulerDoes()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool workflow = release == QLatin1String("3.3");
    insertWorkflow(schema);
    const Status instances = test::DolphinSchedulerFixture::insertInstances(m_db, schema);
    QVERIFY2(instances, qPrintable(instances ? QString() : instances.error().message));
    const DolphinSchedulerControl control(*m_remote, catalog.value());
    const auto command = [&](qint64 id) {
        QSqlQuery q(m_db);
        q.exec(QStringLiteral("SELECT command_type, %1, %2, %3, command_param, executor_id, "
                              "task_depend_type, failure_strategy FROM t_ds_command WHERE id = %4")
                   .arg(schema.definitionCodeColumn(), schema.definitionVersionColumn(),
                        schema.instanceIdColumn())
                   .arg(id));
        QVariantList row;
        if (q.next()) {
            for (int column = 0; column < 8; ++column)
                row << q.value(column);
        }
        return row;
    };

    // Rerun a finished instance: one command, type 7, of the instance's definition version.
    const Result<qint64> rerun =
        control.act(11, DolphinSchedulerControl::Action::Rerun, QStringLiteral("admin"));
    QVERIFY2(rerun, qPrintable(rerun ? QString() : rerun.error().message));
    QVariantList row = command(rerun.value());
    QCOMPARE(row.value(0).toInt(), 7);
    QCOMPARE(row.value(1).toLongLong(), 200);
    QCOMPARE(row.value(2).toInt(), 2);
    QCOMPARE(row.value(3).toLongLong(), 11);
    QCOMPARE(row.value(6).toInt(), 2); // task_depend_type TASK_POST
    QCOMPARE(row.value(7).toInt(), 1); // failure_strategy CONTINUE
    const bool v20 = release == QLatin1String("2.0");
    if (workflow) { // the master's command: the user, no parameters
        QCOMPARE(row.value(5).toLongLong(), 1);
        QVERIFY(row.value(4).isNull());
    } else if (v20) { // 2.0.9's insertCommand: the user, the instance as a number, no zone
        QCOMPARE(row.value(5).toLongLong(), 1);
        const QJsonObject param =
            QJsonDocument::fromJson(row.value(4).toString().toUtf8()).object();
        QCOMPARE(param.value(QLatin1String("ProcessInstanceId")).toInt(), 11);
        QVERIFY(!param.contains(QLatin1String("schedule_timezone")));
    } else { // the API server's: no executor, the instance and the schedule's zone
        QCOMPARE(row.value(5).toLongLong(), 0);
        const QJsonObject param =
            QJsonDocument::fromJson(row.value(4).toString().toUtf8()).object();
        QCOMPARE(param.value(QLatin1String("ProcessInstanceId")).toString(), QStringLiteral("11"));
        QCOMPARE(param.value(QLatin1String("schedule_timezone")).toString(),
                 QStringLiteral("Europe/Berlin"));
    }

    // From the failed tasks: type 4; 3.3's master resets the instance first.
    const Result<qint64> recovered =
        control.act(12, DolphinSchedulerControl::Action::RerunFailedTasks, QStringLiteral("admin"));
    QVERIFY2(recovered, qPrintable(recovered ? QString() : recovered.error().message));
    row = command(recovered.value());
    QCOMPARE(row.value(0).toInt(), 4);
    QCOMPARE(row.value(5).toLongLong(), 1);
    if (v20) // 2.0.9's insertCommand names the instance for every act
        QCOMPARE(QJsonDocument::fromJson(row.value(4).toString().toUtf8())
                     .object()
                     .value(QLatin1String("ProcessInstanceId"))
                     .toInt(),
                 12);
    const Result<DsInstance> reset = catalog->instance(12);
    QVERIFY(reset);
    if (workflow) {
        QCOMPARE(reset->state, 0);
        QCOMPARE(reset->runTimes, 2);
        QVERIFY(!reset->end.isValid());
    } else {
        QCOMPARE(reset->state, 6); // 3.2's API server leaves the instance to the master
    }

    // A running instance cannot be resumed: refused in DolphinScheduler's words, nothing written.
    QSqlQuery count(m_db);
    count.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command"));
    QVERIFY(count.next());
    const int commands = count.value(0).toInt();
    const Result<qint64> resumed =
        control.act(13, DolphinSchedulerControl::Action::Resume, QStringLiteral("admin"));
    QVERIFY(!resumed);
    QVERIFY2(
        resumed.error().message.contains(v20 ? QLatin1String("is RUNNING_EXECUTION,Cannot perform "
                                                             "RECOVER_SUSPENDED_PROCESS operation")
                                             : QLatin1String("status is running, cannot recovery")),
        qPrintable(resumed.error().message));
    count.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command"));
    QVERIFY(count.next());
    QCOMPARE(count.value(0).toInt(), commands);
    // Stop and pause need the running master (an RPC): refused with that reason; a 3.3
    // instance waiting in serial wait is stopped in place, as DolphinScheduler does.
    const Status stopRunning = control.stopOrPause(13, true);
    QVERIFY(!stopRunning);
    QCOMPARE(stopRunning.error().kind, ErrorKind::Unavailable);
    QVERIFY2(stopRunning.error().message.contains(QLatin1String("master-2:5678")),
             qPrintable(stopRunning.error().message));
    QVERIFY(control.stopOrPause(11, false).error().message.contains(
        v20 ? QLatin1String("is SUCCESS,Cannot perform PAUSE operation")
            : QLatin1String("status is success, can not pause")));
    if (workflow) {
        exec(QStringLiteral("UPDATE %1 SET state = 14 WHERE id = 13").arg(schema.instanceTable()));
        QVERIFY(control.stopOrPause(13, true));
        QCOMPARE(catalog->instance(13)->state, 5);
    }
    QCOMPARE(control.act(99, DolphinSchedulerControl::Action::Rerun, QStringLiteral("admin"))
                 .error()
                 .kind,
             ErrorKind::NotFound);
    QCOMPARE(control.act(11, DolphinSchedulerControl::Action::Rerun, QStringLiteral("nobody"))
                 .error()
                 .kind,
             ErrorKind::NotFound);
}

void TestDolphinSchedulerControl::control_followsEachVersionsStateRules()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool v20 = release == QLatin1String("2.0");
    insertWorkflow(schema);
    const Status instances = test::DolphinSchedulerFixture::insertInstances(m_db, schema);
    QVERIFY2(instances, qPrintable(instances ? QString() : instances.error().message));
    const DolphinSchedulerControl control(*m_remote, catalog.value());
    const QString admin = QStringLiteral("admin");

    // 2.0's own states have their 2.0 names; elsewhere the codes mean nothing.
    QCOMPARE(catalog->workflowStateName(8),
             v20 ? QStringLiteral("need fault tolerance") : QStringLiteral("state 8"));
    QCOMPARE(catalog->workflowStateName(9),
             v20 ? QStringLiteral("kill") : QStringLiteral("state 9"));
    QCOMPARE(catalog->workflowStateName(10),
             v20 ? QStringLiteral("waiting thread") : QStringLiteral("state 10"));
    QCOMPARE(catalog->workflowStateName(11),
             v20 ? QStringLiteral("waiting depend node complete") : QStringLiteral("state 11"));
    QCOMPARE(catalog->workflowStateName(13),
             v20 ? QStringLiteral("forced success") : QStringLiteral("state 13"));
    QCOMPARE(catalog->workflowStateName(14),
             v20 ? QStringLiteral("state 14") : QStringLiteral("serial wait"));

    // NEED_FAULT_TOLERANCE counts as a failure in 2.0 (typeIsFailure): it reruns from the
    // failed tasks; 3.2 and 3.3 have no such state and refuse.
    exec(QStringLiteral("UPDATE %1 SET state = 8 WHERE id = 12").arg(schema.instanceTable()));
    const Result<qint64> fromFailed =
        control.act(12, DolphinSchedulerControl::Action::RerunFailedTasks, admin);
    QCOMPARE(bool(fromFailed), v20);
    if (!v20)
        QVERIFY2(fromFailed.error().message.contains(QLatin1String("can not be recovered")),
                 qPrintable(fromFailed.error().message));
    // KILL is resumable in 2.0 (typeIsCancel).
    exec(QStringLiteral("UPDATE %1 SET state = 9 WHERE id = 13").arg(schema.instanceTable()));
    QCOMPARE(bool(control.act(13, DolphinSchedulerControl::Action::Resume, admin)), v20);
    // WAITING_DEPEND is running in 2.0: stop is refused for the RPC it needs, not the state.
    exec(QStringLiteral("UPDATE %1 SET state = 11 WHERE id = 13").arg(schema.instanceTable()));
    const Status stopped = control.stopOrPause(13, true);
    QVERIFY(!stopped);
    QCOMPARE(stopped.error().kind, v20 ? ErrorKind::Unavailable : ErrorKind::Invalid);

    // 2.0 reruns only an instance whose definition is online; 3.2's RepeatRunningExecuteFunction
    // leaves that to the master (a todo there), 3.3's likewise.
    exec(QStringLiteral("UPDATE %1 SET release_state = 0 WHERE code = 200")
             .arg(schema.definitionTable()));
    const Result<qint64> offline = control.act(11, DolphinSchedulerControl::Action::Rerun, admin);
    QCOMPARE(bool(offline), !v20);
    if (v20)
        QVERIFY2(offline.error().message.contains(QLatin1String("process definition 200 not on "
                                                                "line")),
                 qPrintable(offline.error().message));
}

void TestDolphinSchedulerControl::
    control_secondPendingCommand_refusedOnlyWhereDolphinSchedulerLooks()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool v20 = release == QLatin1String("2.0");
    insertWorkflow(schema);
    const Status instances = test::DolphinSchedulerFixture::insertInstances(m_db, schema);
    QVERIFY2(instances, qPrintable(instances ? QString() : instances.error().message));
    const DolphinSchedulerControl control(*m_remote, catalog.value());
    const QString admin = QStringLiteral("admin");
    const auto commands = [&]() {
        QSqlQuery q(m_db);
        q.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command"));
        return q.next() ? q.value(0).toInt() : -1;
    };

    QVERIFY(control.act(11, DolphinSchedulerControl::Action::Rerun, admin));
    QCOMPARE(commands(), 1);
    // A rerun of another instance is no conflict.
    QVERIFY(control.act(12, DolphinSchedulerControl::Action::Rerun, admin));
    QCOMPARE(commands(), 2);
    // A second act on instance 11 while the first is queued: 2.0.9's verifyIsNeedCreateCommand
    // refuses it in its words (naming the definition's code); 3.2 and 3.3 queue it.
    const Result<qint64> second = control.act(11, DolphinSchedulerControl::Action::Rerun, admin);
    QCOMPARE(bool(second), !v20);
    QCOMPARE(commands(), v20 ? 2 : 3);
    if (v20)
        QVERIFY2(second.error().message.contains(
                     QLatin1String("process instance 200 is executing the command, please wait")),
                 qPrintable(second.error().message));
    // Once the master has taken the command, the instance can be acted on again.
    exec(QStringLiteral("DELETE FROM t_ds_command WHERE %1 = 11").arg(schema.instanceIdColumn()));
    QVERIFY(control.act(11, DolphinSchedulerControl::Action::Rerun, admin));
}

void TestDolphinSchedulerControl::start_writesWhatDolphinSchedulerWrites()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool workflow = release == QLatin1String("3.3");
    insertWorkflow(schema);
    const DolphinSchedulerLauncher control(*m_remote, catalog.value());
    DolphinSchedulerLauncher::Options options;
    options.parameters.insert(QStringLiteral("day"), QStringLiteral("2026-11-24"));
    options.failureStrategy = 0;
    const Result<qint64> started = control.start(QStringLiteral("etl/nightly"), options);
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT command_type, %1, %2, %3, command_param, executor_id, "
                                  "failure_strategy, task_depend_type, worker_group FROM "
                                  "t_ds_command WHERE id = %4")
                       .arg(schema.definitionCodeColumn(), schema.definitionVersionColumn(),
                            schema.instanceIdColumn())
                       .arg(started.value())));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 0); // START_PROCESS
    QCOMPARE(q.value(1).toLongLong(), 200);
    QCOMPARE(q.value(2).toInt(), 2); // the definition's current version
    QCOMPARE(q.value(5).toLongLong(), 1);
    QCOMPARE(q.value(6).toInt(), 0);
    QCOMPARE(q.value(7).toInt(), 2);
    QCOMPARE(q.value(8).toString(), QStringLiteral("default"));
    const QJsonObject param = QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object();
    const qint64 instanceId = q.value(3).toLongLong();
    if (workflow) { // the master's instance, and a command that points at it
        QVERIFY(instanceId > 0);
        QCOMPARE(param.value(QLatin1String("commandType")).toString(),
                 QStringLiteral("START_PROCESS"));
        QCOMPARE(param.value(QLatin1String("commandParams"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("prop")),
                 QJsonValue(QStringLiteral("day")));
        QCOMPARE(param.value(QLatin1String("timeZone")).toString(),
                 QStringLiteral("Europe/Berlin"));
        const Result<DsInstance> instance = catalog->instance(instanceId);
        QVERIFY2(instance, qPrintable(instance ? QString() : instance.error().message));
        QCOMPARE(instance->state, 0); // submitted
        QVERIFY(instance->name.startsWith(QLatin1String("nightly-")));
        QCOMPARE(instance->definitionVersion, 2);
    } else { // the API server's command: no instance yet, start parameters as a JSON string
        QCOMPARE(instanceId, 0);
        QCOMPARE(
            QJsonDocument::fromJson(param.value(QLatin1String("StartParams")).toString().toUtf8())
                .object()
                .value(QLatin1String("day"))
                .toString(),
            QStringLiteral("2026-11-24"));
        if (release == QLatin1String("2.0")) {
            // 2.0.9's createCommand: no zone in the command, no trigger relation table.
            QVERIFY(!param.contains(QLatin1String("schedule_timezone")));
            QVERIFY(!catalog->schema().hasTriggerRelation());
            QVERIFY(!catalog->schema().hasCommandTenantCode());
        } else {
            QCOMPARE(param.value(QLatin1String("schedule_timezone")).toString(),
                     QStringLiteral("Europe/Berlin"));
        }
    }
    if (release == QLatin1String("3.2")) {
        QSqlQuery trigger(m_db);
        QVERIFY(trigger.exec(QStringLiteral("SELECT trigger_type, trigger_code FROM "
                                            "t_ds_trigger_relation WHERE job_id = %1")
                                 .arg(started.value())));
        QVERIFY(trigger.next());
        QCOMPARE(trigger.value(0).toInt(), 2); // COMMAND
        QVERIFY(trigger.value(1).toLongLong() > 0);
    }
    // An offline definition is refused, naming it; nothing is written.
    const Result<qint64> offline = control.start(QStringLiteral("etl/adhoc"), options);
    QVERIFY(!offline);
    QVERIFY2(offline.error().message.contains(QLatin1String("is not online")),
             qPrintable(offline.error().message));
    QSqlQuery count(m_db);
    QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")));
    QVERIFY(count.next());
    QCOMPARE(count.value(0).toInt(), 1);
}

void TestDolphinSchedulerControl::start_carriesTheRunSettings()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool workflow = release == QLatin1String("3.3");
    const bool v20 = release == QLatin1String("2.0");
    insertWorkflow(schema);
    exec(QStringLiteral("UPDATE %1 SET timeout = 45 WHERE code = 200")
             .arg(schema.definitionTable()));
    const DolphinSchedulerLauncher launcher(*m_remote, catalog.value());
    const QString path = QStringLiteral("etl/nightly");
    const auto commands = [&]() {
        QSqlQuery q(m_db);
        q.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command"));
        return q.next() ? q.value(0).toInt() : -1;
    };

    // At DolphinScheduler's API defaults: no warning, no group, medium, no environment.
    const Result<qint64> plain = launcher.start(path, {});
    QVERIFY2(plain, qPrintable(plain ? QString() : plain.error().message));
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT warning_type, warning_group_id, %1, environment_code, "
                                  "%2 FROM t_ds_command WHERE id = %3")
                       .arg(schema.instancePriorityColumn(), schema.instanceIdColumn())
                       .arg(plain.value())));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    QVERIFY(q.value(1).isNull());
    QCOMPARE(q.value(2).toInt(), 2);
    QCOMPARE(q.value(3).toLongLong(), -1);

    DolphinSchedulerLauncher::Options options;
    options.warningType = 2; // FAILURE
    options.warningGroupId = 7;
    options.priority = 0; // HIGHEST
    options.environmentCode = 133155949418784;
    options.tenantCode = QStringLiteral("etl-tenant");
    // 2.0 takes the tenant from the definition; 3.2 refuses one it does not know, in its words.
    if (!workflow) {
        const Result<qint64> refused = launcher.start(path, options);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(
                     v20 ? QLatin1String("takes the tenant from the workflow definition")
                         : QLatin1String("tenant [etl-tenant] not exists")),
                 qPrintable(refused.error().message));
        QCOMPARE(commands(), 1);
    }
    if (v20)
        options.tenantCode = QStringLiteral("default");
    else
        exec(QStringLiteral("INSERT INTO t_ds_tenant (id, tenant_code, queue_id, create_time, "
                            "update_time) VALUES (5, 'etl-tenant', 1, '2026-01-01 00:00:00', "
                            "'2026-01-01 00:00:00')"));
    const Result<qint64> started = launcher.start(path, options);
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
    QVERIFY(
        q.exec(QStringLiteral("SELECT warning_type, warning_group_id, %1, environment_code, "
                              "%2%3 FROM t_ds_command WHERE id = %4")
                   .arg(schema.instancePriorityColumn(), schema.instanceIdColumn(),
                        schema.hasCommandTenantCode() ? QStringLiteral(", tenant_code") : QString())
                   .arg(started.value())));
    QVERIFY(q.next());
    QCOMPARE(q.value(2).toInt(), 0); // the priority, on the command in every version
    if (workflow) {
        // 3.3's master: the settings on the instance, with the definition's timeout; the
        // command keeps its column defaults.
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(q.value(1).isNull());
        QCOMPARE(q.value(3).toLongLong(), -1);
        const qint64 instanceId = q.value(4).toLongLong();
        QVERIFY(q.exec(QStringLiteral("SELECT warning_type, warning_group_id, %1, "
                                      "environment_code, tenant_code, timeout FROM %2 WHERE id "
                                      "= %3")
                           .arg(schema.instancePriorityColumn(), schema.instanceTable())
                           .arg(instanceId)));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2);
        QCOMPARE(q.value(1).toInt(), 7);
        QCOMPARE(q.value(2).toInt(), 0);
        QCOMPARE(q.value(3).toLongLong(), 133155949418784);
        QCOMPARE(q.value(4).toString(), QStringLiteral("etl-tenant"));
        QCOMPARE(q.value(5).toInt(), 45);
    } else {
        QCOMPARE(q.value(0).toInt(), 2);
        QCOMPARE(q.value(1).toInt(), 7);
        QCOMPARE(q.value(3).toLongLong(), 133155949418784);
        if (!v20)
            QCOMPARE(q.value(5).toString(), QStringLiteral("etl-tenant"));
    }
    // 2.0 and 3.2 give the definition the request's warning group; 3.3 leaves it.
    QVERIFY(q.exec(QStringLiteral("SELECT warning_group_id FROM %1 WHERE code = 200")
                       .arg(schema.definitionTable())));
    QVERIFY(q.next());
    if (workflow)
        QVERIFY(q.value(0).isNull() || q.value(0).toInt() != 7);
    else
        QCOMPARE(q.value(0).toInt(), 7);

    options.priority = 5;
    QVERIFY(!launcher.start(path, options));
    options.priority = 2;
    options.warningType = 4;
    QVERIFY(!launcher.start(path, options));
}

void TestDolphinSchedulerControl::complement_withoutSchedule_takesEveryMidnight()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    insertWorkflow(schema);
    // "adhoc" online, with no schedule: every version's API server falls back to
    // DEFAULT_CRON_STRING (every midnight) rather than refusing.
    exec(QStringLiteral("UPDATE %1 SET release_state = 1 WHERE code = 201")
             .arg(schema.definitionTable()));
    const DolphinSchedulerLauncher launcher(*m_remote, catalog.value());
    const QDateTime from(QDate(2026, 1, 1), QTime(0, 0));
    const QDateTime to(QDate(2026, 1, 3), QTime(12, 0));
    const Result<QList<qint64>> done =
        launcher.complement(QStringLiteral("etl/adhoc"), from, to, 0, {});
    QVERIFY2(done, qPrintable(done ? QString() : done.error().message));
    QCOMPARE(done->size(), 1);
    QSqlQuery q(m_db);
    QVERIFY(q.exec(
        QStringLiteral("SELECT command_param FROM t_ds_command WHERE id = %1").arg(done->first())));
    QVERIFY(q.next());
    const QJsonObject param = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    const QStringList midnights{QStringLiteral("2026-01-01 00:00:00"),
                                QStringLiteral("2026-01-02 00:00:00"),
                                QStringLiteral("2026-01-03 00:00:00")};
    if (release == QLatin1String("2.0")) {
        QCOMPARE(param.value(QLatin1String("complementStartDate")).toString(), midnights.first());
    } else if (release == QLatin1String("3.2")) {
        QStringList dates = param.value(QLatin1String("complementScheduleDateList"))
                                .toString()
                                .split(QLatin1Char(','));
        dates.sort();
        QCOMPARE(dates, midnights);
    } else {
        QStringList dates;
        for (const QJsonValue &date : param.value(QLatin1String("backfillTimeList")).toArray())
            dates << date.toString();
        dates.sort();
        QCOMPARE(dates, midnights);
    }
}

void TestDolphinSchedulerControl::startFromTasks()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    insertWorkflow(schema);
    const DolphinSchedulerLauncher launcher(*m_remote, catalog.value());
    DolphinSchedulerLauncher::Options options;
    options.startNodes = {302, 303};
    options.taskDependType = 0; // only them
    const Result<qint64> started = launcher.start(QStringLiteral("etl/nightly"), options);
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT command_type, task_depend_type, command_param, %1 FROM "
                                  "t_ds_command WHERE id = %2")
                       .arg(schema.instanceIdColumn())
                       .arg(started.value())));
    QVERIFY(q.next());
    const QJsonObject param = QJsonDocument::fromJson(q.value(2).toString().toUtf8()).object();
    if (release == QLatin1String("3.3")) {
        // The master's RunWorkflowCommandParam: the codes as numbers; the depend type is the
        // instance's, the command's stays TASK_POST.
        QCOMPARE(q.value(0).toInt(), 0);
        QCOMPARE(q.value(1).toInt(), 2);
        QCOMPARE(param.value(QLatin1String("startNodes")).toArray(), (QJsonArray{302, 303}));
        QSqlQuery instance(m_db);
        QVERIFY(instance.exec(QStringLiteral("SELECT task_depend_type FROM %1 WHERE id = %2")
                                  .arg(schema.instanceTable())
                                  .arg(q.value(3).toLongLong())));
        QVERIFY(instance.next());
        QCOMPARE(instance.value(0).toInt(), 0);
    } else {
        // The API server's command: "StartNodeList" as the request carried it; 2.0.9 makes it
        // START_CURRENT_TASK_PROCESS, 3.2 keeps START_PROCESS.
        QCOMPARE(q.value(0).toInt(), release == QLatin1String("2.0") ? 1 : 0);
        QCOMPARE(q.value(1).toInt(), 0);
        QCOMPARE(param.value(QLatin1String("StartNodeList")).toString(), QStringLiteral("302,303"));
    }
    // A task that is not in the DAG is refused, naming it; nothing is written.
    options.startNodes = {999};
    const Result<qint64> unknown = launcher.start(QStringLiteral("etl/nightly"), options);
    QVERIFY(!unknown);
    QVERIFY2(unknown.error().message.contains(QLatin1String("this node 999 does not exist")),
             qPrintable(unknown.error().message));
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

void TestDolphinSchedulerControl::complement_splitsAsEachVersionDoes()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool workflow = release == QLatin1String("3.3");
    insertWorkflow(schema);
    const DolphinSchedulerLauncher launcher(*m_remote, catalog.value());
    // Five nights of the 02:30 Europe/Berlin schedule.
    const QTimeZone berlin("Europe/Berlin");
    const QDateTime from(QDate(2026, 11, 1), QTime(0, 0), berlin);
    const QDateTime to(QDate(2026, 11, 5), QTime(23, 0), berlin);
    const auto datesOf = [&](qint64 command) {
        QSqlQuery q(m_db);
        q.exec(QStringLiteral("SELECT command_type, command_param FROM t_ds_command WHERE id = %1")
                   .arg(command));
        if (!q.next() || q.value(0).toInt() != 5)
            return QStringList{QStringLiteral("not a complement command")};
        const QJsonObject param = QJsonDocument::fromJson(q.value(1).toString().toUtf8()).object();
        if (workflow) {
            QStringList dates;
            const QJsonArray list = param.value(QLatin1String("backfillTimeList")).toArray();
            for (const auto &date : list)
                dates << date.toString();
            return dates;
        }
        if (release == QLatin1String("2.0")) // a start and an end date, no list
            return QStringList{param.value(QLatin1String("complementStartDate")).toString(),
                               param.value(QLatin1String("complementEndDate")).toString()};
        return param.value(QLatin1String("complementScheduleDateList"))
            .toString()
            .split(QLatin1Char(','));
    };
    const QString d1 = QStringLiteral("2026-11-01 02:30:00");
    const QString d2 = QStringLiteral("2026-11-02 02:30:00");
    const QString d3 = QStringLiteral("2026-11-03 02:30:00");
    const QString d4 = QStringLiteral("2026-11-04 02:30:00");
    const QString d5 = QStringLiteral("2026-11-05 02:30:00");

    // Serially: one command; 3.2 newest first, 3.3 oldest first.
    const Result<QList<qint64>> serial =
        launcher.complement(QStringLiteral("etl/nightly"), from, to, 0, {});
    QVERIFY2(serial, qPrintable(serial ? QString() : serial.error().message));
    QCOMPARE(serial->size(), 1);
    if (release == QLatin1String("2.0")) // the range as asked, in the schedule's zone
        QCOMPARE(datesOf(serial->first()), (QStringList{QStringLiteral("2026-11-01 00:00:00"),
                                                        QStringLiteral("2026-11-05 23:00:00")}));
    else
        QCOMPARE(datesOf(serial->first()),
                 workflow ? (QStringList{d1, d2, d3, d4, d5}) : (QStringList{d5, d4, d3, d2, d1}));

    // Two at a time: 3.2 deals the dates into two commands; 3.3 cuts chunks of two.
    const Result<QList<qint64>> twoAtOnce =
        launcher.complement(QStringLiteral("etl/nightly"), from, to, 2, {});
    QVERIFY2(twoAtOnce, qPrintable(twoAtOnce ? QString() : twoAtOnce.error().message));
    if (workflow) {
        QCOMPARE(twoAtOnce->size(), 3);
        QCOMPARE(datesOf(twoAtOnce->at(0)), (QStringList{d1, d2}));
        QCOMPARE(datesOf(twoAtOnce->at(2)), (QStringList{d5}));
        // Each chunk has its instance, scheduled for its first date.
        QSqlQuery q(m_db);
        QVERIFY(q.exec(QStringLiteral("SELECT i.schedule_time, i.command_type FROM %1 i JOIN "
                                      "t_ds_command c ON c.%2 = i.id WHERE c.id = %3")
                           .arg(schema.instanceTable(), schema.instanceIdColumn())
                           .arg(twoAtOnce->at(1))));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), d3);
        QCOMPARE(q.value(1).toInt(), 5);
    } else if (release == QLatin1String("2.0")) {
        // 2.0.9: consecutive runs of the dates, the first one longer, each by first and last.
        QCOMPARE(twoAtOnce->size(), 2);
        QCOMPARE(datesOf(twoAtOnce->at(0)), (QStringList{d1, d3}));
        QCOMPARE(datesOf(twoAtOnce->at(1)), (QStringList{d4, d5}));
    } else {
        QCOMPARE(twoAtOnce->size(), 2);
        QCOMPARE(datesOf(twoAtOnce->at(0)), (QStringList{d5, d3, d1}));
        QCOMPARE(datesOf(twoAtOnce->at(1)), (QStringList{d4, d2}));
    }
    // A range with no fire time in it, or backwards, is refused; nothing is written.
    QVERIFY(!launcher.complement(QStringLiteral("etl/nightly"), to, from, 0, {}));
    const Result<QList<qint64>> none = launcher.complement(
        QStringLiteral("etl/nightly"), from.addSecs(3 * 3600), from.addSecs(4 * 3600), 0, {});
    QVERIFY(!none);
    QVERIFY2(none.error().message.contains(QLatin1String("not valid")),
             qPrintable(none.error().message));
}

void TestDolphinSchedulerControl::complementDependents()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    insertWorkflow(schema);
    // Three workflows wait on others through a DEPENDENT task, as the API writes them (the task
    // in t_ds_task_definition and its log, a task after it): "report" on nightly by day (it has
    // a schedule of its own), "hourly" on nightly by hour, "archive" on report by day.
    const QString at = QStringLiteral("'2026-01-05 10:00:00'");
    const auto dependent = [&](qint64 definition, const QString &name, qint64 task, qint64 upstream,
                               const QString &cycle) {
        exec(QStringLiteral("INSERT INTO %1 (code, name, version, description, project_code, "
                            "release_state, user_id, flag, create_time, update_time) VALUES "
                            "(%2, '%3', 1, '', 100, 1, 1, 1, %4, %4)")
                 .arg(schema.definitionTable())
                 .arg(definition)
                 .arg(name, at));
        const QString params =
            QStringLiteral("{\"localParams\":[],\"dependence\":{\"relation\":\"AND\","
                           "\"dependTaskList\":[{\"relation\":\"AND\",\"dependItemList\":[{"
                           "\"projectCode\":100,\"definitionCode\":%1,\"depTaskCode\":0,"
                           "\"cycle\":\"%2\",\"dateValue\":\"today\"}]}]}}")
                .arg(upstream)
                .arg(cycle);
        for (const QString &table :
             {QStringLiteral("t_ds_task_definition"), QStringLiteral("t_ds_task_definition_log")}) {
            const bool log = table.endsWith(QLatin1String("_log"));
            exec(QStringLiteral("INSERT INTO %1 (code, name, version, project_code, user_id, "
                                "task_type, task_params, flag, task_priority, worker_group, "
                                "fail_retry_times, fail_retry_interval, timeout_flag, timeout, "
                                "%2create_time, update_time) VALUES (%3, 'wait', 1, 100, 1, "
                                "'DEPENDENT', '%4', 1, 2, 'default', 0, 1, 0, 0, %5%6, %6), "
                                "(%7, 'publish', 1, 100, 1, 'SHELL', '{}', 1, 2, 'default', 0, "
                                "1, 0, 0, %5%6, %6)")
                     .arg(table, log ? QStringLiteral("operator, operate_time, ") : QString())
                     .arg(task)
                     .arg(params,
                          log ? QStringLiteral("1, ") + at + QStringLiteral(", ") : QString(), at)
                     .arg(task + 1));
        }
        exec(QStringLiteral("INSERT INTO %1 (project_code, %2, %3, pre_task_code, "
                            "pre_task_version, post_task_code, post_task_version, condition_type, "
                            "create_time, update_time) VALUES (100, %4, 1, 0, 0, %5, 1, 0, %7, "
                            "%7), (100, %4, 1, %5, 1, %6, 1, 0, %7, %7)")
                 .arg(schema.relationTable(), schema.definitionCodeColumn(),
                      schema.definitionVersionColumn())
                 .arg(definition)
                 .arg(task)
                 .arg(task + 1)
                 .arg(at));
    };
    dependent(210, QStringLiteral("report"), 410, 200, QStringLiteral("day"));
    dependent(211, QStringLiteral("hourly"), 420, 200, QStringLiteral("hour"));
    dependent(212, QStringLiteral("archive"), 430, 210, QStringLiteral("day"));
    exec(QStringLiteral("INSERT INTO t_ds_schedules (%1, start_time, end_time, timezone_id, "
                        "crontab, failure_strategy, user_id, release_state, warning_type, "
                        "warning_group_id, %2, worker_group, create_time, update_time) VALUES "
                        "(210, '2026-01-01 00:00:00', '2126-01-01 00:00:00', 'Asia/Tokyo', "
                        "'0 0 5 * * ? *', 1, 1, 0, 0, 0, 1, 'reporting', %3, %3)")
             .arg(schema.definitionCodeColumn(), schema.instancePriorityColumn(), at));

    const DolphinSchedulerLauncher launcher(*m_remote, catalog.value());
    DolphinSchedulerLauncher::Options options;
    options.complementDependents = true;
    options.workerGroup = QStringLiteral("backfill");
    const QTimeZone berlin("Europe/Berlin");
    const QDateTime from(QDate(2026, 11, 1), QTime(0, 0), berlin);
    const QDateTime to(QDate(2026, 11, 2), QTime(23, 0), berlin);
    const Result<QList<qint64>> queued =
        launcher.complement(QStringLiteral("etl/nightly"), from, to, 0, options);
    if (release != QLatin1String("3.2")) {
        // 2.0 has no such complement; 3.3 takes it and does nothing: both said, nothing
        // written.
        QVERIFY(!queued);
        QVERIFY2(queued.error().message.contains(QLatin1String("dependent")),
                 qPrintable(queued.error().message));
        QSqlQuery count(m_db);
        QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")) && count.next());
        QCOMPARE(count.value(0).toInt(), 0);
        return;
    }
    QVERIFY2(queued, qPrintable(queued ? QString() : queued.error().message));
    // The complement, then report's (by day, as nightly's schedule); hourly's cycle differs.
    QCOMPARE(queued->size(), 2);
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT %1, command_type, task_depend_type, worker_group, "
                                  "command_param, executor_id FROM t_ds_command WHERE id = %2")
                       .arg(schema.definitionCodeColumn())
                       .arg(queued->at(1))));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toLongLong(), 210);
    QCOMPARE(q.value(1).toInt(), 5); // COMPLEMENT_DATA, copied
    QCOMPARE(q.value(2).toInt(), 2); // TASK_POST
    QVERIFY(q.value(3).isNull());    // report has a schedule: DolphinScheduler leaves it empty
    QCOMPARE(q.value(5).toLongLong(), 1);
    const QJsonObject param = QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object();
    QCOMPARE(param.value(QLatin1String("StartNodeList")).toString(), QStringLiteral("410"));
    QCOMPARE(param.value(QLatin1String("schedule_timezone")).toString(),
             QStringLiteral("Asia/Tokyo"));
    QCOMPARE(param.value(QLatin1String("complementScheduleDateList")).toString(),
             QStringLiteral("2026-11-02 02:30:00,2026-11-01 02:30:00"));

    // Every level: archive waits on report, and comes along with the complement's worker group.
    options.allLevels = true;
    const Result<QList<qint64>> all =
        launcher.complement(QStringLiteral("etl/nightly"), from, to, 0, options);
    QVERIFY2(all, qPrintable(all ? QString() : all.error().message));
    QCOMPARE(all->size(), 3);
    QVERIFY(q.exec(QStringLiteral("SELECT %1, worker_group, command_param FROM t_ds_command "
                                  "WHERE id = %2")
                       .arg(schema.definitionCodeColumn())
                       .arg(all->at(2))));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toLongLong(), 212);
    QCOMPARE(q.value(1).toString(), QStringLiteral("backfill"));
    QCOMPARE(QJsonDocument::fromJson(q.value(2).toString().toUtf8())
                 .object()
                 .value(QLatin1String("StartNodeList"))
                 .toString(),
             QStringLiteral("430"));
}

void TestDolphinSchedulerControl::scheduleOnline_writesItsQuartzJob()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    QVERIFY(catalog->schema().hasQuartz());
    insertWorkflow(catalog->schema());
    const QString nightly = QStringLiteral("etl/nightly");
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT id FROM t_ds_schedules")) && q.next());
    const int scheduleId = q.value(0).toInt();
    QVERIFY(q.exec(QStringLiteral("SELECT id FROM t_ds_project WHERE code = 100")) && q.next());
    const int projectId = q.value(0).toInt();
    const QString job = QStringLiteral("job_%1").arg(scheduleId);
    const QString group = QStringLiteral("jobgroup_%1").arg(projectId);
    const auto count = [&](const char *table) {
        QSqlQuery c(m_db);
        c.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(QLatin1String(table)));
        return c.next() ? c.value(0).toInt() : -1;
    };

    // The fixture's schedule is online without a job: offline, then online as the API does.
    QVERIFY(catalog->setScheduleOnline(nightly, false));
    QVERIFY(q.exec(QStringLiteral("SELECT release_state FROM t_ds_schedules")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    const QDateTime before = QDateTime::currentDateTimeUtc();
    const Status online = catalog->setScheduleOnline(nightly, true);
    QVERIFY2(online, qPrintable(online ? QString() : online.error().message));
    QVERIFY(q.exec(QStringLiteral("SELECT release_state FROM t_ds_schedules")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    const bool v20 = release == QLatin1String("2.0");
    QVERIFY(q.exec(QStringLiteral("SELECT SCHED_NAME, JOB_NAME, JOB_GROUP, JOB_CLASS_NAME, "
                                  "IS_DURABLE, JOB_DATA FROM QRTZ_JOB_DETAILS")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("DolphinScheduler"));
    QCOMPARE(q.value(1).toString(), job);
    QCOMPARE(q.value(2).toString(), group);
    QVERIFY(q.value(3).toString().endsWith(v20 ? QLatin1String(".ProcessScheduleJob")
                                               : QLatin1String(".ProcessScheduleTask")));
    QCOMPARE(q.value(4).toInt(), 0);
    const QByteArray data = q.value(5).toByteArray();
    if (v20) {
        QVERIFY(data.contains("schedule"));
    } else {
        QCOMPARE(data.toHex(),
                 QuartzJobDataMap::serialize({{QStringLiteral("projectId"), projectId},
                                              {QStringLiteral("scheduleId"), scheduleId}})
                     .toHex());
    }
    QVERIFY(q.exec(QStringLiteral("SELECT TRIGGER_NAME, TRIGGER_GROUP, JOB_NAME, TRIGGER_STATE, "
                                  "TRIGGER_TYPE, NEXT_FIRE_TIME, PREV_FIRE_TIME, START_TIME, "
                                  "END_TIME, MISFIRE_INSTR, PRIORITY FROM QRTZ_TRIGGERS")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), job);
    QCOMPARE(q.value(1).toString(), group);
    QCOMPARE(q.value(2).toString(), job);
    QCOMPARE(q.value(3).toString(), QStringLiteral("WAITING"));
    QCOMPARE(q.value(4).toString(), QStringLiteral("CRON"));
    const QTimeZone berlin("Europe/Berlin");
    const QDateTime next = QDateTime::fromMSecsSinceEpoch(q.value(5).toLongLong(), berlin);
    QCOMPARE(next.time(), QTime(2, 30)); // 02:30 in Berlin, the schedule's zone
    if (v20) // 2.0 starts the trigger at the schedule's start: its first fire after it
        QCOMPARE(next.date(), QDate(2026, 1, 1));
    else // 3.x starts it now
        QVERIFY(next > before && next <= before.addDays(1).addSecs(3600));
    QCOMPARE(q.value(6).toLongLong(), -1);
    QCOMPARE(q.value(8).toLongLong(),
             QDateTime(QDate(2126, 1, 1), QTime(0, 0), berlin).toMSecsSinceEpoch());
    QCOMPARE(q.value(9).toInt(), v20 ? 2 : -1); // DoNothing / IgnoreMisfires
    QCOMPARE(q.value(10).toInt(), 5);
    QVERIFY(q.exec(QStringLiteral("SELECT CRON_EXPRESSION, TIME_ZONE_ID FROM "
                                  "QRTZ_CRON_TRIGGERS")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("0 30 2 * * ? *"));
    QCOMPARE(q.value(1).toString(), QStringLiteral("Europe/Berlin"));
    QCOMPARE(count("QRTZ_LOCKS"), 1); // TRIGGER_ACCESS, as Quartz makes it

    // Offline deletes the job; so does taking the workflow offline.
    QVERIFY(catalog->setScheduleOnline(nightly, false));
    QCOMPARE(count("QRTZ_TRIGGERS"), 0);
    QCOMPARE(count("QRTZ_JOB_DETAILS"), 0);
    QVERIFY(catalog->setScheduleOnline(nightly, true));
    QCOMPARE(count("QRTZ_CRON_TRIGGERS"), 1);
    QVERIFY(catalog->setWorkflowOnline(nightly, false));
    QCOMPARE(count("QRTZ_CRON_TRIGGERS"), 0);
    QCOMPARE(count("QRTZ_JOB_DETAILS"), 0);
    // An offline workflow's schedule stays offline, saying why; one without: said too.
    const Status refused = catalog->setScheduleOnline(nightly, true);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("is not online")),
             qPrintable(refused.error().message));
    QCOMPARE(count("QRTZ_TRIGGERS"), 0);
    QVERIFY(catalog->setScheduleOnline(QStringLiteral("etl/adhoc"), true)
                .error()
                .message.contains(QLatin1String("has no schedule")));
}

void TestDolphinSchedulerControl::commandLine_drivesTheConsoleThroughTheBinary_data()
{
    // PostgreSQL: its test URL needs no password, which the binary would want in a keychain.
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("release");
    for (const char *release : {"2.0", "3.2", "3.3"})
        QTest::addRow("%s postgresql", release)
            << QStringLiteral("postgresql") << QString::fromLatin1(release);
}

void TestDolphinSchedulerControl::commandLine_drivesTheConsoleThroughTheBinary()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    const bool workflow = release == QLatin1String("3.3");
    const bool v20 = release == QLatin1String("2.0");
    insertWorkflow(schema);
    const Status instances = test::DolphinSchedulerFixture::insertInstances(m_db, schema);
    QVERIFY2(instances, qPrintable(instances ? QString() : instances.error().message));

    QTemporaryDir home;
    const QString db = home.filePath(QStringLiteral("store.db"));
    struct Outcome
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    const auto run = [&](QStringList arguments) {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), home.path());
        environment.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        environment.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                           QStringLiteral("unix:path=/nonexistent/hourglass-test-bus"));
        process.setProcessEnvironment(environment);
        arguments.prepend(QStringLiteral("remote"));
        process.start(QStringLiteral(HOURGLASS_BINARY),
                      QStringList{QStringLiteral("--db"), db} + arguments);
        process.waitForFinished(30000);
        return Outcome{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                       QString::fromUtf8(process.readAllStandardError())};
    };
    QSqlQuery q(m_db);
    const auto scalar = [&](const QString &sql) {
        return q.exec(sql) && q.next() ? q.value(0) : QVariant();
    };
    const auto lastCommand = [&](const QString &columns) {
        QVERIFY2(q.exec(QStringLiteral("SELECT %1 FROM t_ds_command ORDER BY id DESC LIMIT 1")
                            .arg(columns)),
                 qPrintable(q.lastError().text()));
        QVERIFY(q.next());
    };
    const QString ds = QStringLiteral("ds");
    const QString nightly = QStringLiteral("etl/nightly");

    QUrl url = test::postgresUrl();
    url.setPath(QLatin1Char('/') + m_database);
    url.setPassword(QString());
    Outcome done =
        run({QStringLiteral("add"), ds, QStringLiteral("--kind"),
             QStringLiteral("dolphinscheduler"), QStringLiteral("--url"), url.toString()});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));

    // Browse: the workflows, one with its schedule and DAG.
    done = run({QStringLiteral("chains"), ds, QStringLiteral("--json")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QVERIFY2(done.out.contains(QLatin1String("nightly"))
                 && done.out.contains(QLatin1String("adhoc")),
             qPrintable(done.out));
    done = run({QStringLiteral("show"), ds, nightly});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QVERIFY2(done.out.contains(QLatin1String("0 30 2 * * ? *"))
                 && done.out.contains(QLatin1String("check")),
             qPrintable(done.out));

    // Runs sorted in SQL: by duration, the shortest first and the running one (none) last;
    // --before goes on after a row in that order.
    const auto ids = [](const QString &json) {
        QList<qint64> list;
        const QJsonArray rows = QJsonDocument::fromJson(json.toUtf8()).array();
        for (const QJsonValue row : rows)
            list << row.toObject().value(QLatin1String("id")).toInteger();
        return list;
    };
    done = run({QStringLiteral("runs"), ds, QStringLiteral("--sort"),
                QStringLiteral("duration:asc"), QStringLiteral("--json")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QCOMPARE(ids(done.out), (QList<qint64>{12, 11, 13}));
    done = run({QStringLiteral("runs"), ds, QStringLiteral("--sort"),
                QStringLiteral("duration:asc"), QStringLiteral("--before"), QStringLiteral("12"),
                QStringLiteral("--limit"), QStringLiteral("1"), QStringLiteral("--json")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QCOMPARE(ids(done.out), QList<qint64>{11});
    done = run({QStringLiteral("runs"), ds, QStringLiteral("--tasks"), QStringLiteral("--sort"),
                QStringLiteral("name"), QStringLiteral("--json")}); // A to Z without a direction
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QVERIFY2(done.out.indexOf(QLatin1String("\"check\""))
                     < done.out.indexOf(QLatin1String("\"extract\""))
                 && done.out.indexOf(QLatin1String("\"extract\""))
                        < done.out.indexOf(QLatin1String("\"load\"")),
             qPrintable(done.out));
    done = run({QStringLiteral("runs"), ds, QStringLiteral("--sort"), QStringLiteral("size")});
    QCOMPARE(done.exitCode, 2);
    QVERIFY2(done.err.contains(QLatin1String("duration")), qPrintable(done.err));
    done = run({QStringLiteral("runs"), ds, QStringLiteral("--sort"), QStringLiteral("type")});
    QVERIFY(done.exitCode != 0); // a workflow instance has no type
    QVERIFY2(done.err.contains(QLatin1String("no type")), qPrintable(done.err));

    // Start, with the run's settings by DolphinScheduler's names.
    done = run({QStringLiteral("start"), ds, nightly, QStringLiteral("--priority"),
                QStringLiteral("HIGH"), QStringLiteral("--warning-type"), QStringLiteral("FAILURE"),
                QStringLiteral("--warning-group"), QStringLiteral("3")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    lastCommand(QStringLiteral("command_type, %1, warning_type, %2")
                    .arg(schema.instancePriorityColumn(), schema.instanceIdColumn()));
    QCOMPARE(q.value(0).toInt(), 0); // START_PROCESS
    QCOMPARE(q.value(1).toInt(), 1); // HIGH
    if (workflow)                    // 3.3: the settings on the instance
        QCOMPARE(scalar(QStringLiteral("SELECT warning_type FROM %1 WHERE id = %2")
                            .arg(schema.instanceTable())
                            .arg(q.value(3).toLongLong()))
                     .toInt(),
                 2);
    else
        QCOMPARE(q.value(2).toInt(), 2);
    QCOMPARE(run({QStringLiteral("start"), ds, nightly, QStringLiteral("--priority"),
                  QStringLiteral("URGENT")})
                 .exitCode,
             2);

    // Complement three days serially: one command (3.3: one instance) of type 5.
    const int before = scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")).toInt();
    done = run({QStringLiteral("complement"), ds, nightly, QStringLiteral("--from"),
                QStringLiteral("2026-01-01T00:00:00"), QStringLiteral("--to"),
                QStringLiteral("2026-01-03T23:59:59")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")).toInt(), before + 1);
    lastCommand(QStringLiteral("command_type, command_param"));
    QCOMPARE(q.value(0).toInt(), 5); // COMPLEMENT_DATA
    QVERIFY2(q.value(1).toString().contains(QLatin1String("2026-01-0")),
             qPrintable(q.value(1).toString()));

    // Rerun the finished instance, then the failed one from its failed tasks.
    done = run({QStringLiteral("rerun"), ds, QStringLiteral("11")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    lastCommand(QStringLiteral("command_type, %1").arg(schema.instanceIdColumn()));
    QCOMPARE(q.value(0).toInt(), 7);
    QCOMPARE(q.value(1).toLongLong(), 11);
    done =
        run({QStringLiteral("rerun"), ds, QStringLiteral("12"), QStringLiteral("--failed-only")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    lastCommand(QStringLiteral("command_type, %1").arg(schema.instanceIdColumn()));
    QCOMPARE(q.value(0).toInt(), 4);
    QCOMPARE(q.value(1).toLongLong(), 12);
    // 2.0 refuses a second act on 11 while its rerun is queued; 3.2 and 3.3 queue it.
    const int queued = scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")).toInt();
    done = run({QStringLiteral("rerun"), ds, QStringLiteral("11")});
    QCOMPARE(done.exitCode == 0, !v20);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")).toInt(),
             v20 ? queued : queued + 1);

    // The running instance can be neither paused (an RPC to its master) nor resumed; nothing
    // is written.
    const int commands = scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")).toInt();
    done = run({QStringLiteral("pause"), ds, QStringLiteral("13")});
    QVERIFY(done.exitCode != 0);
    QVERIFY2(done.err.contains(QLatin1String("RPC")), qPrintable(done.err));
    done = run({QStringLiteral("resume"), ds, QStringLiteral("13")});
    QVERIFY(done.exitCode != 0);
    QVERIFY2(done.err.contains(v20 ? QLatin1String("Cannot perform RECOVER_SUSPENDED_PROCESS")
                                   : QLatin1String("cannot recovery")),
             qPrintable(done.err));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_command")).toInt(), commands);
    QCOMPARE(
        scalar(QStringLiteral("SELECT state FROM %1 WHERE id = 13").arg(schema.instanceTable()))
            .toInt(),
        1);

    // Offline takes the schedule with it; online brings the definition back.
    const QString releaseState = QStringLiteral("SELECT release_state FROM %1 WHERE code = 200")
                                     .arg(schema.definitionTable());
    const QString scheduleState = QStringLiteral("SELECT release_state FROM t_ds_schedules");
    done = run({QStringLiteral("offline"), ds, nightly});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QCOMPARE(scalar(releaseState).toInt(), 0);
    QCOMPARE(scalar(scheduleState).toInt(), 0);
    // An offline definition is not started, in DolphinScheduler's words.
    done = run({QStringLiteral("start"), ds, nightly});
    QVERIFY(done.exitCode != 0);
    QVERIFY2(done.err.contains(QLatin1String("not online")), qPrintable(done.err));
    done = run({QStringLiteral("online"), ds, nightly});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QCOMPARE(scalar(releaseState).toInt(), 1);
    QCOMPARE(scalar(scheduleState).toInt(), 0);
    done = run({QStringLiteral("online"), ds, nightly, QStringLiteral("--schedule")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    QCOMPARE(scalar(scheduleState).toInt(), 1);
}

QTEST_GUILESS_MAIN(TestDolphinSchedulerControl)
#include "tst_dolphinschedulercontrol.moc"
