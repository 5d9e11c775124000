#include "base/terminaltext.h"
#include "clicontext.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/projectrepository.h"
#include "store/taskrepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QSet>

namespace hg {
namespace {

int addProject(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption description(QStringLiteral("description"),
                                         QStringLiteral("What the project is for."),
                                         QStringLiteral("TEXT"));
    parser.addOption(description);
    Store *store =
        context.prepare(parser, args, QStringLiteral("project add NAME [--description TEXT]"),
                        {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    const Result<Project> added = ProjectRepository(*store).add(parser.positionalArguments().at(0),
                                                                parser.value(description));
    return added ? ExitOk : context.fail(added.error());
}

int listProjects(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("project list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    ProjectRepository projects(*store);
    const Result<QList<Project>> list = projects.list();
    if (!list)
        return context.fail(list.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const Project &project : list.value()) {
        const Result<int> chains = projects.chainCount(project.id);
        if (!chains)
            return context.fail(chains.error());
        array << QJsonObject{{QStringLiteral("name"), project.name},
                             {QStringLiteral("description"), project.description},
                             {QStringLiteral("chains"), chains.value()}};
        rows << QStringList{project.name, QString::number(chains.value()), project.description};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable(
            {QStringLiteral("NAME"), QStringLiteral("CHAINS"), QStringLiteral("DESCRIPTION")},
            rows);
    return ExitOk;
}

int removeProject(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption force(QStringLiteral("force"),
                                   QStringLiteral("Also remove its chains and their history."));
    parser.addOption(force);
    Store *store = context.prepare(parser, args, QStringLiteral("project rm NAME [--force]"),
                                   {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    // Its SendMail tasks' passwords go with it (read first: the tasks go with the project).
    QList<Task> tasks;
    QMap<qint64, QString> waitingElsewhere; // trigger id -> the chain it starts
    QList<ChainTrigger> own;                // its chains' own triggers (webhooks' secrets)
    if (const Result<Project> project =
            ProjectRepository(*store).byName(parser.positionalArguments().at(0))) {
        const Result<QList<Chain>> chains = ChainRepository(*store).list(project->id);
        if (!chains)
            return context.fail(chains.error());
        QSet<qint64> chainIds;
        for (const Chain &chain : chains.value()) {
            const Result<QList<Task>> ofChain = TaskRepository(*store).list(chain.id);
            if (!ofChain)
                return context.fail(ofChain.error());
            tasks << ofChain.value();
            chainIds.insert(chain.id);
        }
        // Other projects' triggers that wait for one of its chains go too: said once done.
        // Every trigger read once (a store holds dozens), not once per chain.
        if (const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(*store).list()) {
            for (const ChainTrigger &trigger : triggers.value()) {
                if (chainIds.contains(trigger.chainId)) {
                    own << trigger;
                    continue;
                }
                for (const ChainTrigger::Upstream &upstream : trigger.upstreams)
                    if (chainIds.contains(upstream.chainId))
                        waitingElsewhere.insert(trigger.id, trigger.path);
            }
        }
    }
    const Status removed =
        ProjectRepository(*store).remove(parser.positionalArguments().at(0), parser.isSet(force));
    if (!removed)
        return context.fail(removed.error());
    for (auto it = waitingElsewhere.cbegin(); it != waitingElsewhere.cend(); ++it)
        context.out() << "removed trigger " << it.key() << " of " << terminaltext::escaped(*it)
                      << " too: it waited for runs of a chain of "
                      << terminaltext::escaped(parser.positionalArguments().at(0)) << "\n";
    forgetSendMailPasswords(context, *store, tasks);
    for (const ChainTrigger &trigger : own)
        forgetWebhookSecret(context, trigger);
    return ExitOk;
}

} // namespace

int runProjectCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addProject(context, args);
    if (verb == QLatin1String("list"))
        return listProjects(context, args);
    if (verb == QLatin1String("rm"))
        return removeProject(context, args);
    return context.usage(
        QStringLiteral("unknown command 'project %1'; use add, list or rm").arg(verb));
}

} // namespace hg
