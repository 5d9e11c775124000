#include "clicontext.h"
#include "singleinstance.h"
#include "store/storebackup.h"
#include "store/storerestore.h"
#include "subcommands.h"

#include <QDateTime>
#include <QFileInfo>

namespace hg {
namespace {

QString megabytes(qint64 bytes)
{
    return QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 1);
}

} // namespace

int runBackupCommand(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption output(
        {QStringLiteral("o"), QStringLiteral("output")},
        QStringLiteral("Write the backup to FILE (default: beside the store, "
                       "NAME-backup-YYYYMMDD-HHMMSS.db). An existing file is never replaced."),
        QStringLiteral("FILE"));
    parser.addOption(output);
    if (!context.parse(parser, args, QStringLiteral("backup [--output FILE]"))
        || !context.expectPositionals(parser, {}))
        return context.exitCode();
    const Result<StoreLocation> location = StoreLocation::resolve(context.storeArgument());
    if (!location)
        return context.fail(location.error());
    if (location->backend() != StoreBackend::Sqlite)
        return context.fail(Error::invalid(StoreBackup::postgresAdvice(location.value())));
    // A backup never creates the store it is asked to copy.
    if (!QFileInfo(location->sqlitePath()).isFile())
        return context.fail(
            Error::notFound(QStringLiteral("no store at %1").arg(location->sqlitePath())));
    // As it is: a backup taken before an upgrade must not migrate the store first.
    Store::Options asItIs;
    asItIs.mode = Store::OpenMode::AsIs;
    const Result<Store *> store = context.store(asItIs);
    if (!store)
        return context.fail(store.error());
    const QString target =
        parser.isSet(output)
            ? parser.value(output)
            : StoreBackup::defaultPath(location.value(), QDateTime::currentDateTime());
    const Result<StoreBackup::Written> written = StoreBackup::write(*store.value(), target);
    if (!written)
        return context.fail(written.error());
    context.out() << written->path << '\n';
    context.out().flush();
    context.err() << QStringLiteral("hourglass: backup of %1 written and checked (%2, %3 s)\n")
                         .arg(location->displayName(), megabytes(written->bytes))
                         .arg(double(written->elapsedMs) / 1000.0, 0, 'f', 1);
    context.err().flush();
    return ExitOk;
}

int runRestoreCommand(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption force(
        QStringLiteral("force"),
        QStringLiteral("Restore even when the store is too damaged to tell whether an engine "
                       "serves it (make sure none does)."));
    parser.addOption(force);
    if (!context.parse(parser, args, QStringLiteral("restore FILE [--force]"))
        || !context.expectPositionals(parser, {QStringLiteral("FILE")}))
        return context.exitCode();
    const Result<StoreLocation> location = StoreLocation::resolve(context.storeArgument());
    if (!location)
        return context.fail(location.error());
    if (location->backend() != StoreBackend::Sqlite)
        return context.fail(Error::invalid(StoreBackup::postgresAdvice(location.value())));
    // A window on the store keeps reading (and writing) the file it opened.
    if (SingleInstance::isRunning(location->displayName()))
        return context.fail(Error::runtime(
            QStringLiteral("a Hourglass window has %1 open; quit it first, or restore from "
                           "its File menu")
                .arg(location->displayName())));
    const QString backup = parser.positionalArguments().at(0);
    const Result<StoreRestore::Restored> restored =
        StoreRestore::restore(location.value(), backup, parser.isSet(force));
    if (!restored)
        return context.fail(restored.error());
    context.out() << QStringLiteral("restored %1 from %2")
                         .arg(location->displayName(), QFileInfo(backup).absoluteFilePath());
    if (!restored->keptAs.isEmpty())
        context.out()
            << QStringLiteral("; the store it replaced is kept as %1").arg(restored->keptAs);
    context.out() << '\n';
    context.out().flush();
    return ExitOk;
}

} // namespace hg
