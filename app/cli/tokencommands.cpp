// token add|list|rm: who may call the local API (`serve --api`).
#include "clicontext.h"
#include "store/apitokenrepository.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

QString shown(const QDateTime &time)
{
    return time.isValid() ? time.toLocalTime().toString(Qt::ISODate) : QString();
}

int addToken(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption role(QStringLiteral("role"), enumChoices<ApiRole>(),
                                  QStringLiteral("ROLE"));
    const QCommandLineOption expires(QStringLiteral("expires"),
                                     QStringLiteral("When it stops working (ISO 8601)."),
                                     QStringLiteral("DATE"));
    parser.addOptions({role, expires});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("token add NAME --role metrics|read|operate|admin [--expires DATE]"),
        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(role))
        return context.usage(QStringLiteral("--role is needed: %1").arg(enumChoices<ApiRole>()));
    ApiRole chosen = ApiRole::Read;
    if (!context.enumOption(parser, role, chosen))
        return context.exitCode();
    QDateTime until;
    if (parser.isSet(expires)) {
        const Result<QDateTime> time = CliContext::timeOption(parser, expires);
        if (!time)
            return context.fail(time.error());
        if (time.value() <= QDateTime::currentDateTime())
            return context.usage(
                QStringLiteral("--expires: %1 has passed").arg(parser.value(expires)));
        until = time.value();
    }
    const Result<ApiTokenRepository::Made> made =
        ApiTokenRepository(*store).make(parser.positionalArguments().at(0), chosen, until);
    if (!made)
        return context.fail(made.error());
    // The token is shown this once: the store keeps its hash only.
    context.out() << made->text << '\n';
    context.out().flush();
    context.err() << "hourglass: token '" << made->token.name << "' (" << enumName(chosen)
                  << ") made; it is shown only now: keep it where your scripts read it\n";
    return ExitOk;
}

int listTokens(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("token list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<ApiToken>> tokens = ApiTokenRepository(*store).list();
    if (!tokens)
        return context.fail(tokens.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const ApiToken &t : tokens.value()) {
        array << QJsonObject{
            {QStringLiteral("name"), t.name},
            {QStringLiteral("role"), enumName(t.role)},
            {QStringLiteral("prefix"), t.prefix},
            {QStringLiteral("createdAt"), t.createdAt.toString(Qt::ISODate)},
            {QStringLiteral("expiresAt"),
             t.expiresAt.isValid() ? QJsonValue(t.expiresAt.toString(Qt::ISODate)) : QJsonValue()},
            {QStringLiteral("lastUsedAt"), t.lastUsedAt.isValid()
                                               ? QJsonValue(t.lastUsedAt.toString(Qt::ISODate))
                                               : QJsonValue()}};
        rows << QStringList{t.name,
                            enumName(t.role),
                            t.prefix + QStringLiteral("…"),
                            shown(t.createdAt),
                            shown(t.expiresAt),
                            t.lastUsedAt.isValid() ? shown(t.lastUsedAt) : QStringLiteral("never")};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("NAME"), QStringLiteral("ROLE"), QStringLiteral("TOKEN"),
                            QStringLiteral("MADE"), QStringLiteral("EXPIRES"),
                            QStringLiteral("LAST USED")},
                           rows);
    return ExitOk;
}

int removeToken(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("token rm NAME"), {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    if (Status s = ApiTokenRepository(*store).remove(parser.positionalArguments().at(0)); !s)
        return context.fail(s.error());
    return ExitOk;
}

} // namespace

int runTokenCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addToken(context, args);
    if (verb == QLatin1String("list"))
        return listTokens(context, args);
    if (verb == QLatin1String("rm"))
        return removeToken(context, args);
    return context.usage(
        QStringLiteral("unknown command 'token %1'; use add, list or rm").arg(verb));
}

} // namespace hg
