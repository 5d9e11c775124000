#pragma once

#include <QCommandLineParser>
#include <QStringList>

namespace hg {

class CliContext;
class Store;
struct Task;
struct ConnectionProfile;
struct ChainTrigger;

// One entry point per group of subcommands; each returns the process exit code.
// args are the words after "GROUP VERB".
int runProjectCommand(CliContext &context, const QString &verb, const QStringList &args);
int runChainCommand(CliContext &context, const QString &verb, const QStringList &args);
int runTaskCommand(CliContext &context, const QString &verb, const QStringList &args);
int runDependencyCommand(CliContext &context, const QString &verb, const QStringList &args);
int runCronCommand(CliContext &context, const QString &verb, const QStringList &args);
int runScheduleCommand(CliContext &context, const QString &verb, const QStringList &args);
int runCalendarCommand(CliContext &context, const QString &verb, const QStringList &args);
int runConnectionCommand(CliContext &context, const QString &verb, const QStringList &args);
int runRetentionCommand(CliContext &context, const QString &verb, const QStringList &args);
// alert show|set|clear PROJECT/CHAIN: lateness and duration alerts.
int runAlertCommand(CliContext &context, const QString &verb, const QStringList &args);
// remote add|list|rm|test|password, then the catalog verbs (chains, show, runs, …).
int runRemoteCommand(CliContext &context, const QString &verb, const QStringList &args);
int runRemoteCatalogCommand(CliContext &context, const QString &verb, const QStringList &args);
// The catalog verbs on a pgAgent remote.
int runPgAgentCommand(CliContext &context, const ConnectionProfile &profile, const QString &verb,
                      const QStringList &args);
// The catalog verbs on a DolphinScheduler remote.
int runDolphinSchedulerCommand(CliContext &context, const ConnectionProfile &profile,
                               const QString &verb, const QStringList &args);
// channel add|list|set|test|rm (channelcommands.cpp), notify add|list|rm (notifycommands.cpp).
int runChannelCommand(CliContext &context, const QString &verb, const QStringList &args);
int runNotifyCommand(CliContext &context, const QString &verb, const QStringList &args);
// trigger add|list|rm|pause|resume: chains started by other chains' ends.
int runTriggerCommand(CliContext &context, const QString &verb, const QStringList &args);
// trigger add --webhook, and the hook's secret forgotten with its trigger
// (webhooktriggercommands.cpp).
int addWebhookTrigger(CliContext &context, Store &store, const QCommandLineParser &parser);
void forgetWebhookSecret(CliContext &context, const ChainTrigger &trigger);
// api status: where the local API is served (apicommands.cpp).
int runApiCommand(CliContext &context, const QString &verb, const QStringList &args);
// token add|list|rm: the local API's tokens (tokencommands.cpp).
int runTokenCommand(CliContext &context, const QString &verb, const QStringList &args);
// After removing tasks: the SendMail passwords only they named are forgotten
// (SendMailPasswords); one that could not be is said on stderr (taskcommands.cpp).
void forgetSendMailPasswords(CliContext &context, Store &store, const QList<Task> &removed);
// deliveries: the notification outbox.
int runDeliveriesCommand(CliContext &context, const QStringList &args);
int runStoreCommand(CliContext &context, const QString &verb, const QStringList &args);
// serve, run; the others of engineCommands go on to runRunCommand.
int runEngineCommand(CliContext &context, const QString &command, const QStringList &args);
// runs, logs, stop, pause, resume, rerun, backfill, engines: COMMAND ARGS (runcommands.cpp).
int runRunCommand(CliContext &context, const QString &command, const QStringList &args);
// export and import take no verb.
int runExportCommand(CliContext &context, const QStringList &args);
int runImportCommand(CliContext &context, const QStringList &args);
// backup and restore neither: a SQLite store's file as a whole.
int runBackupCommand(CliContext &context, const QStringList &args);
// occurrences PROJECT/CHAIN: the ledger; missed [run|dismiss]: the missed-runs inbox.
int runOccurrencesCommand(CliContext &context, const QStringList &args);
int runMissedCommand(CliContext &context, const QStringList &args);
int runRestoreCommand(CliContext &context, const QStringList &args);

} // namespace hg
