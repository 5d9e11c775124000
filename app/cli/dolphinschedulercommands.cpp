#include "clicontext.h"
#include "remote/connectionsecrets.h"
#include "remote/dolphinschedulercatalog.h"
#include "remote/dolphinschedulercontrol.h"
#include "remote/dolphinschedulerfires.h"
#include "remote/dolphinschedulerlauncher.h"
#include "remote/dolphinschedulerorder.h"
#include "remote/remotedatabase.h"
#include "store/connectionprofilerepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include <optional>

namespace hg {
namespace {

// A CONDITIONS task's branch, as `remote show` names it.
QString branchName(DsRelation::Branch branch)
{
    switch (branch) {
    case DsRelation::Branch::OnSuccess:
        return QStringLiteral("holds");
    case DsRelation::Branch::OnFailure:
        return QStringLiteral("fails");
    case DsRelation::Branch::Always:
        break;
    }
    return QStringLiteral("always");
}

// A DolphinScheduler remote opened for one command.
struct OpenDolphinScheduler
{
    std::unique_ptr<RemoteDatabase> database;
    std::optional<DolphinSchedulerCatalog> catalog;
};

Result<std::unique_ptr<OpenDolphinScheduler>> openRemote(CliContext &context,
                                                         const ConnectionProfile &profile)
{
    const Result<QString> password = ConnectionSecrets().lookup(profile);
    if (!password)
        return password.error();
    auto open = std::make_unique<OpenDolphinScheduler>();
    Result<std::unique_ptr<RemoteDatabase>> database =
        RemoteDatabase::open(profile, password.value());
    if (!database)
        return database.error();
    open->database = std::move(database.value());
    Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*open->database);
    if (!catalog)
        return catalog.error();
    open->catalog.emplace(catalog.value());
    if (!catalog->info().warning.isEmpty())
        context.err() << "warning: " << catalog->info().warning << '\n';
    return open;
}

QString stateText(bool online)
{
    return online ? QStringLiteral("online") : QStringLiteral("offline");
}

// The Quartz cron through our quartz dialect, in the schedule's zone (else the server's):
// the next fire times inside its window and what it means.
QJsonObject scheduleJson(const DsSchedule &schedule, const QString &serverZone, int count)
{
    const DolphinSchedulerFires fires(schedule, serverZone);
    QJsonObject object{{QStringLiteral("crontab"), schedule.crontab},
                       {QStringLiteral("timeZone"), QString::fromUtf8(fires.zone().id())},
                       {QStringLiteral("start"), schedule.start.toString(Qt::ISODate)},
                       {QStringLiteral("end"), schedule.end.toString(Qt::ISODate)},
                       {QStringLiteral("state"), stateText(schedule.online)},
                       {QStringLiteral("failureStrategy"), schedule.failureStrategy == 1
                                                               ? QStringLiteral("continue")
                                                               : QStringLiteral("end")},
                       {QStringLiteral("warningType"), schedule.warningType},
                       {QStringLiteral("priority"), schedule.priority},
                       {QStringLiteral("workerGroup"), schedule.workerGroup}};
    if (!fires.error().isEmpty()) {
        object.insert(QStringLiteral("error"), fires.error());
        return object;
    }
    object.insert(QStringLiteral("meaning"), fires.meaning());
    QJsonArray next;
    for (const QDateTime &fire : fires.next(QDateTime::currentDateTimeUtc(), count))
        next << fire.toString(Qt::ISODateWithMs);
    object.insert(QStringLiteral("next"), next);
    return object;
}

QJsonObject workflowJson(const DsWorkflow &workflow, const QString &serverZone, int fireCount)
{
    QJsonObject object{{QStringLiteral("project"), workflow.projectName},
                       {QStringLiteral("name"), workflow.name},
                       {QStringLiteral("code"), QString::number(workflow.code)},
                       {QStringLiteral("version"), workflow.version},
                       {QStringLiteral("state"), stateText(workflow.online)},
                       {QStringLiteral("description"), workflow.description}};
    if (workflow.schedule)
        object.insert(QStringLiteral("schedule"),
                      scheduleJson(*workflow.schedule, serverZone, fireCount));
    if (workflow.tasks.isEmpty())
        return object;
    QJsonArray tasks;
    for (const DsTask &task : workflow.tasks)
        tasks << QJsonObject{{QStringLiteral("code"), QString::number(task.code)},
                             {QStringLiteral("version"), task.version},
                             {QStringLiteral("name"), task.name},
                             {QStringLiteral("type"), task.type},
                             {QStringLiteral("retries"), task.retries},
                             {QStringLiteral("retryIntervalMinutes"), task.retryIntervalMinutes},
                             {QStringLiteral("timeoutMinutes"), task.timeoutMinutes},
                             {QStringLiteral("priority"), task.priority},
                             {QStringLiteral("workerGroup"), task.workerGroup}};
    object.insert(QStringLiteral("tasks"), tasks);
    QJsonArray edges;
    for (const DsRelation &relation : workflow.relations) {
        if (relation.preTaskCode != 0)
            edges << QJsonObject{{QStringLiteral("from"), QString::number(relation.preTaskCode)},
                                 {QStringLiteral("to"), QString::number(relation.postTaskCode)},
                                 {QStringLiteral("conditionType"), relation.conditionType},
                                 {QStringLiteral("branch"), branchName(relation.branch)}};
    }
    object.insert(QStringLiteral("edges"), edges);
    return object;
}

int listWorkflows(CliContext &context, const ConnectionProfile &profile)
{
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const DolphinSchedulerCatalog &catalog = *remote.value()->catalog;
    const Result<QList<DsWorkflow>> workflows = catalog.workflows();
    if (!workflows)
        return context.fail(workflows.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const DsWorkflow &workflow : workflows.value()) {
        const QJsonObject object =
            workflowJson(workflow, catalog.info().timeZone, context.json() ? 5 : 1);
        array << object;
        const QJsonObject schedule = object.value(QStringLiteral("schedule")).toObject();
        rows << QStringList{workflow.path(), stateText(workflow.online),
                            workflow.schedule ? workflow.schedule->crontab : QString(),
                            workflow.schedule ? stateText(workflow.schedule->online) : QString(),
                            schedule.value(QStringLiteral("next")).toArray().at(0).toString()};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("WORKFLOW"), QStringLiteral("STATE"),
                            QStringLiteral("SCHEDULE"), QStringLiteral("SCHEDULE_STATE"),
                            QStringLiteral("NEXT")},
                           rows);
    return ExitOk;
}

