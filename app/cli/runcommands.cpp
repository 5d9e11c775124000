// The commands about runs already made: list them, read their logs, steer them, rerun and
// backfill them; and the engines that serve the store.
#include "clicontext.h"
#include "cron/isotime.h"
#include "runfollower.h"
#include "scheduler/backfill.h"
#include "scheduler/runcontrol.h"
#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/enginesessionrepository.h"
#include "store/runrepository.h"
#include "subcommands.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

Result<qint64> parseRunId(const QString &text)
{
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    if (!ok || id <= 0)
        return Error::invalid(QStringLiteral("'%1' is not a run id").arg(text));
    return id;
}

// What started a run, beyond its kind: the trigger's parameters without their prefix
// ("trigger.path" as "path"), the same a task reads as ${trigger.path}.
QJsonObject triggerDetail(const Run &run)
{
    QJsonObject detail;
    const QLatin1String prefix("trigger.");
    for (auto it = run.parameters.constBegin(); it != run.parameters.constEnd(); ++it)
        if (it.key().startsWith(prefix))
            detail.insert(it.key().mid(prefix.size()), it.value());
    return detail;
}

int runs(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption chainOption(QStringLiteral("chain"),
                                         QStringLiteral("Only this chain."),
                                         QStringLiteral("PROJECT/CHAIN"));
    const QCommandLineOption state(QStringLiteral("state"), enumChoices<RunState>(),
                                   QStringLiteral("STATE"));
    const QCommandLineOption limit(QStringLiteral("limit"),
                                   QStringLiteral("At most N (default 50)."), QStringLiteral("N"));
    parser.addOptions({chainOption, state, limit});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("runs [--chain PROJECT/CHAIN] [--state S] [--limit N] [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    RunFilter filter;
    filter.limit = 50;
    RunState wanted = RunState::Queued;
    if (!context.intOption(parser, limit, filter.limit, 1)
        || !context.enumOption(parser, state, wanted))
        return context.exitCode();
    if (parser.isSet(state))
        filter.state = wanted;
    ChainRepository chains(*store);
    if (parser.isSet(chainOption)) {
        const Result<Chain> chain = chains.byPath(parser.value(chainOption));
        if (!chain)
            return context.fail(chain.error());
        filter.chainId = chain->id;
    }
    const Result<QList<Run>> list = RunRepository(*store).list(filter);
    if (!list)
        return context.fail(list.error());
    QJsonArray array;
    QList<QStringList> rows;
    const auto time = [](const QDateTime &t) {
        return t.isValid() ? t.toLocalTime().toString(Qt::ISODate) : QString();
    };
    for (const Run &r : list.value()) {
        // Its chain may have gone (and the run with it) since the list was read: not listed.
        // Before, reading the missing path aborted the command (found by the torture test).
        const Result<ChainPath> chainPath = chains.pathOf(r.chainId);
        if (!chainPath)
            continue;
        const QString path = chainPath->toString();
        const QString duration =
            r.startedAt.isValid() && r.finishedAt.isValid()
                ? QStringLiteral("%1 s").arg(r.startedAt.msecsTo(r.finishedAt) / 1000.0, 0, 'f', 1)
                : QString();
        array << QJsonObject{
            {QStringLiteral("id"), r.id},
            {QStringLiteral("chain"), path},
            {QStringLiteral("state"), enumName(r.state)},
            {QStringLiteral("trigger"), enumName(r.trigger)},
            {QStringLiteral("triggerText"), StatePresentation::triggerText(r)},
            {QStringLiteral("triggerDetail"), triggerDetail(r)},
            {QStringLiteral("scheduledFor"), r.scheduledFor.toUTC().toString(Qt::ISODate)},
            {QStringLiteral("startedAt"),
             r.startedAt.isValid() ? r.startedAt.toUTC().toString(Qt::ISODateWithMs) : QString()},
            {QStringLiteral("finishedAt"),
             r.finishedAt.isValid() ? r.finishedAt.toUTC().toString(Qt::ISODateWithMs) : QString()},
            {QStringLiteral("engine"), r.engineName}};
        rows << QStringList{QString::number(r.id),
                            path,
                            enumName(r.state),
                            enumName(r.trigger),
                            time(r.scheduledFor),
                            time(r.startedAt),
                            duration};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("CHAIN"), QStringLiteral("STATE"),
                            QStringLiteral("TRIGGER"), QStringLiteral("SCHEDULED FOR"),
                            QStringLiteral("STARTED"), QStringLiteral("DURATION")},
                           rows);
    return ExitOk;
}

