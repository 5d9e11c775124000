#include "apireads.h"

#include "api/apianswers.h"
#include "api/apijson.h"
#include "api/apilogfollower.h"
#include "api/apirouter.h"
#include "cron/isotime.h"
#include "scheduler/missedrunsinbox.h"
#include "scheduler/scheduleplan.h"
#include "scheduler/triggertext.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/enginesessionrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <QJsonArray>
#include <QTimeZone>

namespace hg {
namespace {

// "?limit=" within 1..max; absent: the default.
Result<int> limitOf(const HttpRequest &request, int fallback, int max)
{
    const std::optional<QString> text = request.queryValue(QStringLiteral("limit"));
    if (!text)
        return fallback;
    bool ok = false;
    const int limit = text->toInt(&ok);
    if (!ok || limit < 1 || limit > max)
        return Error::invalidField(QStringLiteral("limit"), 0,
                                   ApiReads::tr("limit must be 1 to %1").arg(max));
    return limit;
}

// A time in the query: ISO 8601 (with a zone, or UTC) or milliseconds since the epoch.
Result<std::optional<qint64>> timeOf(const HttpRequest &request, const QString &name)
{
    const std::optional<QString> text = request.queryValue(name);
    if (!text)
        return std::optional<qint64>();
    bool ok = false;
    const qint64 ms = text->toLongLong(&ok);
    if (ok)
        return std::optional<qint64>(ms);
    QDateTime time = QDateTime::fromString(*text, Qt::ISODateWithMs);
    if (!time.isValid())
        return Error::invalidField(name, 0,
                                   ApiReads::tr("%1 must be an ISO 8601 time or milliseconds since "
                                                "1970")
                                       .arg(name));
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    return std::optional<qint64>(time.toMSecsSinceEpoch());
}

} // namespace

void ApiReads::addRoutes(ApiRouter &router)
{
    router.add("GET", QStringLiteral("/api/v1/chains"), ApiRole::Read,
               [this](const HttpRequest &r, const QStringList &) { return chains(r); });
    router.add("GET", QStringLiteral("/api/v1/chains/{}/{}"), ApiRole::Read,
               [this](const HttpRequest &, const QStringList &c) { return chain(c); });
    router.add("GET", QStringLiteral("/api/v1/runs"), ApiRole::Read,
               [this](const HttpRequest &r, const QStringList &) { return runs(r); });
    router.add("GET", QStringLiteral("/api/v1/runs/{}"), ApiRole::Read,
               [this](const HttpRequest &, const QStringList &c) { return run(c); });
    router.add("GET", QStringLiteral("/api/v1/runs/{}/log"), ApiRole::Read,
               [this](const HttpRequest &r, const QStringList &c) { return log(r, c); });
    router.add("GET", QStringLiteral("/api/v1/missed"), ApiRole::Read,
               [this](const HttpRequest &, const QStringList &) { return missed(); });
    router.add("GET", QStringLiteral("/api/v1/engines"), ApiRole::Read,
               [this](const HttpRequest &, const QStringList &) { return engines(); });
}

Result<QJsonArray> ApiReads::describe(const QList<Chain> &chains)
{
    QList<qint64> ids;
    for (const Chain &c : chains)
        ids << c.id;
    const Result<QHash<qint64, ChainPath>> paths = ChainRepository(m_store).pathsOf(ids);
    if (!paths)
        return paths.error();
    Result<QList<Schedule>> schedules = ScheduleRepository(m_store).list();
    if (!schedules)
        return schedules.error();
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(m_store).list();
    if (!triggers)
        return triggers.error();
    const Result<QHash<qint64, std::pair<qint64, RunState>>> latest =
        RunRepository(m_store).latestPerChain();
    if (!latest)
        return latest.error();
    const bool one = chains.size() == 1;
    QHash<qint64, QJsonArray> schedulesOf;
    QHash<qint64, qint64> nextOf;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    const QTimeZone zone = QTimeZone::systemTimeZone();
    for (const Schedule &s : schedules.value()) {
        if (one && s.chainId != chains.first().id)
            continue;
        std::optional<qint64> next;
        if (s.enabled) {
            const Result<SchedulePlan> plan = SchedulePlan::create(s, zone);
            if (plan)
                next = plan->nextFireMs(nowMs);
        }
        if (next && (!nextOf.contains(s.chainId) || *next < nextOf.value(s.chainId)))
            nextOf.insert(s.chainId, *next);
        schedulesOf[s.chainId].append(apijson::schedule(s, next));
    }
    QHash<qint64, QJsonArray> triggersOf;
    for (const ChainTrigger &t : triggers.value()) {
        QJsonObject object = triggertext::json(t);
        object.insert(QStringLiteral("text"), triggertext::describe(t));
        triggersOf[t.chainId].append(object);
    }
    QJsonArray array;
    for (const Chain &c : chains) {
        const ChainPath path = paths->value(c.id);
        const auto last = latest->constFind(c.id);
        const bool enabled = c.enabled;
        array << QJsonObject{
            {QStringLiteral("id"), c.id},
            {QStringLiteral("path"), path.toString()},
            {QStringLiteral("project"), path.project},
            {QStringLiteral("name"), c.name},
            {QStringLiteral("description"), c.description},
            {QStringLiteral("enabled"), enabled},
            {QStringLiteral("priority"), enumName(c.priority)},
            {QStringLiteral("maxInstances"), c.maxInstances},
            {QStringLiteral("overlap"), enumName(c.overlap)},
            {QStringLiteral("exclusive"), c.exclusive},
            {QStringLiteral("clientName"), c.clientName},
            {QStringLiteral("parameters"), c.parameters},
            {QStringLiteral("schedules"), schedulesOf.value(c.id)},
            {QStringLiteral("triggers"), triggersOf.value(c.id)},
            {QStringLiteral("lastRun"),
             last == latest->constEnd()
                 ? QJsonValue()
                 : QJsonValue(QJsonObject{{QStringLiteral("id"), last->first},
                                          {QStringLiteral("state"), enumName(last->second)}})},
            {QStringLiteral("nextFire"), enabled && nextOf.contains(c.id)
                                             ? apijson::timeMs(nextOf.value(c.id))
                                             : QJsonValue()}};
    }
    return array;
}

HttpResponse ApiReads::chains(const HttpRequest &request)
{
    Result<QList<Chain>> all = ChainRepository(m_store).list();
    if (!all)
        return ApiAnswers::fromError(all.error());
    const std::optional<QString> project = request.queryValue(QStringLiteral("project"));
    if (project) {
        QList<qint64> ids;
        for (const Chain &c : all.value())
            ids << c.id;
        const Result<QHash<qint64, ChainPath>> paths = ChainRepository(m_store).pathsOf(ids);
        if (!paths)
            return ApiAnswers::fromError(paths.error());
        QList<Chain> kept;
        for (const Chain &c : all.value())
            if (paths->value(c.id).project == *project)
                kept << c;
        all = kept;
    }
    const Result<QJsonArray> described = describe(all.value());
    if (!described)
        return ApiAnswers::fromError(described.error());
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("chains"), described.value()}});
}

