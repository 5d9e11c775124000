#include "projectimporter.h"

#include "alertrepository.h"
#include "calendarrepository.h"
#include "chainrepository.h"
#include "connectionprofilerepository.h"
#include "dependencyrepository.h"
#include "domain/alertrulesvalidator.h"
#include "domain/jsonfieldreader.h"
#include "notifychannelrepository.h"
#include "notifyrouterepository.h"
#include "projectexporter.h"
#include "projectrepository.h"
#include "schedulerepository.h"
#include "store.h"
#include "taskrepository.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRandomGenerator>
#include <QSet>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <utility>

namespace hg {
namespace {

// A repository error raised while importing gets the document path in front of it.
Error at(const QString &path, const Error &error)
{
    return Error{error.kind == ErrorKind::Storage ? ErrorKind::Storage : ErrorKind::Invalid,
                 QCoreApplication::translate("hg::ProjectImporter", "import: %1: %2")
                     .arg(path, error.message)};
}

} // namespace

Result<ProjectImporter::Summary> ProjectImporter::importDocument(const QByteArray &json)
{
    return read(json, true);
}

Result<ProjectImporter::Summary> ProjectImporter::checkDocument(const QByteArray &json)
{
    return read(json, false);
}

Result<ProjectImporter::Summary> ProjectImporter::read(const QByteArray &json, bool keep)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error::invalid(tr("import: malformed JSON at byte %1: %2")
                                  .arg(parseError.offset)
                                  .arg(parseError.errorString()));
    if (!document.isObject())
        return Error::invalid(tr("import: the document is not a JSON object"));
    Summary summary;
    m_problem.clear();
    bool checked = false;
    const Status status = m_store.transaction([&]() -> Status {
        if (const Status read = importDocumentObject(document.object(), summary); !read)
            return read;
        if (keep)
            return {};
        checked = true; // an error is what rolls the transaction back
        return Error::runtime(QStringLiteral("checked only"));
    });
    if (checked)
        return summary;
    if (!status)
        return status.error();
    return summary;
}

Status ProjectImporter::importDocumentObject(const QJsonObject &object, Summary &summary)
{
    m_triggers.clear();
    JsonFieldReader document(object, {}, &m_problem);
    if (document.string(QStringLiteral("format")) != ProjectExporter::formatName())
        return Error::invalid(tr("import: not an Hourglass export (format is not '%1')")
                                  .arg(ProjectExporter::formatName()));
    const int version = document.integer(QStringLiteral("version"), 0);
    if (version < 1 || version > ProjectExporter::formatVersion)
        return Error::invalid(tr("import: document version %1 is not supported (this "
                                 "Hourglass reads 1 to %2)")
                                  .arg(version)
                                  .arg(ProjectExporter::formatVersion));
    if (Status connections = importConnections(document); !connections)
        return connections;
    if (Status channels = importChannels(document, summary); !channels)
        return channels;
    if (Status calendars = importCalendars(document); !calendars)
        return calendars;

    ProjectRepository projects(m_store);
    const QJsonArray projectArray = document.array(QStringLiteral("projects"));
    for (qsizetype i = 0; i < projectArray.size(); ++i) {
        const QString path = document.childPath(QStringLiteral("projects"), i);
        JsonFieldReader project(projectArray.at(i).toObject(), path, &m_problem);
        if (!projectArray.at(i).isObject())
            project.fail({}, tr("expected an object"));
        const QString name = project.requiredString(QStringLiteral("name"));
        const QString description = project.string(QStringLiteral("description"));
        const QJsonArray chains = project.array(QStringLiteral("chains"));
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));

        Result<Project> stored = projects.byName(name);
        if (!stored && stored.error().kind == ErrorKind::NotFound) {
            stored = projects.add(name, description);
            ++summary.projects;
        }
        if (!stored)
            return at(path, stored.error());
        for (qsizetype c = 0; c < chains.size(); ++c) {
            if (Status chain = importChain(stored->id, name, chains.at(c).toObject(),
                                           project.childPath(QStringLiteral("chains"), c), summary);
                !chain)
                return chain;
        }
        if (Status routes = importNotifications(stored->id, 0, project); !routes)
            return routes;
    }
    if (Status routes = importNotifications(0, 0, document); !routes)
        return routes;
    const QList<ChainTriggerExchange::Pending> triggers = std::exchange(m_triggers, {});
    return ChainTriggerExchange::importAll(m_store, triggers);
}

