#include "clicontext.h"
#include "remote/keychain.h"
#include "remote/passwordfile.h"
#include "store/storelocation.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QFile>

#include <cstdio>

namespace hg {
namespace {

// `store password`: keeps the PostgreSQL store's password in the OS keychain (or ~/.pgpass
// where none runs), so the URL in --db, HOURGLASS_DB and the settings carries none.
int setStorePassword(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption passwordStdin(QStringLiteral("password-stdin"),
                                           QStringLiteral("Read the password from stdin."));
    const QCommandLineOption forget(QStringLiteral("forget"),
                                    QStringLiteral("Remove the kept password."));
    parser.addOptions({passwordStdin, forget});
    if (!context.parse(parser, args,
                       QStringLiteral("store password [--db URL] --password-stdin | --forget"))
        || !context.expectPositionals(parser, {}))
        return context.exitCode();
    const Result<StoreLocation> location = StoreLocation::resolve(context.storeArgument());
    if (!location)
        return context.fail(location.error());
    if (location->backend() != StoreBackend::PostgreSql)
        return context.usage(QStringLiteral("store password: %1 is a SQLite file, which has no "
                                            "password")
                                 .arg(location->displayName()));
    if (!location->url().password().isEmpty())
        return context.usage(QStringLiteral("store password: take the password out of the URL "
                                            "first; the keychain keeps it instead"));
    // The same fields libpq matches in ~/.pgpass.
    ConnectionProfile asProfile;
    asProfile.name = QStringLiteral("store");
    asProfile.host = location->url().host();
    asProfile.port = location->url().port(5432);
    asProfile.database = location->databaseName();
    asProfile.userName = location->url().userName();
    const Keychain keychain;
    if (parser.isSet(forget)) {
        const Status removed = keychain.remove(location->secretKey());
        if (!removed && removed.error().kind != ErrorKind::Unavailable)
            return context.fail(removed.error());
        const Status unfiled = PasswordFile::remove(asProfile);
        return unfiled ? ExitOk : context.fail(unfiled.error());
    }
    if (!parser.isSet(passwordStdin))
        return context.usage(QStringLiteral("store password needs --password-stdin or --forget "
                                            "(never a password in argv)"));
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return context.fail(Error::runtime(QStringLiteral("cannot read stdin")));
    QByteArray line = in.readLine();
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    if (line.isEmpty())
        return context.usage(QStringLiteral("--password-stdin: stdin gave no password"));
    const QString password = QString::fromUtf8(line);
    const Status kept = keychain.write(location->secretKey(), password);
    if (kept) {
        context.out() << "password for " << location->displayName() << " kept in the keychain\n";
        return ExitOk;
    }
    if (kept.error().kind != ErrorKind::Unavailable)
        return context.fail(kept.error());
    if (const Status written = PasswordFile::write(asProfile, password); !written)
        return context.fail(written.error());
    context.out() << "no keychain runs here; password for " << location->displayName()
                  << " kept in " << PasswordFile::pathFor(asProfile) << '\n';
    return ExitOk;
}

} // namespace

int runStoreCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("password"))
        return setStorePassword(context, args);
    return context.usage(QStringLiteral("unknown command 'store %1'; use password").arg(verb));
}

} // namespace hg