int showWorkflow(CliContext &context, const ConnectionProfile &profile, const QString &path)
{
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const DolphinSchedulerCatalog &catalog = *remote.value()->catalog;
    const Result<DsWorkflow> workflow = catalog.workflow(path);
    if (!workflow)
        return context.fail(workflow.error());
    const QJsonObject object = workflowJson(workflow.value(), catalog.info().timeZone, 5);
    if (context.json()) {
        context.printJson(object);
        return ExitOk;
    }
    QTextStream &out = context.out();
    out << "workflow " << workflow->path() << " (code " << workflow->code << ", version "
        << workflow->version << "), " << stateText(workflow->online) << '\n';
    if (workflow->schedule) {
        const QJsonObject schedule = object.value(QStringLiteral("schedule")).toObject();
        out << "  schedule: " << workflow->schedule->crontab << " ("
            << schedule.value(QStringLiteral("timeZone")).toString() << "), "
            << stateText(workflow->schedule->online);
        if (schedule.contains(QStringLiteral("meaning")))
            out << " — " << schedule.value(QStringLiteral("meaning")).toString();
        if (schedule.contains(QStringLiteral("error")))
            out << " — " << schedule.value(QStringLiteral("error")).toString();
        out << "\n  window: " << schedule.value(QStringLiteral("start")).toString() << " to "
            << schedule.value(QStringLiteral("end")).toString() << ", failure strategy: "
            << schedule.value(QStringLiteral("failureStrategy")).toString() << '\n';
        const QJsonArray next = schedule.value(QStringLiteral("next")).toArray();
        for (const auto &fire : next)
            out << "  next: " << fire.toString() << '\n';
    }
    QHash<qint64, QString> names;
    for (const DsTask &task : workflow->tasks) {
        names.insert(task.code, task.name);
        out << "  task " << task.name << ": " << task.type << ", retries " << task.retries
            << " every " << task.retryIntervalMinutes << " min"
            << (task.timeoutMinutes > 0
                    ? QStringLiteral(", timeout %1 min").arg(task.timeoutMinutes)
                    : QString())
            << (task.workerGroup.isEmpty() ? QString()
                                           : QStringLiteral(", worker group ") + task.workerGroup)
            << '\n';
    }
    for (const DsRelation &relation : workflow->relations) {
        if (relation.preTaskCode != 0)
            out << "  " << names.value(relation.preTaskCode) << " -> "
                << names.value(relation.postTaskCode)
                << (relation.branch == DsRelation::Branch::Always
                        ? QString()
                        : QStringLiteral(" (when the condition ") + branchName(relation.branch)
                              + QLatin1Char(')'))
                << '\n';
    }
    out.flush();
    return ExitOk;
}