Status ProjectImporter::importConnections(JsonFieldReader &document)
{
    ConnectionProfileRepository profiles(m_store);
    const QJsonArray connections = document.array(QStringLiteral("connections"));
    for (qsizetype i = 0; i < connections.size(); ++i) {
        const QString path = document.childPath(QStringLiteral("connections"), i);
        JsonFieldReader field(connections.at(i).toObject(), path, &m_problem);
        ConnectionProfile profile;
        profile.name = field.requiredString(QStringLiteral("name"));
        profile.kind = field.enumeration(QStringLiteral("kind"), ConnectionKind::PostgreSql);
        profile.host = field.string(QStringLiteral("host"));
        profile.port = field.integer(QStringLiteral("port"), 0);
        profile.database = field.string(QStringLiteral("database"));
        profile.userName = field.string(QStringLiteral("user"));
        profile.options = field.string(QStringLiteral("options"));
        profile.databaseKind =
            field.enumeration(QStringLiteral("databaseKind"), ConnectionKind::PostgreSql);
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));
        if (profiles.byName(profile.name))
            continue; // profiles are shared by every project; keep the one the user has
        if (Result<ConnectionProfile> added = profiles.add(profile); !added)
            return at(path, added.error());
    }
    return {};
}

Status ProjectImporter::importChannels(JsonFieldReader &document, Summary &summary)
{
    NotifyChannelRepository channels(m_store);
    QSet<QString> names;
    const QJsonArray array = document.array(QStringLiteral("channels"));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = document.childPath(QStringLiteral("channels"), i);
        const QJsonObject object = array.at(i).toObject();
        Result<NotifyChannel> channel = NotifyChannelRepository::fromExport(object);
        if (!channel)
            return at(path, channel.error());
        if (names.contains(channel->name))
            return Error::invalid(
                tr("import: %1: a second channel named '%2'").arg(path, channel->name));
        names.insert(channel->name);
        if (channels.byName(channel->name))
            continue; // channels serve every project; keep the one the user has
        const bool leftBehind = object.value(QLatin1String("secretsLeftBehind")).toBool();
        // A key that holds nothing yet: the channel fails its messages, saying to give its
        // secrets, rather than send them unsigned or log in without its password (helper-8).
        if (leftBehind)
            channel->secretKey =
                QStringLiteral("hourglass-channel:%1:%2")
                    .arg(channel->name)
                    .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
        if (Result<NotifyChannel> added = channels.add(channel.value()); !added)
            return at(path, added.error());
        if (leftBehind) {
            const QString option = channel->kind == ChannelKind::Email
                                       ? QStringLiteral("--password-stdin")
                                   : channel->urlIsSecret ? QStringLiteral("--secret-url-stdin")
                                                          : QStringLiteral("--secret-stdin");
            summary.notes << tr("channel '%1' came without its secrets (they stay where it was "
                                "exported), and sends nothing until it has them: give them "
                                "with `hourglass channel set %1 %2`")
                                 .arg(channel->name, option);
        }
    }
    return {};
}

