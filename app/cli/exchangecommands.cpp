#include "base/outputfile.h"
#include "base/terminaltext.h"
#include "clicontext.h"
#include "store/projectexporter.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace hg {

int runExportCommand(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")},
                                    QStringLiteral("Write to FILE instead of standard output."),
                                    QStringLiteral("FILE"));
    parser.addOption(output);
    if (!context.parse(parser, args, QStringLiteral("export [PROJECT[/CHAIN]] [--output FILE]"))
        || !context.expectPositionals(parser, {QStringLiteral("PROJECT[/CHAIN]")}, 1))
        return context.exitCode();
    // A damaged store is where an export matters most: what can be read is saved.
    Store::Options readWhatCanBeRead;
    readWhatCanBeRead.readOnlyWhenDamaged = true;
    const Result<Store *> opened = context.store(readWhatCanBeRead);
    if (!opened)
        return context.fail(opened.error());
    Store *store = opened.value();
    ProjectExporter exporter(*store);
    QStringList unreadable;
    if (store->isReadOnly())
        exporter.salvageInto(&unreadable);
    Result<QJsonObject> document = QJsonObject();
    if (parser.positionalArguments().isEmpty()) {
        document = exporter.exportAll();
    } else {
        const QString scope = parser.positionalArguments().at(0);
        const qsizetype slash = scope.indexOf(QLatin1Char('/'));
        document = slash < 0 ? exporter.exportProject(scope)
                             : exporter.exportProject(scope.left(slash), scope.mid(slash + 1));
    }
    if (!document)
        return context.fail(document.error());
    // Channels travel without their secrets: said, so that nobody is surprised on the other side.
    for (const QJsonValue channel : document->value(QLatin1String("channels")).toArray())
        if (channel.toObject().value(QLatin1String("secretsLeftBehind")).toBool())
            context.err() << "hourglass: channel '"
                          << terminaltext::escaped(
                                 channel.toObject().value(QLatin1String("name")).toString())
                          << "' is exported without its secrets (they stay in this machine's "
                             "keychain)\n";
    // So do SendMail tasks' passwords.
    for (const QJsonValue project : document->value(QLatin1String("projects")).toArray())
        for (const QJsonValue chain : project.toObject().value(QLatin1String("chains")).toArray())
            for (const QJsonValue task : chain.toObject().value(QLatin1String("tasks")).toArray())
                if (task.toObject().value(QLatin1String("passwordLeftBehind")).toBool())
                    context.err() << "hourglass: task "
                                  << terminaltext::escaped(
                                         project.toObject().value(QLatin1String("name")).toString()
                                         + QLatin1Char('/')
                                         + chain.toObject().value(QLatin1String("name")).toString()
                                         + QLatin1Char('/')
                                         + task.toObject().value(QLatin1String("name")).toString())
                                  << " is exported without its SendMail password (it stays in this "
                                     "machine's keychain)\n";
    const QByteArray bytes = QJsonDocument(document.value()).toJson(QJsonDocument::Indented);
    if (!parser.isSet(output)) {
        context.out() << bytes;
        context.out().flush();
    } else {
        // A failed write leaves any earlier file as it was; a device or FIFO is written as a
        // shell redirection would, never replaced.
        OutputFile file(parser.value(output), OutputFile::Special::WriteDirectly);
        Status written = store->refuseAsTarget(parser.value(output));
        if (written)
            written = file.open();
        if (written && !file.write(bytes))
            written = Error::runtime(QStringLiteral("cannot write %1: %2")
                                         .arg(parser.value(output), file.errorString()));
        if (written)
            written = file.commit();
        if (!written)
            return context.fail(written.error());
    }
    if (!store->isReadOnly())
        return ExitOk;
    // Written, yet the store stays damaged: a script must not take this for a clean export.
    return context.fail(Error::damaged(
        QStringLiteral("store %1 is damaged: %2; exported what could still be read%3")
            .arg(store->location().displayName(), store->damage(),
                 unreadable.isEmpty()
                     ? QString()
                     : QStringLiteral(", left out: ") + unreadable.join(QLatin1String("; ")))));
}

} // namespace hg
