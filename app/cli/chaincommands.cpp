#include "base/terminaltext.h"
#include "clicontext.h"
#include "scheduler/triggertext.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/projectexporter.h"
#include "store/projectrepository.h"
#include "store/taskrepository.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

int addChain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption maxInstances(QStringLiteral("max-instances"),
                                          QStringLiteral("Runs at once (0: no limit)."),
                                          QStringLiteral("N"));
    const QCommandLineOption timeout(QStringLiteral("timeout"),
                                     QStringLiteral("Stop a run after SEC seconds."),
                                     QStringLiteral("SEC"));
    const QCommandLineOption exclusive(QStringLiteral("exclusive"),
                                       QStringLiteral("Nothing else runs beside it."));
    const QCommandLineOption selfDestruct(QStringLiteral("self-destruct"),
                                          QStringLiteral("Delete the chain after it succeeds."));
    const QCommandLineOption needsNetwork(
        QStringLiteral("needs-network"),
        QStringLiteral("Start it by schedule or trigger only while the computer has a network."));
    const QCommandLineOption client(QStringLiteral("client"),
                                    QStringLiteral("Only the engine of this name runs it."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption onFailure(QStringLiteral("on-failure"),
                                       QStringLiteral("end|continue after a task fails."),
                                       QStringLiteral("STRATEGY"));
    const QCommandLineOption priority(QStringLiteral("priority"), enumChoices<Priority>(),
                                      QStringLiteral("LEVEL"));
    const QCommandLineOption disabled(QStringLiteral("disabled"),
                                      QStringLiteral("Create it switched off."));
    const QCommandLineOption description(QStringLiteral("description"),
                                         QStringLiteral("What the chain does."),
                                         QStringLiteral("TEXT"));
    parser.addOptions({maxInstances, timeout, exclusive, selfDestruct, needsNetwork, client,
                       onFailure, priority, disabled, description});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("chain add PROJECT/CHAIN [--max-instances N] [--timeout SEC] [--exclusive] "
                       "[--self-destruct] [--needs-network] [--client NAME] "
                       "[--on-failure end|continue] "
                       "[--priority LEVEL] [--disabled]"),
        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();

    Chain chain;
    if (!context.intOption(parser, maxInstances, chain.maxInstances)
        || !context.intOption(parser, timeout, chain.timeoutSeconds)
        || !context.enumOption(parser, onFailure, chain.onFailure)
        || !context.enumOption(parser, priority, chain.priority))
        return context.exitCode();
    const Result<ChainPath> path = ChainPath::parse(parser.positionalArguments().at(0));
    if (!path)
        return context.fail(path.error());
    const Result<Project> project = ProjectRepository(*store).byName(path->project);
    if (!project)
        return context.fail(project.error());
    chain.projectId = project->id;
    chain.name = path->chain;
    chain.description = parser.value(description);
    chain.exclusive = parser.isSet(exclusive);
    chain.selfDestruct = parser.isSet(selfDestruct);
    chain.needsNetwork = parser.isSet(needsNetwork);
    chain.clientName = parser.value(client);
    chain.enabled = !parser.isSet(disabled);
    const Result<Chain> added = ChainRepository(*store).add(chain);
    return added ? ExitOk : context.fail(added.error());
}

int listChains(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption projectOption(QStringLiteral("project"),
                                           QStringLiteral("Only this project's chains."),
                                           QStringLiteral("P"));
    parser.addOption(projectOption);
    Store *store = context.prepare(parser, args,
                                   QStringLiteral("chain list [--project P] [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    std::optional<qint64> projectId;
    if (parser.isSet(projectOption)) {
        const Result<Project> project =
            ProjectRepository(*store).byName(parser.value(projectOption));
        if (!project)
            return context.fail(project.error());
        projectId = project->id;
    }
    ChainRepository chains(*store);
    const Result<QList<Chain>> list = chains.list(projectId);
    if (!list)
        return context.fail(list.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const Chain &chain : list.value()) {
        const Result<ChainPath> path = chains.pathOf(chain.id);
        if (!path)
            return context.fail(path.error());
        array << QJsonObject{{QStringLiteral("path"), path->toString()},
                             {QStringLiteral("project"), path->project},
                             {QStringLiteral("name"), chain.name},
                             {QStringLiteral("enabled"), chain.enabled},
                             {QStringLiteral("maxInstances"), chain.maxInstances},
                             {QStringLiteral("priority"), enumName(chain.priority)},
                             {QStringLiteral("onFailure"), enumName(chain.onFailure)}};
        rows << QStringList{path->toString(),
                            chain.enabled ? QStringLiteral("yes") : QStringLiteral("no"),
                            enumName(chain.priority), enumName(chain.onFailure), chain.description};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("CHAIN"), QStringLiteral("ENABLED"),
                            QStringLiteral("PRIORITY"), QStringLiteral("ON FAILURE"),
                            QStringLiteral("DESCRIPTION")},
                           rows);
    return ExitOk;
}

int showChain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("chain show PROJECT/CHAIN [--json]"),
                        {QStringLiteral("PROJECT/CHAIN")}, true);
    if (!store)
        return context.exitCode();
    const Result<ChainPath> path = ChainPath::parse(parser.positionalArguments().at(0));
    if (!path)
        return context.fail(path.error());
    // The export document already describes a chain completely; show prints that.
    ProjectExporter exporter(*store);
    exporter.keepPasswordKeys(true); // shown, not sent elsewhere: a key names no secret
    const Result<QJsonObject> document = exporter.exportProject(path->project, path->chain);
    if (!document)
        return context.fail(document.error());
    QJsonObject chain = ProjectExporter::firstChain(*document);
    chain.insert(QStringLiteral("path"), path->toString());
    if (context.json()) {
        context.printJson(chain);
        return ExitOk;
    }
    QTextStream &out = context.out();
    out << "chain           " << path->toString() << '\n';
    const QStringList scalarKeys{QStringLiteral("description"),    QStringLiteral("enabled"),
                                 QStringLiteral("maxInstances"),   QStringLiteral("overlap"),
                                 QStringLiteral("timeoutSeconds"), QStringLiteral("exclusive"),
                                 QStringLiteral("selfDestruct"),   QStringLiteral("needsNetwork"),
                                 QStringLiteral("client"),         QStringLiteral("onFailure"),
                                 QStringLiteral("priority"),       QStringLiteral("notify")};
    for (const QString &key : scalarKeys)
        out << QString(key + QLatin1Char(' ')).leftJustified(16)
            << chain.value(key).toVariant().toString() << '\n';
    out << "tasks\n";
    for (const QJsonValue task : chain.value(QStringLiteral("tasks")).toArray()) {
        const QJsonObject t = task.toObject();
        QStringList argv{t.value(QStringLiteral("command")).toString()};
        for (const QJsonValue argument : t.value(QStringLiteral("arguments")).toArray())
            argv << argument.toString();
        out << "  " << t.value(QStringLiteral("name")).toString() << " ("
            << t.value(QStringLiteral("kind")).toString() << "): " << argv.join(QLatin1Char(' '))
            << '\n';
    }
    out << "dependencies\n";
    for (const QJsonValue edge : chain.value(QStringLiteral("dependencies")).toArray()) {
        const QJsonObject e = edge.toObject();
        out << "  " << e.value(QStringLiteral("upstream")).toString() << " -> "
            << e.value(QStringLiteral("task")).toString() << " on "
            << e.value(QStringLiteral("when")).toString() << '\n';
    }
    out << "schedules\n";
    for (const QJsonValue schedule : chain.value(QStringLiteral("schedules")).toArray()) {
        const QJsonObject s = schedule.toObject();
        out << "  " << s.value(QStringLiteral("expression")).toString() << " ("
            << s.value(QStringLiteral("dialect")).toString() << ", "
            << (s.value(QStringLiteral("timeZone")).toString().isEmpty()
                    ? QStringLiteral("local time")
                    : s.value(QStringLiteral("timeZone")).toString())
            << ")\n";
    }
    out << "triggers\n";
    if (const Result<Chain> found = ChainRepository(*store).byPath(path->toString()))
        if (const Result<QList<ChainTrigger>> triggers =
                ChainTriggerRepository(*store).list(found->id))
            for (const ChainTrigger &trigger : triggers.value())
                out << "  " << trigger.id << ": " << (trigger.paused ? "(paused) " : "")
                    << triggertext::describe(trigger) << '\n';
    out.flush();
    return ExitOk;
}