Status ProjectImporter::importCalendars(JsonFieldReader &document)
{
    CalendarRepository calendars(m_store);
    const QJsonArray array = document.array(QStringLiteral("calendars"));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = document.childPath(QStringLiteral("calendars"), i);
        JsonFieldReader field(array.at(i).toObject(), path, &m_problem);
        Calendar calendar;
        calendar.name = field.requiredString(QStringLiteral("name"));
        calendar.description = field.string(QStringLiteral("description"));
        for (const QJsonValue day : field.array(QStringLiteral("weekdays"))) {
            if (day.toInt() < Qt::Monday || day.toInt() > Qt::Sunday)
                field.fail(QStringLiteral("weekdays"), tr("a day of the week is 1 to 7"));
            else
                calendar.weekdays |= quint8(1u << day.toInt());
        }
        for (const QJsonValue range : field.array(QStringLiteral("ranges"))) {
            const QDate first =
                QDate::fromString(range[QStringLiteral("first")].toString(), Qt::ISODate);
            const QDate last =
                QDate::fromString(range[QStringLiteral("last")].toString(), Qt::ISODate);
            if (!first.isValid() || !last.isValid() || last < first)
                field.fail(QStringLiteral("ranges"),
                           tr("'%1' to '%2' is not a range of days")
                               .arg(range[QStringLiteral("first")].toString(),
                                    range[QStringLiteral("last")].toString()));
            calendar.ranges << Calendar::Range{first, last,
                                               range[QStringLiteral("summary")].toString()};
        }
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));
        if (calendars.byName(calendar.name))
            continue; // a calendar of that name is the user's: keep it, as for connections
        if (Result<Calendar> added = calendars.add(calendar); !added)
            return at(path, added.error());
    }
    return {};
}

