// notify and deliveries: which events go to which channel, and what the outbox holds.
#include "base/terminaltext.h"
#include "clicontext.h"
#include "store/chainrepository.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/outboxrepository.h"
#include "store/projectrepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

namespace hg {
namespace {

// PROJECT/CHAIN, PROJECT, or nothing (the global routes).
Status scopeOf(Store &store, const QString &text, NotifyRoute &route)
{
    if (text.isEmpty())
        return {};
    if (text.contains(QLatin1Char('/'))) {
        const Result<Chain> chain = ChainRepository(store).byPath(text);
        if (!chain)
            return chain.error();
        route.chainId = chain->id;
        return {};
    }
    const Result<Project> project = ProjectRepository(store).byName(text);
    if (!project)
        return project.error();
    route.projectId = project->id;
    return {};
}

int addRoute(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption channel(QStringLiteral("channel"), QStringLiteral("The channel."),
                                     QStringLiteral("NAME"));
    const QCommandLineOption on(QStringLiteral("on"), enumChoices<NotifyEvent>(),
                                QStringLiteral("EVENT[,EVENT…]"));
    const QCommandLineOption to(QStringLiteral("to"),
                                QStringLiteral("E-mail recipients instead of the channel's."),
                                QStringLiteral("ADDR[,ADDR…]"));
    const QCommandLineOption global(QStringLiteral("global"),
                                    QStringLiteral("For every chain without routes of its own "
                                                   "or its project's."));
    const QCommandLineOption defaultChannel(
        QStringLiteral("default-channel"),
        QStringLiteral("The default e-mail channel, whichever it is when a message is sent "
                       "(as crontab MAILTO routes)."));
    parser.addOptions({channel, defaultChannel, on, to, global});
    Store *store =
        context.prepare(parser, args,
                        QStringLiteral("notify add PROJECT/CHAIN|PROJECT|--global --channel NAME|"
                                       "--default-channel --on EVENT[,…] [--to ADDR,…]"),
                        {QStringLiteral("PROJECT/CHAIN")}, false, 1);
    if (!store)
        return context.exitCode();
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.isEmpty() != parser.isSet(global)))
        return context.usage(QStringLiteral("name one PROJECT/CHAIN or PROJECT, or --global"));
    NotifyRoute route;
    if (Status scope = scopeOf(*store, positional.value(0), route); !scope)
        return context.fail(scope.error());
    if (parser.isSet(channel) == parser.isSet(defaultChannel))
        return context.usage(QStringLiteral("give --channel NAME or --default-channel"));
    // The default channel is an e-mail one; while none is set, a check of recipients against
    // a made-up one of that kind.
    NotifyChannel target;
    target.kind = ChannelKind::Email;
    if (parser.isSet(channel)) {
        const Result<NotifyChannel> named =
            NotifyChannelRepository(*store).byName(parser.value(channel));
        if (!named)
            return context.fail(named.error());
        target = named.value();
        route.channelId = target.id;
    }
    const Result<QList<NotifyEvent>> events = NotifyRouteRepository::parseEvents(parser.value(on));
    if (!events)
        return context.fail(events.error());
    route.events = events.value();
    route.recipients = parser.value(to).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (!route.recipients.isEmpty() && target.kind != ChannelKind::Email)
        return context.usage(QStringLiteral("--to is for e-mail channels"));
    for (QString &address : route.recipients)
        address = address.trimmed();
    route.recipients = NotifyChannelRepository::distinctAddresses(route.recipients);
    if (route.recipients.size() > NotifyChannelRepository::maxRecipients)
        return context.usage(QStringLiteral("--to: %1 recipients; %2 at most")
                                 .arg(route.recipients.size())
                                 .arg(NotifyChannelRepository::maxRecipients));
    for (const QString &address : std::as_const(route.recipients)) {
        if (!NotifyChannelRepository::isMailAddress(address))
            return context.fail(
                Error::invalidField(QStringLiteral("to"), 0,
                                    QStringLiteral("--to: '%1' is not an e-mail address")
                                        .arg(terminaltext::escaped(address.left(300)))));
    }
    // The same route twice would only be listed twice (a run gives one message a channel).
    if (const Result<QList<NotifyRoute>> existing = NotifyRouteRepository(*store).list())
        for (const NotifyRoute &other : existing.value())
            if (other.chainId == route.chainId && other.projectId == route.projectId
                && other.channelId == route.channelId && other.recipients == route.recipients
                && QSet<NotifyEvent>(other.events.cbegin(), other.events.cend())
                       == QSet<NotifyEvent>(route.events.cbegin(), route.events.cend()))
                return context.fail(Error::exists(
                    QStringLiteral("route %1 is this one already (`hourglass notify list`)")
                        .arg(other.id)));
    const Result<NotifyRoute> added = NotifyRouteRepository(*store).add(route);
    if (!added)
        return context.fail(added.error());
    context.out() << added->id << '\n';
    context.out().flush();
    return ExitOk;
}

