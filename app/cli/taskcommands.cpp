#include "base/terminaltext.h"
#include "clicontext.h"
#include "domain/jsonfieldreader.h"
#include "notify/channelsecrets.h"
#include "notify/sendmailpasswords.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/taskrepository.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace hg {
namespace {

struct UpstreamSpec
{
    QString task;
    DependencyCondition condition = DependencyCondition::Success;
};

// "--after TASK[:success|completion|failure]". A task's own name may hold a colon ("db:load"):
// the text after the last one is a condition only when it names one.
UpstreamSpec parseAfter(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon > 0) {
        if (const auto condition = enumFromString<DependencyCondition>(text.mid(colon + 1)))
            return {text.left(colon), *condition};
    }
    return {text, DependencyCondition::Success};
}

int addTask(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption kind(QStringLiteral("kind"), enumChoices<TaskKind>(),
                                  QStringLiteral("KIND"));
    const QCommandLineOption command(QStringLiteral("command"),
                                     QStringLiteral("Program, shell text, SQL, builtin name, URL "
                                                    "or PROJECT/CHAIN."),
                                     QStringLiteral("CMD"));
    const QCommandLineOption argument(
        QStringLiteral("arg"), QStringLiteral("An argument (repeatable)."), QStringLiteral("A"));
    const QCommandLineOption after(QStringLiteral("after"),
                                   QStringLiteral("Run after TASK (repeatable)."),
                                   QStringLiteral("TASK[:success|completion|failure]"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Seconds."),
                                     QStringLiteral("SEC"));
    const QCommandLineOption retries(QStringLiteral("retries"),
                                     QStringLiteral("Attempts after the first."),
                                     QStringLiteral("N"));
    const QCommandLineOption retryDelay(QStringLiteral("retry-delay"),
                                        QStringLiteral("Seconds before the first retry."),
                                        QStringLiteral("SEC"));
    const QCommandLineOption ignoreError(QStringLiteral("ignore-error"),
                                         QStringLiteral("A failure counts as success."));
    const QCommandLineOption environment(QStringLiteral("env"),
                                         QStringLiteral("Environment variable (repeatable)."),
                                         QStringLiteral("K=V"));
    const QCommandLineOption workdir(QStringLiteral("workdir"),
                                     QStringLiteral("Working directory."), QStringLiteral("DIR"));
    const QCommandLineOption connection(QStringLiteral("connection"),
                                        QStringLiteral("Connection profile of an sql task."),
                                        QStringLiteral("NAME"));
    const QCommandLineOption passwordStdin(
        QStringLiteral("password-stdin"),
        QStringLiteral("A SendMail builtin's SMTP password, read from stdin and kept apart from "
                       "the store."));
    parser.addOptions({kind, command, argument, after, timeout, retries, retryDelay, ignoreError,
                       environment, workdir, connection, passwordStdin});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("task add PROJECT/CHAIN TASK --kind KIND --command CMD [--arg A]... "
                       "[--after TASK[:CONDITION]]... [--timeout SEC] [--retries N] "
                       "[--retry-delay SEC] [--ignore-error] [--env K=V]... [--workdir DIR] "
                       "[--connection NAME] [--password-stdin]"),
        {QStringLiteral("PROJECT/CHAIN"), QStringLiteral("TASK")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(kind))
        return context.usage(QStringLiteral("missing --kind (%1)").arg(enumChoices<TaskKind>()));
    if (!parser.isSet(command))
        return context.usage(QStringLiteral("missing --command"));

    Task task;
    task.name = parser.positionalArguments().at(1);
    task.command = parser.value(command);
    task.arguments = parser.values(argument);
    task.workingDirectory = parser.value(workdir);
    task.connectionName = parser.value(connection);
    task.ignoreError = parser.isSet(ignoreError);
    if (!context.enumOption(parser, kind, task.kind)
        || !context.intOption(parser, timeout, task.timeoutSeconds)
        || !context.intOption(parser, retries, task.maxRetries)
        || !context.intOption(parser, retryDelay, task.retryDelaySeconds))
        return context.exitCode();
    for (const QString &pair : parser.values(environment)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return context.usage(QStringLiteral("--env %1: expected NAME=VALUE").arg(pair));
        task.environment.insert(pair.left(equals), pair.mid(equals + 1));
    }
    QList<UpstreamSpec> upstreams;
    for (const QString &text : parser.values(after))
        upstreams << parseAfter(text);
    // The password goes to the keychain (or a 0600 file), the argument names its key only.
    QString passwordKey;
    if (parser.isSet(passwordStdin)) {
        const std::optional<QJsonObject> object =
            JsonFieldReader::parseObject(task.arguments.value(0));
        if (task.kind != TaskKind::Builtin || task.command != QLatin1String("SendMail") || !object)
            return context.usage(QStringLiteral("--password-stdin is for a SendMail builtin "
                                                "(--kind builtin --command SendMail --arg '{…}')"));
        if (QUrl(object->value(QLatin1String("server")).toString()).userName().isEmpty())
            return context.usage(QStringLiteral("--password-stdin: the server names no user to "
                                                "log in as (smtp://USER@HOST)"));
        const Result<QString> password = CliContext::secretFromStdin(
            QStringLiteral("--password-stdin"), QStringLiteral("password"));
        if (!password)
            return context.fail(password.error());
        const Result<QString> key = ChannelSecrets().keepPassword(
            QStringLiteral("sendmail %1/%2").arg(parser.positionalArguments().at(0), task.name),
            password.value());
        if (!key)
            return context.fail(key.error());
        passwordKey = key.value();
        QJsonObject withKey = *object;
        withKey.insert(QStringLiteral("passwordKey"), passwordKey);
        task.arguments =
            QStringList{QString::fromUtf8(QJsonDocument(withKey).toJson(QJsonDocument::Compact))};
    }
    const auto forgetPassword = [&passwordKey] {
        if (!passwordKey.isEmpty())
            (void)ChannelSecrets().forget(passwordKey);
    };

    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain) {
        forgetPassword();
        return context.fail(chain.error());
    }
    task.chainId = chain->id;
    // The task and its edges land together or not at all.
    const Status added = store->transaction([&]() -> Status {
        TaskRepository tasks(*store);
        const Result<Task> stored = tasks.add(task);
        if (!stored)
            return stored.error();
        DependencyRepository dependencies(*store);
        for (const UpstreamSpec &spec : upstreams) {
            const Result<Task> upstream = tasks.byName(chain->id, spec.task);
            if (!upstream) {
                const qsizetype colon = spec.task.lastIndexOf(QLatin1Char(':'));
                return Error::notFound(
                    QStringLiteral("--after: unknown task '%1' in %2%3")
                        .arg(spec.task, parser.positionalArguments().at(0),
                             colon > 0 ? QStringLiteral(" ('%1' is no condition either: %2)")
                                             .arg(spec.task.mid(colon + 1),
                                                  enumChoices<DependencyCondition>())
                                       : QString()));
            }
            if (Status edge = dependencies.add(chain->id, stored->id, upstream->id, spec.condition);
                !edge)
                return edge;
        }
        return {};
    });
    if (!added) {
        forgetPassword();
        return context.fail(added.error());
    }
    if (!passwordKey.isEmpty())
        context.out() << "its password is kept apart from the store, as " << passwordKey << '\n';
    return ExitOk;
}