Status ProjectImporter::importChain(qint64 projectId, const QString &projectName,
                                    const QJsonObject &object, const QString &path,
                                    Summary &summary)
{
    JsonFieldReader field(object, path, &m_problem);
    Chain chain;
    chain.projectId = projectId;
    chain.name = field.requiredString(QStringLiteral("name"));
    chain.description = field.string(QStringLiteral("description"));
    chain.enabled = field.boolean(QStringLiteral("enabled"), true);
    chain.maxInstances = field.integer(QStringLiteral("maxInstances"), 0);
    chain.overlap = field.enumeration(QStringLiteral("overlap"), OverlapPolicy::Queue);
    chain.timeoutSeconds = field.integer(QStringLiteral("timeoutSeconds"), 0);
    chain.selfDestruct = field.boolean(QStringLiteral("selfDestruct"), false);
    chain.exclusive = field.boolean(QStringLiteral("exclusive"), false);
    chain.needsNetwork = field.boolean(QStringLiteral("needsNetwork"), false);
    chain.clientName = field.string(QStringLiteral("client"));
    chain.onFailure = field.enumeration(QStringLiteral("onFailure"), FailureStrategy::End);
    chain.priority = field.enumeration(QStringLiteral("priority"), Priority::Medium);
    chain.notify = field.enumeration(QStringLiteral("notify"), NotifyPolicy::Failure);
    chain.parameters = field.object(QStringLiteral("parameters"));
    if (field.has(QStringLiteral("retention"))) {
        JsonFieldReader keep(field.object(QStringLiteral("retention")),
                             path + QStringLiteral(".retention"), &m_problem);
        keep.rejectUnknownKeys({QStringLiteral("keepRuns"), QStringLiteral("keepDays"),
                                QStringLiteral("keepFailedRuns"),
                                QStringLiteral("keepFailedDays")});
        chain.retention = Retention{keep.integer(QStringLiteral("keepRuns"), 0),
                                    keep.integer(QStringLiteral("keepDays"), 0),
                                    keep.integer(QStringLiteral("keepFailedRuns"), 0),
                                    keep.integer(QStringLiteral("keepFailedDays"), 0)};
    }
    AlertRules alerts;
    if (field.has(QStringLiteral("alerts"))) {
        const QString alertsPath = path + QStringLiteral(".alerts");
        JsonFieldReader a(field.object(QStringLiteral("alerts")), alertsPath, &m_problem);
        a.rejectUnknownKeys(
            {QStringLiteral("lateAfterSeconds"), QStringLiteral("longerThanSeconds"),
             QStringLiteral("longerThanFactor"), QStringLiteral("shorterThanSeconds"),
             QStringLiteral("shorterThanFactor"), QStringLiteral("deadline"),
             QStringLiteral("deadlineZone")});
        const auto length = [&a](const QString &key) -> qint64 {
            const double seconds = a.number(key, 0);
            if (seconds < 0 || seconds > 366.0 * 86400) {
                a.fail(key, tr("expected seconds from 0 to a year"));
                return 0;
            }
            return qint64(std::llround(seconds * 1000));
        };
        const auto factor = [&a](const QString &key) {
            const double value = a.number(key, 0);
            if (value < 0 || value > 1000) {
                a.fail(key, tr("expected a factor from 0 to 1000"));
                return 0.0;
            }
            return value;
        };
        alerts.lateAfterMs = length(QStringLiteral("lateAfterSeconds"));
        alerts.longerThanMs = length(QStringLiteral("longerThanSeconds"));
        alerts.longerThanFactor = factor(QStringLiteral("longerThanFactor"));
        alerts.shorterThanMs = length(QStringLiteral("shorterThanSeconds"));
        alerts.shorterThanFactor = factor(QStringLiteral("shorterThanFactor"));
        alerts.deadline = a.string(QStringLiteral("deadline"));
        alerts.deadlineZone = a.string(QStringLiteral("deadlineZone"));
        // The domain's rule, as the command line and the dialog ask it.
        if (const Status valid = AlertRulesValidator::validate(alerts); !valid)
            a.fail(valid.error().field, valid.error().message);
    }
    if (!m_problem.isEmpty())
        return Error::invalid(tr("import: %1").arg(m_problem));
    const Result<Chain> stored = ChainRepository(m_store).add(chain);
    if (!stored) {
        if (stored.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(
                tr("import: chain '%1/%2' already exists").arg(projectName, chain.name));
        return at(path, stored.error());
    }
    ++summary.chains;
    if (alerts.isSet()) {
        if (Status set = AlertRepository(m_store).setRules(stored->id, alerts); !set)
            return at(path + QStringLiteral(".alerts"), set.error());
    }

    TaskRepository tasks(m_store);
    QHash<QString, qint64> taskIds;
    const QJsonArray taskArray = field.array(QStringLiteral("tasks"));
    for (qsizetype i = 0; i < taskArray.size(); ++i) {
        const QString taskPath = field.childPath(QStringLiteral("tasks"), i);
        JsonFieldReader t(taskArray.at(i).toObject(), taskPath, &m_problem);
        Task task;
        task.chainId = stored->id;
        task.name = t.requiredString(QStringLiteral("name"));
        task.kind = t.enumeration(QStringLiteral("kind"), TaskKind::Program);
        task.command = t.requiredString(QStringLiteral("command"));
        task.arguments = t.stringList(QStringLiteral("arguments"));
        task.workingDirectory = t.string(QStringLiteral("workingDirectory"));
        task.environment = t.object(QStringLiteral("environment"));
        task.connectionName = t.string(QStringLiteral("connection"));
        task.ignoreError = t.boolean(QStringLiteral("ignoreError"), false);
        task.autonomous = t.boolean(QStringLiteral("autonomous"), false);
        task.timeoutSeconds = t.integer(QStringLiteral("timeoutSeconds"), 0);
        task.maxRetries = t.integer(QStringLiteral("maxRetries"), 0);
        task.retryDelaySeconds = t.integer(QStringLiteral("retryDelaySeconds"), 0);
        task.retryBackoff = t.number(QStringLiteral("retryBackoff"), 2.0);
        task.priority = t.enumeration(QStringLiteral("priority"), Priority::Medium);
        const QJsonArray position = t.array(QStringLiteral("position"));
        if (position.size() == 2 && position.at(0).isDouble() && position.at(1).isDouble())
            task.position = QPointF(position.at(0).toDouble(), position.at(1).toDouble());
        else if (!position.isEmpty())
            t.fail(QStringLiteral("position"), tr("expected [x, y]"));
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));
        // A SendMail's password key is this machine's and one store's: never taken from a
        // document (export leaves it out; a hand-written one would share another's key).
        if (!m_takePasswordKeys && task.kind == TaskKind::Builtin
            && task.command == QLatin1String("SendMail") && !task.arguments.isEmpty()) {
            QJsonObject argument =
                QJsonDocument::fromJson(task.arguments.constFirst().toUtf8()).object();
            const bool hadKey = argument.contains(QLatin1String("passwordKey"));
            if (hadKey) {
                argument.remove(QStringLiteral("passwordKey"));
                task.arguments.first() =
                    QString::fromUtf8(QJsonDocument(argument).toJson(QJsonDocument::Compact));
            }
            if (hadKey || t.boolean(QStringLiteral("passwordLeftBehind"), false))
                summary.notes << tr("task %1/%2/%3 came without its SendMail password (it stays "
                                    "where it was exported): type it in the task form's password "
                                    "field")
                                     .arg(projectName, chain.name, task.name);
        }
        const Result<Task> added = tasks.add(task);
        if (!added)
            return at(taskPath, added.error());
        taskIds.insert(task.name, added->id);
        ++summary.tasks;
    }

    DependencyRepository dependencies(m_store);
    const QJsonArray edges = field.array(QStringLiteral("dependencies"));
    for (qsizetype i = 0; i < edges.size(); ++i) {
        const QString edgePath = field.childPath(QStringLiteral("dependencies"), i);
        JsonFieldReader e(edges.at(i).toObject(), edgePath, &m_problem);
        const QString taskName = e.requiredString(QStringLiteral("task"));
        const QString upstreamName = e.requiredString(QStringLiteral("upstream"));
        const auto condition = e.enumeration(QStringLiteral("when"), DependencyCondition::Success);
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));
        for (const QString &name : {taskName, upstreamName}) {
            if (!taskIds.contains(name))
                return Error::invalid(tr("import: %1: unknown task '%2'").arg(edgePath, name));
        }
        if (Status added = dependencies.add(stored->id, taskIds.value(taskName),
                                            taskIds.value(upstreamName), condition);
            !added)
            return at(edgePath, added.error());
    }

    ScheduleRepository schedules(m_store);
    const QJsonArray scheduleArray = field.array(QStringLiteral("schedules"));
    for (qsizetype i = 0; i < scheduleArray.size(); ++i) {
        const QString schedulePath = field.childPath(QStringLiteral("schedules"), i);
        JsonFieldReader s(scheduleArray.at(i).toObject(), schedulePath, &m_problem);
        Schedule schedule;
        schedule.chainId = stored->id;
        schedule.expression = s.requiredString(QStringLiteral("expression"));
        schedule.kind =
            s.enumeration(QStringLiteral("kind"), inferScheduleKind(schedule.expression));
        schedule.dialect = s.enumeration(QStringLiteral("dialect"), CronDialect::Auto);
        schedule.timeZone = s.string(QStringLiteral("timeZone"));
        schedule.misfire = s.enumeration(QStringLiteral("misfire"), MisfirePolicy::Once);
        schedule.misfireWindowSeconds = s.integer(QStringLiteral("misfireWindowSeconds"), 86400);
        schedule.activeFrom = s.time(QStringLiteral("activeFrom"));
        schedule.activeUntil = s.time(QStringLiteral("activeUntil"));
        schedule.enabled = s.boolean(QStringLiteral("enabled"), true);
        if (const QString calendar = s.string(QStringLiteral("calendar")); !calendar.isEmpty()) {
            const Result<Calendar> named = CalendarRepository(m_store).byName(calendar);
            if (named)
                schedule.calendarId = named->id;
            else
                s.fail(QStringLiteral("calendar"),
                       tr("no calendar named '%1' in the document or this store").arg(calendar));
            schedule.calendarMode =
                s.enumeration(QStringLiteral("calendarMode"), CalendarMode::Exclude);
        }
        const QString dst = s.string(QStringLiteral("dst"));
        if (const std::optional<DstPolicy> policy = DstPolicy::fromText(dst))
            schedule.dst = *policy;
        else
            s.fail(
                QStringLiteral("dst"),
                tr("'%1' is not a DST rule (run-after or skip, once or both, or cronie)").arg(dst));
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));
        if (Result<Schedule> added = schedules.add(schedule); !added)
            return at(schedulePath, added.error());
        ++summary.schedules;
    }
    if (field.has(QStringLiteral("triggers")))
        m_triggers << ChainTriggerExchange::Pending{stored->id,
                                                    projectName + QLatin1Char('/') + chain.name,
                                                    path, field.array(QStringLiteral("triggers"))};
    return importNotifications(0, stored->id, field);
}