int removeChain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("chain rm PROJECT/CHAIN"),
                                   {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    ChainRepository chains(*store);
    const Result<Chain> chain = chains.byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    const Result<QList<Task>> tasks = TaskRepository(*store).list(chain->id);
    if (!tasks)
        return context.fail(tasks.error());
    const Result<QList<ChainTrigger>> waiting =
        ChainTriggerRepository(*store).waitingFor(chain->id);
    if (!waiting)
        return context.fail(waiting.error());
    // Its own triggers go with it: a webhook's secret is forgotten after.
    const Result<QList<ChainTrigger>> own = ChainTriggerRepository(*store).list(chain->id);
    const Status removed = chains.remove(chain->id);
    if (!removed)
        return context.fail(removed.error());
    if (own)
        for (const ChainTrigger &trigger : own.value())
            forgetWebhookSecret(context, trigger);
    for (const ChainTrigger &trigger : waiting.value())
        context.out() << "removed trigger " << trigger.id << " of "
                      << terminaltext::escaped(trigger.path) << " too: it waited for runs of "
                      << terminaltext::escaped(parser.positionalArguments().at(0)) << "\n";
    forgetSendMailPasswords(context, *store, tasks.value());
    return ExitOk;
}

} // namespace

int runChainCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addChain(context, args);
    if (verb == QLatin1String("list"))
        return listChains(context, args);
    if (verb == QLatin1String("show"))
        return showChain(context, args);
    if (verb == QLatin1String("rm"))
        return removeChain(context, args);
    return context.usage(
        QStringLiteral("unknown command 'chain %1'; use add, list, show or rm").arg(verb));
}

} // namespace hg