QString durationText(const QDateTime &start, const QDateTime &end)
{
    if (!start.isValid() || !end.isValid())
        return {};
    return QStringLiteral("%1 s").arg(start.secsTo(end));
}

QJsonObject taskInstanceJson(const DsTaskInstance &task)
{
    return {{QStringLiteral("id"), task.id},
            {QStringLiteral("instance"), task.instanceId},
            {QStringLiteral("name"), task.name},
            {QStringLiteral("type"), task.type},
            {QStringLiteral("state"), DolphinSchedulerCatalog::taskStateName(task.state)},
            {QStringLiteral("host"), task.host},
            {QStringLiteral("submitted"), CliContext::isoText(task.submitted)},
            {QStringLiteral("start"), CliContext::isoText(task.start)},
            {QStringLiteral("end"), CliContext::isoText(task.end)},
            {QStringLiteral("retryTimes"), task.retryTimes},
            {QStringLiteral("maxRetryTimes"), task.maxRetryTimes},
            {QStringLiteral("logPath"), task.logPath}};
}

// --sort COLUMN[:asc|desc]: without a direction, the column's first (as a header click's).
Result<DsSort> parseSort(const QString &text)
{
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const QString name = colon < 0 ? text : text.left(colon);
    const QString direction = colon < 0 ? QString() : text.mid(colon + 1).toLower();
    const std::optional<DsSortColumn> column = DolphinSchedulerOrder::columnNamed(name);
    if (!column)
        return Error::invalid(
            QStringLiteral("--sort: '%1' is no column; the columns are %2")
                .arg(name, DolphinSchedulerOrder::columnNames().join(QLatin1String(", "))));
    if (!direction.isEmpty() && direction != QLatin1String("asc")
        && direction != QLatin1String("desc"))
        return Error::invalid(
            QStringLiteral("--sort: '%1' is no direction: asc or desc").arg(direction));
    DsSort sort;
    sort.column = *column;
    sort.descending = direction.isEmpty() ? DolphinSchedulerOrder::descendingFirst(*column)
                                          : direction == QLatin1String("desc");
    return sort;
}

// remote runs --tasks: task instances of every workflow instance, newest first or sorted.
int listTaskInstances(CliContext &context, const DolphinSchedulerCatalog &catalog,
                      const DsTaskInstanceFilter &filter)
{
    const Result<QList<DsTaskInstance>> tasks = catalog.taskInstances(filter);
    if (!tasks)
        return context.fail(tasks.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const DsTaskInstance &task : tasks.value()) {
        array << taskInstanceJson(task);
        rows << QStringList{QString::number(task.id),
                            QString::number(task.instanceId),
                            task.name,
                            DolphinSchedulerCatalog::taskStateName(task.state),
                            CliContext::isoText(task.start),
                            durationText(task.start, task.end),
                            task.host,
                            QStringLiteral("%1/%2").arg(task.retryTimes).arg(task.maxRetryTimes)};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("INSTANCE"),
                            QStringLiteral("TASK"), QStringLiteral("STATE"),
                            QStringLiteral("STARTED"), QStringLiteral("DURATION"),
                            QStringLiteral("HOST"), QStringLiteral("RETRIES")},
                           rows);
    return ExitOk;
}

