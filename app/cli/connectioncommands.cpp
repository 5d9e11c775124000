#include "clicontext.h"
#include "store/connectionprofilerepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

int addConnection(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption kind(QStringLiteral("kind"), enumChoices<ConnectionKind>(),
                                  QStringLiteral("KIND"));
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("Server host."),
                                  QStringLiteral("HOST"));
    const QCommandLineOption port(QStringLiteral("port"), QStringLiteral("Server port."),
                                  QStringLiteral("PORT"), QStringLiteral("0"));
    const QCommandLineOption database(QStringLiteral("database"),
                                      QStringLiteral("Database name (sqlite: the file)."),
                                      QStringLiteral("NAME"));
    const QCommandLineOption user(QStringLiteral("user"), QStringLiteral("User name."),
                                  QStringLiteral("USER"));
    const QCommandLineOption options(QStringLiteral("options"),
                                     QStringLiteral("Driver connect options (K=V;K=V)."),
                                     QStringLiteral("OPTIONS"));
    const QCommandLineOption keychain(
        QStringLiteral("keychain-key"),
        QStringLiteral("Where the password is kept in the OS keychain (never in the store)."),
        QStringLiteral("KEY"));
    parser.addOptions({kind, host, port, database, user, options, keychain});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("connection add NAME --kind KIND [--host H] [--port P] [--database D] "
                       "[--user U] [--options O] [--keychain-key K]"),
        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(kind))
        return context.usage(
            QStringLiteral("missing --kind (%1)").arg(enumChoices<ConnectionKind>()));
    ConnectionProfile profile;
    profile.name = parser.positionalArguments().at(0);
    if (!context.enumOption(parser, kind, profile.kind)
        || !context.intOption(parser, port, profile.port, 0))
        return context.exitCode();
    profile.host = parser.value(host);
    profile.database = parser.value(database);
    profile.userName = parser.value(user);
    profile.options = parser.value(options);
    profile.keychainKey = parser.value(keychain);
    const Result<ConnectionProfile> added = ConnectionProfileRepository(*store).add(profile);
    return added ? ExitOk : context.fail(added.error());
}

int listConnections(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("connection list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<ConnectionProfile>> list = ConnectionProfileRepository(*store).list();
    if (!list)
        return context.fail(list.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const ConnectionProfile &profile : list.value()) {
        array << QJsonObject{{QStringLiteral("name"), profile.name},
                             {QStringLiteral("kind"), enumName(profile.kind)},
                             {QStringLiteral("host"), profile.host},
                             {QStringLiteral("port"), profile.port},
                             {QStringLiteral("database"), profile.database},
                             {QStringLiteral("user"), profile.userName},
                             {QStringLiteral("options"), profile.options},
                             {QStringLiteral("keychainKey"), profile.keychainKey}};
        rows << QStringList{
            profile.name,     enumName(profile.kind),
            profile.host,     profile.port > 0 ? QString::number(profile.port) : QString(),
            profile.database, profile.userName};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("NAME"), QStringLiteral("KIND"), QStringLiteral("HOST"),
                            QStringLiteral("PORT"), QStringLiteral("DATABASE"),
                            QStringLiteral("USER")},
                           rows);
    return ExitOk;
}

int removeConnection(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("connection rm NAME"),
                                   {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    const Status removed =
        ConnectionProfileRepository(*store).remove(parser.positionalArguments().at(0));
    return removed ? ExitOk : context.fail(removed.error());
}

} // namespace

int runConnectionCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addConnection(context, args);
    if (verb == QLatin1String("list"))
        return listConnections(context, args);
    if (verb == QLatin1String("rm"))
        return removeConnection(context, args);
    return context.usage(
        QStringLiteral("unknown command 'connection %1'; use add, list or rm").arg(verb));
}

} // namespace hg
