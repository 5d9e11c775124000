#include "clicontext.h"
#include "store/chainrepository.h"
#include "store/schedulerepository.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

int addSchedule(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption dialect(QStringLiteral("dialect"), enumChoices<CronDialect>(),
                                     QStringLiteral("DIALECT"));
    const QCommandLineOption zone(QStringLiteral("tz"),
                                  QStringLiteral("IANA time zone (default: the engine's)."),
                                  QStringLiteral("ZONE"));
    const QCommandLineOption misfire(QStringLiteral("misfire"), enumChoices<MisfirePolicy>(),
                                     QStringLiteral("POLICY"));
    const QCommandLineOption disabled(QStringLiteral("disabled"),
                                      QStringLiteral("Create it switched off."));
    parser.addOptions({dialect, zone, misfire, disabled});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("schedule add PROJECT/CHAIN EXPR [--dialect DIALECT] [--tz ZONE] "
                       "[--misfire skip|once|all]"),
        {QStringLiteral("PROJECT/CHAIN"), QStringLiteral("EXPR")});
    if (!store)
        return context.exitCode();
    Schedule schedule;
    schedule.expression = parser.positionalArguments().at(1);
    schedule.kind = inferScheduleKind(schedule.expression);
    schedule.timeZone = parser.value(zone);
    schedule.enabled = !parser.isSet(disabled);
    if (!context.enumOption(parser, dialect, schedule.dialect)
        || !context.enumOption(parser, misfire, schedule.misfire))
        return context.exitCode();
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    schedule.chainId = chain->id;
    const Result<Schedule> added = ScheduleRepository(*store).add(schedule);
    if (!added)
        return context.fail(added.error());
    context.out() << added->id << '\n';
    context.out().flush();
    return ExitOk;
}

int listSchedules(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("schedule list [PROJECT/CHAIN] [--json]"),
                        {QStringLiteral("PROJECT/CHAIN")}, true, 1);
    if (!store)
        return context.exitCode();
    ChainRepository chains(*store);
    std::optional<qint64> chainId;
    if (!parser.positionalArguments().isEmpty()) {
        const Result<Chain> chain = chains.byPath(parser.positionalArguments().at(0));
        if (!chain)
            return context.fail(chain.error());
        chainId = chain->id;
    }
    const Result<QList<Schedule>> schedules = ScheduleRepository(*store).list(chainId);
    if (!schedules)
        return context.fail(schedules.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const Schedule &s : schedules.value()) {
        const Result<ChainPath> path = chains.pathOf(s.chainId);
        if (!path)
            return context.fail(path.error());
        array << QJsonObject{{QStringLiteral("id"), s.id},
                             {QStringLiteral("chain"), path->toString()},
                             {QStringLiteral("kind"), enumName(s.kind)},
                             {QStringLiteral("expression"), s.expression},
                             {QStringLiteral("dialect"), enumName(s.dialect)},
                             {QStringLiteral("timeZone"), s.timeZone},
                             {QStringLiteral("misfire"), enumName(s.misfire)},
                             {QStringLiteral("enabled"), s.enabled}};
        rows << QStringList{
            QString::number(s.id), path->toString(),
            enumName(s.kind),      s.expression,
            enumName(s.dialect),   s.timeZone.isEmpty() ? QStringLiteral("local") : s.timeZone,
            enumName(s.misfire),   s.enabled ? QStringLiteral("yes") : QStringLiteral("no")};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("CHAIN"), QStringLiteral("KIND"),
                            QStringLiteral("EXPRESSION"), QStringLiteral("DIALECT"),
                            QStringLiteral("ZONE"), QStringLiteral("MISFIRE"),
                            QStringLiteral("ENABLED")},
                           rows);
    return ExitOk;
}

int removeSchedule(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("schedule rm ID"), {QStringLiteral("ID")});
    if (!store)
        return context.exitCode();
    bool ok = false;
    const qint64 id = parser.positionalArguments().at(0).toLongLong(&ok);
    if (!ok || id <= 0)
        return context.usage(
            QStringLiteral("'%1' is not a schedule id").arg(parser.positionalArguments().at(0)));
    const Status removed = ScheduleRepository(*store).remove(id);
    return removed ? ExitOk : context.fail(removed.error());
}

} // namespace

int runScheduleCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addSchedule(context, args);
    if (verb == QLatin1String("list"))
        return listSchedules(context, args);
    if (verb == QLatin1String("rm"))
        return removeSchedule(context, args);
    return context.usage(
        QStringLiteral("unknown command 'schedule %1'; use add, list or rm").arg(verb));
}

} // namespace hg