int listInstances(CliContext &context, const ConnectionProfile &profile, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption since(QStringLiteral("since"),
                                   QStringLiteral("Only instances started at or after this time."),
                                   QStringLiteral("ISO8601"));
    const QCommandLineOption failed(QStringLiteral("failed"),
                                    QStringLiteral("Only instances that failed."));
    const QCommandLineOption limit(QStringLiteral("limit"),
                                   QStringLiteral("At most N instances (default 50)."),
                                   QStringLiteral("N"));
    const QCommandLineOption before(
        QStringLiteral("before"),
        QStringLiteral("The next page: the instances listed after this id (older, by default)."),
        QStringLiteral("ID"));
    const QCommandLineOption sort(
        QStringLiteral("sort"),
        QStringLiteral("Order by COLUMN (%1), descending or ascending; NULLs last, ties by id.")
            .arg(DolphinSchedulerOrder::columnNames().join(QLatin1String(", "))),
        QStringLiteral("COLUMN[:asc|desc]"));
    const QCommandLineOption tasks(QStringLiteral("tasks"),
                                   QStringLiteral("Task instances, of every workflow instance, "
                                                  "rather than workflow instances."));
    const QCommandLineOption host(QStringLiteral("host"),
                                  QStringLiteral("With --tasks: only those run on this worker."),
                                  QStringLiteral("HOST"));
    const QCommandLineOption taskName(QStringLiteral("task"),
                                      QStringLiteral("With --tasks: only this task's."),
                                      QStringLiteral("NAME"));
    for (const QCommandLineOption &option :
         {since, failed, limit, before, sort, tasks, host, taskName})
        parser.addOption(option);
    if (!context.parse(
            parser, args,
            QStringLiteral("remote runs NAME [PROJECT/WORKFLOW] [--since ISO8601] "
                           "[--failed] [--limit N] [--sort COLUMN[:asc|desc]] [--before ID] "
                           "[--tasks [--host HOST] [--task NAME]] [--json]"),
            true)
        || !context.expectPositionals(
            parser, {QStringLiteral("NAME"), QStringLiteral("PROJECT/WORKFLOW")}, 1))
        return context.exitCode();
    DsInstanceFilter filter;
    filter.workflowPath = parser.positionalArguments().value(1);
    filter.failedOnly = parser.isSet(failed);
    if (!context.intOption(parser, limit, filter.limit, 1))
        return context.exitCode();
    int beforeId = 0;
    if (!context.intOption(parser, before, beforeId, 1))
        return context.exitCode();
    if (parser.isSet(sort)) {
        const Result<DsSort> order = parseSort(parser.value(sort));
        if (!order)
            return context.usage(order.error().message);
        filter.sort = order.value();
    }
    if (parser.isSet(since)) {
        filter.since = QDateTime::fromString(parser.value(since), Qt::ISODate);
        if (!filter.since.isValid())
            return context.usage(
                QStringLiteral("--since: '%1' is not an ISO 8601 time").arg(parser.value(since)));
    }
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const DolphinSchedulerCatalog &catalog = *remote.value()->catalog;
    if (parser.isSet(tasks)) {
        DsTaskInstanceFilter taskFilter;
        taskFilter.workflowPath = filter.workflowPath;
        taskFilter.since = filter.since;
        taskFilter.failedOnly = filter.failedOnly;
        taskFilter.limit = filter.limit;
        taskFilter.sort = filter.sort;
        if (beforeId > 0) {
            const Result<DsKeyset> after = catalog.taskInstanceKeyset(beforeId, filter.sort);
            if (!after)
                return context.fail(after.error());
            taskFilter.after = after.value();
        }
        taskFilter.host = parser.value(host);
        taskFilter.taskName = parser.value(taskName);
        return listTaskInstances(context, catalog, taskFilter);
    }
    if (beforeId > 0) {
        const Result<DsKeyset> after = catalog.instanceKeyset(beforeId, filter.sort);
        if (!after)
            return context.fail(after.error());
        filter.after = after.value();
    }
    const Result<QList<DsInstance>> instances = catalog.instances(filter);
    if (!instances)
        return context.fail(instances.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const DsInstance &instance : instances.value()) {
        const QString state = catalog.workflowStateName(instance.state);
        array << QJsonObject{
            {QStringLiteral("id"), instance.id},
            {QStringLiteral("name"), instance.name},
            {QStringLiteral("workflow"), instance.workflowPath},
            {QStringLiteral("version"), instance.definitionVersion},
            {QStringLiteral("state"), state},
            {QStringLiteral("stateCode"), instance.state},
            {QStringLiteral("commandType"), instance.commandType},
            {QStringLiteral("host"), instance.host},
            {QStringLiteral("start"), CliContext::isoText(instance.start)},
            {QStringLiteral("end"), CliContext::isoText(instance.end)},
            {QStringLiteral("scheduleTime"), CliContext::isoText(instance.scheduleTime)},
            {QStringLiteral("runTimes"), instance.runTimes}};
        rows << QStringList{QString::number(instance.id),
                            instance.workflowPath,
                            state,
                            CliContext::isoText(instance.start),
                            durationText(instance.start, instance.end),
                            instance.host,
                            QString::number(instance.runTimes)};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("WORKFLOW"),
                            QStringLiteral("STATE"), QStringLiteral("STARTED"),
                            QStringLiteral("DURATION"), QStringLiteral("HOST"),
                            QStringLiteral("RUNS")},
                           rows);
    return ExitOk;
}

