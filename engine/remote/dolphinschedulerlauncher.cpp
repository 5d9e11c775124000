#include "dolphinschedulerlauncher.h"

#include "cron/cronexpression.h"
#include "dolphinschedulercatalog.h"
#include "dolphinschedulercycle.h"
#include "dolphinschedulerjson.h"
#include "remotedatabase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTimeZone>

#include <algorithm>

namespace hg {
namespace ds = dolphinscheduler;
namespace {

QString dateText(const QDateTime &time)
{
    return time.toString(QLatin1String(ds::kDateTimeFormat));
}

// More fire times than anyone backfills by hand: a typo in a range, not a request.
constexpr qsizetype maximumDates = 100000;

} // namespace

DolphinSchedulerLauncher::DolphinSchedulerLauncher(RemoteDatabase &remote,
                                                   const DolphinSchedulerCatalog &catalog)
    : m_remote(&remote)
    , m_catalog(&catalog)
    , m_schema(catalog.schema())
{}

Result<DsWorkflow> DolphinSchedulerLauncher::startable(const QString &path,
                                                       const Options &options) const
{
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
    // 3.2's ExecutorServiceImpl.checkStartNodeList refuses a node not in the definition's
    // relations; 2.0 lets its master skip it and 3.3's master fails the run on it. Refused
    // here for every version, in 3.2's words, before anything is written.
    for (const qint64 node : options.startNodes) {
        const bool known = std::any_of(workflow->tasks.cbegin(), workflow->tasks.cend(),
                                       [node](const DsTask &task) { return task.code == node; });
        if (!known)
            return Error::invalid(tr("remote '%1': this node %2 does not exist in the latest "
                                     "process definition %3")
                                      .arg(m_remote->profile().name)
                                      .arg(node)
                                      .arg(path));
    }
    if (options.warningType < int(ds::WarningType::None)
        || options.warningType > int(ds::WarningType::All))
        return Error::invalid(tr("remote '%1': warning type %2 is not 0 (none), 1 (success), 2 "
                                 "(failure) or 3 (all)")
                                  .arg(m_remote->profile().name)
                                  .arg(options.warningType));
    if (options.priority < int(ds::Priority::Highest)
        || options.priority > int(ds::Priority::Lowest))
        return Error::invalid(tr("remote '%1': priority %2 is not 0 (highest) to 4 (lowest)")
                                  .arg(m_remote->profile().name)
                                  .arg(options.priority));
    const bool defaultTenant = options.tenantCode == QLatin1String(ds::kDefaultTenantCode);
    // 2.0.9's ExecutorController.startProcessInstance takes no tenant: the run has the
    // definition's (t_ds_process_definition.tenant_id).
    if (!defaultTenant && m_schema.layout() == DolphinSchedulerSchema::Layout::Process
        && !m_schema.hasCommandTenantCode())
        return Error::invalid(tr("remote '%1': this DolphinScheduler (before 3.2) takes the "
                                 "tenant from the workflow definition, not from the start")
                                  .arg(m_remote->profile().name));
    // 3.2.2's ExecutorServiceImpl.checkValidTenant: a tenant other than "default" must exist
    // (3.3's TriggerWorkflowDTOValidator does not look).
    if (!defaultTenant && m_schema.hasCommandTenantCode()) {
        QSqlQuery tenant(m_remote->db());
        tenant.prepare(QStringLiteral("SELECT 1 FROM t_ds_tenant WHERE tenant_code = ?"));
        tenant.addBindValue(options.tenantCode);
        if (!tenant.exec())
            return m_remote->queryError(tr("read the tenants"), tenant.lastError().text());
        if (!tenant.next())
            return Error::invalid(tr("remote '%1': tenant [%2] not exists")
                                      .arg(m_remote->profile().name, options.tenantCode));
    }
    if (options.taskDependType < 0 || options.taskDependType > 2)
        return Error::invalid(tr("remote '%1': task depend type %2 is not 0 (only the start "
                                 "nodes), 1 (and before) or 2 (and after)")
                                  .arg(m_remote->profile().name)
                                  .arg(options.taskDependType));
    return workflow;
}

Result<QList<qint64>>
DolphinSchedulerLauncher::inTransaction(const std::function<Result<QList<qint64>>()> &work) const
{
    QSqlDatabase &db = m_remote->db();
    if (!db.transaction())
        return m_remote->queryError(tr("begin a transaction"), db.lastError().text());
    const Result<QList<qint64>> done = work();
    if (!done) {
        db.rollback();
        return done;
    }
    if (!db.commit())
        return m_remote->queryError(tr("commit"), db.lastError().text());
    return done;
}

Result<qint64> DolphinSchedulerLauncher::start(const QString &path, const Options &options) const
{
    const Result<qint64> user = m_catalog->userId(options.userName);
    if (!user)
        return user.error();
    const Result<DsWorkflow> workflow = startable(path, options);
    if (!workflow)
        return workflow.error();
    Run run;
    // 2.0.9's createCommand: START_CURRENT_TASK_PROCESS when start nodes are given (and no
    // execType); 3.2 and 3.3 take START_PROCESS either way.
    run.commandType = !options.startNodes.isEmpty()
                              && m_schema.layout() == DolphinSchedulerSchema::Layout::Process
                              && !m_schema.hasStateHistory()
                          ? int(ds::CommandType::StartCurrentTaskProcess)
                          : int(ds::CommandType::StartProcess);
    run.historyCmd = QLatin1String(ds::kCommandStartProcess);
    const Result<QList<qint64>> queued = inTransaction([&]() -> Result<QList<qint64>> {
        const Result<qint64> command = queue(workflow.value(), user.value(), options, run);
        if (!command)
            return command.error();
        return QList<qint64>{command.value()};
    });
    if (!queued)
        return queued.error();
    return queued->first();
}

Result<QList<qint64>> DolphinSchedulerLauncher::complement(const QString &path,
                                                           const QDateTime &from,
                                                           const QDateTime &to, int parallel,
                                                           const Options &options) const
{
    const bool workflowLayout = m_schema.layout() == DolphinSchedulerSchema::Layout::Workflow;
    if (!from.isValid() || !to.isValid() || from > to)
        return Error::invalid(tr("remote '%1': the range of dates to complement is not valid "
                                 "(from must be at or before to)")
                                  .arg(m_remote->profile().name));
    const Result<qint64> user = m_catalog->userId(options.userName);
    if (!user)
        return user.error();
    const Result<DsWorkflow> workflow = startable(path, options);
    if (!workflow)
        return workflow.error();
    if (options.complementDependents && workflowLayout)
        return Error::invalid(
            tr("remote '%1': DolphinScheduler 3.3 takes a complement of dependent workflows but "
               "does nothing with it (its master's WorkflowBackfillTrigger leaves it to do): "
               "complement each dependent workflow by itself")
                .arg(m_remote->profile().name));
    if (options.complementDependents && !m_schema.hasStateHistory())
        return Error::invalid(tr("remote '%1': this DolphinScheduler (before 3.1) cannot "
                                 "complement dependent workflows")
                                  .arg(m_remote->profile().name));

    // The dates: the fire times of its online schedules in the range, each in its own zone;
    // with none online, every midnight. DolphinScheduler does not refuse a definition without
    // a schedule here: every version falls back to Constants.DEFAULT_CRON_STRING "0 0 0 * * ?
    // *" (2.0.9: ExecutorServiceImpl.createComplementCommandList -> CronUtils
    // .getSelfFireDateList(Date, Date, List<Schedule>); 3.2.2: createComplementCommandList ->
    // CronUtils.getSelfFireDateList(ZonedDateTime, ZonedDateTime, List<Schedule>); 3.3:
    // BackfillWorkflowRequestTransformer.parseBackfillDateList -> the same CronUtils method).
    // Only an empty expansion is refused (COMPLEMENT_PROCESS_INSTANCE_DATE_RANGE_ERROR in
    // 2.0.9, TASK_COMPLEMENT_DATA_DATE_ERROR in 3.2.2), below.
    QSqlQuery schedules(m_remote->db());
    schedules.prepare(QStringLiteral("SELECT crontab, timezone_id FROM t_ds_schedules WHERE %1 = "
                                     "? AND release_state = 1")
                          .arg(m_schema.definitionCodeColumn()));
    schedules.addBindValue(workflow->code);
    if (!schedules.exec())
        return m_remote->queryError(tr("read the schedules of %1").arg(path),
                                    schedules.lastError().text());
    QList<QPair<QString, QString>> crons;
    while (schedules.next())
        crons << qMakePair(schedules.value(0).toString(), schedules.value(1).toString());
    // Dependents come along only when it has an online schedule, by the first one's cycle.
    const QString dependentsCron =
        options.complementDependents && !crons.isEmpty() ? crons.constFirst().first : QString();
    if (crons.isEmpty())
        crons << qMakePair(QString::fromLatin1(ds::kDefaultComplementCron), QString());
    QStringList dates;
    for (const auto &[crontab, zoneId] : std::as_const(crons)) {
        const Result<CronExpression> expression =
            CronExpression::parse(crontab, CronDialect::Quartz);
        if (!expression)
            return Error::invalid(
                tr("remote '%1': the schedule of %2 (%3) does not parse: %4")
                    .arg(m_remote->profile().name, path, crontab, expression.error().message));
        QTimeZone zone(zoneId.toUtf8());
        if (!zone.isValid())
            zone = QTimeZone::systemTimeZone();
        QDateTime after = from.addMSecs(-1);
        while (dates.size() <= maximumDates) {
            const std::optional<QDateTime> fire = expression->next(after, zone);
            if (!fire || *fire > to)
                break;
            dates << dateText(fire->toTimeZone(zone));
            after = *fire;
        }
    }
    if (dates.size() > maximumDates)
        return Error::invalid(tr("remote '%1': more than %2 dates to complement; narrow the range")
                                  .arg(m_remote->profile().name)
                                  .arg(maximumDates));
    dates.removeDuplicates();
    std::sort(dates.begin(), dates.end());
    if (dates.isEmpty())
        return Error::invalid(tr("remote '%1': the range of date for complementing date is not "
                                 "valid: no fire time of %2 falls in it")
                                  .arg(m_remote->profile().name, path));

    // 2.0.9's ExecutorServiceImpl.createComplementCommandList: serially, one command for the
    // range as asked; in parallel, min(dates, parallel) commands over consecutive runs of the
    // dates (the first ones one longer when they do not divide evenly), each by its first and
    // last date. Neither writes the list of dates.
    if (!workflowLayout && !m_schema.hasStateHistory()) {
        QList<Run> runs;
        const auto rangeRun = [](const QString &first, const QString &last) {
            Run run;
            run.commandType = int(ds::CommandType::ComplementData);
            run.rangeStart = first;
            run.rangeEnd = last;
            return run;
        };
        const QTimeZone zone = crons.constFirst().second.isEmpty()
                                   ? QTimeZone::systemTimeZone()
                                   : QTimeZone(crons.constFirst().second.toUtf8());
        if (parallel <= 0) {
            runs << rangeRun(dateText(from.toTimeZone(zone.isValid() ? zone : QTimeZone::utc())),
                             dateText(to.toTimeZone(zone.isValid() ? zone : QTimeZone::utc())));
        } else {
            const qsizetype count = std::min<qsizetype>(dates.size(), parallel);
            const qsizetype each = dates.size() / count;
            const qsizetype longer = dates.size() % count;
            qsizetype first = 0;
            for (qsizetype i = 0; i < count; ++i) {
                const qsizetype size = each + (i < longer ? 1 : 0);
                runs << rangeRun(dates.at(first), dates.at(first + size - 1));
                first += size;
            }
        }
        return inTransaction([&]() -> Result<QList<qint64>> {
            QList<qint64> commands;
            for (const Run &run : std::as_const(runs)) {
                const Result<qint64> command = queue(workflow.value(), user.value(), options, run);
                if (!command)
                    return command.error();
                commands << command.value();
            }
            return commands;
        });
    }

    // Split as each version splits: 3.2 (createComplementCommandList) newest first, one command
    // serially, or the dates dealt round-robin into min(dates, parallel) commands; 3.3 oldest
    // first, one chunk serially, or consecutive chunks of min(dates, parallel) dates each.
    QList<QStringList> chunks;
    if (!workflowLayout) {
        std::reverse(dates.begin(), dates.end());
        const qsizetype lists = parallel > 0 ? std::min<qsizetype>(dates.size(), parallel) : 1;
        chunks.resize(lists);
        for (qsizetype i = 0; i < dates.size(); ++i)
            chunks[i % lists] << dates.at(i);
    } else if (parallel <= 0) {
        chunks << dates;
    } else {
        const qsizetype size = std::min<qsizetype>(dates.size(), parallel);
        for (qsizetype i = 0; i < dates.size(); i += size)
            chunks << dates.mid(i, size);
    }
    return inTransaction([&]() -> Result<QList<qint64>> {
        QList<qint64> commands;
        for (const QStringList &chunk : std::as_const(chunks)) {
            Run run;
            run.commandType = int(ds::CommandType::ComplementData);
            run.historyCmd = QLatin1String(ds::kCommandComplementData);
            run.dates = chunk;
            run.scheduleTime =
                QDateTime::fromString(chunk.first(), QLatin1String(ds::kDateTimeFormat));
            const Result<qint64> command = queue(workflow.value(), user.value(), options, run);
            if (!command)
                return command.error();
            commands << command.value();
            if (!dependentsCron.isEmpty()) {
                const Result<QList<qint64>> dependents =
                    queueDependents(workflow.value(), command.value(), dependentsCron, options);
                if (!dependents)
                    return dependents.error();
                commands += dependents.value();
            }
        }
        return commands;
    });
}

Result<QList<qint64>> DolphinSchedulerLauncher::queueDependents(const DsWorkflow &upstream,
                                                                qint64 mainCommand,
                                                                const QString &upstreamCron,
                                                                const Options &options) const
{
    QSqlDatabase &db = m_remote->db();
    const DolphinSchedulerSchema &s = m_schema;
    const auto failed = [this](const QString &what, const QSqlQuery &q) {
        return m_remote->queryError(what, q.lastError().text());
    };
    struct Dependent
    {
        qint64 definitionCode = 0;
        int definitionVersion = 0;
        qint64 taskCode = 0;
    };
    const std::optional<DolphinSchedulerCycle::Cycle> cycle =
        DolphinSchedulerCycle::ofCron(upstreamCron);
    // WorkFlowLineageMapper.queryDependentProcessDefinitionByProcessDefinitionCode: online
    // definitions with a DEPENDENT task (that has a task after it) whose parameters name the
    // code; then checkDependentProcessDefinitionValid keeps those whose dependence on it has
    // the upstream schedule's cycle.
    const auto dependentsOf = [&](qint64 code) -> Result<QList<Dependent>> {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT c.code, c.version, a.code, a.task_params FROM "
                                 "t_ds_task_definition a JOIN %1 b ON a.code = b.pre_task_code "
                                 "AND a.version = b.pre_task_version JOIN %2 c ON c.code = b.%3 "
                                 "AND c.version = b.%4 AND c.project_code = b.project_code "
                                 "WHERE a.task_params LIKE ? AND a.task_type = 'DEPENDENT' AND "
                                 "c.release_state = 1")
                      .arg(s.relationTable(), s.definitionTable(), s.definitionCodeColumn(),
                           s.definitionVersionColumn()));
        q.addBindValue(QStringLiteral("%%1%").arg(code));
        if (!q.exec())
            return failed(tr("find the workflows depending on %1").arg(upstream.path()), q);
        QList<Dependent> found;
        while (q.next()) {
            if (DolphinSchedulerCycle::ofDependence(q.value(3).toString(), code) == cycle)
                found << Dependent{q.value(0).toLongLong(), q.value(1).toInt(),
                                   q.value(2).toLongLong()};
        }
        return found;
    };
    Result<QList<Dependent>> level = dependentsOf(upstream.code);
    if (!level)
        return level.error();
    QList<Dependent> dependents = level.value();
    // All levels: DolphinScheduler loops until a level finds none, which never ends when the
    // dependencies go round; here each workflow is looked into once.
    QSet<qint64> seen{upstream.code};
    while (options.allLevels && !level->isEmpty()) {
        QList<Dependent> next;
        for (const Dependent &dependent : std::as_const(level.value())) {
            if (seen.contains(dependent.definitionCode))
                continue;
            seen.insert(dependent.definitionCode);
            const Result<QList<Dependent>> children = dependentsOf(dependent.definitionCode);
            if (!children)
                return children.error();
            next += children.value();
        }
        dependents += next;
        level = next;
    }

    QSqlQuery main(db);
    main.prepare(QStringLiteral("SELECT command_param FROM t_ds_command WHERE id = ?"));
    main.addBindValue(mainCommand);
    if (!main.exec() || !main.next())
        return failed(tr("read complement command %1").arg(mainCommand), main);
    const QJsonObject mainParam =
        QJsonDocument::fromJson(main.value(0).toString().toUtf8()).object();
    // The copy (BeanUtils.cloneBean): every column as the complement's, but the definition,
    // its worker group, the parameters and TASK_POST.
    QStringList columns;
    QStringList selected;
    const QSqlRecord record = db.record(QStringLiteral("t_ds_command"));
    for (int i = 0; i < record.count(); ++i) {
        const QString column = record.fieldName(i).toLower();
        if (column == QLatin1String("id"))
            continue;
        columns << column;
        if (column == s.definitionCodeColumn() || column == s.definitionVersionColumn()
            || column == QLatin1String("worker_group") || column == QLatin1String("command_param"))
            selected << QStringLiteral("?");
        else if (column == QLatin1String("task_depend_type"))
            selected << QString::number(int(ds::TaskDependType::TaskPost));
        else
            selected << column;
    }
    QList<qint64> commands;
    for (const Dependent &dependent : std::as_const(dependents)) {
        QJsonObject param = mainParam;
        param.insert(QLatin1String(ds::kCmdStartNodeList), QString::number(dependent.taskCode));
        // CommandServiceImpl.createCommand: the dependent's own schedule's zone, if it has one.
        QSqlQuery schedule(db);
        schedule.prepare(QStringLiteral("SELECT timezone_id, worker_group FROM t_ds_schedules "
                                        "WHERE %1 = ?")
                             .arg(s.definitionCodeColumn()));
        schedule.addBindValue(dependent.definitionCode);
        if (!schedule.exec())
            return failed(tr("read a dependent workflow's schedule"), schedule);
        const bool scheduled = schedule.next();
        if (scheduled)
            param.insert(QLatin1String(ds::kCmdScheduleTimezone), schedule.value(0).toString());
        QSqlQuery insert(db);
        insert.prepare(QStringLiteral("INSERT INTO t_ds_command (%1) SELECT %2 FROM t_ds_command "
                                      "WHERE id = ?%3")
                           .arg(columns.join(QLatin1String(", ")),
                                selected.join(QLatin1String(", ")), m_remote->returningId()));
        for (const QString &column : std::as_const(columns)) {
            if (column == s.definitionCodeColumn())
                insert.addBindValue(dependent.definitionCode);
            else if (column == s.definitionVersionColumn())
                insert.addBindValue(dependent.definitionVersion);
            // checkDependentProcessDefinitionValid sets the complement's worker group only for
            // a workflow without a schedule; one with a schedule gets none (NULL), as there.
            else if (column == QLatin1String("worker_group"))
                insert.addBindValue(scheduled ? QVariant(QMetaType::fromType<QString>())
                                              : QVariant(options.workerGroup));
            else if (column == QLatin1String("command_param"))
                insert.addBindValue(ds::compactJson(param));
        }
        insert.addBindValue(mainCommand);
        if (!insert.exec())
            return failed(tr("insert the complement of a dependent workflow"), insert);
        commands << m_remote->insertedId(insert);
    }
    return commands;
}

