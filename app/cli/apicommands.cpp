// api status: where the local API is served on this store, and how busy it is.
#include "clicontext.h"
#include "store/apilistenerrepository.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

QJsonValue timeValue(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODate)) : QJsonValue();
}

int apiStatus(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("api status [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const Result<QList<ApiListenerRepository::Listener>> listeners =
        ApiListenerRepository(*store).list(now);
    if (!listeners)
        return context.fail(listeners.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const ApiListenerRepository::Listener &l : listeners.value()) {
        const bool live = l.seenAt.msecsTo(now) < ApiListenerRepository::staleMs;
        const QString state = live ? QStringLiteral("listening") : QStringLiteral("gone");
        array << QJsonObject{{QStringLiteral("url"), l.url},
                             {QStringLiteral("state"), state},
                             {QStringLiteral("host"), l.host},
                             {QStringLiteral("pid"), l.pid},
                             {QStringLiteral("engine"), l.engineName},
                             {QStringLiteral("insecure"), l.insecure},
                             {QStringLiteral("startedAt"), timeValue(l.startedAt)},
                             {QStringLiteral("seenAt"), timeValue(l.seenAt)},
                             {QStringLiteral("requests"), l.requests},
                             {QStringLiteral("lastRequestAt"), timeValue(l.lastRequestAt)}};
        rows << QStringList{
            l.url,
            l.insecure ? state + QStringLiteral(" (plain HTTP on the network)") : state,
            QStringLiteral("%1 (%2, pid %3)").arg(l.engineName, l.host).arg(l.pid),
            l.startedAt.toLocalTime().toString(Qt::ISODate),
            QString::number(l.requests),
            l.lastRequestAt.isValid() ? l.lastRequestAt.toLocalTime().toString(Qt::ISODate)
                                      : QStringLiteral("none")};
    }
    if (context.json()) {
        context.printJson(array);
        return ExitOk;
    }
    if (rows.isEmpty()) {
        context.out() << "the API is not served on this store (`hourglass serve --api "
                         "127.0.0.1:8080`, or Settings → Remote access in the window)\n";
        return ExitOk;
    }
    context.printTable({QStringLiteral("URL"), QStringLiteral("STATE"), QStringLiteral("BY"),
                        QStringLiteral("SINCE"), QStringLiteral("REQUESTS"),
                        QStringLiteral("LAST REQUEST")},
                       rows);
    return ExitOk;
}

} // namespace

int runApiCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("status"))
        return apiStatus(context, args);
    return context.usage(QStringLiteral("unknown command 'api %1'; use status").arg(verb));
}

} // namespace hg
