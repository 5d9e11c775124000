#include "apijson.h"

#include "base/enumnames.h"

#include <QJsonArray>

namespace hg::apijson {

QJsonValue time(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonValue timeMs(std::optional<qint64> ms)
{
    return ms ? time(QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC)) : QJsonValue();
}

QJsonObject run(const Run &r, const QString &chainPath)
{
    // What started it beyond its kind: the trigger's parameters without their prefix, as a
    // task reads them (${trigger.path}).
    QJsonObject detail;
    QJsonObject parameters;
    const QLatin1String prefix("trigger.");
    for (auto it = r.parameters.constBegin(); it != r.parameters.constEnd(); ++it) {
        if (it.key().startsWith(prefix))
            detail.insert(it.key().mid(prefix.size()), it.value());
        else
            parameters.insert(it.key(), it.value());
    }
    const auto id = [](qint64 value) {
        return value > 0 ? QJsonValue(value) : QJsonValue();
    };
    return QJsonObject{
        {QStringLiteral("id"), r.id},
        {QStringLiteral("chain"), chainPath},
        {QStringLiteral("chainId"), r.chainId},
        {QStringLiteral("state"), enumName(r.state)},
        {QStringLiteral("trigger"), enumName(r.trigger)},
        {QStringLiteral("triggerDetail"), detail},
        {QStringLiteral("scheduleId"), id(r.scheduleId)},
        {QStringLiteral("rerunOf"), id(r.rerunOfId)},
        {QStringLiteral("parentRun"), id(r.parentRunId)},
        {QStringLiteral("scheduledFor"), time(r.scheduledFor)},
        {QStringLiteral("createdAt"), time(r.createdAt)},
        {QStringLiteral("startedAt"), time(r.startedAt)},
        {QStringLiteral("finishedAt"), time(r.finishedAt)},
        {QStringLiteral("durationMs"), r.startedAt.isValid() && r.finishedAt.isValid()
                                           ? QJsonValue(r.startedAt.msecsTo(r.finishedAt))
                                           : QJsonValue()},
        {QStringLiteral("engine"), r.engineName},
        {QStringLiteral("parameters"), parameters}};
}

QJsonObject attempt(const TaskRun &a, const QString &taskName)
{
    return QJsonObject{
        {QStringLiteral("id"), a.id},
        {QStringLiteral("task"), taskName},
        {QStringLiteral("taskId"), a.taskId},
        {QStringLiteral("attempt"), a.attempt},
        {QStringLiteral("state"), enumName(a.state)},
        {QStringLiteral("exitCode"), a.exitCode ? QJsonValue(*a.exitCode) : QJsonValue()},
        {QStringLiteral("error"), a.error},
        {QStringLiteral("queuedAt"), time(a.queuedAt)},
        {QStringLiteral("startedAt"), time(a.startedAt)},
        {QStringLiteral("finishedAt"), time(a.finishedAt)},
        {QStringLiteral("worker"), a.workerName}};
}

QJsonObject schedule(const Schedule &s, std::optional<qint64> nextFireMs)
{
    return QJsonObject{{QStringLiteral("id"), s.id},
                       {QStringLiteral("kind"), enumName(s.kind)},
                       {QStringLiteral("expression"), s.expression},
                       {QStringLiteral("timeZone"), s.timeZone},
                       {QStringLiteral("misfire"), enumName(s.misfire)},
                       {QStringLiteral("calendar"), s.calendarName},
                       {QStringLiteral("activeFrom"), time(s.activeFrom)},
                       {QStringLiteral("activeUntil"), time(s.activeUntil)},
                       {QStringLiteral("enabled"), s.enabled},
                       {QStringLiteral("nextFire"), timeMs(nextFireMs)}};
}

QJsonObject engine(const EngineSession &e, bool serving)
{
    return QJsonObject{{QStringLiteral("id"), e.id},
                       {QStringLiteral("name"), e.name},
                       {QStringLiteral("host"), e.host},
                       {QStringLiteral("pid"), e.pid},
                       {QStringLiteral("startedAt"), time(e.startedAt)},
                       {QStringLiteral("heartbeatAt"), time(e.heartbeatAt)},
                       {QStringLiteral("leaseUntil"), time(e.leaseUntil)},
                       {QStringLiteral("slots"), e.capacity},
                       {QStringLiteral("load"), e.load},
                       {QStringLiteral("serving"), serving}};
}

} // namespace hg::apijson
