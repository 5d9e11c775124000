#include "base/terminaltext.h"
#include "clicontext.h"
#include "domain/connectionurl.h"
#include "remote/connectionsecrets.h"
#include "remote/passwordfile.h"
#include "remote/remoteprobe.h"
#include "store/connectionprofilerepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace hg {
namespace {

// Connections to remote schedulers: pg_timetable, DolphinScheduler, pgAgent, and plain
// databases for SQL tasks. The password never passes argv: --password-stdin reads one line.
const QString remoteKinds = QStringLiteral("pgtimetable, dolphinscheduler, pgagent, postgresql, "
                                           "mysql");

Result<ConnectionProfile> profileNamed(CliContext &context, const QString &name)
{
    Result<Store *> store = context.store();
    if (!store)
        return store.error();
    Result<ConnectionProfile> profile = ConnectionProfileRepository(*store.value()).byName(name);
    if (!profile && profile.error().kind == ErrorKind::NotFound)
        return Error::notFound(
            QStringLiteral("unknown remote '%1'; see hourglass remote list").arg(name));
    return profile;
}

QString passwordSource(const ConnectionProfile &profile)
{
    if (!profile.keychainKey.isEmpty())
        return QStringLiteral("keychain");
    if (PasswordFile::holds(profile))
        return PasswordFile::pathFor(profile);
    return QStringLiteral("client defaults");
}

int keepPassword(CliContext &context, ConnectionProfile &profile)
{
    const Result<QString> password =
        CliContext::secretFromStdin(QStringLiteral("--password-stdin"), QStringLiteral("password"));
    if (!password)
        return context.fail(password.error());
    const Result<QString> where = ConnectionSecrets().store(profile, password.value());
    if (!where)
        return context.fail(where.error());
    context.out() << "password for '" << profile.name << "' kept in " << where.value() << '\n';
    return ExitOk;
}

int addRemote(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption kind(QStringLiteral("kind"), remoteKinds, QStringLiteral("KIND"));
    const QCommandLineOption url(QStringLiteral("url"),
                                 QStringLiteral("postgresql://USER@HOST:PORT/DATABASE or "
                                                "mysql://… (no password in it)."),
                                 QStringLiteral("URL"));
    const QCommandLineOption passwordStdin(
        QStringLiteral("password-stdin"),
        QStringLiteral("Read the password from stdin and keep it in the OS keychain."));
    parser.addOptions({kind, url, passwordStdin});
    Store *store = context.prepare(
        parser, args, QStringLiteral("remote add NAME --kind KIND --url URL [--password-stdin]"),
        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(kind) || !parser.isSet(url))
        return context.usage(
            QStringLiteral("remote add needs --kind (%1) and --url").arg(remoteKinds));
    ConnectionKind connectionKind = ConnectionKind::PgTimetable;
    if (!context.enumOption(parser, kind, connectionKind))
        return context.exitCode();
    Result<ConnectionProfile> profile =
        ConnectionUrl::parse(parser.positionalArguments().at(0), connectionKind, parser.value(url));
    if (!profile)
        return context.fail(profile.error());
    ConnectionProfileRepository repository(*store);
    if (repository.byName(profile->name))
        return context.fail(Error::exists(
            QStringLiteral("remote '%1' already exists; remove it first (hourglass remote rm %1)")
                .arg(profile->name)));
    // The password is kept before the profile, so a profile never names a key that holds
    // nothing; a failed add leaves no profile behind.
    if (parser.isSet(passwordStdin)) {
        if (const int kept = keepPassword(context, profile.value()); kept != ExitOk)
            return kept;
    }
    const Result<ConnectionProfile> added = repository.add(profile.value());
    if (!added) {
        // The add failed: the password kept a moment ago would otherwise name no profile.
        static_cast<void>(ConnectionSecrets().forget(profile.value()));
        return context.fail(added.error());
    }
    context.out() << "remote '" << added->name << "' added: " << enumName(added->kind) << " at "
                  << ConnectionUrl::format(added.value()) << '\n';
    return ExitOk;
}

int setPassword(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption passwordStdin(QStringLiteral("password-stdin"),
                                           QStringLiteral("Read the password from stdin."));
    parser.addOption(passwordStdin);
    Store *store =
        context.prepare(parser, args, QStringLiteral("remote password NAME --password-stdin"),
                        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(passwordStdin))
        return context.usage(
            QStringLiteral("remote password needs --password-stdin (never a password in argv)"));
    Result<ConnectionProfile> profile = profileNamed(context, parser.positionalArguments().at(0));
    if (!profile)
        return context.fail(profile.error());
    if (const int kept = keepPassword(context, profile.value()); kept != ExitOk)
        return kept;
    const Status updated = ConnectionProfileRepository(*store).update(profile.value());
    return updated ? ExitOk : context.fail(updated.error());
}

int listRemotes(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("remote list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<ConnectionProfile>> list = ConnectionProfileRepository(*store).list();
    if (!list)
        return context.fail(list.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const ConnectionProfile &profile : list.value()) {
        const QString url = ConnectionUrl::format(profile);
        const QString password = passwordSource(profile);
        array << QJsonObject{{QStringLiteral("name"), profile.name},
                             {QStringLiteral("kind"), enumName(profile.kind)},
                             {QStringLiteral("url"), url},
                             {QStringLiteral("password"), password}};
        rows << QStringList{profile.name, enumName(profile.kind), url, password};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("NAME"), QStringLiteral("KIND"), QStringLiteral("URL"),
                            QStringLiteral("PASSWORD")},
                           rows);
    return ExitOk;
}

int removeRemote(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("remote rm NAME"), {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    const Result<ConnectionProfile> profile =
        profileNamed(context, parser.positionalArguments().at(0));
    if (!profile)
        return context.fail(profile.error());
    if (const Status removed = ConnectionProfileRepository(*store).remove(profile->name); !removed)
        return context.fail(removed.error());
    if (const Status forgotten = ConnectionSecrets().forget(profile.value()); !forgotten)
        context.err() << "warning: " << forgotten.error().message << '\n';
    return ExitOk;
}

int testRemote(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("remote test NAME [--json]"),
                                   {QStringLiteral("NAME")}, true);
    if (!store)
        return context.exitCode();
    const Result<ConnectionProfile> profile =
        profileNamed(context, parser.positionalArguments().at(0));
    if (!profile)
        return context.fail(profile.error());
    const Result<RemoteInfo> info = RemoteProbe::test(profile.value());
    if (!info)
        return context.fail(info.error());
    if (context.json()) {
        context.printJson(info->toJson());
        return ExitOk;
    }
    // What the server said, line by line, escaped: a server is text from outside.
    for (const QString &line : info->summary(profile.value()).split(QLatin1Char('\n')))
        context.out() << terminaltext::escaped(line) << '\n';
    return ExitOk;
}

} // namespace

int runRemoteCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addRemote(context, args);
    if (verb == QLatin1String("list"))
        return listRemotes(context, args);
    if (verb == QLatin1String("rm"))
        return removeRemote(context, args);
    if (verb == QLatin1String("test"))
        return testRemote(context, args);
    if (verb == QLatin1String("password"))
        return setPassword(context, args);
    return runRemoteCatalogCommand(context, verb, args);
}

} // namespace hg
