#include "commandline.h"

#include "clicontext.h"
#include "domain/version.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QFile>

namespace hg {
namespace {

// The text lives in cli/usage.txt, compiled in as a resource: the build turns the same file
// into the manual page hourglass(1) and the bash completion, so the three cannot drift.
QString usageText()
{
    QFile file(QStringLiteral(":/cli/usage.txt"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

CommandLine::CommandLine(QTextStream &out, QTextStream &err)
    : m_out(out)
    , m_err(err)
{}

bool CommandLine::wantsSubcommand(const QStringList &arguments)
{
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &word = arguments.at(i);
        if (word == QLatin1String("--db")) {
            ++i; // its value
            continue;
        }
        if (!word.startsWith(QLatin1Char('-')))
            return true;
        if (word == QLatin1String("--help") || word == QLatin1String("-h")
            || word == QLatin1String("--version") || word == QLatin1String("-v"))
            return true;
    }
    return false;
}

int CommandLine::printUsage()
{
    m_out << usageText();
    m_out.flush();
    return ExitOk;
}

int CommandLine::run(const QStringList &arguments)
{
    QCommandLineParser global;
    global.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption db(QStringLiteral("db"), {}, QStringLiteral("PATH|URL"));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, {});
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")}, {});
    global.addOptions({db, help, version});
    CliContext context(m_out, m_err, {});
    if (!global.parse(arguments))
        return context.usage(global.errorText());
    if (global.isSet(version)) {
        m_out << "hourglass " << versionString() << '\n';
        m_out.flush();
        return ExitOk;
    }
    const QStringList words = global.positionalArguments();
    if (global.isSet(help) || words.isEmpty())
        return printUsage();

    CliContext subcommand(m_out, m_err, global.value(db));
    const QString &group = words.at(0);
    if (group == QLatin1String("export"))
        return runExportCommand(subcommand, words.mid(1));
    if (group == QLatin1String("import"))
        return runImportCommand(subcommand, words.mid(1));
    if (group == QLatin1String("backup"))
        return runBackupCommand(subcommand, words.mid(1));
    if (group == QLatin1String("restore"))
        return runRestoreCommand(subcommand, words.mid(1));
    if (group == QLatin1String("occurrences"))
        return runOccurrencesCommand(subcommand, words.mid(1));
    if (group == QLatin1String("deliveries"))
        return runDeliveriesCommand(subcommand, words.mid(1));
    if (group == QLatin1String("missed"))
        return runMissedCommand(subcommand, words.mid(1));
    static const QStringList engineCommands{QStringLiteral("serve"),    QStringLiteral("run"),
                                            QStringLiteral("runs"),     QStringLiteral("logs"),
                                            QStringLiteral("stop"),     QStringLiteral("pause"),
                                            QStringLiteral("resume"),   QStringLiteral("rerun"),
                                            QStringLiteral("backfill"), QStringLiteral("engines")};
    if (engineCommands.contains(group))
        return runEngineCommand(subcommand, group, words.mid(1));

    using Runner = int (*)(CliContext &, const QString &, const QStringList &);
    const QList<std::pair<QLatin1StringView, Runner>> groups{
        {QLatin1StringView("project"), runProjectCommand},
        {QLatin1StringView("chain"), runChainCommand},
        {QLatin1StringView("task"), runTaskCommand},
        {QLatin1StringView("dep"), runDependencyCommand},
        {QLatin1StringView("schedule"), runScheduleCommand},
        {QLatin1StringView("calendar"), runCalendarCommand},
        {QLatin1StringView("connection"), runConnectionCommand},
        {QLatin1StringView("cron"), runCronCommand},
        {QLatin1StringView("retention"), runRetentionCommand},
        {QLatin1StringView("alert"), runAlertCommand},
        {QLatin1StringView("remote"), runRemoteCommand},
        {QLatin1StringView("store"), runStoreCommand},
        {QLatin1StringView("channel"), runChannelCommand},
        {QLatin1StringView("notify"), runNotifyCommand},
        {QLatin1StringView("trigger"), runTriggerCommand},
        {QLatin1StringView("token"), runTokenCommand},
        {QLatin1StringView("api"), runApiCommand},
    };
    for (const auto &[name, runner] : groups) {
        if (group != name)
            continue;
        if (words.size() < 2 || words.at(1).startsWith(QLatin1Char('-'))) {
            if (words.size() >= 2
                && (words.at(1) == QLatin1String("--help") || words.at(1) == QLatin1String("-h")))
                return printUsage();
            return context.usage(QStringLiteral("'%1' needs a command").arg(group));
        }
        return runner(subcommand, words.at(1), words.mid(2));
    }
    return context.usage(QStringLiteral("unknown command '%1'").arg(group));
}

} // namespace hg
