#include "clicontext.h"
#include "importers/crontabimporter.h"
#include "importers/systemdtimerimporter.h"
#include "importers/windowstaskimporter.h"
#include "store/chainrepository.h"
#include "store/projectimporter.h"
#include "store/projectrepository.h"
#include "subcommands.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <pwd.h>
#include <unistd.h>

namespace hg {
namespace {

// The chain names the project has already, so imported ones never collide.
Result<QSet<QString>> chainNamesIn(Store &store, const QString &project)
{
    const Result<Project> stored = ProjectRepository(store).byName(project);
    if (!stored)
        return stored.error().kind == ErrorKind::NotFound ? Result<QSet<QString>>(QSet<QString>())
                                                          : Result<QSet<QString>>(stored.error());
    const Result<QList<Chain>> chains = ChainRepository(store).list(stored->id);
    if (!chains)
        return chains.error();
    QSet<QString> names;
    for (const Chain &chain : chains.value())
        names.insert(chain.name);
    return names;
}

QString currentUser()
{
    // The CLI's one thread asks, once per import.
    const passwd *entry = ::getpwuid(::getuid()); // NOLINT(concurrency-mt-unsafe)
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QString::number(::getuid());
}

} // namespace

int runImportCommand(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption from(
        QStringLiteral("from"),
        QStringLiteral("What FILE is: hourglass (an export, the default), crontab, windows-task "
                       "(schtasks /query /xml) or systemd (a .timer; its .service is read from "
                       "beside it)."),
        QStringLiteral("KIND"), QStringLiteral("hourglass"));
    const QCommandLineOption into(QStringLiteral("into"),
                                  QStringLiteral("The project the chains go to."),
                                  QStringLiteral("PROJECT"));
    const QCommandLineOption dryRun(
        QStringLiteral("dry-run"), QStringLiteral("Report what would be imported; write nothing."));
    const QCommandLineOption userColumn(
        QStringLiteral("user-column"),
        QStringLiteral("A crontab with a user on each line (/etc/crontab and /etc/cron.d files "
                       "are read so anyway)."));
    parser.addOptions({from, into, dryRun, userColumn});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral(
            "import FILE|- [--from hourglass|crontab|windows-task|systemd] [--into PROJECT] "
            "[--user-column] [--dry-run] [--json]"),
        {QStringLiteral("FILE")}, true);
    if (!store)
        return context.exitCode();
    const QString kind = parser.value(from);
    const QStringList kinds{QStringLiteral("hourglass"), QStringLiteral("crontab"),
                            QStringLiteral("windows-task"), QStringLiteral("systemd")};
    if (!kinds.contains(kind))
        return context.usage(QStringLiteral("--from: '%1' is not one of %2")
                                 .arg(kind, kinds.join(QStringLiteral(", "))));
    if (kind == QLatin1String("systemd")
        && parser.positionalArguments().value(0) == QLatin1String("-"))
        return context.usage(QStringLiteral(
            "--from systemd reads a .timer file and the .service beside it, not standard input"));
    if (kind == QLatin1String("hourglass") && (parser.isSet(into) || parser.isSet(userColumn)))
        return context.usage(QStringLiteral(
            "--into and --user-column are for foreign files: an export names its projects"));

    const QString path = parser.positionalArguments().at(0);
    QFile file;
    const bool opened = path == QLatin1String("-")
                            ? file.open(stdin, QIODevice::ReadOnly)
                            : (file.setFileName(path), file.open(QIODevice::ReadOnly));
    if (!opened) {
        context.fail(
            Error::invalid(QStringLiteral("cannot read %1: %2").arg(path, file.errorString())));
        return ExitUsage; // unreadable input: 2, as the import report promises
    }
    const QByteArray bytes = file.readAll();
    ProjectImporter importer(*store);
    const bool checkOnly = parser.isSet(dryRun);

    if (kind == QLatin1String("hourglass")) {
        const Result<ProjectImporter::Summary> summary =
            checkOnly ? importer.checkDocument(bytes) : importer.importDocument(bytes);
        if (!summary)
            return context.fail(summary.error());
        context.out() << (checkOnly ? "would import " : "imported ") << summary->projects
                      << " project(s), " << summary->chains << " chain(s), " << summary->tasks
                      << " task(s), " << summary->schedules << " schedule(s)\n";
        context.out().flush();
        return ExitOk;
    }

    const QString project = parser.isSet(into) ? parser.value(into) : kind;
    const Result<QSet<QString>> taken = chainNamesIn(*store, project);
    if (!taken)
        return context.fail(taken.error());
    ImportedDefinitions imported;
    if (kind == QLatin1String("crontab")) {
        CrontabImporter::Options options;
        options.project = project;
        options.userColumn = parser.isSet(userColumn) || CrontabImporter::hasUserColumn(path);
        options.currentUser = currentUser();
        options.homeDirectory = QDir::homePath();
        options.takenChainNames = taken.value();
        const QString source = path == QLatin1String("-") ? QStringLiteral("crontab") : path;
        imported = CrontabImporter().convert(bytes, source, options);
    } else if (kind == QLatin1String("windows-task")) {
        WindowsTaskImporter::Options options;
        options.project = project;
        options.takenChainNames = taken.value();
        imported = WindowsTaskImporter().convert(
            bytes, path == QLatin1String("-") ? QStringLiteral("task.xml") : path, options);
    } else {
        SystemdTimerImporter::Options options;
        options.project = project;
        options.currentUser = currentUser();
        options.homeDirectory = QDir::homePath();
        options.takenChainNames = taken.value();
        const QString servicePath = SystemdTimerImporter::servicePathFor(bytes, path);
        QFile service(servicePath);
        const QByteArray serviceText =
            service.open(QIODevice::ReadOnly) ? service.readAll() : QByteArray();
        imported = SystemdTimerImporter().convert(bytes, path, serviceText, servicePath, options);
    }
    if (!imported.chains.isEmpty()) {
        const QByteArray document = QJsonDocument(imported.document()).toJson();
        const Result<ProjectImporter::Summary> written =
            checkOnly ? importer.checkDocument(document) : importer.importDocument(document);
        if (!written) // nothing was written: the report would claim chains that are not there
            return context.fail(written.error());
    }
    if (context.json())
        context.printJson(imported.report.toJson(imported.project, checkOnly));
    else
        context.out() << imported.report.toText(imported.project, checkOnly);
    context.out().flush();
    return imported.report.leftSomethingOut() ? ExitFailure : ExitOk;
}

} // namespace hg
