#include "clicontext.h"
#include "scheduler/backfill.h"
#include "scheduler/clockwatch.h"
#include "scheduler/effectivecadence.h"
#include "scheduler/missedrunsinbox.h"
#include "scheduler/scheduleplan.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "store/occurrencerepository.h"
#include "store/schedulerepository.h"
#include "subcommands.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>

namespace hg {
namespace {

// One line of the listing: a ledger row, or consecutive runs of one schedule taken together.
struct Line
{
    Occurrence first;
    qint64 lastFireMs = 0;
    qint64 count = 0;
    qint64 lastRunId = 0;
    QList<qint64> lateness; // of the runs that started
    // The lowest and highest run id: a trigger's runs are not in the order of their fire
    // times (a file's modification time), so the first and last are not the range.
    qint64 lowestRunId = 0;
    qint64 highestRunId = 0;
};

QList<Line> collapse(const QList<Occurrence> &occurrences)
{
    QList<Line> lines;
    // schedule (a trigger: minus its id) -> its line of runs, while no other outcome
    QHash<qint64, qsizetype> openRuns;
    for (const Occurrence &o : occurrences) {
        const qint64 source = o.triggerId > 0 ? -o.triggerId : o.scheduleId;
        if (o.outcome == OccurrenceOutcome::Ran) {
            if (const auto open = openRuns.constFind(source); open != openRuns.cend()) {
                Line &line = lines[*open];
                line.lastFireMs = o.lastFireMs;
                ++line.count;
                line.lastRunId = o.runId;
                line.lowestRunId = std::min(line.lowestRunId, o.runId);
                line.highestRunId = std::max(line.highestRunId, o.runId);
                if (o.latenessMs >= 0)
                    line.lateness << o.latenessMs;
                continue;
            }
            openRuns.insert(source, lines.size());
        } else {
            openRuns.remove(source);
        }
        Line line{o, o.lastFireMs, o.count, o.runId, {}, o.runId, o.runId};
        if (o.latenessMs >= 0)
            line.lateness << o.latenessMs;
        lines << line;
    }
    return lines;
}

// "3 files: a.csv, b.csv, c.csv": a trigger row's files.
QString filesOf(const Occurrence &o)
{
    return QStringLiteral("%1 file%2: %3")
        .arg(o.count)
        .arg(o.count == 1 ? QString() : QStringLiteral("s"), o.detail);
}

QString detailOf(const Line &line)
{
    const Occurrence &o = line.first;
    switch (o.outcome) {
    case OccurrenceOutcome::Ran: {
        QString runs =
            line.count == 1 ? QStringLiteral("run %1 (%2)").arg(o.runId).arg(enumName(o.runState))
            : line.highestRunId - line.lowestRunId + 1 == line.count
                ? QStringLiteral("runs %1..%2").arg(line.lowestRunId).arg(line.highestRunId)
                : QStringLiteral("%1 runs from %2 to %3")
                      .arg(line.count)
                      .arg(line.lowestRunId)
                      .arg(line.highestRunId);
        if (!line.lateness.isEmpty()) {
            QList<qint64> sorted = line.lateness;
            std::sort(sorted.begin(), sorted.end());
            runs += line.count == 1 ? QStringLiteral(", started %1 ms late").arg(sorted.first())
                                    : QStringLiteral(", lateness median %1 ms, max %2 ms")
                                          .arg(sorted.at(sorted.size() / 2))
                                          .arg(sorted.last());
        }
        return runs;
    }
    case OccurrenceOutcome::Coalesced:
        return QStringLiteral("into run %1 (%2)%3")
            .arg(o.runId)
            .arg(enumName(o.cause),
                 o.detail.isEmpty() ? QString() : QStringLiteral("; ") + filesOf(o));
    case OccurrenceOutcome::Missed: {
        // "engine down", "engine asleep"; a trigger paused under a running engine is its own.
        QString text = o.triggerId > 0 && o.cause == OccurrenceCause::Paused
                           ? QStringLiteral("trigger paused")
                           : QStringLiteral("engine %1").arg(enumName(o.cause));
        if (!o.detail.isEmpty())
            text += QStringLiteral("; ") + filesOf(o);
        if (o.inbox == InboxState::Pending)
            text += QStringLiteral("; in the missed-runs inbox");
        else if (o.inbox == InboxState::Run)
            text += QStringLiteral("; run from the inbox (batch %1)").arg(o.runId);
        else if (o.inbox == InboxState::Dismissed)
            text += QStringLiteral("; dismissed from the inbox");
        return text;
    }
    case OccurrenceOutcome::SkippedMisfire:
    case OccurrenceOutcome::Paused:
        return o.detail.isEmpty() ? enumName(o.cause)
                                  : enumName(o.cause) + QStringLiteral("; ") + filesOf(o);
    case OccurrenceOutcome::SkippedOverlap:
        return QStringLiteral("the previous run still ran");
    case OccurrenceOutcome::Excluded:
        return QStringLiteral("ruled out by its calendar");
    case OccurrenceOutcome::SkippedOffline:
        return QStringLiteral("no network, which the chain needs");
    }
    return {};
}

int listOccurrences(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption since(QStringLiteral("since"),
                                   QStringLiteral("From this time on (default: 24 hours ago)."),
                                   QStringLiteral("ISO8601"));
    parser.addOption(since);
    Store *store = context.prepare(
        parser, args, QStringLiteral("occurrences PROJECT/CHAIN [--since ISO8601] [--json]"),
        {QStringLiteral("PROJECT/CHAIN")}, true);
    if (!store)
        return context.exitCode();
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    qint64 fromMs = nowMs - qint64(24) * 3600 * 1000;
    if (parser.isSet(since)) {
        const Result<QDateTime> from = CliContext::timeOption(parser, since);
        if (!from)
            return context.usage(from.error().message);
        fromMs = from->toMSecsSinceEpoch();
    }
    const QString path = parser.positionalArguments().at(0);
    const Result<Chain> chain = ChainRepository(*store).byPath(path);
    if (!chain)
        return context.fail(chain.error());
    const Result<QList<Occurrence>> occurrences =
        OccurrenceRepository(*store).list(chain->id, fromMs, nowMs);
    const Result<QList<Schedule>> schedules = ScheduleRepository(*store).list(chain->id);
    if (!occurrences)
        return context.fail(occurrences.error());
    if (!schedules)
        return context.fail(schedules.error());

    // The effective cadence over the last hour of the span (or all of it, when shorter).
    const qint64 cadenceFromMs = std::max(fromMs, nowMs - qint64(3600) * 1000);
    const QString spanText = cadenceFromMs == fromMs
                                 ? QStringLiteral("since %1").arg(CliContext::localTimeText(fromMs))
                                 : QStringLiteral("over the last hour");
    QList<Occurrence> inSpan;
    for (const Occurrence &o : occurrences.value()) {
        if (o.lastFireMs >= cadenceFromMs)
            inSpan << o;
    }
    QJsonArray cadences;
    QStringList cadenceLines;
    for (const Schedule &schedule : schedules.value()) {
        const Result<SchedulePlan> plan =
            SchedulePlan::create(schedule, QTimeZone::systemTimeZone());
        if (!plan || !(schedule.kind == ScheduleKind::Cron || schedule.kind == ScheduleKind::Every))
            continue;
        const EffectiveCadence cadence =
            EffectiveCadence::measure(plan.value(), inSpan, cadenceFromMs, nowMs);
        const QString text = cadence.describe(spanText);
        cadenceLines << QStringLiteral("schedule %1 (%2): %3")
                            .arg(schedule.id)
                            .arg(schedule.expression, text);
        cadences << QJsonObject{{QStringLiteral("schedule"), schedule.id},
                                {QStringLiteral("configuredMs"), cadence.configuredMs},
                                {QStringLiteral("effectiveMs"), cadence.effectiveMs},
                                {QStringLiteral("runs"), cadence.runs},
                                {QStringLiteral("description"), text}};
    }

    // Alerts beside the fire times: the ledger's entries of lateness, duration and deadlines.
    const Result<QList<Alert>> alerts = AlertRepository(*store).list(chain->id, fromMs, nowMs);
    if (!alerts)
        return context.fail(alerts.error());
    const auto alertLine = [](const Alert &a) -> QString {
        return QStringLiteral("alert %1 at %2%3: %4")
            .arg(enumName(a.kind), CliContext::localTimeText(a.atMs),
                 a.runId > 0 ? QStringLiteral(" (run %1)").arg(a.runId) : QString(), a.detail);
    };

    const QList<Line> lines = collapse(occurrences.value());
    if (context.json()) {
        QJsonArray alertRows;
        for (const Alert &a : alerts.value())
            alertRows << QJsonObject{{QStringLiteral("kind"), enumName(a.kind)},
                                     {QStringLiteral("at"), CliContext::localTimeText(a.atMs)},
                                     {QStringLiteral("run"), a.runId},
                                     {QStringLiteral("detail"), a.detail}};
        QJsonArray rows;
        for (const Line &line : lines) {
            QJsonObject row{
                {line.first.triggerId > 0 ? QStringLiteral("trigger") : QStringLiteral("schedule"),
                 line.first.triggerId > 0 ? line.first.triggerId : line.first.scheduleId},
                {QStringLiteral("outcome"), enumName(line.first.outcome)},
                {QStringLiteral("first"), CliContext::localTimeText(line.first.firstFireMs)},
                {QStringLiteral("last"), CliContext::localTimeText(line.lastFireMs)},
                {QStringLiteral("count"), line.count}};
            if (line.first.cause != OccurrenceCause::None)
                row.insert(QStringLiteral("cause"), enumName(line.first.cause));
            if (line.first.runId > 0)
                row.insert(QStringLiteral("run"), line.first.runId);
            if (line.first.outcome == OccurrenceOutcome::Ran) {
                row.insert(QStringLiteral("lastRun"), line.lastRunId);
                QJsonArray lateness;
                for (qint64 ms : line.lateness)
                    lateness << ms;
                row.insert(QStringLiteral("latenessMs"), lateness);
            }
            if (line.first.inbox != InboxState::None)
                row.insert(QStringLiteral("inbox"), enumName(line.first.inbox));
            if (!line.first.detail.isEmpty())
                row.insert(QStringLiteral("detail"), line.first.detail);
            rows << row;
        }
        context.printJson(QJsonObject{{QStringLiteral("chain"), path},
                                      {QStringLiteral("since"), CliContext::localTimeText(fromMs)},
                                      {QStringLiteral("occurrences"), rows},
                                      {QStringLiteral("alerts"), alertRows},
                                      {QStringLiteral("cadence"), cadences}});
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const Line &line : lines) {
        const QString when = line.count == 1 || line.lastFireMs == line.first.firstFireMs
                                 ? CliContext::localTimeText(line.first.firstFireMs)
                                 : CliContext::localTimeText(line.first.firstFireMs)
                                       + QStringLiteral(" .. ")
                                       + CliContext::localTimeText(line.lastFireMs);
        rows << QStringList{
            when,
            line.first.triggerId > 0 ? QStringLiteral("trigger %1").arg(line.first.triggerId)
                                     : QString::number(line.first.scheduleId),
            enumName(line.first.outcome), QString::number(line.count), detailOf(line)};
    }
    if (rows.isEmpty())
        context.out() << "no fire time of " << path << " since "
                      << CliContext::localTimeText(fromMs) << '\n';
    else
        context.printTable({QStringLiteral("FIRE TIME"), QStringLiteral("SOURCE"),
                            QStringLiteral("OUTCOME"), QStringLiteral("COUNT"),
                            QStringLiteral("DETAIL")},
                           rows);
    for (const QString &line : std::as_const(cadenceLines))
        context.out() << line << '\n';
    for (const Alert &a : alerts.value())
        context.out() << alertLine(a) << '\n';
    context.out().flush();
    return ExitOk;
}

int listMissed(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("missed [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<MissedRunsInbox::Waiting>> waiting = MissedRunsInbox(*store).waiting();
    if (!waiting)
        return context.fail(waiting.error());
    QMap<QString, MissedRunsInbox::Waiting> byChain;
    for (const MissedRunsInbox::Waiting &entry : waiting.value()) {
        if (const Result<ChainPath> path = ChainRepository(*store).pathOf(entry.chainId))
            byChain.insert(path->toString(), entry);
    }
    if (context.json()) {
        QJsonArray rows;
        for (auto it = byChain.cbegin(); it != byChain.cend(); ++it)
            rows << QJsonObject{{QStringLiteral("chain"), it.key()},
                                {QStringLiteral("missed"), it->count},
                                {QStringLiteral("first"), CliContext::localTimeText(it->firstMs)},
                                {QStringLiteral("cause"), enumName(it->cause)},
                                {QStringLiteral("last"), CliContext::localTimeText(it->lastMs)}};
        context.printJson(rows);
        return ExitOk;
    }
    if (byChain.isEmpty()) {
        context.out() << "no missed runs wait for a decision\n";
        context.out().flush();
        return ExitOk;
    }
    QList<QStringList> rows;
    for (auto it = byChain.cbegin(); it != byChain.cend(); ++it)
        rows << QStringList{it.key(), QString::number(it->count),
                            CliContext::localTimeText(it->firstMs),
                            CliContext::localTimeText(it->lastMs)};
    context.printTable({QStringLiteral("CHAIN"), QStringLiteral("MISSED"), QStringLiteral("FIRST"),
                        QStringLiteral("LAST")},
                       rows);
    return ExitOk;
}

// missed run|dismiss PROJECT/CHAIN: the decision on the chain's waiting rows, and with --keep
// the schedules' misfire policy from now on.
int decideMissed(CliContext &context, bool run, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption latest(
        QStringLiteral("latest"), QStringLiteral("Run only the latest missed fire time (of a file "
                                                 "trigger: one run for all its files)."));
    const QCommandLineOption parallel(QStringLiteral("parallel"),
                                      QStringLiteral("Runs at once (default 1: oldest first, "
                                                     "one after another)."),
                                      QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption keep(QStringLiteral("keep"),
                                  QStringLiteral("Keep the choice as the schedules' misfire "
                                                 "policy (all, once or skip)."));
    if (run)
        parser.addOptions({latest, parallel, keep});
    else
        parser.addOption(keep);
    Store *store = context.prepare(
        parser, args,
        run ? QStringLiteral("missed run PROJECT/CHAIN [--latest] [--parallel N] [--keep]")
            : QStringLiteral("missed dismiss PROJECT/CHAIN [--keep]"),
        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    int parallelRuns = 1;
    if (run && !context.intOption(parser, parallel, parallelRuns, 1))
        return context.exitCode();
    const QString path = parser.positionalArguments().at(0);
    const Result<Chain> chain = ChainRepository(*store).byPath(path);
    if (!chain)
        return context.fail(chain.error());
    MissedRunsInbox::Decision decision;
    decision.choice = !run                   ? MissedRunsInbox::Choice::Dismiss
                      : parser.isSet(latest) ? MissedRunsInbox::Choice::RunLatest
                                             : MissedRunsInbox::Choice::RunAll;
    decision.parallel = parallelRuns;
    decision.keep = parser.isSet(keep);
    const Result<MissedRunsInbox::Decided> decided =
        MissedRunsInbox(*store).decide(chain.value(), decision);
    if (!decided)
        return context.fail(decided.error());
    const QList<Run> &runs = decided->runs;
    if (run && runs.isEmpty())
        context.out()
            << QStringLiteral(
                   "nothing to run: every missed file of %1 has a run already (queued or done)\n")
                   .arg(path);
    else if (run)
        context.out() << QStringLiteral("queued %1 runs of %2 (batch %3), %4 at a time, oldest "
                                        "first\n")
                             .arg(runs.size())
                             .arg(path)
                             .arg(runs.first().id)
                             .arg(parallelRuns);
    else
        context.out() << QStringLiteral("dismissed the missed runs of %1\n").arg(path);
    if (decided->kept)
        context.out() << QStringLiteral("its schedules' misfire policy is now %1\n")
                             .arg(enumName(*decided->kept));
    context.out().flush();
    return ExitOk;
}

} // namespace

int runOccurrencesCommand(CliContext &context, const QStringList &args)
{
    return listOccurrences(context, args);
}

int runMissedCommand(CliContext &context, const QStringList &args)
{
    if (!args.isEmpty() && args.first() == QLatin1String("run"))
        return decideMissed(context, true, args.mid(1));
    if (!args.isEmpty() && args.first() == QLatin1String("dismiss"))
        return decideMissed(context, false, args.mid(1));
    if (!args.isEmpty() && !args.first().startsWith(QLatin1Char('-')))
        return context.usage(
            QStringLiteral("unknown command 'missed %1'; use run or dismiss").arg(args.first()));
    return listMissed(context, args);
}

} // namespace hg