HttpResponse ApiReads::chain(const QStringList &captures)
{
    const Result<Chain> found = ApiAnswers::chain(m_store, captures.at(0), captures.at(1));
    if (!found)
        return ApiAnswers::fromError(found.error());
    const Result<QJsonArray> described = describe({found.value()});
    if (!described)
        return ApiAnswers::fromError(described.error());
    const Result<QList<Task>> tasks = TaskRepository(m_store).list(found->id);
    if (!tasks)
        return ApiAnswers::fromError(tasks.error());
    QJsonObject object = described->first().toObject();
    QJsonArray taskArray;
    for (const Task &t : tasks.value())
        taskArray << QJsonObject{{QStringLiteral("id"), t.id},
                                 {QStringLiteral("name"), t.name},
                                 {QStringLiteral("kind"), enumName(t.kind)}};
    object.insert(QStringLiteral("tasks"), taskArray);
    return HttpResponse::json(200, object);
}

HttpResponse ApiReads::runs(const HttpRequest &request)
{
    RunFilter filter;
    const Result<int> limit = limitOf(request, 100, maxRunsPerPage);
    if (!limit)
        return ApiAnswers::fromError(limit.error());
    filter.limit = limit.value();
    if (const std::optional<QString> chainText = request.queryValue(QStringLiteral("chain"))) {
        const Result<Chain> c = ChainRepository(m_store).byPath(*chainText);
        if (!c) {
            Error e = c.error();
            e.field = QStringLiteral("chain");
            return ApiAnswers::fromError(e);
        }
        filter.chainId = c->id;
    }
    if (const std::optional<QString> state = request.queryValue(QStringLiteral("state"))) {
        filter.state = enumFromString<RunState>(*state);
        if (!filter.state)
            return HttpResponse::error(400,
                                       tr("state must be one of %1").arg(enumChoices<RunState>()),
                                       QStringLiteral("state"));
    }
    if (const std::optional<QString> before = request.queryValue(QStringLiteral("before"))) {
        const Result<qint64> id = ApiAnswers::runId(*before);
        if (!id)
            return HttpResponse::error(400, tr("before must be a run id"),
                                       QStringLiteral("before"));
        filter.beforeId = id.value();
    }
    const Result<std::optional<qint64>> since = timeOf(request, QStringLiteral("since"));
    if (!since)
        return ApiAnswers::fromError(since.error());
    filter.createdSinceMs = since.value();
    const Result<QList<Run>> list = RunRepository(m_store).list(filter);
    if (!list)
        return ApiAnswers::fromError(list.error());
    QList<qint64> chainIds;
    for (const Run &r : list.value())
        if (!chainIds.contains(r.chainId))
            chainIds << r.chainId;
    const Result<QHash<qint64, ChainPath>> paths = ChainRepository(m_store).pathsOf(chainIds);
    if (!paths)
        return ApiAnswers::fromError(paths.error());
    QJsonArray array;
    for (const Run &r : list.value())
        array << apijson::run(r, paths->value(r.chainId).toString());
    // The next page continues below the last id shown (keyset, as the Runs view pages).
    QJsonValue next;
    if (list->size() == filter.limit && !list->isEmpty())
        next = list->last().id;
    return HttpResponse::json(
        200, QJsonObject{{QStringLiteral("runs"), array}, {QStringLiteral("nextBefore"), next}});
}