Result<qint64> DolphinSchedulerLauncher::queue(const DsWorkflow &workflow, qint64 userId,
                                               const Options &options, const Run &run) const
{
    QSqlDatabase &db = m_remote->db();
    const DolphinSchedulerSchema &s = m_schema;
    const bool workflowLayout = s.layout() == DolphinSchedulerSchema::Layout::Workflow;
    const auto failed = [this](const QString &what, const QSqlQuery &q) {
        return m_remote->queryError(what, q.lastError().text());
    };
    const QString returning = m_remote->returningId();
    const QString zone = workflow.schedule ? workflow.schedule->timeZone : QString();
    qint64 instanceId = 0;
    QVariant param;
    const QVariant warningGroup = options.warningGroupId ? QVariant(*options.warningGroupId)
                                                         : QVariant(QMetaType::fromType<int>());
    if (workflowLayout) {
        // 3.3's master (WorkflowManualTrigger, WorkflowBackfillTrigger): the instance first.
        const QDateTime now = QDateTime::currentDateTime();
        const QJsonArray history{ds::submittedHistoryEntry(run.historyCmd)};
        QSqlQuery instance(db);
        instance.prepare(
            QStringLiteral("INSERT INTO %1 (name, %2, %3, project_code, command_type, state, "
                           "state_history, recovery, start_time, restart_time, run_times, "
                           "task_depend_type, failure_strategy, warning_type, "
                           "warning_group_id, executor_id, executor_name, tenant_code, "
                           "is_sub_workflow, history_cmd, %4, worker_group, environment_code, "
                           "timeout, dry_run, flag, schedule_time) VALUES (?, ?, ?, ?, ?, 0, ?, "
                           "0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1, ?, ?, ?, ?, ?, ?, ?, 0, "
                           "?, ?, ?, ?, (SELECT timeout FROM %5 WHERE code = ?), ?, 1, ?)%6")
                .arg(s.instanceTable(), s.definitionCodeColumn(), s.definitionVersionColumn(),
                     s.instancePriorityColumn(), s.definitionTable(), returning));
        instance.addBindValue(
            QString(workflow.name + QLatin1Char('-')
                    + now.toString(QLatin1String(ds::kInstanceNameStampFormatQt))));
        instance.addBindValue(workflow.code);
        instance.addBindValue(workflow.version);
        instance.addBindValue(workflow.projectCode);
        instance.addBindValue(run.commandType);
        instance.addBindValue(ds::compactJson(history));
        instance.addBindValue(options.taskDependType); // the command's own stays 2 (TASK_POST)
        instance.addBindValue(options.failureStrategy);
        instance.addBindValue(options.warningType);
        instance.addBindValue(warningGroup);
        instance.addBindValue(userId);
        instance.addBindValue(options.userName);
        instance.addBindValue(options.tenantCode);
        instance.addBindValue(run.historyCmd);
        instance.addBindValue(options.priority);
        instance.addBindValue(options.workerGroup);
        instance.addBindValue(options.environmentCode);
        // WorkflowManualTrigger and WorkflowBackfillTrigger.constructWorkflowInstance (3.3):
        // the instance's timeout is the definition's.
        instance.addBindValue(workflow.code);
        instance.addBindValue(options.dryRun ? 1 : 0);
        instance.addBindValue(run.scheduleTime.isValid()
                                  ? QVariant(run.scheduleTime)
                                  : QVariant(QMetaType::fromType<QDateTime>()));
        if (!instance.exec())
            return failed(tr("insert the workflow instance"), instance);
        instanceId = m_remote->insertedId(instance);
        QJsonArray startNodes; // RunWorkflowCommandParam.startNodes: the codes, as numbers
        for (const qint64 node : options.startNodes)
            startNodes << node;
        QJsonArray commandParams;
        for (auto parameter = options.parameters.cbegin(); parameter != options.parameters.cend();
             ++parameter)
            commandParams << QJsonObject{
                {QLatin1String(ds::kPropertyProp), parameter.key()},
                {QLatin1String(ds::kPropertyDirect), QLatin1String(ds::kPropertyDirectIn)},
                {QLatin1String(ds::kPropertyType), QLatin1String(ds::kPropertyTypeVarchar)},
                {QLatin1String(ds::kPropertyValue), parameter.value()}};
        QJsonObject object{
            {QLatin1String(ds::kParamCommandType), run.historyCmd},
            {QLatin1String(ds::kParamSubWorkflowInstance), false},
            {QLatin1String(ds::kParamStartNodes), startNodes},
            {QLatin1String(ds::kParamCommandParams), commandParams},
            // The master's own zone is not in the database: the schedule's, else UTC.
            {QLatin1String(ds::kParamTimeZone), zone.isEmpty() ? QStringLiteral("UTC") : zone}};
        if (!run.dates.isEmpty())
            object.insert(QLatin1String(ds::kParamBackfillTimeList),
                          QJsonArray::fromStringList(run.dates));
        param = ds::compactJson(object);
    } else {
        // 3.2's API server: StartParams as a JSON string, the schedule's zone when it has one,
        // the complement's dates joined by commas.
        QJsonObject object;
        if (!options.parameters.isEmpty()) {
            QJsonObject startParams;
            for (auto parameter = options.parameters.cbegin();
                 parameter != options.parameters.cend(); ++parameter)
                startParams.insert(parameter.key(), parameter.value());
            object.insert(QLatin1String(ds::kCmdStartParams), ds::compactJson(startParams));
        }
        // 3.2's CommandServiceImpl.createCommand adds the zone; 2.0.9's createCommand has none.
        if (workflow.schedule && s.hasCommandTenantCode())
            object.insert(QLatin1String(ds::kCmdScheduleTimezone), zone);
        if (!options.startNodes.isEmpty()) { // "code1,code2", as the request carried it
            QStringList nodes;
            for (const qint64 node : options.startNodes)
                nodes << QString::number(node);
            object.insert(QLatin1String(ds::kCmdStartNodeList), nodes.join(QLatin1Char(',')));
        }
        if (!run.rangeStart.isEmpty()) {
            object.insert(QLatin1String(ds::kCmdComplementStartDate), run.rangeStart);
            object.insert(QLatin1String(ds::kCmdComplementEndDate), run.rangeEnd);
        }
        if (!run.dates.isEmpty())
            object.insert(QLatin1String(ds::kCmdComplementScheduleDateList),
                          run.dates.join(QLatin1Char(',')));
        param = ds::compactJson(object);
    }
    const bool hasTestFlag = s.hasTestFlag();
    // 2.0.9's and 3.2's ExecutorServiceImpl.createCommand put the run's settings on the
    // command; 3.3's triggers put them on the instance and leave the command's at the column
    // defaults, but for the priority, copied from the instance.
    const bool tenant = s.hasCommandTenantCode();
    QSqlQuery command(db);
    command.prepare(
        QStringLiteral("INSERT INTO t_ds_command (command_type, %1, %2, %3, command_param, "
                       "executor_id, failure_strategy, warning_type, warning_group_id, "
                       "task_depend_type, %4, worker_group%5, environment_code, dry_run, "
                       "start_time, update_time%6) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?%7, "
                       "?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP%8)%9")
            .arg(s.definitionCodeColumn(), s.definitionVersionColumn(), s.instanceIdColumn(),
                 s.instancePriorityColumn(), tenant ? QStringLiteral(", tenant_code") : QString(),
                 hasTestFlag ? QStringLiteral(", test_flag") : QString(),
                 tenant ? QStringLiteral(", ?") : QString(),
                 hasTestFlag ? QStringLiteral(", 0") : QString(), returning));
    command.addBindValue(run.commandType);
    command.addBindValue(workflow.code);
    command.addBindValue(workflow.version);
    command.addBindValue(instanceId);
    command.addBindValue(param);
    command.addBindValue(userId);
    command.addBindValue(options.failureStrategy);
    command.addBindValue(workflowLayout ? int(ds::WarningType::None) : options.warningType);
    command.addBindValue(workflowLayout ? QVariant(QMetaType::fromType<int>()) : warningGroup);
    // 2.0-3.2: the request's depend type; 3.3's master leaves its command's at TASK_POST and
    // keeps the request's on the instance.
    command.addBindValue(workflowLayout ? 2 : options.taskDependType);
    command.addBindValue(options.priority);
    command.addBindValue(options.workerGroup);
    if (tenant)
        command.addBindValue(workflowLayout ? QString::fromLatin1(ds::kDefaultTenantCode)
                                            : options.tenantCode);
    command.addBindValue(workflowLayout ? ds::kDefaultEnvironmentCode : options.environmentCode);
    command.addBindValue(options.dryRun ? 1 : 0);
    if (!command.exec())
        return failed(tr("insert the command"), command);
    const qint64 commandId = m_remote->insertedId(command);
    // 2.0.9's and 3.2's execProcessInstance then set the definition's warning group to the
    // request's; 3.3 does not. Without a group nothing is written: 3.2's is an Integer that
    // MyBatis-Plus updateById skips when null, while 2.0.9's is a primitive int its web UI
    // always sends (Hourglass does not guess one).
    if (options.warningGroupId && !workflowLayout) {
        QSqlQuery group(db);
        group.prepare(QStringLiteral("UPDATE %1 SET warning_group_id = ? WHERE code = ?")
                          .arg(s.definitionTable()));
        group.addBindValue(*options.warningGroupId);
        group.addBindValue(workflow.code);
        if (!group.exec())
            return failed(tr("set the workflow's warning group"), group);
    }
    // 3.2 records what made each command (ApiTriggerType COMMAND) under a code of its own.
    if (s.hasTriggerRelation()) {
        QSqlQuery trigger(db);
        trigger.prepare(QStringLiteral("INSERT INTO t_ds_trigger_relation (trigger_type, "
                                       "trigger_code, job_id, create_time, update_time) VALUES "
                                       "(?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"));
        trigger.addBindValue(int(ds::ApiTriggerType::Command));
        // A 64-bit code like DolphinScheduler's: the time in ms, then 20 random bits.
        trigger.addBindValue((QDateTime::currentMSecsSinceEpoch() << 20)
                             | qint64(QRandomGenerator::global()->bounded(1 << 20)));
        trigger.addBindValue(commandId);
        if (!trigger.exec())
            return failed(tr("record what started it"), trigger);
    }
    return commandId;
}

} // namespace hg
