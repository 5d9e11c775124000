#include "notifyrouterepository.h"

#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

QString eventsText(const QList<NotifyEvent> &events)
{
    QStringList names;
    for (const NotifyEvent event : events)
        names << enumName(event);
    return QLatin1Char(',') + names.join(QLatin1Char(',')) + QLatin1Char(',');
}

} // namespace

Result<QList<NotifyEvent>> NotifyRouteRepository::parseEvents(const QString &text)
{
    QList<NotifyEvent> events;
    for (const QString &word : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<NotifyEvent> event = enumFromString<NotifyEvent>(word.trimmed());
        if (!event)
            return Error::invalidField(QStringLiteral("on"), 0,
                                       tr("--on: '%1' is not an event (%2)")
                                           .arg(word.trimmed(), enumChoices<NotifyEvent>()));
        if (!events.contains(*event))
            events << *event;
    }
    if (events.isEmpty())
        return Error::invalidField(
            QStringLiteral("on"), 0,
            tr("--on: name one event at least (%1)").arg(enumChoices<NotifyEvent>()));
    return events;
}

Result<NotifyRoute> NotifyRouteRepository::add(const NotifyRoute &route)
{
    if (route.events.isEmpty())
        return Error::invalidField(QStringLiteral("on"), 0, tr("--on: name one event at least"));
    if (route.events.contains(NotifyEvent::Engine) && (route.chainId > 0 || route.projectId > 0))
        return Error::invalidField(QStringLiteral("on"), 0,
                                   tr("--on engine: an engine's events belong to no chain; give "
                                      "them to a global route (`notify add --global`)"));
    StoreQuery q(m_store, QStringLiteral("INSERT INTO notify_route (channel_id, project_id, "
                                         "chain_id, events, recipients) VALUES (?, ?, ?, ?, ?) "
                                         "RETURNING id"));
    q.bind(StoreQuery::fromId(route.channelId))
        .bind(StoreQuery::fromId(route.projectId))
        .bind(StoreQuery::fromId(route.chainId))
        .bind(eventsText(route.events))
        .bind(route.recipients.join(QLatin1Char(',')));
    if (Status s = q.execSingle(tr("add notification route"), {}); !s)
        return s.error();
    NotifyRoute stored = route;
    stored.id = q.int64(0);
    return stored;
}

Result<QList<NotifyRoute>> NotifyRouteRepository::list() const
{
    StoreQuery q(
        m_store,
        QStringLiteral("SELECT r.id, COALESCE(r.channel_id, 0), COALESCE(c.name, ''), "
                       "COALESCE(r.project_id, 0), COALESCE(r.chain_id, 0), r.events, "
                       "r.recipients, COALESCE(cp.name || '/' || ch.name, p.name, '') FROM "
                       "notify_route r LEFT JOIN notify_channel c ON c.id = r.channel_id LEFT "
                       "JOIN chain ch ON ch.id = r.chain_id LEFT JOIN project "
                       "cp ON cp.id = ch.project_id LEFT JOIN project p ON p.id = r.project_id "
                       "ORDER BY 8, c.name, r.id"));
    if (Status s = q.exec(tr("list notification routes")); !s)
        return s.error();
    QList<NotifyRoute> routes;
    while (q.next()) {
        NotifyRoute route;
        route.id = q.int64(0);
        route.channelId = q.int64(1);
        route.channelName = q.text(2);
        route.projectId = q.int64(3);
        route.chainId = q.int64(4);
        for (const QString &word : q.text(5).split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (const auto event = enumFromString<NotifyEvent>(word))
                route.events << *event;
        route.recipients = q.text(6).split(QLatin1Char(','), Qt::SkipEmptyParts);
        route.scope = q.text(7);
        routes << route;
    }
    return routes;
}

Status NotifyRouteRepository::remove(qint64 id)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM notify_route WHERE id = ?"));
    q.bind(id);
    if (Status s = q.exec(tr("remove notification route %1").arg(id)); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(
            tr("unknown notification route %1 (see `hourglass notify list`)").arg(id));
    return {};
}

} // namespace hg