int showInstance(CliContext &context, const ConnectionProfile &profile, const QStringList &args)
{
    QCommandLineParser parser;
    if (!context.parse(parser, args, QStringLiteral("remote instance NAME ID [--json]"), true)
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("ID")}))
        return context.exitCode();
    bool ok = false;
    const qint64 id = parser.positionalArguments().at(1).toLongLong(&ok);
    if (!ok || id <= 0)
        return context.usage(QStringLiteral("'%1' is not a workflow instance id")
                                 .arg(parser.positionalArguments().at(1)));
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const DolphinSchedulerCatalog &catalog = *remote.value()->catalog;
    const Result<DsInstance> instance = catalog.instance(id);
    if (!instance)
        return context.fail(instance.error());
    const Result<QList<DsTaskInstance>> tasks = catalog.taskInstances(id);
    if (!tasks)
        return context.fail(tasks.error());
    QJsonArray taskArray;
    for (const DsTaskInstance &task : tasks.value())
        taskArray << taskInstanceJson(task);
    if (context.json()) {
        context.printJson(
            QJsonObject{{QStringLiteral("id"), instance->id},
                        {QStringLiteral("name"), instance->name},
                        {QStringLiteral("workflow"), instance->workflowPath},
                        {QStringLiteral("state"), catalog.workflowStateName(instance->state)},
                        {QStringLiteral("host"), instance->host},
                        {QStringLiteral("start"), CliContext::isoText(instance->start)},
                        {QStringLiteral("end"), CliContext::isoText(instance->end)},
                        {QStringLiteral("tasks"), taskArray}});
        return ExitOk;
    }
    QTextStream &out = context.out();
    out << "instance " << instance->id << " of " << instance->workflowPath << ": "
        << catalog.workflowStateName(instance->state) << ", on " << instance->host << ", "
        << CliContext::isoText(instance->start) << " to " << CliContext::isoText(instance->end)
        << '\n';
    for (const DsTaskInstance &task : tasks.value())
        out << "  " << task.name << " (" << task.type << "): " << catalog.taskStateName(task.state)
            << ", " << durationText(task.start, task.end) << ", retries " << task.retryTimes
            << " of " << task.maxRetryTimes << ", on " << task.host << '\n';
    // DolphinScheduler keeps task logs on its workers' disks, not in its database.
    out << "  task logs are on the workers' disks (log_path on each host), not in the database\n";
    out.flush();
    return ExitOk;
}

// remote rerun|resume: a command for DolphinScheduler's master, written as DolphinScheduler
// writes it (DolphinSchedulerControl).
int actOnInstance(CliContext &context, const ConnectionProfile &profile, const QString &verb,
                  const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption failedTasks(QStringLiteral("failed-only"),
                                         QStringLiteral("Rerun from the failed tasks only."));
    const QCommandLineOption as(QStringLiteral("as"),
                                QStringLiteral("The DolphinScheduler user it runs as (default "
                                               "admin)."),
                                QStringLiteral("USER"), QStringLiteral("admin"));
    const bool rerun = verb == QLatin1String("rerun");
    if (rerun)
        parser.addOption(failedTasks);
    parser.addOption(as);
    if (!context.parse(parser, args,
                       rerun ? QStringLiteral("remote rerun NAME ID [--failed-only] [--as USER]")
                             : QStringLiteral("remote resume NAME ID [--as USER]"))
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("ID")}))
        return context.exitCode();
    bool ok = false;
    const qint64 id = parser.positionalArguments().at(1).toLongLong(&ok);
    if (!ok || id <= 0)
        return context.usage(QStringLiteral("'%1' is not a workflow instance id")
                                 .arg(parser.positionalArguments().at(1)));
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const DolphinSchedulerControl::Action action =
        !rerun                      ? DolphinSchedulerControl::Action::Resume
        : parser.isSet(failedTasks) ? DolphinSchedulerControl::Action::RerunFailedTasks
                                    : DolphinSchedulerControl::Action::Rerun;
    const Result<qint64> command =
        DolphinSchedulerControl(*remote.value()->database, *remote.value()->catalog)
            .act(id, action, parser.value(as));
    if (!command)
        return context.fail(command.error());
    context.out() << "workflow instance " << id << ": command " << command.value()
                  << " queued for DolphinScheduler's master\n";
    return ExitOk;
}

// remote stop|pause NAME INSTANCE.
int stopOrPause(CliContext &context, const ConnectionProfile &profile, bool stop,
                const QStringList &args)
{
    QCommandLineParser parser;
    if (!context.parse(parser, args,
                       QStringLiteral("remote %1 NAME INSTANCE")
                           .arg(stop ? QStringLiteral("stop") : QStringLiteral("pause")))
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("INSTANCE")}))
        return context.exitCode();
    bool ok = false;
    const qint64 id = parser.positionalArguments().at(1).toLongLong(&ok);
    if (!ok || id <= 0)
        return context.usage(QStringLiteral("'%1' is not a workflow instance id")
                                 .arg(parser.positionalArguments().at(1)));
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    if (const Status done =
            DolphinSchedulerControl(*remote.value()->database, *remote.value()->catalog)
                .stopOrPause(id, stop);
        !done)
        return context.fail(done.error());
    context.out() << "workflow instance " << id << (stop ? " stopped" : " paused") << '\n';
    return ExitOk;
}