int listRoutes(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("notify list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<NotifyRoute>> routes = NotifyRouteRepository(*store).list();
    if (!routes)
        return context.fail(routes.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const NotifyRoute &route : routes.value()) {
        QStringList events;
        for (const NotifyEvent event : route.events)
            events << enumName(event);
        const QString scope = route.scope.isEmpty() ? QStringLiteral("(global)") : route.scope;
        array << QJsonObject{{QStringLiteral("id"), route.id},
                             {QStringLiteral("scope"), route.scope},
                             {QStringLiteral("channel"), route.channelId == 0
                                                             ? QJsonValue(QJsonValue::Null)
                                                             : QJsonValue(route.channelName)},
                             {QStringLiteral("events"), QJsonArray::fromStringList(events)},
                             {QStringLiteral("to"), QJsonArray::fromStringList(route.recipients)}};
        rows << QStringList{QString::number(route.id), terminaltext::escaped(scope),
                            route.channelId == 0 ? QStringLiteral("(default e-mail)")
                                                 : terminaltext::escaped(route.channelName),
                            events.join(QLatin1Char(',')), route.recipients.join(QLatin1Char(','))};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("FOR"), QStringLiteral("CHANNEL"),
                            QStringLiteral("ON"), QStringLiteral("TO")},
                           rows);
    return ExitOk;
}

int removeRoute(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("notify rm ID"), {QStringLiteral("ID")});
    if (!store)
        return context.exitCode();
    bool ok = false;
    const qint64 id = parser.positionalArguments().at(0).toLongLong(&ok);
    if (!ok || id <= 0)
        return context.usage(QStringLiteral("notify rm: '%1' is not a route id (hourglass "
                                            "notify list shows them)")
                                 .arg(parser.positionalArguments().at(0)));
    const Status removed = NotifyRouteRepository(*store).remove(id);
    return removed ? ExitOk : context.fail(removed.error());
}

} // namespace

int runNotifyCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addRoute(context, args);
    if (verb == QLatin1String("list"))
        return listRoutes(context, args);
    if (verb == QLatin1String("rm"))
        return removeRoute(context, args);
    return context.usage(
        QStringLiteral("unknown command 'notify %1'; use add, list or rm").arg(verb));
}

int runDeliveriesCommand(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption state(QStringLiteral("state"), enumChoices<DeliveryState>(),
                                   QStringLiteral("STATE"));
    const QCommandLineOption limit(QStringLiteral("limit"), QStringLiteral("At most N (200)."),
                                   QStringLiteral("N"), QStringLiteral("200"));
    parser.addOptions({state, limit});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("deliveries [--state queued|sent|failed|skipped|held] [--limit N] "
                       "[--json]"),
        {}, true);
    if (!store)
        return context.exitCode();
    std::optional<DeliveryState> wanted;
    if (parser.isSet(state)) {
        DeliveryState parsed = DeliveryState::Queued;
        if (!context.enumOption(parser, state, parsed))
            return context.exitCode();
        wanted = parsed;
    }
    int count = 200;
    if (!context.intOption(parser, limit, count, 1, 100000))
        return context.exitCode();
    const Result<QList<Delivery>> deliveries = OutboxRepository(*store).list(wanted, count);
    if (!deliveries)
        return context.fail(deliveries.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const Delivery &d : deliveries.value()) {
        array << QJsonObject{{QStringLiteral("id"), d.id},
                             {QStringLiteral("channel"), d.channelName},
                             {QStringLiteral("event"), d.event},
                             {QStringLiteral("run"), d.runId},
                             {QStringLiteral("state"), enumName(d.state)},
                             {QStringLiteral("attempts"), d.attempts},
                             {QStringLiteral("nextAttempt"), CliContext::isoText(d.nextAttemptAt)},
                             {QStringLiteral("lastAnswer"), d.lastAnswer},
                             {QStringLiteral("delivery"), d.deliveryId},
                             {QStringLiteral("subject"), d.subject},
                             {QStringLiteral("created"), CliContext::isoText(d.createdAt)},
                             {QStringLiteral("sent"), CliContext::isoText(d.sentAt)}};
        rows << QStringList{QString::number(d.id),
                            terminaltext::escaped(d.channelName),
                            d.event,
                            d.runId > 0 ? QString::number(d.runId) : QString(),
                            enumName(d.state),
                            QString::number(d.attempts),
                            terminaltext::escaped(d.lastAnswer).left(100)};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("CHANNEL"),
                            QStringLiteral("EVENT"), QStringLiteral("RUN"), QStringLiteral("STATE"),
                            QStringLiteral("ATTEMPTS"), QStringLiteral("LAST ANSWER")},
                           rows);
    return ExitOk;
}

} // namespace hg
