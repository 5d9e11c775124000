#include "base/terminaltext.h"
#include "clicontext.h"
#include "importers/foreignimport.h"
#include "store/projectimporter.h"
#include "subcommands.h"

#include <QFile>

namespace hg {

int runImportCommand(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption from(
        QStringLiteral("from"),
        QStringLiteral(
            "What FILE is: hourglass (an export, the default), crontab, windows-task "
            "(schtasks /query /xml) or systemd (a .timer or .path; its .service is read from "
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
    const QStringList kinds = QStringList{QStringLiteral("hourglass")} + ForeignImport::names();
    if (!kinds.contains(kind))
        return context.usage(QStringLiteral("--from: '%1' is not one of %2")
                                 .arg(kind, kinds.join(QStringLiteral(", "))));
    if (kind == QLatin1String("systemd")
        && parser.positionalArguments().value(0) == QLatin1String("-"))
        return context.usage(QStringLiteral(
            "--from systemd reads a .timer or .path file and the .service beside it, not "
            "standard input"));
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
        for (const QString &note : summary->notes)
            context.out() << "  " << terminaltext::escaped(note) << '\n';
        context.out().flush();
        return ExitOk;
    }

    ForeignImport::Request request;
    request.kind = *ForeignImport::kindNamed(kind);
    request.bytes = bytes;
    request.path = path;
    request.project = parser.isSet(into) ? parser.value(into) : kind;
    request.userColumn = parser.isSet(userColumn);
    const Result<ImportedDefinitions> converted = ForeignImport::convert(*store, request);
    if (!converted)
        return context.fail(converted.error());
    const ImportedDefinitions &imported = converted.value();
    // On an error nothing was written: the report would claim chains that are not there.
    if (const Status written = ForeignImport::write(*store, imported, checkOnly); !written)
        return context.fail(written.error());
    if (context.json())
        context.printJson(imported.report.toJson(imported.project, checkOnly));
    else
        context.out() << imported.report.toText(imported.project, checkOnly);
    context.out().flush();
    if (imported.report.inputUnreadable())
        return ExitUsage; // 2: the input as a whole could not be read, as for a missing file
    return imported.report.leftSomethingOut() ? ExitFailure : ExitOk;
}

} // namespace hg
