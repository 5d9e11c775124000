// trigger add|list|rm|pause|resume: starts that are not the clock.
#include "base/terminaltext.h"
#include "clicontext.h"
#include "cron/pginterval.h"
#include "scheduler/clockwatch.h"
#include "scheduler/triggertext.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/occurrencerepository.h"
#include "store/taskrepository.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace hg {
namespace {

// "2s", "1h30m", "500ms", "0.5s", "10 min", "0": a length in milliseconds; -1 when it is
// none, -2 when it is one beyond a year (said apart: "out of range", not "not a length").
qint64 parseLengthMs(const QString &text)
{
    static const QRegularExpression part(QStringLiteral(
        R"(\s*(\d{1,15}(?:\.\d+)?)\s*(msec|ms|seconds|second|secs|sec|s|minutes|minute|mins|min|m|hours|hour|hrs|hr|h|days|day|d)?)"));
    static const QHash<QString, qint64> unitMs{{QStringLiteral("ms"), 1},
                                               {QStringLiteral("msec"), 1},
                                               {QString(), 1000},
                                               {QStringLiteral("s"), 1000},
                                               {QStringLiteral("sec"), 1000},
                                               {QStringLiteral("secs"), 1000},
                                               {QStringLiteral("second"), 1000},
                                               {QStringLiteral("seconds"), 1000},
                                               {QStringLiteral("m"), 60'000},
                                               {QStringLiteral("min"), 60'000},
                                               {QStringLiteral("mins"), 60'000},
                                               {QStringLiteral("minute"), 60'000},
                                               {QStringLiteral("minutes"), 60'000},
                                               {QStringLiteral("h"), 3'600'000},
                                               {QStringLiteral("hr"), 3'600'000},
                                               {QStringLiteral("hrs"), 3'600'000},
                                               {QStringLiteral("hour"), 3'600'000},
                                               {QStringLiteral("hours"), 3'600'000},
                                               {QStringLiteral("d"), 86'400'000},
                                               {QStringLiteral("day"), 86'400'000},
                                               {QStringLiteral("days"), 86'400'000}};
    constexpr double longestMs = 366.0 * 86'400'000;
    const QString trimmed = text.trimmed().toLower();
    if (trimmed.isEmpty())
        return -1;
    double total = 0;
    for (qsizetype at = 0; at < trimmed.size();) {
        const QRegularExpressionMatch match =
            part.match(trimmed, at, QRegularExpression::NormalMatch,
                       QRegularExpression::AnchorAtOffsetMatchOption);
        if (!match.hasMatch() || match.capturedLength() == 0)
            return -1;
        total += match.captured(1).toDouble() * double(unitMs.value(match.captured(2)));
        at += match.capturedLength();
    }
    if (total > longestMs)
        return -2;
    const auto ms = qint64(std::llround(total));
    // Below a millisecond is not a length a file or a desktop can be timed by.
    return total > 0 && ms == 0 ? -1 : ms;
}

// "trigger 4: p/c starts when …", or the refusal (a bad setting is a usage error).
int sayAdded(CliContext &context, const Result<ChainTrigger> &added)
{
    if (!added)
        return added.error().kind == ErrorKind::Invalid ? context.usage(added.error().message)
                                                        : context.fail(added.error());
    context.out() << "trigger " << added->id << ": " << terminaltext::escaped(added->path.left(300))
                  << " starts " << triggertext::describe(added.value()) << '\n';
    return ExitOk;
}

int addFileTrigger(CliContext &context, Store &store, const QCommandLineParser &parser)
{
    const Result<Chain> chain = ChainRepository(store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    ChainTrigger trigger;
    trigger.kind = TriggerKind::File;
    trigger.chainId = chain->id;
    trigger.path = parser.positionalArguments().at(0);
    trigger.paused = parser.isSet(QStringLiteral("paused"));
    FileTriggerSpec &spec = trigger.file;
    spec.glob = parser.value(QStringLiteral("file"));
    // A folder named without its files would start nothing, ever: said where it is typed.
    if (spec.glob.startsWith(QLatin1Char('/')) && QFileInfo(spec.glob).isDir())
        return context.usage(QStringLiteral("--file: %1 is a folder; to watch the files in it: "
                                            "%2/*")
                                 .arg(terminaltext::escaped(spec.glob.left(300)),
                                      terminaltext::escaped(QDir::cleanPath(spec.glob).left(300))));
    if (parser.isSet(QStringLiteral("events"))) {
        spec.events.clear();
        for (const QString &name :
             parser.value(QStringLiteral("events")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const std::optional<FileEvent> event = enumFromString<FileEvent>(name.trimmed());
            if (!event)
                return context.usage(QStringLiteral("--events: '%1' is not one of created, "
                                                    "modified, deleted, moved")
                                         .arg(terminaltext::escaped(name.left(100))));
            if (!spec.events.contains(*event))
                spec.events << *event;
        }
    }
    const auto length = [&](const QString &option, qint64 &into) {
        if (!parser.isSet(option))
            return true;
        into = parseLengthMs(parser.value(option));
        if (into == -2) // a length, beyond a year: the setting's own check names its range
            into = std::numeric_limits<qint64>::max() / 2;
        return into >= 0;
    };
    for (const auto &[option, into] :
         {std::pair<QString, qint64 *>{QStringLiteral("settle"), &spec.settleMs},
          {QStringLiteral("batch"), &spec.batchMs},
          {QStringLiteral("poll"), &spec.pollMs}})
        if (!length(option, *into))
            return context.usage(
                QStringLiteral("--%1: '%2' is not a length of time (such as "
                               "2s, 500ms, 10 min)")
                    .arg(option, terminaltext::escaped(parser.value(option).left(100))));
    if (parser.isSet(QStringLiteral("max-per-minute"))) {
        bool ok = false;
        spec.maxPerMinute = parser.value(QStringLiteral("max-per-minute")).toInt(&ok);
        if (!ok)
            return context.usage(QStringLiteral("--max-per-minute: a number of runs (0: no "
                                                "limit)"));
    }
    if (parser.isSet(QStringLiteral("misfire"))) {
        const std::optional<MisfirePolicy> policy =
            enumFromString<MisfirePolicy>(parser.value(QStringLiteral("misfire")).trimmed());
        if (!policy)
            return context.usage(QStringLiteral("--misfire: all, once, skip or ask"));
        spec.misfire = *policy;
    }
    const Result<ChainTrigger> added = ChainTriggerRepository(store).add(trigger);
    if (const int failed = sayAdded(context, added); failed != ExitOk)
        return failed;
    // A file name in a shell task's text is shell text: said once, where it is written.
    if (const Result<QList<Task>> tasks = TaskRepository(store).list(chain->id))
        for (const Task &task : tasks.value())
            if (task.kind == TaskKind::Shell
                && task.command.contains(QLatin1String("${trigger.path")))
                context.err() << "hourglass: task " << terminaltext::escaped(task.name)
                              << " puts ${trigger.path} into its shell text, where a file's "
                                 "name is shell code; use \"$HOURGLASS_TRIGGER_PATH\" instead\n";
    return ExitOk;
}

int addDesktopTrigger(CliContext &context, Store &store, const QCommandLineParser &parser,
                      const QString &eventName)
{
    const Result<Chain> chain = ChainRepository(store).byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    ChainTrigger trigger;
    trigger.kind = TriggerKind::Desktop;
    trigger.chainId = chain->id;
    trigger.path = parser.positionalArguments().at(0);
    trigger.paused = parser.isSet(QStringLiteral("paused"));
    trigger.desktop.event = enumFromString<DesktopEvent>(eventName).value_or(DesktopEvent::Unlock);
    if (trigger.desktop.event == DesktopEvent::Idle) {
        trigger.desktop.idleMs = parseLengthMs(parser.value(QStringLiteral("on-idle")));
        if (trigger.desktop.idleMs == -2) // beyond a year: the range is said below
            trigger.desktop.idleMs = std::numeric_limits<qint64>::max() / 2;
        if (trigger.desktop.idleMs < 0)
            return context.usage(
                QStringLiteral("--on-idle: '%1' is not a length of time (such as 10 min, 1h)")
                    .arg(terminaltext::escaped(parser.value(QStringLiteral("on-idle")).left(100))));
    }
    const Result<ChainTrigger> added = ChainTriggerRepository(store).add(trigger);
    if (const int failed = sayAdded(context, added); failed != ExitOk)
        return failed;
    return ExitOk;
}

int addTrigger(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption after(QStringLiteral("after"),
                                   QStringLiteral("Start it when a run of these chains ends."),
                                   QStringLiteral("PROJECT/CHAIN[,…]"));
    const QCommandLineOption on(QStringLiteral("on"),
                                QStringLiteral("succeeded (default), failed or finished."),
                                QStringLiteral("STATE"));
    const QCommandLineOption within(QStringLiteral("within"),
                                    QStringLiteral("With several chains: once each has so ended "
                                                   "within this of the others (90s, 2h…)."),
                                    QStringLiteral("DURATION"));
    const QCommandLineOption paused(QStringLiteral("paused"),
                                    QStringLiteral("Added paused (`trigger resume ID`)."));
    const QCommandLineOption file(QStringLiteral("file"),
                                  QStringLiteral("Start it when files matching this glob settle "
                                                 "(/srv/in/*.csv, /srv/in/**/*.csv)."),
                                  QStringLiteral("GLOB"));
    const QCommandLineOption events(QStringLiteral("events"),
                                    QStringLiteral("created,modified,deleted,moved (default "
                                                   "created,moved)."),
                                    QStringLiteral("LIST"));
    const QCommandLineOption settle(QStringLiteral("settle"),
                                    QStringLiteral("Unchanged this long after the last write "
                                                   "(default 2s)."),
                                    QStringLiteral("DURATION"));
    const QCommandLineOption batch(QStringLiteral("batch"),
                                   QStringLiteral("One run for every file of this window."),
                                   QStringLiteral("WINDOW"));
    const QCommandLineOption perMinute(QStringLiteral("max-per-minute"),
                                       QStringLiteral("Storm guard (default 60; 0: none)."),
                                       QStringLiteral("N"));
    const QCommandLineOption poll(QStringLiteral("poll"),
                                  QStringLiteral("Poll at this interval instead of inotify."),
                                  QStringLiteral("DURATION"));
    const QCommandLineOption misfire(
        QStringLiteral("misfire"),
        QStringLiteral("Files that arrived while no engine "
                       "watched: all (default), once, skip or ask (the missed-runs inbox)."),
        QStringLiteral("POLICY"));
    const QCommandLineOption onIdle(QStringLiteral("on-idle"),
                                    QStringLiteral("Start it when the session has been idle "
                                                   "this long (whole minutes)."),
                                    QStringLiteral("DURATION"));
    // The desktop's events without a value: --on-unlock, --on-resume, …
    QList<QCommandLineOption> desktopEvents;
    for (const auto &[name, help] :
         {std::pair{"on-unlock", "Start it when the session is unlocked."},
          {"on-resume", "Start it when the machine wakes from sleep."},
          {"on-network", "Start it when the network comes up."},
          {"on-ac-power", "Start it when the machine goes onto AC power."}})
        desktopEvents << QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help));
    const QCommandLineOption webhook(
        QStringLiteral("webhook"),
        QStringLiteral("Start it when a POST signed with its secret reaches /hooks/ID of the "
                       "local API (`serve --api`)."));
    const QCommandLineOption header(
        QStringLiteral("header"),
        QStringLiteral("Webhook: a request header a run may read as ${trigger.header.NAME} "
                       "(repeatable)."),
        QStringLiteral("NAME[,…]"));
    parser.addOptions(
        {after, on, within, paused, file, events, settle, batch, perMinute, poll, misfire});
    parser.addOptions(desktopEvents);
    parser.addOptions({onIdle, webhook, header});
    Store *store = context.prepare(
        parser, args,
        QStringLiteral("trigger add PROJECT/CHAIN --after PROJECT/CHAIN[,…] [--on "
                       "succeeded|failed|finished] [--within DURATION] [--paused]\n"
                       "       trigger add PROJECT/CHAIN --file GLOB [--events LIST] [--settle "
                       "DURATION] [--batch WINDOW] [--max-per-minute N] [--poll DURATION] "
                       "[--misfire all|once|skip|ask] [--paused]\n"
                       "       trigger add PROJECT/CHAIN --on-unlock|--on-resume|--on-network|"
                       "--on-ac-power|--on-idle DURATION [--paused]\n"
                       "       trigger add PROJECT/CHAIN --webhook [--header NAME[,…]] "
                       "[--paused]"),
        {QStringLiteral("PROJECT/CHAIN")});
    if (!store)
        return context.exitCode();
    QStringList kinds;
    for (const QCommandLineOption &kind : desktopEvents)
        if (parser.isSet(kind))
            kinds << QStringLiteral("--") + kind.names().constFirst();
    for (const QCommandLineOption &kind : {onIdle, file, after, webhook})
        if (parser.isSet(kind))
            kinds << QStringLiteral("--") + kind.names().constFirst();
    if (kinds.size() > 1)
        return context.usage(QStringLiteral("%1: one trigger starts on one kind of thing; add "
                                            "one trigger for each")
                                 .arg(kinds.join(QStringLiteral(" and "))));
    if (parser.isSet(header) && !parser.isSet(webhook))
        return context.usage(QStringLiteral("--header is a setting of webhook triggers "
                                            "(--webhook)"));
    if (parser.isSet(webhook)) {
        for (const QCommandLineOption &other :
             {on, within, events, settle, batch, perMinute, poll, misfire})
            if (parser.isSet(other))
                return context.usage(QStringLiteral("--%1 is not a setting of --webhook")
                                         .arg(other.names().constFirst()));
        return addWebhookTrigger(context, *store, parser);
    }
    if (!kinds.isEmpty() && kinds.constFirst().startsWith(QLatin1String("--on-"))) {
        for (const QCommandLineOption &other :
             {on, within, events, settle, batch, perMinute, poll, misfire})
            if (parser.isSet(other))
                return context.usage(QStringLiteral("--%1 is not a setting of %2")
                                         .arg(other.names().constFirst(), kinds.constFirst()));
        return addDesktopTrigger(context, *store, parser, kinds.constFirst().mid(5));
    }
    if (parser.isSet(file))
        return addFileTrigger(context, *store, parser);
    for (const QCommandLineOption &fileOnly : {events, settle, batch, perMinute, poll, misfire})
        if (parser.isSet(fileOnly))
            return context.usage(QStringLiteral("--%1 is a setting of file triggers (--file)")
                                     .arg(fileOnly.names().constFirst()));
    if (!parser.isSet(after))
        return context.usage(
            QStringLiteral("name what starts it: --after PROJECT/CHAIN[,…], --file GLOB, "
                           "--on-unlock, --on-resume, --on-network, --on-idle DURATION, "
                           "--on-ac-power or --webhook"));
    ChainRepository chains(*store);
    const Result<Chain> chain = chains.byPath(parser.positionalArguments().at(0));
    if (!chain)
        return context.fail(chain.error());
    ChainTrigger trigger;
    trigger.chainId = chain->id;
    trigger.path = parser.positionalArguments().at(0);
    trigger.paused = parser.isSet(paused);
    for (const QString &text : parser.value(after).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const Result<Chain> upstream = chains.byPath(text.trimmed());
        if (!upstream)
            return context.fail(Error(upstream.error().kind,
                                      QStringLiteral("--after: %1").arg(upstream.error().message)));
        trigger.upstreams << ChainTrigger::Upstream{upstream->id, text.trimmed()};
    }
    if (!context.enumOption(parser, on, trigger.on))
        return context.exitCode();
    if (parser.isSet(within)) {
        const Result<qint64> seconds = PgInterval::parseSeconds(parser.value(within).trimmed());
        if (!seconds || seconds.value() <= 0)
            return context.usage(QStringLiteral("--within: '%1' is not a length of time (such as "
                                                "90s, 10 min, 1h30m)")
                                     .arg(terminaltext::escaped(parser.value(within))));
        trigger.withinMs = seconds.value() * 1000;
    }
    const Result<ChainTrigger> added = ChainTriggerRepository(*store).add(trigger);
    if (const int failed = sayAdded(context, added); failed != ExitOk)
        return failed;
    return ExitOk;
}

int listTriggers(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("trigger list [PROJECT/CHAIN] [--json]"),
                        {QStringLiteral("PROJECT/CHAIN")}, true, 1);
    if (!store)
        return context.exitCode();
    std::optional<qint64> chainId;
    if (!parser.positionalArguments().isEmpty()) {
        const Result<Chain> chain =
            ChainRepository(*store).byPath(parser.positionalArguments().at(0));
        if (!chain)
            return context.fail(chain.error());
        chainId = chain->id;
    }
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(*store).list(chainId);
    if (!triggers)
        return context.fail(triggers.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const ChainTrigger &t : triggers.value()) {
        array << triggertext::json(t);
        QString when = QStringLiteral("starts ") + triggertext::describe(t);
        if (!t.watchNote.isEmpty())
            when += QStringLiteral(" — ") + terminaltext::escaped(t.watchNote);
        rows << QStringList{QString::number(t.id), terminaltext::escaped(t.path),
                            t.paused ? QStringLiteral("paused") : QStringLiteral("on"), when};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("ID"), QStringLiteral("CHAIN"), QStringLiteral("STATE"),
                            QStringLiteral("WHEN")},
                           rows);
    return ExitOk;
}

// rm, pause and resume take a trigger's id.
int changeTrigger(CliContext &context, const QString &verb, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store = context.prepare(parser, args, QStringLiteral("trigger %1 ID").arg(verb),
                                   {QStringLiteral("ID")});
    if (!store)
        return context.exitCode();
    bool ok = false;
    const QString text = parser.positionalArguments().at(0);
    // Digits only: " 5", "+5" and "05" are not how an id is written (toLongLong takes them).
    const qint64 id = text.toLongLong(&ok);
    static const QRegularExpression digits(QStringLiteral("^[1-9][0-9]*$"));
    if (!ok || id <= 0 || !digits.match(text).hasMatch())
        return context.usage(QStringLiteral("'%1' is not a trigger's id (`hourglass trigger list`)")
                                 .arg(terminaltext::escaped(parser.positionalArguments().at(0))));
    ChainTriggerRepository triggers(*store);
    // What waits in the missed-runs inbox for it goes with it (as its ledger rows do): said.
    qint64 waiting = 0;
    if (verb == QLatin1String("rm"))
        if (const Result<QList<Occurrence>> pending = OccurrenceRepository(*store).pending())
            for (const Occurrence &row : pending.value())
                waiting += row.triggerId == id ? row.count : 0;
    const Result<ChainTrigger> before = triggers.byId(id);
    const Status done = verb == QLatin1String("rm")
                            ? triggers.remove(id)
                            : triggers.setPaused(id, verb == QLatin1String("pause"));
    if (!done)
        return context.fail(done.error());
    if (verb == QLatin1String("rm") && before)
        forgetWebhookSecret(context, before.value());
    if (waiting > 0)
        context.out() << "removed trigger " << id << "; " << waiting
                      << " missed file(s) that waited in the missed-runs inbox for it will not "
                         "run\n";
    return ExitOk;
}

} // namespace

int runTriggerCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addTrigger(context, args);
    if (verb == QLatin1String("list"))
        return listTriggers(context, args);
    if (verb == QLatin1String("rm") || verb == QLatin1String("pause")
        || verb == QLatin1String("resume"))
        return changeTrigger(context, verb, args);
    return context.usage(QStringLiteral("unknown command 'trigger %1'; use add, list, rm, pause "
                                        "or resume")
                             .arg(verb));
}

} // namespace hg