int logs(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption follow(QStringLiteral("follow"),
                                    QStringLiteral("Keep printing until the run ends."));
    parser.addOption(follow);
    Store *store = context.prepare(parser, args, QStringLiteral("logs RUN_ID [--follow]"),
                                   {QStringLiteral("RUN_ID")});
    if (!store)
        return context.exitCode();
    const Result<qint64> runId = parseRunId(parser.positionalArguments().at(0));
    if (!runId)
        return context.fail(runId.error());
    RunFollower follower(*store, context.out(), context.err());
    const Result<Run> run =
        parser.isSet(follow) ? follower.follow(*runId) : follower.printNew(*runId);
    if (!run && run.error().kind == ErrorKind::Unavailable) // no engine carries it on
        return context.fail(Error::unavailable(
            run.error().message + QStringLiteral("; `hourglass serve` runs or recovers it")));
    return run ? ExitOk : context.fail(run.error());
}

int control(CliContext &context, CommandKind kind, const QString &name, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, name + QLatin1String(" RUN_ID"), {QStringLiteral("RUN_ID")});
    if (!store)
        return context.exitCode();
    const Result<qint64> runId = parseRunId(parser.positionalArguments().at(0));
    if (!runId)
        return context.fail(runId.error());
    const Status queued = RunControl(*store).control(kind, *runId);
    return queued ? ExitOk : context.fail(queued.error());
}

int rerun(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption failedOnly(
        QStringLiteral("failed-only"),
        QStringLiteral("Only the tasks that failed or did not run."));
    parser.addOption(failedOnly);
    Store *store = context.prepare(parser, args, QStringLiteral("rerun RUN_ID [--failed-only]"),
                                   {QStringLiteral("RUN_ID")});
    if (!store)
        return context.exitCode();
    const Result<qint64> runId = parseRunId(parser.positionalArguments().at(0));
    if (!runId)
        return context.fail(runId.error());
    const Result<Run> created = RunControl(*store).rerun(*runId, parser.isSet(failedOnly));
    if (!created)
        return context.fail(created.error());
    context.out() << created->id << '\n';
    context.out().flush();
    return ExitOk;
}

