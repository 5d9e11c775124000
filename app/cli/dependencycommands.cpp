#include "clicontext.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/taskrepository.h"
#include "subcommands.h"

namespace hg {
namespace {

struct Edge
{
    qint64 chainId = 0;
    qint64 taskId = 0;
    qint64 upstreamId = 0;
};

// PROJECT/CHAIN TASK UPSTREAM, resolved to ids.
Result<Edge> resolveEdge(Store &store, const QStringList &positionals)
{
    const Result<Chain> chain = ChainRepository(store).byPath(positionals.at(0));
    if (!chain)
        return chain.error();
    TaskRepository tasks(store);
    const Result<Task> task = tasks.byName(chain->id, positionals.at(1));
    if (!task)
        return task.error();
    const Result<Task> upstream = tasks.byName(chain->id, positionals.at(2));
    if (!upstream)
        return upstream.error();
    return Edge{chain->id, task->id, upstream->id};
}

const QStringList edgeNames{QStringLiteral("PROJECT/CHAIN"), QStringLiteral("TASK"),
                            QStringLiteral("UPSTREAM")};

int addDependency(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption when(QStringLiteral("when"), enumChoices<DependencyCondition>(),
                                  QStringLiteral("CONDITION"));
    parser.addOption(when);
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("dep add PROJECT/CHAIN TASK UPSTREAM [--when success|completion|failure]"),
        edgeNames);
    if (!store)
        return context.exitCode();
    DependencyCondition condition = DependencyCondition::Success;
    if (!context.enumOption(parser, when, condition))
        return context.exitCode();
    const Result<Edge> edge = resolveEdge(*store, parser.positionalArguments());
    if (!edge)
        return context.fail(edge.error());
    const Status added =
        DependencyRepository(*store).add(edge->chainId, edge->taskId, edge->upstreamId, condition);
    return added ? ExitOk : context.fail(added.error());
}

int removeDependency(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args,
                                   QStringLiteral("dep rm PROJECT/CHAIN TASK UPSTREAM"), edgeNames);
    if (!store)
        return context.exitCode();
    const Result<Edge> edge = resolveEdge(*store, parser.positionalArguments());
    if (!edge)
        return context.fail(edge.error());
    const Status removed = DependencyRepository(*store).remove(edge->taskId, edge->upstreamId);
    if (!removed && removed.error().kind == ErrorKind::NotFound)
        return context.fail(Error::notFound(
            QStringLiteral("'%1' does not depend on '%2'")
                .arg(parser.positionalArguments().at(1), parser.positionalArguments().at(2))));
    return removed ? ExitOk : context.fail(removed.error());
}

} // namespace

int runDependencyCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addDependency(context, args);
    if (verb == QLatin1String("rm"))
        return removeDependency(context, args);
    return context.usage(QStringLiteral("unknown command 'dep %1'; use add or rm").arg(verb));
}

} // namespace hg
