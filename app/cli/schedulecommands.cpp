#include "clicontext.h"
#include "scheduler/scheduleplan.h"
#include "store/calendarrepository.h"
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
    const QCommandLineOption dst(
        QStringLiteral("dst"),
        QStringLiteral("What a DST change does: in a spring-forward gap run-after (default) or "
                       "skip, in a fall-back overlap once (default) or both, comma-separated; "
                       "or cronie (what cronie does)."),
        QStringLiteral("RULE"));
    const QCommandLineOption exclude(QStringLiteral("exclude"),
                                     QStringLiteral("Never fire on the days of this calendar."),
                                     QStringLiteral("CALENDAR"));
    const QCommandLineOption only(QStringLiteral("only"),
                                  QStringLiteral("Fire on the days of this calendar only."),
                                  QStringLiteral("CALENDAR"));
    parser.addOptions({dialect, zone, misfire, disabled, dst, exclude, only});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("schedule add PROJECT/CHAIN EXPR [--dialect DIALECT] [--tz ZONE] "
                       "[--misfire skip|once|all] [--dst run-after|skip,once|both|cronie] "
                       "[--exclude CALENDAR] [--only CALENDAR]"),
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
    if (parser.isSet(dst)) {
        const std::optional<DstPolicy> policy = DstPolicy::fromText(parser.value(dst));
        if (!policy)
            return context.usage(QStringLiteral("--dst: '%1' is not a DST rule; use run-after or "
                                                "skip, once or both (comma-separated), or cronie")
                                     .arg(parser.value(dst)));
        schedule.dst = *policy;
    }
    if (parser.isSet(exclude) && parser.isSet(only))
        return context.usage(QStringLiteral("--exclude and --only: a schedule has one calendar"));
    if (parser.isSet(exclude) || parser.isSet(only)) {
        const Result<Calendar> calendar = CalendarRepository(*store).byName(
            parser.isSet(exclude) ? parser.value(exclude) : parser.value(only));
        if (!calendar)
            return context.fail(calendar.error());
        schedule.calendarId = calendar->id;
        schedule.calendarMode = parser.isSet(exclude) ? CalendarMode::Exclude : CalendarMode::Only;
    }
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
                             {QStringLiteral("dst"), s.dst.toText()},
                             {QStringLiteral("calendar"), s.calendarName},
                             {QStringLiteral("calendarMode"), enumName(s.calendarMode)},
                             {QStringLiteral("enabled"), s.enabled}};
        rows << QStringList{
            QString::number(s.id),
            path->toString(),
            enumName(s.kind),
            s.expression,
            enumName(s.dialect),
            s.timeZone.isEmpty() ? QStringLiteral("local") : s.timeZone,
            enumName(s.misfire),
            s.dst.toText(),
            s.calendarId > 0 ? QStringLiteral("%1 %2").arg(enumName(s.calendarMode), s.calendarName)
                             : QStringLiteral("-"),
            s.enabled ? QStringLiteral("yes") : QStringLiteral("no")};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("CHAIN"), QStringLiteral("KIND"),
                            QStringLiteral("EXPRESSION"), QStringLiteral("DIALECT"),
                            QStringLiteral("ZONE"), QStringLiteral("MISFIRE"),
                            QStringLiteral("DST"), QStringLiteral("CALENDAR"),
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

// schedule next: a stored schedule's next fire times, as the engine computes them (its zone,
// dialect and active window).
int nextFires(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption count(QStringLiteral("count"),
                                   QStringLiteral("How many fire times (default 10)."),
                                   QStringLiteral("N"), QStringLiteral("10"));
    parser.addOption(count);
    Store *store =
        context.prepare(parser, args, QStringLiteral("schedule next ID [--count N] [--json]"),
                        {QStringLiteral("ID")}, true);
    if (!store)
        return context.exitCode();
    int wanted = 10;
    if (!context.intOption(parser, count, wanted, 1))
        return context.exitCode();
    wanted = std::min(wanted, 1000);
    bool ok = false;
    const qint64 id = parser.positionalArguments().at(0).toLongLong(&ok);
    if (!ok || id <= 0)
        return context.usage(
            QStringLiteral("'%1' is not a schedule id").arg(parser.positionalArguments().at(0)));
    const Result<Schedule> schedule = ScheduleRepository(*store).byId(id);
    if (!schedule)
        return context.fail(schedule.error());
    const Result<SchedulePlan> plan =
        SchedulePlan::create(schedule.value(), QTimeZone::systemTimeZone());
    if (!plan)
        return context.fail(plan.error());
    const QTimeZone zone = schedule->timeZone.isEmpty() ? QTimeZone::systemTimeZone()
                                                        : QTimeZone(schedule->timeZone.toUtf8());
    QJsonArray fires;
    QList<std::pair<qint64, QString>> lines; // fire times and DST changes, in time order
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    qint64 lastMs = nowMs;
    std::optional<qint64> next = plan->nextFireMs(nowMs);
    for (int i = 0; i < wanted && next; ++i, next = plan->nextFireMs(*next)) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(*next, zone);
        fires << at.toString(Qt::ISODate);
        lines.append({*next, at.toString(Qt::ISODate)});
        lastMs = *next;
    }
    // The DST changes up to the last fire time listed, and what each does to this schedule.
    QJsonArray changes;
    for (const DstEffect::Change &change : plan->dstChanges(nowMs, lastMs)) {
        const QString at = QDateTime::fromSecsSinceEpoch(change.atUtc, zone).toString(Qt::ISODate);
        changes << QJsonObject{{QStringLiteral("at"), at},
                               {QStringLiteral("description"), change.description}};
        // Before a fire at the very instant of the change, which it explains.
        lines.append({change.atUtc * 1000 - 1, QStringLiteral("DST: ") + change.description});
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    if (context.json()) {
        context.printJson(QJsonObject{{QStringLiteral("id"), id},
                                      {QStringLiteral("enabled"), schedule->enabled},
                                      {QStringLiteral("timeZone"), QString::fromUtf8(zone.id())},
                                      {QStringLiteral("dst"), schedule->dst.toText()},
                                      {QStringLiteral("next"), fires},
                                      {QStringLiteral("dstChanges"), changes}});
        return ExitOk;
    }
    QTextStream &out = context.out();
    if (!schedule->enabled)
        out << "schedule " << id << " is disabled; were it enabled, it would fire at:\n";
    if (lines.isEmpty())
        out << "schedule " << id
            << " fires no more (or only when the engine starts, or after "
               "a run ends)\n";
    for (const auto &line : std::as_const(lines))
        out << line.second << '\n';
    out.flush();
    return ExitOk;
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
    if (verb == QLatin1String("next"))
        return nextFires(context, args);
    return context.usage(
        QStringLiteral("unknown command 'schedule %1'; use add, list, next or rm").arg(verb));
}

} // namespace hg
