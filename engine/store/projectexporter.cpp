#include "projectexporter.h"

#include "alertrepository.h"
#include "calendarrepository.h"
#include "chainrepository.h"
#include "chaintriggerexchange.h"
#include "chaintriggerrepository.h"
#include "connectionprofilerepository.h"
#include "dependencyrepository.h"
#include "notifychannelrepository.h"
#include "notifyrouterepository.h"
#include "projectrepository.h"
#include "schedulerepository.h"
#include "store.h"
#include "taskrepository.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace hg {
namespace {

QJsonValue timeValue(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonObject taskToJson(const Task &t, bool keepPasswordKey)
{
    QJsonObject o{{QStringLiteral("name"), t.name},
                  {QStringLiteral("kind"), enumName(t.kind)},
                  {QStringLiteral("command"), t.command},
                  {QStringLiteral("arguments"), QJsonArray::fromStringList(t.arguments)},
                  {QStringLiteral("workingDirectory"), t.workingDirectory},
                  {QStringLiteral("environment"), t.environment},
                  {QStringLiteral("connection"), t.connectionName},
                  {QStringLiteral("ignoreError"), t.ignoreError},
                  {QStringLiteral("autonomous"), t.autonomous},
                  {QStringLiteral("timeoutSeconds"), t.timeoutSeconds},
                  {QStringLiteral("maxRetries"), t.maxRetries},
                  {QStringLiteral("retryDelaySeconds"), t.retryDelaySeconds},
                  {QStringLiteral("retryBackoff"), t.retryBackoff},
                  {QStringLiteral("priority"), enumName(t.priority)}};
    if (t.position)
        o.insert(QStringLiteral("position"), QJsonArray{t.position->x(), t.position->y()});
    // A SendMail's password stays in this machine's keychain, as a channel's secrets do: a key
    // named by two stores would be forgotten by one while the other still sends with it.
    if (!keepPasswordKey && t.kind == TaskKind::Builtin && t.command == QLatin1String("SendMail")
        && !t.arguments.isEmpty()) {
        QJsonObject argument = QJsonDocument::fromJson(t.arguments.constFirst().toUtf8()).object();
        if (argument.contains(QLatin1String("passwordKey"))) {
            argument.remove(QStringLiteral("passwordKey"));
            QStringList arguments = t.arguments;
            arguments.first() =
                QString::fromUtf8(QJsonDocument(argument).toJson(QJsonDocument::Compact));
            o.insert(QStringLiteral("arguments"), QJsonArray::fromStringList(arguments));
            o.insert(QStringLiteral("passwordLeftBehind"), true);
        }
    }
    return o;
}

QJsonObject scheduleToJson(const Schedule &s)
{
    QJsonObject o{{QStringLiteral("kind"), enumName(s.kind)},
                  {QStringLiteral("expression"), s.expression},
                  {QStringLiteral("dialect"), enumName(s.dialect)},
                  {QStringLiteral("timeZone"), s.timeZone},
                  {QStringLiteral("misfire"), enumName(s.misfire)},
                  {QStringLiteral("misfireWindowSeconds"), s.misfireWindowSeconds},
                  {QStringLiteral("activeFrom"), timeValue(s.activeFrom)},
                  {QStringLiteral("activeUntil"), timeValue(s.activeUntil)},
                  {QStringLiteral("enabled"), s.enabled}};
    if (!s.dst.isDefault()) // older versions read documents without it
        o.insert(QStringLiteral("dst"), s.dst.toText());
    if (s.calendarId > 0) { // by name: the document carries the calendar itself too
        o.insert(QStringLiteral("calendar"), s.calendarName);
        o.insert(QStringLiteral("calendarMode"), enumName(s.calendarMode));
    }
    return o;
}

QJsonObject calendarToJson(const Calendar &calendar)
{
    QJsonArray weekdays;
    for (int day = Qt::Monday; day <= Qt::Sunday; ++day) {
        if (calendar.weekdays & (1u << day))
            weekdays << day;
    }
    QJsonArray ranges;
    for (const Calendar::Range &range : calendar.ranges)
        ranges << QJsonObject{{QStringLiteral("first"), range.first.toString(Qt::ISODate)},
                              {QStringLiteral("last"), range.last.toString(Qt::ISODate)},
                              {QStringLiteral("summary"), range.summary}};
    return {{QStringLiteral("name"), calendar.name},
            {QStringLiteral("description"), calendar.description},
            {QStringLiteral("weekdays"), weekdays},
            {QStringLiteral("ranges"), ranges}};
}

QJsonObject chainToJson(const Chain &c)
{
    return {{QStringLiteral("name"), c.name},
            {QStringLiteral("description"), c.description},
            {QStringLiteral("enabled"), c.enabled},
            {QStringLiteral("maxInstances"), c.maxInstances},
            {QStringLiteral("overlap"), enumName(c.overlap)},
            {QStringLiteral("timeoutSeconds"), c.timeoutSeconds},
            {QStringLiteral("selfDestruct"), c.selfDestruct},
            {QStringLiteral("exclusive"), c.exclusive},
            {QStringLiteral("needsNetwork"), c.needsNetwork},
            {QStringLiteral("client"), c.clientName},
            {QStringLiteral("onFailure"), enumName(c.onFailure)},
            {QStringLiteral("priority"), enumName(c.priority)},
            {QStringLiteral("notify"), enumName(c.notify)},
            {QStringLiteral("parameters"), c.parameters},
            {QStringLiteral("retention"),
             QJsonObject{{QStringLiteral("keepRuns"), c.retention.keepRuns},
                         {QStringLiteral("keepDays"), c.retention.keepDays},
                         {QStringLiteral("keepFailedRuns"), c.retention.keepFailedRuns},
                         {QStringLiteral("keepFailedDays"), c.retention.keepFailedDays}}}};
}

// A chain's alert rules, lengths in seconds (a fraction kept).
QJsonObject alertsToJson(const AlertRules &r)
{
    QJsonObject o;
    const auto seconds = [](qint64 ms) {
        return double(ms) / 1000.0;
    };
    if (r.lateAfterMs > 0)
        o.insert(QStringLiteral("lateAfterSeconds"), seconds(r.lateAfterMs));
    if (r.longerThanMs > 0)
        o.insert(QStringLiteral("longerThanSeconds"), seconds(r.longerThanMs));
    if (r.longerThanFactor > 0)
        o.insert(QStringLiteral("longerThanFactor"), r.longerThanFactor);
    if (r.shorterThanMs > 0)
        o.insert(QStringLiteral("shorterThanSeconds"), seconds(r.shorterThanMs));
    if (r.shorterThanFactor > 0)
        o.insert(QStringLiteral("shorterThanFactor"), r.shorterThanFactor);
    if (!r.deadline.isEmpty())
        o.insert(QStringLiteral("deadline"), r.deadline);
    if (!r.deadlineZone.isEmpty())
        o.insert(QStringLiteral("deadlineZone"), r.deadlineZone);
    return o;
}

QJsonObject profileToJson(const ConnectionProfile &p)
{
    QJsonObject o{
        {QStringLiteral("name"), p.name},         {QStringLiteral("kind"), enumName(p.kind)},
        {QStringLiteral("host"), p.host},         {QStringLiteral("port"), p.port},
        {QStringLiteral("database"), p.database}, {QStringLiteral("user"), p.userName},
        {QStringLiteral("options"), p.options}};
    // Only a remote scheduler's server can differ from its kind (DolphinScheduler on MySQL).
    if (p.isRemoteScheduler())
        o.insert(QStringLiteral("databaseKind"), enumName(p.databaseKind));
    return o;
}

} // namespace

bool ProjectExporter::skip(const QString &what, const Error &error)
{
    if (!m_unreadable)
        return false;
    *m_unreadable << what + QLatin1String(": ") + error.message;
    return true;
}

QJsonObject ProjectExporter::firstChain(const QJsonObject &document)
{
    return document.value(QLatin1String("projects"))
        .toArray()
        .at(0)
        .toObject()
        .value(QLatin1String("chains"))
        .toArray()
        .at(0)
        .toObject();
}

Result<QJsonObject> ProjectExporter::exportAll()
{
    const Result<QList<Project>> projects = ProjectRepository(m_store).list();
    if (!projects)
        return projects.error();
    QStringList names;
    for (const Project &project : projects.value())
        names << project.name;
    return exportProjects(names, std::nullopt, true);
}

Result<QJsonObject> ProjectExporter::exportProject(const QString &project,
                                                   const std::optional<QString> &chain)
{
    if (Result<Project> found = ProjectRepository(m_store).byName(project); !found)
        return found.error();
    if (chain) {
        if (Result<Chain> found = ChainRepository(m_store).byPath({project, *chain}); !found)
            return found.error();
    }
    return exportProjects({project}, chain, false);
}

Result<QJsonObject> ProjectExporter::exportProjects(const QStringList &projectNames,
                                                    const std::optional<QString> &onlyChain,
                                                    bool withGlobalRoutes)
{
    ProjectRepository projects(m_store);
    ChainRepository chains(m_store);
    TaskRepository tasks(m_store);
    DependencyRepository dependencies(m_store);
    ScheduleRepository schedules(m_store);
    QSet<QString> usedConnections;
    QSet<QString> usedChannels;
    QSet<QString> usedCalendars;
    // A chain's own notification routes, by the channel's name (no name: the default e-mail
    // channel). The channels they name are in the document without their secrets, which
    // must not travel (the import says so); the importing store keeps its own of a name.
    // A project's routes go with the whole project, the global ones with the whole store.
    QHash<qint64, QJsonArray> routesOfChain;
    QHash<qint64, QJsonArray> routesOfProject;
    QJsonArray globalRoutes;
    const Result<QList<NotifyRoute>> routeList = NotifyRouteRepository(m_store).list();
    if (!routeList)
        return routeList.error();
    for (const NotifyRoute &route : routeList.value()) {
        QStringList events;
        for (const NotifyEvent event : route.events)
            events << enumName(event);
        QJsonObject entry{{QStringLiteral("on"), QJsonArray::fromStringList(events)}};
        if (route.channelId > 0)
            entry.insert(QStringLiteral("channel"), route.channelName);
        if (!route.recipients.isEmpty())
            entry.insert(QStringLiteral("to"), QJsonArray::fromStringList(route.recipients));
        if (route.chainId > 0)
            routesOfChain[route.chainId] << entry;
        else if (route.projectId > 0 && !onlyChain)
            routesOfProject[route.projectId] << entry;
        else if (route.projectId == 0 && withGlobalRoutes)
            globalRoutes << entry;
    }
    // The triggers that start each chain, by their upstream chains' paths.
    QHash<qint64, QJsonArray> triggersOfChain;
    const Result<QList<ChainTrigger>> triggerList = ChainTriggerRepository(m_store).list();
    if (!triggerList)
        return triggerList.error();
    for (const ChainTrigger &trigger : triggerList.value()) {
        triggersOfChain[trigger.chainId] << ChainTriggerExchange::toJson(trigger);
    }
    const auto useChannels = [&usedChannels](const QJsonArray &routes) {
        for (const QJsonValue route : routes)
            if (const QString name = route.toObject().value(QLatin1String("channel")).toString();
                !name.isEmpty())
                usedChannels.insert(name);
    };

    QJsonArray projectArray;
    for (const QString &projectName : projectNames) {
        const Result<Project> project = projects.byName(projectName);
        if (!project) {
            if (skip(projectName, project.error()))
                continue;
            return project.error();
        }
        const Result<QList<Chain>> chainList = chains.list(project->id);
        if (!chainList) {
            if (skip(projectName, chainList.error()))
                continue;
            return chainList.error();
        }
        QJsonArray chainArray;
        for (const Chain &chain : chainList.value()) {
            if (onlyChain && chain.name != *onlyChain)
                continue;
            const QString path = projectName + QLatin1Char('/') + chain.name;
            QJsonObject chainObject = chainToJson(chain);
            const Result<AlertRules> alerts = AlertRepository(m_store).rules(chain.id);
            if (!alerts) {
                if (skip(path, alerts.error()))
                    continue;
                return alerts.error();
            }
            if (alerts->isSet())
                chainObject.insert(QStringLiteral("alerts"), alertsToJson(alerts.value()));
            const Result<QList<Task>> taskList = tasks.list(chain.id);
            if (!taskList) {
                if (skip(path, taskList.error()))
                    continue;
                return taskList.error();
            }
            QJsonArray taskArray;
            for (const Task &task : taskList.value()) {
                taskArray << taskToJson(task, m_keepPasswordKeys);
                if (!task.connectionName.isEmpty())
                    usedConnections.insert(task.connectionName);
            }
            chainObject.insert(QStringLiteral("tasks"), taskArray);

            const Result<QList<Dependency>> edges = dependencies.list(chain.id);
            if (!edges) {
                if (skip(path, edges.error()))
                    continue;
                return edges.error();
            }
            QJsonArray edgeArray;
            for (const Dependency &edge : edges.value()) {
                edgeArray << QJsonObject{{QStringLiteral("task"), edge.taskName},
                                         {QStringLiteral("upstream"), edge.upstreamName},
                                         {QStringLiteral("when"), enumName(edge.condition)}};
            }
            chainObject.insert(QStringLiteral("dependencies"), edgeArray);

            const Result<QList<Schedule>> scheduleList = schedules.list(chain.id);
            if (!scheduleList) {
                if (skip(path, scheduleList.error()))
                    continue;
                return scheduleList.error();
            }
            QJsonArray scheduleArray;
            for (const Schedule &schedule : scheduleList.value()) {
                scheduleArray << scheduleToJson(schedule);
                if (schedule.calendarId > 0)
                    usedCalendars.insert(schedule.calendarName);
            }
            chainObject.insert(QStringLiteral("schedules"), scheduleArray);
            if (triggersOfChain.contains(chain.id))
                chainObject.insert(QStringLiteral("triggers"), triggersOfChain.value(chain.id));
            if (routesOfChain.contains(chain.id)) {
                useChannels(routesOfChain.value(chain.id));
                chainObject.insert(QStringLiteral("notifications"), routesOfChain.value(chain.id));
            }
            chainArray << chainObject;
        }
        QJsonObject projectObject{{QStringLiteral("name"), project->name},
                                  {QStringLiteral("description"), project->description},
                                  {QStringLiteral("chains"), chainArray}};
        if (routesOfProject.contains(project->id)) {
            useChannels(routesOfProject.value(project->id));
            projectObject.insert(QStringLiteral("notifications"),
                                 routesOfProject.value(project->id));
        }
        projectArray << projectObject;
    }

    QStringList connectionNames(usedConnections.begin(), usedConnections.end());
    connectionNames.sort();
    QJsonArray connectionArray;
    ConnectionProfileRepository profiles(m_store);
    for (const QString &name : connectionNames) {
        const Result<ConnectionProfile> profile = profiles.byName(name);
        if (!profile) {
            if (skip(name, profile.error()))
                continue;
            return profile.error();
        }
        connectionArray << profileToJson(profile.value());
    }
    QJsonObject document{{QStringLiteral("format"), formatName()},
                         {QStringLiteral("version"), formatVersion},
                         {QStringLiteral("connections"), connectionArray},
                         {QStringLiteral("projects"), projectArray}};
    QStringList calendarNames(usedCalendars.begin(), usedCalendars.end());
    calendarNames.sort();
    QJsonArray calendarArray;
    for (const QString &name : std::as_const(calendarNames)) {
        const Result<Calendar> calendar = CalendarRepository(m_store).byName(name);
        if (!calendar) {
            if (skip(name, calendar.error()))
                continue;
            return calendar.error();
        }
        calendarArray << calendarToJson(calendar.value());
    }
    if (!globalRoutes.isEmpty()) {
        useChannels(globalRoutes);
        document.insert(QStringLiteral("notifications"), globalRoutes);
    }
    if (!calendarArray.isEmpty()) // documents without calendars stay as they were
        document.insert(QStringLiteral("calendars"), calendarArray);
    QStringList channelNames(usedChannels.begin(), usedChannels.end());
    channelNames.sort();
    QJsonArray channelArray;
    for (const QString &name : std::as_const(channelNames)) {
        const Result<NotifyChannel> channel = NotifyChannelRepository(m_store).byName(name);
        if (!channel) {
            if (skip(name, channel.error()))
                continue;
            return channel.error();
        }
        channelArray << NotifyChannelRepository::toExport(channel.value());
    }
    if (!channelArray.isEmpty())
        document.insert(QStringLiteral("channels"), channelArray);
    return document;
}

} // namespace hg