Status ProjectImporter::importNotifications(qint64 projectId, qint64 chainId,
                                            JsonFieldReader &field)
{
    NotifyRouteRepository routes(m_store);
    const QJsonArray routeArray = field.array(QStringLiteral("notifications"));
    // A project's and the global routes may be here already (the project imported before,
    // or the same store's export read back): one alike is not added twice. (A chain is new.)
    Result<QList<NotifyRoute>> existing = QList<NotifyRoute>();
    if (chainId == 0 && !routeArray.isEmpty())
        existing = routes.list();
    if (!existing)
        return existing.error();
    const auto alreadyThere = [&existing](const NotifyRoute &route) {
        return std::any_of(existing->cbegin(), existing->cend(), [&route](const NotifyRoute &o) {
            return o.chainId == route.chainId && o.projectId == route.projectId
                   && o.channelId == route.channelId && o.recipients == route.recipients
                   && QSet<NotifyEvent>(o.events.cbegin(), o.events.cend())
                          == QSet<NotifyEvent>(route.events.cbegin(), route.events.cend());
        });
    };
    constexpr qsizetype mostRoutes = 100; // a scope's own: more is a mistake, not a need
    if (routeArray.size() > mostRoutes)
        return Error::invalid(tr("import: %1: %2 routes; %3 at most")
                                  .arg(field.childPath(QStringLiteral("notifications"), mostRoutes))
                                  .arg(routeArray.size())
                                  .arg(mostRoutes));
    for (qsizetype i = 0; i < routeArray.size(); ++i) {
        const QString routePath = field.childPath(QStringLiteral("notifications"), i);
        JsonFieldReader n(routeArray.at(i).toObject(), routePath, &m_problem);
        n.rejectUnknownKeys(
            {QStringLiteral("channel"), QStringLiteral("on"), QStringLiteral("to")});
        NotifyRoute route;
        route.chainId = chainId;
        route.projectId = projectId;
        // No channel: the default e-mail channel, whichever it is when a message is written.
        const bool named = routeArray.at(i).toObject().contains(QLatin1String("channel"));
        bool email = true;
        if (const QString name = n.string(QStringLiteral("channel")); named && name.isEmpty()) {
            n.fail(QStringLiteral("channel"),
                   tr("a channel's name, or no \"channel\" for the default e-mail channel"));
        } else if (named) {
            if (const Result<NotifyChannel> channel =
                    NotifyChannelRepository(m_store).byName(name)) {
                route.channelId = channel->id;
                email = channel->kind == ChannelKind::Email;
            } else
                n.fail(QStringLiteral("channel"),
                       tr("no channel named '%1' in this store (add it with `hourglass channel "
                          "add`, or leave \"channel\" out for the default e-mail channel)")
                           .arg(name));
        }
        for (const QString &word : n.stringList(QStringLiteral("on"))) {
            if (const std::optional<NotifyEvent> event = enumFromString<NotifyEvent>(word))
                route.events << *event;
            else
                n.fail(QStringLiteral("on"),
                       tr("'%1' is not an event (%2)").arg(word, enumChoices<NotifyEvent>()));
        }
        if (route.events.isEmpty())
            n.fail(QStringLiteral("on"), tr("name one event at least"));
        route.recipients =
            NotifyChannelRepository::distinctAddresses(n.stringList(QStringLiteral("to")));
        if (!route.recipients.isEmpty() && !email)
            n.fail(QStringLiteral("to"), tr("recipients are for e-mail channels"));
        if (route.recipients.size() > NotifyChannelRepository::maxRecipients)
            n.fail(QStringLiteral("to"), tr("%1 recipients; %2 at most")
                                             .arg(route.recipients.size())
                                             .arg(NotifyChannelRepository::maxRecipients));
        for (const QString &address : std::as_const(route.recipients))
            if (!NotifyChannelRepository::isMailAddress(address))
                n.fail(QStringLiteral("to"), tr("'%1' is not an e-mail address").arg(address));
        if (!m_problem.isEmpty())
            return Error::invalid(tr("import: %1").arg(m_problem));
        if (alreadyThere(route))
            continue;
        if (Result<NotifyRoute> added = routes.add(route); !added)
            return at(routePath, added.error());
    }
    return {};
}

} // namespace hg
