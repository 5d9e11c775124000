#include "clicontext.h"
#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"
#include "remote/connectionsecrets.h"
#include "remote/dolphinschedulercatalog.h"
#include "remote/remotedatabase.h"
#include "store/connectionprofilerepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>

#include <optional>

namespace hg {
namespace {

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
// the next fire times and what it means.
QJsonObject scheduleJson(const DsSchedule &schedule, const QString &serverZone, int count)
{
    QByteArray zoneId = schedule.timeZone.toUtf8();
    if (zoneId.isEmpty())
        zoneId = serverZone.toUtf8();
    QTimeZone zone(zoneId);
    if (!zone.isValid())
        zone = QTimeZone::utc();
    QJsonObject object{{QStringLiteral("crontab"), schedule.crontab},
                       {QStringLiteral("timeZone"), QString::fromUtf8(zone.id())},
                       {QStringLiteral("start"), schedule.start.toString(Qt::ISODate)},
                       {QStringLiteral("end"), schedule.end.toString(Qt::ISODate)},
                       {QStringLiteral("state"), stateText(schedule.online)},
                       {QStringLiteral("failureStrategy"), schedule.failureStrategy == 1
                                                               ? QStringLiteral("continue")
                                                               : QStringLiteral("end")},
                       {QStringLiteral("warningType"), schedule.warningType},
                       {QStringLiteral("priority"), schedule.priority},
                       {QStringLiteral("workerGroup"), schedule.workerGroup}};
    const Result<CronExpression> expression =
        CronExpression::parse(schedule.crontab, CronDialect::Quartz);
    if (!expression) {
        object.insert(QStringLiteral("error"), expression.error().message);
        return object;
    }
    object.insert(QStringLiteral("meaning"),
                  CronExplainer(expression.value()).describe(QString::fromUtf8(zone.id())));
    // It fires only inside its window, whose ends are wall times in its zone.
    QDateTime start = schedule.start;
    QDateTime end = schedule.end;
    start.setTimeZone(zone);
    end.setTimeZone(zone);
    QJsonArray next;
    QDateTime after = QDateTime::currentDateTimeUtc();
    if (start.isValid() && start > after)
        after = start.addMSecs(-1);
    for (int i = 0; i < count; ++i) {
        const std::optional<QDateTime> fire = expression->next(after, zone);
        if (!fire || (end.isValid() && *fire > end))
            break;
        next << fire->toString(Qt::ISODateWithMs);
        after = *fire;
    }
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
                                 {QStringLiteral("conditionType"), relation.conditionType}};
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
                << names.value(relation.postTaskCode) << '\n';
    }
    out.flush();
    return ExitOk;
}

} // namespace

int runDolphinSchedulerCommand(CliContext &context, const ConnectionProfile &profile,
                               const QString &verb, const QStringList &args)
{
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
    if (verb == QLatin1String("chains"))
        return listWorkflows(context, profile);
    return context.usage(QStringLiteral("remote %1: not built for DolphinScheduler remotes yet "
                                        "(chains and show are)")
                             .arg(verb));
}

} // namespace hg