// remote start|complement: an online definition started, or backfilled over a range, as
// DolphinScheduler does it (DolphinSchedulerLauncher).
int launch(CliContext &context, const ConnectionProfile &profile, bool complement,
           const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption param(QStringLiteral("param"),
                                   QStringLiteral("A start parameter of the run (repeatable)."),
                                   QStringLiteral("K=V"));
    const QCommandLineOption as(QStringLiteral("as"),
                                QStringLiteral("The DolphinScheduler user it runs as (default "
                                               "admin)."),
                                QStringLiteral("USER"), QStringLiteral("admin"));
    const QCommandLineOption workerGroup(QStringLiteral("worker-group"),
                                         QStringLiteral("The worker group (default: default)."),
                                         QStringLiteral("GROUP"), QStringLiteral("default"));
    const QCommandLineOption failure(QStringLiteral("failure-strategy"),
                                     QStringLiteral("When a task fails: end the run or continue "
                                                    "with the rest (default continue)."),
                                     QStringLiteral("end|continue"), QStringLiteral("continue"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("DolphinScheduler's dry run: the tasks are "
                                                   "not executed."));
    const QCommandLineOption from(QStringLiteral("from"),
                                  QStringLiteral("The first fire time to complement."),
                                  QStringLiteral("ISO8601"));
    const QCommandLineOption to(QStringLiteral("to"),
                                QStringLiteral("The last fire time to complement."),
                                QStringLiteral("ISO8601"));
    const QCommandLineOption parallel(QStringLiteral("parallel"),
                                      QStringLiteral("Complement N at a time (default: one after "
                                                     "another)."),
                                      QStringLiteral("N"));
    const QCommandLineOption startNode(
        QStringLiteral("start-node"),
        QStringLiteral("Start from this task (name or code; repeatable), not the DAG's roots."),
        QStringLiteral("TASK"));
    const QCommandLineOption dependType(
        QStringLiteral("depend-type"),
        QStringLiteral("With --start-node: run only those tasks, those and what they need "
                       "before, or those and what follows (default post)."),
        QStringLiteral("only|pre|post"), QStringLiteral("post"));
    // The run's settings, by DolphinScheduler's own enum names (WarningType, Priority); the
    // defaults are its API's.
    const QCommandLineOption warningType(
        QStringLiteral("warning-type"),
        QStringLiteral("When DolphinScheduler sends an alert (default NONE)."),
        QStringLiteral("NONE|SUCCESS|FAILURE|ALL"), QStringLiteral("NONE"));
    const QCommandLineOption warningGroup(
        QStringLiteral("warning-group"),
        QStringLiteral("The alert group it alerts (t_ds_alertgroup id; default none)."),
        QStringLiteral("ID"));
    const QCommandLineOption priority(
        QStringLiteral("priority"), QStringLiteral("The run's priority (default MEDIUM)."),
        QStringLiteral("HIGHEST|HIGH|MEDIUM|LOW|LOWEST"), QStringLiteral("MEDIUM"));
    const QCommandLineOption environment(
        QStringLiteral("environment"),
        QStringLiteral("The environment's code (t_ds_environment; default none, -1)."),
        QStringLiteral("CODE"), QStringLiteral("-1"));
    const QCommandLineOption tenant(
        QStringLiteral("tenant"),
        QStringLiteral("The tenant it runs as, 3.2 and later (default: default)."),
        QStringLiteral("CODE"), QStringLiteral("default"));
    for (const QCommandLineOption &option :
         {param, as, workerGroup, failure, dryRun, startNode, dependType, warningType, warningGroup,
          priority, environment, tenant})
        parser.addOption(option);
    const QCommandLineOption dependents(
        QStringLiteral("dependents"),
        QStringLiteral("Complement the online workflows waiting on this one (a DEPENDENT task "
                       "with the schedule's cycle) too."));
    const QCommandLineOption allLevels(
        QStringLiteral("all-levels"),
        QStringLiteral("With --dependents: and the workflows waiting on those, at every level."));
    if (complement) {
        for (const QCommandLineOption &option : {from, to, parallel, dependents, allLevels})
            parser.addOption(option);
    }
    const QString options = QStringLiteral("[--param K=V]... [--as USER] [--worker-group G] "
                                           "[--failure-strategy end|continue] [--dry-run] "
                                           "[--start-node TASK]... [--depend-type only|pre|post] "
                                           "[--warning-type NONE|SUCCESS|FAILURE|ALL] "
                                           "[--warning-group ID] "
                                           "[--priority HIGHEST|HIGH|MEDIUM|LOW|LOWEST] "
                                           "[--environment CODE] [--tenant CODE]");
    if (!context.parse(parser, args,
                       complement ? QStringLiteral("remote complement NAME PROJECT/WORKFLOW --from "
                                                   "ISO8601 --to ISO8601 [--parallel N] "
                                                   "[--dependents [--all-levels]] ")
                                        + options
                                  : QStringLiteral("remote start NAME PROJECT/WORKFLOW ") + options)
        || !context.expectPositionals(parser,
                                      {QStringLiteral("NAME"), QStringLiteral("PROJECT/WORKFLOW")}))
        return context.exitCode();
    DolphinSchedulerLauncher::Options launch;
    launch.userName = parser.value(as);
    launch.workerGroup = parser.value(workerGroup);
    launch.dryRun = parser.isSet(dryRun);
    const QString strategy = parser.value(failure);
    if (strategy != QLatin1String("end") && strategy != QLatin1String("continue"))
        return context.usage(
            QStringLiteral("--failure-strategy: '%1' is not end or continue").arg(strategy));
    launch.failureStrategy = strategy == QLatin1String("end") ? 0 : 1;
    const QStringList warningTypes{QStringLiteral("NONE"), QStringLiteral("SUCCESS"),
                                   QStringLiteral("FAILURE"), QStringLiteral("ALL")};
    launch.warningType = int(warningTypes.indexOf(parser.value(warningType).toUpper()));
    if (launch.warningType < 0)
        return context.usage(QStringLiteral("--warning-type: '%1' is not NONE, SUCCESS, FAILURE "
                                            "or ALL")
                                 .arg(parser.value(warningType)));
    if (parser.isSet(warningGroup)) {
        int group = 0;
        if (!context.intOption(parser, warningGroup, group, 1))
            return context.exitCode();
        launch.warningGroupId = group;
    }
    const QStringList priorities{QStringLiteral("HIGHEST"), QStringLiteral("HIGH"),
                                 QStringLiteral("MEDIUM"), QStringLiteral("LOW"),
                                 QStringLiteral("LOWEST")};
    launch.priority = int(priorities.indexOf(parser.value(priority).toUpper()));
    if (launch.priority < 0)
        return context.usage(QStringLiteral("--priority: '%1' is not HIGHEST, HIGH, MEDIUM, LOW "
                                            "or LOWEST")
                                 .arg(parser.value(priority)));
    bool numeric = false;
    launch.environmentCode = parser.value(environment).toLongLong(&numeric);
    if (!numeric)
        return context.usage(QStringLiteral("--environment: '%1' is not an environment code")
                                 .arg(parser.value(environment)));
    launch.tenantCode = parser.value(tenant);
    const QStringList params = parser.values(param);
    for (const QString &pair : params) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return context.usage(QStringLiteral("--param: '%1' is not K=V").arg(pair));
        launch.parameters.insert(pair.left(equals), pair.mid(equals + 1));
    }
    QDateTime first;
    QDateTime last;
    int atOnce = 0;
    if (complement) {
        first = QDateTime::fromString(parser.value(from), Qt::ISODate);
        last = QDateTime::fromString(parser.value(to), Qt::ISODate);
        if (!first.isValid() || !last.isValid())
            return context.usage(
                QStringLiteral("remote complement needs --from and --to as ISO 8601 times"));
        if (!context.intOption(parser, parallel, atOnce, 1))
            return context.exitCode();
        launch.complementDependents = parser.isSet(dependents);
        launch.allLevels = parser.isSet(allLevels);
    }
    static const QStringList dependTypes{QStringLiteral("only"), QStringLiteral("pre"),
                                         QStringLiteral("post")};
    launch.taskDependType = int(dependTypes.indexOf(parser.value(dependType)));
    if (launch.taskDependType < 0)
        return context.usage(QStringLiteral("--depend-type: '%1' is not only, pre or post")
                                 .arg(parser.value(dependType)));
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const QString path = parser.positionalArguments().at(1);
    if (parser.isSet(startNode)) {
        // Tasks by name (as the DAG shows them) or by code.
        const Result<DsWorkflow> workflow = remote.value()->catalog->workflow(path);
        if (!workflow)
            return context.fail(workflow.error());
        const QStringList nodes = parser.values(startNode);
        for (const QString &node : nodes) {
            const auto task = std::find_if(
                workflow->tasks.cbegin(), workflow->tasks.cend(), [&node](const DsTask &t) {
                    return t.name == node || QString::number(t.code) == node;
                });
            if (task == workflow->tasks.cend())
                return context.usage(
                    QStringLiteral("--start-node: workflow %1 has no task '%2'").arg(path, node));
            launch.startNodes << task->code;
        }
    }
    const DolphinSchedulerLauncher launcher(*remote.value()->database, *remote.value()->catalog);
    const Result<QList<qint64>> commands =
        complement ? launcher.complement(path, first, last, atOnce, launch)
                   : [&]() -> Result<QList<qint64>> {
        const Result<qint64> command = launcher.start(path, launch);
        if (!command)
            return command.error();
        return QList<qint64>{command.value()};
    }();
    if (!commands)
        return context.fail(commands.error());
    QStringList ids;
    for (const qint64 id : commands.value())
        ids << QString::number(id);
    context.out() << "workflow " << path << ": " << (ids.size() == 1 ? "command " : "commands ")
                  << ids.join(QLatin1String(", ")) << " queued for DolphinScheduler's master\n";
    return ExitOk;
}