int listTasks(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("task list PROJECT/CHAIN [--json]"),
                                   {QStringLiteral("PROJECT/CHAIN")}, true);
    if (!store)
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    const Result<QList<Task>> tasks = TaskRepository(*store).list(chain->id);
    if (!tasks)
        return context.fail(tasks.error());
    const Result<QList<Dependency>> edges = DependencyRepository(*store).list(chain->id);
    if (!edges)
        return context.fail(edges.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const Task &task : tasks.value()) {
        QStringList after;
        QJsonArray afterJson;
        for (const Dependency &edge : edges.value()) {
            if (edge.taskId != task.id)
                continue;
            after << edge.upstreamName + QLatin1Char(':') + enumName(edge.condition);
            afterJson << QJsonObject{{QStringLiteral("task"), edge.upstreamName},
                                     {QStringLiteral("when"), enumName(edge.condition)}};
        }
        array << QJsonObject{
            {QStringLiteral("name"), task.name},
            {QStringLiteral("kind"), enumName(task.kind)},
            {QStringLiteral("command"), task.command},
            {QStringLiteral("arguments"), QJsonArray::fromStringList(task.arguments)},
            {QStringLiteral("after"), afterJson},
            {QStringLiteral("timeoutSeconds"), task.timeoutSeconds},
            {QStringLiteral("maxRetries"), task.maxRetries},
            {QStringLiteral("ignoreError"), task.ignoreError}};
        rows << QStringList{task.name, enumName(task.kind),
                            (QStringList{task.command} + task.arguments).join(QLatin1Char(' ')),
                            after.join(QLatin1String(", "))};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("TASK"), QStringLiteral("KIND"),
                            QStringLiteral("COMMAND"), QStringLiteral("AFTER")},
                           rows);
    return ExitOk;
}

} // namespace

void forgetSendMailPasswords(CliContext &context, Store &store, const QList<Task> &removed)
{
    for (const QString &problem :
         SendMailPasswords::forgetUnused(store, SendMailPasswords::keysOf(removed)))
        context.err() << "hourglass: removed, but a SendMail password stays kept: "
                      << terminaltext::escaped(problem) << '\n';
}

namespace {

int removeTask(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("task rm PROJECT/CHAIN TASK"),
                                   {QStringLiteral("PROJECT/CHAIN"), QStringLiteral("TASK")});
    if (!store)
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    TaskRepository tasks(*store);
    const Result<Task> task = tasks.byName(chain->id, parser.positionalArguments().at(1));
    if (!task)
        return context.fail(task.error());
    const Status removed = tasks.remove(task->id);
    if (!removed)
        return context.fail(removed.error());
    forgetSendMailPasswords(context, *store, {task.value()});
    return ExitOk;
}

} // namespace

int runTaskCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addTask(context, args);
    if (verb == QLatin1String("list"))
        return listTasks(context, args);
    if (verb == QLatin1String("rm"))
        return removeTask(context, args);
    return context.usage(
        QStringLiteral("unknown command 'task %1'; use add, list or rm").arg(verb));
}

} // namespace hg
