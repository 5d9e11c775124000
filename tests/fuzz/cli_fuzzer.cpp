// libFuzzer target for the command-line parser: the input is split into argv words (at NUL
// and newline bytes) and parsed; no command runs. The subcommand entry points are stand-ins
// here that parse their words through CliContext's shared rules as the real ones do, and
// never open a store. No input may crash, hang or trip a sanitizer; the exit code is one of
// 0, 1, 2; a line the parser routes to a subcommand is one main() sees as a subcommand (else
// the desktop application would start instead); and when CliContext::parse() refuses, it has
// printed the error or the help text.
#include "cli/clicontext.h"
#include "cli/commandline.h"
#include "cli/subcommands.h"
#include "domain/enums.h"
#include "fuzzcheck.h"

#include <QCoreApplication>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace hg;

namespace {

bool routed = false;

// The options the subcommands take (app/cli/usage.txt), with a value or as a switch.
const char *const valueOptions[] = {
    "after",      "arg",     "chain",      "client",  "command", "connection",   "database",
    "dialect",    "env",     "from",       "host",    "into",    "keychain-key", "kind",
    "misfire",    "on-exit", "on-failure", "options", "order",   "output",       "param",
    "parameters", "project", "schedule",   "since",   "state",   "to",           "tz",
    "url",        "user",    "when",       "workdir", "worker",  "priority"};
const char *const wholeNumberOptions[] = {
    "count",   "keep-days",   "keep-failed-days", "keep-failed-runs", "keep-runs",
    "lease",   "limit",       "max-instances",    "parallel",         "port",
    "retries", "retry-delay", "timeout"};
const char *const switches[] = {"disabled",     "dry-run",        "exclusive",     "failed",
                                "failed-only",  "follow",         "force",         "forget",
                                "ignore-error", "password-stdin", "self-destruct", "wait"};

QCommandLineOption option(const char *name, bool takesValue)
{
    const QString text = QString::fromLatin1(name);
    return takesValue ? QCommandLineOption(text, text, QStringLiteral("VALUE"))
                      : QCommandLineOption(text, text);
}

int parseLikeASubcommand(CliContext &context, const QString &verb, const QStringList &args)
{
    routed = true;
    QCommandLineParser parser;
    for (const char *name : valueOptions)
        parser.addOption(option(name, true));
    QList<QCommandLineOption> wholeNumbers;
    for (const char *name : wholeNumberOptions) {
        wholeNumbers << option(name, true);
        parser.addOption(wholeNumbers.constLast());
    }
    for (const char *name : switches)
        parser.addOption(option(name, false));
    // Commands that list take --json; the ones that change something do not.
    const bool listing = verb != QLatin1String("add") && verb != QLatin1String("rm");
    const qsizetype outBefore = context.out().string()->size();
    const qsizetype errBefore = context.err().string()->size();
    if (!context.parse(parser, args, QStringLiteral("GROUP VERB ARG [ARG [ARG]]"), listing)) {
        const bool printed =
            context.exitCode() == ExitOk
                ? context.out().string()->size() > outBefore
                : context.exitCode() == ExitUsage && context.err().string()->size() > errBefore;
        if (!printed)
            HG_FUZZ_FAIL();
        return context.exitCode();
    }
    if (!context.expectPositionals(
            parser, {QStringLiteral("ARG"), QStringLiteral("ARG"), QStringLiteral("ARG")}, 3))
        return context.exitCode();
    for (const QCommandLineOption &wholeNumber : wholeNumbers) {
        int value = 0;
        if (!context.intOption(parser, wholeNumber, value, 1))
            return ExitUsage;
        if (parser.isSet(wholeNumber) && value < 1)
            HG_FUZZ_FAIL();
    }
    Priority priority = Priority::Medium;
    if (!context.enumOption(parser, option("priority", true), priority))
        return ExitUsage;
    return ExitOk;
}

} // namespace

// The stand-ins for app/cli/*commands.cpp, which would execute what they parse.
namespace hg {
#define HG_FUZZ_GROUP(function)                                                                    \
    int function(CliContext &context, const QString &verb, const QStringList &args)                \
    {                                                                                              \
        return parseLikeASubcommand(context, verb, args);                                          \
    }
HG_FUZZ_GROUP(runProjectCommand)
HG_FUZZ_GROUP(runChainCommand)
HG_FUZZ_GROUP(runTaskCommand)
HG_FUZZ_GROUP(runDependencyCommand)
HG_FUZZ_GROUP(runCronCommand)
HG_FUZZ_GROUP(runScheduleCommand)
HG_FUZZ_GROUP(runCalendarCommand)
HG_FUZZ_GROUP(runConnectionCommand)
HG_FUZZ_GROUP(runRetentionCommand)
HG_FUZZ_GROUP(runAlertCommand)
HG_FUZZ_GROUP(runRemoteCommand)
HG_FUZZ_GROUP(runRemoteCatalogCommand)
HG_FUZZ_GROUP(runStoreCommand)
HG_FUZZ_GROUP(runEngineCommand)
HG_FUZZ_GROUP(runChannelCommand)
HG_FUZZ_GROUP(runNotifyCommand)
HG_FUZZ_GROUP(runTriggerCommand)
HG_FUZZ_GROUP(runTokenCommand)
HG_FUZZ_GROUP(runApiCommand)
#undef HG_FUZZ_GROUP

int runExportCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}

int runImportCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}

int runBackupCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}

int runRestoreCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}

int runOccurrencesCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}

int runMissedCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}

int runDeliveriesCommand(CliContext &context, const QStringList &args)
{
    return parseLikeASubcommand(context, {}, args);
}
} // namespace hg

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    // As in main(): the help text asks the application for its name.
    static QCoreApplication application(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size > 1024)
        return 0;
    QStringList arguments{QStringLiteral("hourglass")};
    QByteArray word;
    for (std::size_t i = 0; i <= size; ++i) {
        if (i == size || data[i] == '\0' || data[i] == '\n') {
            arguments << QString::fromUtf8(word);
            word.clear();
        } else {
            word += char(data[i]);
        }
    }
    const bool wantsSubcommand = CommandLine::wantsSubcommand(arguments);
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    routed = false;
    const int exitCode = CommandLine(out, err).run(arguments);
    if (exitCode != ExitOk && exitCode != ExitFailure && exitCode != ExitUsage)
        HG_FUZZ_FAIL();
    if (routed && !wantsSubcommand)
        HG_FUZZ_FAIL();
    return 0;
}