int backfill(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption from(QStringLiteral("from"),
                                  QStringLiteral("First fire time to include (ISO 8601)."),
                                  QStringLiteral("ISO8601"));
    const QCommandLineOption to(QStringLiteral("to"),
                                QStringLiteral("Last fire time to include (ISO 8601)."),
                                QStringLiteral("ISO8601"));
    const QCommandLineOption parallel(
        QStringLiteral("parallel"), QStringLiteral("Runs at once (default 1: one after another)."),
        QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption order(QStringLiteral("order"),
                                   QStringLiteral("oldest (default) or newest first."),
                                   QStringLiteral("oldest|newest"), QStringLiteral("oldest"));
    parser.addOptions({from, to, parallel, order});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("backfill PROJECT/CHAIN --from ISO8601 --to ISO8601 [--parallel N] "
                       "[--order oldest|newest]"),
        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(from) || !parser.isSet(to))
        return context.usage(QStringLiteral("backfill needs --from and --to"));
    const Result<QDateTime> first = CliContext::timeOption(parser, from);
    const Result<QDateTime> last = CliContext::timeOption(parser, to);
    if (!first)
        return context.usage(first.error().message);
    if (!last)
        return context.usage(last.error().message);
    int parallelRuns = 1;
    if (!context.intOption(parser, parallel, parallelRuns, 1))
        return context.exitCode();
    const QString orderText = parser.value(order);
    if (orderText != QLatin1String("oldest") && orderText != QLatin1String("newest"))
        return context.usage(
            QStringLiteral("--order: '%1' is not one of oldest, newest").arg(orderText));
    const Result<Chain> chain = ChainRepository(*store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    const Result<QList<QDateTime>> times = Backfill::fireTimes(
        *store, chain.value(), first.value(), last.value(), QTimeZone::systemTimeZone());
    if (!times)
        return context.fail(times.error());
    const Result<QList<Run>> runs =
        Backfill::enqueue(*store, chain.value(), times.value(), parallelRuns,
                          orderText == QLatin1String("newest") ? Backfill::Order::NewestFirst
                                                               : Backfill::Order::OldestFirst);
    if (!runs)
        return context.fail(runs.error());
    QList<QStringList> rows;
    for (const Run &run : runs.value())
        rows << QStringList{QString::number(run.id), isoWithOffset(run.scheduledFor)};
    context.printTable({QStringLiteral("RUN"), QStringLiteral("SCHEDULED FOR")}, rows);
    context.err() << QStringLiteral("queued %1 backfill runs of %2, %3 at a time, %4 first%5\n")
                         .arg(runs->size())
                         .arg(parser.positionalArguments().at(0))
                         .arg(parallelRuns)
                         .arg(orderText,
                              EngineSessionRepository(*store).anyServes()
                                  ? QString()
                                  : QStringLiteral("; they start when `hourglass serve` runs"));
    context.err().flush();
    return ExitOk;
}

// What engines serve the store, from their sessions: who they are, whether they still serve
// (their lease, or on SQLite their process) and when they last said so.
int engines(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("engines [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    EngineSessionRepository sessions(*store);
    const Result<QList<EngineSession>> all = sessions.list();
    if (!all)
        return context.fail(all.error());
    const Result<qint64> now = sessions.clockMs(QDateTime::currentMSecsSinceEpoch());
    if (!now)
        return context.fail(now.error());
    const QDateTime clock = QDateTime::fromMSecsSinceEpoch(now.value(), Qt::UTC);
    if (context.json()) {
        QJsonArray array;
        for (const EngineSession &session : all.value())
            array << QJsonObject{
                {QStringLiteral("name"), session.name},
                {QStringLiteral("host"), session.host},
                {QStringLiteral("pid"), session.pid},
                {QStringLiteral("serves"),
                 EngineSessionRepository::serves(session, clock, store->backend())},
                {QStringLiteral("startedAt"), isoWithOffset(session.startedAt)},
                {QStringLiteral("heartbeatAt"), isoWithOffset(session.heartbeatAt)},
                {QStringLiteral("leaseUntil"), isoWithOffset(session.leaseUntil)},
                {QStringLiteral("load"), session.load}};
        context.printJson(array);
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const EngineSession &session : all.value())
        rows << QStringList{session.name,
                            session.host,
                            QString::number(session.pid),
                            EngineSessionRepository::serves(session, clock, store->backend())
                                ? QStringLiteral("yes")
                                : QStringLiteral("no"),
                            isoWithOffset(session.startedAt),
                            isoWithOffset(session.heartbeatAt),
                            QString::number(session.load)};
    context.printTable({QStringLiteral("ENGINE"), QStringLiteral("HOST"), QStringLiteral("PID"),
                        QStringLiteral("SERVES"), QStringLiteral("SINCE"),
                        QStringLiteral("HEARTBEAT"), QStringLiteral("TASKS")},
                       rows);
    return ExitOk;
}

} // namespace

int runRunCommand(CliContext &context, const QString &command, const QStringList &args)
{
    if (command == QLatin1String("runs"))
        return runs(context, args);
    if (command == QLatin1String("logs"))
        return logs(context, args);
    if (command == QLatin1String("stop"))
        return control(context, CommandKind::Stop, command, args);
    if (command == QLatin1String("pause"))
        return control(context, CommandKind::Pause, command, args);
    if (command == QLatin1String("resume"))
        return control(context, CommandKind::Resume, command, args);
    if (command == QLatin1String("rerun"))
        return rerun(context, args);
    if (command == QLatin1String("backfill"))
        return backfill(context, args);
    if (command == QLatin1String("engines"))
        return engines(context, args);
    return context.usage(QStringLiteral("unknown command '%1'").arg(command));
}

} // namespace hg