// remote enable|disable: the definition online or offline (offline takes its schedule along).
int release(CliContext &context, const ConnectionProfile &profile, bool online,
            const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption schedule(
        QStringLiteral("schedule"),
        online ? QStringLiteral("Its schedule too: online, with its Quartz job.")
               : QStringLiteral("Only its schedule (and its Quartz job), not the workflow."));
    parser.addOption(schedule);
    if (!context.parse(parser, args,
                       QStringLiteral("remote %1 NAME PROJECT/WORKFLOW [--schedule]")
                           .arg(online ? QStringLiteral("online") : QStringLiteral("offline")))
        || !context.expectPositionals(parser,
                                      {QStringLiteral("NAME"), QStringLiteral("PROJECT/WORKFLOW")}))
        return context.exitCode();
    const auto remote = openRemote(context, profile);
    if (!remote)
        return context.fail(remote.error());
    const DolphinSchedulerCatalog &catalog = *remote.value()->catalog;
    const QString path = parser.positionalArguments().at(1);
    const bool withSchedule = parser.isSet(schedule);
    if (online || !withSchedule) {
        if (const Status done = catalog.setWorkflowOnline(path, online); !done)
            return context.fail(done.error());
    }
    if (withSchedule) {
        if (const Status done = catalog.setScheduleOnline(path, online); !done)
            return context.fail(done.error());
        context.out() << (online ? QStringLiteral("workflow %1 and its schedule are online\n")
                                 : QStringLiteral("the schedule of workflow %1 is offline\n"))
                             .arg(path);
        return ExitOk;
    }
    context.out() << "workflow " << path << " is " << stateText(online)
                  << (online ? QString() : QStringLiteral(", and its schedule with it")) << '\n';
    return ExitOk;
}

} // namespace