HttpResponse ApiReads::run(const QStringList &captures)
{
    const Result<qint64> id = ApiAnswers::runId(captures.at(0));
    if (!id)
        return ApiAnswers::fromError(id.error());
    const Result<Run> found = RunRepository(m_store).byId(id.value());
    if (!found)
        return ApiAnswers::fromError(found.error());
    const Result<ChainPath> path = ChainRepository(m_store).pathOf(found->chainId);
    const Result<QList<TaskRun>> attempts = TaskRunRepository(m_store).listForRun(found->id);
    const Result<QList<Task>> tasks = TaskRepository(m_store).list(found->chainId);
    if (!attempts)
        return ApiAnswers::fromError(attempts.error());
    QHash<qint64, QString> names;
    if (tasks)
        for (const Task &t : tasks.value())
            names.insert(t.id, t.name);
    QJsonObject object = apijson::run(found.value(), path ? path->toString() : QString());
    QJsonArray array;
    for (const TaskRun &a : attempts.value())
        array << apijson::attempt(a, names.value(a.taskId));
    object.insert(QStringLiteral("attempts"), array);
    const Result<QString> reason = RunRepository(m_store).failureReason(found->id);
    object.insert(QStringLiteral("failureReason"), reason ? reason.value() : QString());
    return HttpResponse::json(200, object);
}

