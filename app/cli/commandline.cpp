#include "commandline.h"

#include "clicontext.h"
#include "domain/version.h"
#include "subcommands.h"

#include <QCommandLineParser>

namespace hg {
namespace {

const char usageText[] =
    "Usage: hourglass [--db PATH|URL] [COMMAND ...]\n"
    "\n"
    "Without a command, starts the desktop application (--minimized: in the tray only).\n"
    "\n"
    "Commands:\n"
    "  project add NAME | project list | project rm NAME [--force]\n"
    "  chain add PROJECT/CHAIN [--max-instances N] [--timeout SEC] [--exclusive]\n"
    "        [--self-destruct] [--client NAME] [--on-failure end|continue]\n"
    "        [--priority highest|high|medium|low|lowest] [--disabled]\n"
    "  chain list [--project P] | chain show PROJECT/CHAIN | chain rm PROJECT/CHAIN\n"
    "  task add PROJECT/CHAIN TASK --kind program|shell|sql|builtin|http|subchain --command CMD\n"
    "        [--arg A]... [--after TASK[:success|completion|failure]]... [--timeout SEC]\n"
    "        [--retries N] [--retry-delay SEC] [--ignore-error] [--env K=V]... [--workdir DIR]\n"
    "        [--connection NAME]\n"
    "  task list PROJECT/CHAIN | task rm PROJECT/CHAIN TASK\n"
    "  dep add PROJECT/CHAIN TASK UPSTREAM [--when success|completion|failure]\n"
    "  dep rm PROJECT/CHAIN TASK UPSTREAM\n"
    "  schedule add PROJECT/CHAIN EXPR [--dialect auto|unix|seconds|quartz|pgtimetable]\n"
    "        [--tz ZONE] [--misfire skip|once|all]\n"
    "  schedule list [PROJECT/CHAIN] | schedule rm ID\n"
    "  connection add NAME --kind sqlite|postgresql|mysql|... [--host H] [--port P]\n"
    "        [--database D] [--user U] [--options O] [--keychain-key K]\n"
    "  connection list | connection rm NAME\n"
    "  cron next EXPR [--dialect auto|unix|seconds|quartz|pgtimetable] [--tz ZONE]\n"
    "        [--from ISO8601] [--count N] [--json]\n"
    "  cron explain EXPR [--dialect ...] [--tz ZONE] [--json]\n"
    "  serve [--on-exit wait|stop]\n"
    "  run PROJECT/CHAIN [--param K=V]... [--wait]\n"
    "  runs [--chain PROJECT/CHAIN] [--state S] [--limit N] [--json]\n"
    "  logs RUN_ID [--follow]\n"
    "  stop RUN_ID | pause RUN_ID | resume RUN_ID | rerun RUN_ID [--failed-only]\n"
    "  backfill PROJECT/CHAIN --from ISO8601 --to ISO8601 [--parallel N]\n"
    "        [--order oldest|newest]\n"
    "  export [PROJECT[/CHAIN]] [--output FILE]\n"
    "  import FILE\n"
    "\n"
    "Listings take --json. Every command takes --db and --help.\n"
    "The store is --db, else $HOURGLASS_DB, else the file in the user's data directory.\n";

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
    m_out << usageText;
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
    const QString group = words.at(0);
    if (group == QLatin1String("export"))
        return runExportCommand(subcommand, words.mid(1));
    if (group == QLatin1String("import"))
        return runImportCommand(subcommand, words.mid(1));
    static const QStringList engineCommands{
        QStringLiteral("serve"),  QStringLiteral("run"),   QStringLiteral("runs"),
        QStringLiteral("logs"),   QStringLiteral("stop"),  QStringLiteral("pause"),
        QStringLiteral("resume"), QStringLiteral("rerun"), QStringLiteral("backfill")};
    if (engineCommands.contains(group))
        return runEngineCommand(subcommand, group, words.mid(1));

    using Runner = int (*)(CliContext &, const QString &, const QStringList &);
    const QList<std::pair<QLatin1StringView, Runner>> groups{
        {QLatin1StringView("project"), runProjectCommand},
        {QLatin1StringView("chain"), runChainCommand},
        {QLatin1StringView("task"), runTaskCommand},
        {QLatin1StringView("dep"), runDependencyCommand},
        {QLatin1StringView("schedule"), runScheduleCommand},
        {QLatin1StringView("connection"), runConnectionCommand},
        {QLatin1StringView("cron"), runCronCommand},
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