int runDolphinSchedulerCommand(CliContext &context, const ConnectionProfile &profile,
                               const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("runs"))
        return listInstances(context, profile, args);
    if (verb == QLatin1String("instance"))
        return showInstance(context, profile, args);
    if (verb == QLatin1String("start") || verb == QLatin1String("complement"))
        return launch(context, profile, verb == QLatin1String("complement"), args);
    if (verb == QLatin1String("stop") || verb == QLatin1String("pause"))
        return stopOrPause(context, profile, verb == QLatin1String("stop"), args);
    if (verb == QLatin1String("rerun") || verb == QLatin1String("resume"))
        return actOnInstance(context, profile, verb, args);
    // online|offline as DolphinScheduler names them; enable|disable as for pg_timetable.
    if (verb == QLatin1String("online") || verb == QLatin1String("offline")
        || verb == QLatin1String("enable") || verb == QLatin1String("disable"))
        return release(context, profile,
                       verb == QLatin1String("online") || verb == QLatin1String("enable"), args);
    if (verb != QLatin1String("chains") && verb != QLatin1String("show"))
        return context.usage(QStringLiteral("remote %1: not built for DolphinScheduler remotes "
                                            "yet (chains, show, runs, instance, start, "
                                            "complement, stop, pause, rerun, resume, online "
                                            "and offline are)")
                                 .arg(verb));
    QCommandLineParser parser;
    const bool show = verb == QLatin1String("show");
    if (!context.parse(parser, args,
                       show ? QStringLiteral("remote show NAME PROJECT/WORKFLOW [--json]")
                            : QStringLiteral("remote chains NAME [--json]"),
                       true)
        || !context.expectPositionals(
            parser, show ? QStringList{QStringLiteral("NAME"), QStringLiteral("PROJECT/WORKFLOW")}
                         : QStringList{QStringLiteral("NAME")}))
        return context.exitCode();
    if (show)
        return showWorkflow(context, profile, parser.positionalArguments().at(1));
    return listWorkflows(context, profile);
}

} // namespace hg