HttpResponse ApiReads::log(const HttpRequest &request, const QStringList &captures)
{
    const Result<qint64> id = ApiAnswers::runId(captures.at(0));
    if (!id)
        return ApiAnswers::fromError(id.error());
    const Result<Run> found = RunRepository(m_store).byId(id.value());
    if (!found)
        return ApiAnswers::fromError(found.error());
    const Result<int> limit = limitOf(request, 1000, maxLinesPerPage);
    if (!limit)
        return ApiAnswers::fromError(limit.error());
    qint64 after = 0;
    if (const std::optional<QString> text = request.queryValue(QStringLiteral("after"))) {
        bool ok = false;
        after = text->toLongLong(&ok);
        if (!ok || after < 0)
            return HttpResponse::error(400, tr("after must be a line id"), QStringLiteral("after"));
    }
    if (request.queryValue(QStringLiteral("follow")).value_or(QString()) == QLatin1String("1")) {
        // An EventSource that reconnects says where it was.
        bool ok = false;
        const qint64 lastEvent = request.header("last-event-id").toLongLong(&ok);
        if (ok && lastEvent > after)
            after = lastEvent;
        const qint64 token = m_tokenId();
        int byToken = 0;
        for (const QObject *child : m_followers.children())
            byToken += static_cast<const ApiLogFollower *>(child)->tokenId() == token;
        if (m_followers.children().size() >= maxFollowers || byToken >= maxFollowersPerToken)
            return HttpResponse::error(
                503, tr("%1 logs are followed already (%2 by one token); try again later")
                         .arg(maxFollowers)
                         .arg(maxFollowersPerToken));
        auto *follower = new ApiLogFollower(m_store, id.value(), after, token, &m_followers);
        HttpResponse response;
        response.contentType = "text/event-stream; charset=utf-8";
        response.stream = follower->stream();
        return response;
    }
    const Result<QList<LogLine>> lines =
        LogRepository(m_store).read(id.value(), after, limit.value());
    if (!lines)
        return ApiAnswers::fromError(lines.error());
    QJsonArray array;
    for (const LogLine &line : lines.value())
        array << QJsonObject{{QStringLiteral("id"), line.id},
                             {QStringLiteral("at"), apijson::time(line.at)},
                             {QStringLiteral("stream"), enumName(line.stream)},
                             {QStringLiteral("attempt"),
                              line.taskRunId > 0 ? QJsonValue(line.taskRunId) : QJsonValue()},
                             {QStringLiteral("text"), line.text}};
    const qint64 last = lines->isEmpty() ? after : lines->last().id;
    return HttpResponse::json(200,
                              QJsonObject{{QStringLiteral("lines"), array},
                                          {QStringLiteral("nextAfter"), last},
                                          {QStringLiteral("runState"), enumName(found->state)}});
}

HttpResponse ApiReads::missed()
{
    const Result<QList<MissedRunsInbox::Waiting>> waiting = MissedRunsInbox(m_store).waiting();
    if (!waiting)
        return ApiAnswers::fromError(waiting.error());
    QList<qint64> ids;
    for (const MissedRunsInbox::Waiting &w : waiting.value())
        ids << w.chainId;
    const Result<QHash<qint64, ChainPath>> paths = ChainRepository(m_store).pathsOf(ids);
    if (!paths)
        return ApiAnswers::fromError(paths.error());
    QJsonArray array;
    for (const MissedRunsInbox::Waiting &w : waiting.value())
        array << QJsonObject{{QStringLiteral("chain"), paths->value(w.chainId).toString()},
                             {QStringLiteral("fires"), w.count},
                             {QStringLiteral("first"), apijson::timeMs(w.firstMs)},
                             {QStringLiteral("last"), apijson::timeMs(w.lastMs)},
                             {QStringLiteral("cause"), enumName(w.cause)}};
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("missed"), array}});
}

HttpResponse ApiReads::engines()
{
    EngineSessionRepository sessions(m_store);
    const Result<QList<EngineSession>> list = sessions.list();
    if (!list)
        return ApiAnswers::fromError(list.error());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QJsonArray array;
    for (const EngineSession &e : list.value())
        array << apijson::engine(e, EngineSessionRepository::serves(e, now, m_store.backend()));
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("engines"), array}});
}

} // namespace hg
