#include "clicontext.h"
#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"
#include "notify/channelsecrets.h"
#include "remote/connectionsecrets.h"
#include "remote/pgtimetablecatalog.h"
#include "remote/pgtimetableconverter.h"
#include "remote/remotedatabase.h"
#include "store/connectionprofilerepository.h"
#include "store/projectexporter.h"
#include "store/projectimporter.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>
#include <optional>

namespace hg {
namespace {

// A pg_timetable remote opened for one command: its profile, connection and catalog.
struct OpenRemote
{
    ConnectionProfile profile;
    std::unique_ptr<RemoteDatabase> database;
    std::optional<PgTimetableCatalog> catalog;
};

Result<std::unique_ptr<OpenRemote>> openPgTimetable(CliContext &context, const QString &name)
{
    Result<Store *> store = context.store();
    if (!store)
        return store.error();
    Result<ConnectionProfile> profile = ConnectionProfileRepository(*store.value()).byName(name);
    if (!profile)
        return profile.error().kind == ErrorKind::NotFound ? Error::notFound(
                   QStringLiteral("unknown remote '%1'; see hourglass remote list").arg(name))
                                                           : profile.error();
    if (profile->kind != ConnectionKind::PgTimetable)
        return Error::invalid(QStringLiteral("remote '%1' is a %2 connection; these commands "
                                             "serve pg_timetable remotes")
                                  .arg(name, enumName(profile->kind)));
    const Result<QString> password = ConnectionSecrets().lookup(profile.value());
    if (!password)
        return password.error();
    auto open = std::make_unique<OpenRemote>();
    open->profile = profile.value();
    Result<std::unique_ptr<RemoteDatabase>> database =
        RemoteDatabase::open(open->profile, password.value());
    if (!database)
        return database.error();
    open->database = std::move(database.value());
    Result<PgTimetableCatalog> catalog = PgTimetableCatalog::open(*open->database);
    if (!catalog)
        return catalog.error();
    open->catalog.emplace(catalog.value());
    return open;
}

QTimeZone serverZone(const RemoteInfo &info)
{
    const QTimeZone zone(info.timeZone.toUtf8());
    return zone.isValid() ? zone : QTimeZone::utc();
}

// The next fire times by our pgtimetable dialect in the server's zone, and their meaning.
QJsonObject scheduleJson(const QString &runAt, const QTimeZone &zone, int count)
{
    QJsonObject schedule{{QStringLiteral("runAt"), runAt}};
    if (runAt.isEmpty())
        return schedule;
    const Result<CronExpression> expression =
        CronExpression::parse(runAt, CronDialect::PgTimetable);
    if (!expression) {
        schedule.insert(QStringLiteral("error"), expression.error().message);
        return schedule;
    }
    schedule.insert(QStringLiteral("meaning"),
                    CronExplainer(expression.value()).describe(QString::fromUtf8(zone.id())));
    QJsonArray next;
    QDateTime after = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < count; ++i) {
        const std::optional<QDateTime> fire = expression->next(after, zone);
        if (!fire)
            break;
        next << fire->toString(Qt::ISODateWithMs);
        after = *fire;
    }
    schedule.insert(QStringLiteral("next"), next);
    return schedule;
}

QJsonObject chainJson(const PgtChain &chain, const QTimeZone &zone, int fireCount)
{
    QJsonObject object{{QStringLiteral("id"), chain.id},
                       {QStringLiteral("name"), chain.name},
                       {QStringLiteral("live"), chain.live},
                       {QStringLiteral("maxInstances"),
                        chain.maxInstances ? QJsonValue(*chain.maxInstances) : QJsonValue()},
                       {QStringLiteral("timeoutMs"), chain.timeoutMs},
                       {QStringLiteral("clientName"), chain.clientName},
                       {QStringLiteral("exclusive"), chain.exclusive},
                       {QStringLiteral("selfDestruct"), chain.selfDestruct},
                       {QStringLiteral("onError"), chain.onError},
                       {QStringLiteral("schedule"), scheduleJson(chain.runAt, zone, fireCount)}};
    QJsonArray tasks;
    for (const PgtTask &task : chain.tasks) {
        QJsonArray parameters;
        for (const QString &parameter : task.parameters)
            parameters << QJsonDocument::fromJson(QByteArrayLiteral("[") + parameter.toUtf8() + "]")
                              .array()
                              .at(0);
        tasks << QJsonObject{{QStringLiteral("id"), task.id},
                             {QStringLiteral("order"), task.order},
                             {QStringLiteral("name"), task.name},
                             {QStringLiteral("kind"), task.kind},
                             {QStringLiteral("command"), task.command},
                             {QStringLiteral("parameters"), parameters},
                             {QStringLiteral("ignoreError"), task.ignoreError},
                             {QStringLiteral("autonomous"), task.autonomous},
                             {QStringLiteral("timeoutMs"), task.timeoutMs},
                             {QStringLiteral("databaseConnection"), task.databaseConnection},
                             {QStringLiteral("runAs"), task.runAs}};
    }
    if (!chain.tasks.isEmpty())
        object.insert(QStringLiteral("tasks"), tasks);
    return object;
}

void printWarning(CliContext &context, const RemoteInfo &info)
{
    if (!info.warning.isEmpty())
        context.err() << "warning: " << info.warning << '\n';
}

int listChains(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    if (!context.parse(parser, args, QStringLiteral("remote chains NAME [--json]"), true)
        || !context.expectPositionals(parser, {QStringLiteral("NAME")}))
        return context.exitCode();
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const PgTimetableCatalog &catalog = *remote.value()->catalog;
    printWarning(context, catalog.info());
    const Result<QList<PgtChain>> chains = catalog.chains();
    if (!chains)
        return context.fail(chains.error());
    const QTimeZone zone = serverZone(catalog.info());
    QJsonArray array;
    QList<QStringList> rows;
    for (const PgtChain &chain : chains.value()) {
        const QJsonObject object = chainJson(chain, zone, context.json() ? 5 : 1);
        array << object;
        const QJsonObject schedule = object.value(QStringLiteral("schedule")).toObject();
        rows << QStringList{chain.name,
                            chain.runAt,
                            chain.live ? QStringLiteral("yes") : QStringLiteral("no"),
                            chain.maxInstances ? QString::number(*chain.maxInstances) : QString(),
                            chain.clientName,
                            schedule.value(QStringLiteral("next")).toArray().at(0).toString()};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("CHAIN"), QStringLiteral("RUN_AT"),
                            QStringLiteral("LIVE"), QStringLiteral("MAX"), QStringLiteral("CLIENT"),
                            QStringLiteral("NEXT")},
                           rows);
    return ExitOk;
}

int showChain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    if (!context.parse(parser, args, QStringLiteral("remote show NAME CHAIN [--json]"), true)
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("CHAIN")}))
        return context.exitCode();
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const PgTimetableCatalog &catalog = *remote.value()->catalog;
    printWarning(context, catalog.info());
    const Result<PgtChain> chain = catalog.chain(parser.positionalArguments().at(1));
    if (!chain)
        return context.fail(chain.error());
    const QJsonObject object = chainJson(chain.value(), serverZone(catalog.info()), 5);
    if (context.json()) {
        context.printJson(object);
        return ExitOk;
    }
    QTextStream &out = context.out();
    const QJsonObject schedule = object.value(QStringLiteral("schedule")).toObject();
    out << "chain " << chain->name << " (id " << chain->id << ")\n"
        << "  run_at: " << (chain->runAt.isEmpty() ? QStringLiteral("-") : chain->runAt);
    if (schedule.contains(QStringLiteral("meaning")))
        out << " — " << schedule.value(QStringLiteral("meaning")).toString();
    out << "\n  live: " << (chain->live ? "yes" : "no") << ", max_instances: "
        << (chain->maxInstances ? QString::number(*chain->maxInstances) : QStringLiteral("-"))
        << ", timeout: " << chain->timeoutMs << " ms, client_name: "
        << (chain->clientName.isEmpty() ? QStringLiteral("any") : chain->clientName)
        << ", exclusive: " << (chain->exclusive ? "yes" : "no")
        << ", self_destruct: " << (chain->selfDestruct ? "yes" : "no") << '\n';
    const QJsonArray next = schedule.value(QStringLiteral("next")).toArray();
    for (const auto &fire : next)
        out << "  next: " << fire.toString() << '\n';
    for (const PgtTask &task : chain->tasks)
        out << "  " << task.order << ". " << task.kind << ' '
            << (task.name.isEmpty() ? QString() : task.name + QLatin1String(": ")) << task.command
            << (task.parameters.isEmpty()
                    ? QString()
                    : QLatin1String(" params ") + task.parameters.join(QLatin1String(" | ")))
            << (task.ignoreError ? " [ignore_error]" : "")
            << (task.autonomous ? " [autonomous]" : "") << '\n';
    out.flush();
    return ExitOk;
}

int listRuns(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption since(QStringLiteral("since"),
                                   QStringLiteral("Only runs since this ISO 8601 time."),
                                   QStringLiteral("TIME"));
    const QCommandLineOption failed(QStringLiteral("failed"), QStringLiteral("Failed runs only."));
    const QCommandLineOption limit(QStringLiteral("limit"), QStringLiteral("At most N rows."),
                                   QStringLiteral("N"), QStringLiteral("50"));
    parser.addOptions({since, failed, limit});
    if (!context.parse(parser, args,
                       QStringLiteral("remote runs NAME [CHAIN] [--since ISO8601] [--failed] "
                                      "[--limit N] [--json]"),
                       true)
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("CHAIN")}, 1))
        return context.exitCode();
    PgtExecutionFilter filter;
    filter.chainName = parser.positionalArguments().value(1);
    filter.failedOnly = parser.isSet(failed);
    if (!context.intOption(parser, limit, filter.limit, 1))
        return context.exitCode();
    if (parser.isSet(since)) {
        filter.since = QDateTime::fromString(parser.value(since), Qt::ISODate);
        if (!filter.since.isValid())
            return context.usage(
                QStringLiteral("--since: '%1' is not an ISO 8601 time").arg(parser.value(since)));
    }
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const Result<QList<PgtExecution>> rows = remote.value()->catalog->executions(filter);
    if (!rows)
        return context.fail(rows.error());
    QJsonArray array;
    QList<QStringList> table;
    for (const PgtExecution &row : rows.value()) {
        const qint64 ms = row.finished.isValid() ? row.lastRun.msecsTo(row.finished) : -1;
        array << QJsonObject{
            {QStringLiteral("chain"), row.chainName},
            {QStringLiteral("chainId"), row.chainId},
            {QStringLiteral("taskId"), row.taskId},
            {QStringLiteral("txid"), row.txid},
            {QStringLiteral("started"), CliContext::isoText(row.lastRun.toUTC())},
            {QStringLiteral("finished"), CliContext::isoText(row.finished.toUTC())},
            {QStringLiteral("returnCode"),
             row.returnCode ? QJsonValue(*row.returnCode) : QJsonValue()},
            {QStringLiteral("kind"), row.kind},
            {QStringLiteral("command"), row.command},
            {QStringLiteral("output"), row.output},
            {QStringLiteral("client"), row.clientName},
            {QStringLiteral("params"), row.params}};
        table << QStringList{CliContext::isoText(row.lastRun.toUTC()),
                             row.chainName.isEmpty() ? QString::number(row.chainId) : row.chainName,
                             QString::number(row.taskId),
                             row.failed() ? QStringLiteral("failed") : QStringLiteral("ok"),
                             ms >= 0 ? QStringLiteral("%1 ms").arg(ms) : QString(),
                             row.clientName,
                             row.command.simplified().left(60)};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("STARTED"), QStringLiteral("CHAIN"),
                            QStringLiteral("TASK"), QStringLiteral("RESULT"),
                            QStringLiteral("DURATION"), QStringLiteral("CLIENT"),
                            QStringLiteral("COMMAND")},
                           table);
    return ExitOk;
}

int listSessions(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    if (!context.parse(parser, args, QStringLiteral("remote sessions NAME [--json]"), true)
        || !context.expectPositionals(parser, {QStringLiteral("NAME")}))
        return context.exitCode();
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const Result<QList<PgtSession>> sessions = remote.value()->catalog->sessions();
    if (!sessions)
        return context.fail(sessions.error());
    QJsonArray array;
    QList<QStringList> rows;
    for (const PgtSession &session : sessions.value()) {
        array << QJsonObject{
            {QStringLiteral("client"), session.clientName},
            {QStringLiteral("clientPid"), session.clientPid},
            {QStringLiteral("serverPid"), session.serverPid},
            {QStringLiteral("started"), CliContext::isoText(session.startedAt.toUTC())},
            {QStringLiteral("activeChains"), QJsonArray::fromStringList(session.activeChains)}};
        rows << QStringList{session.clientName, QString::number(session.clientPid),
                            CliContext::isoText(session.startedAt.toUTC()),
                            session.activeChains.join(QLatin1String(", "))};
    }
    if (context.json())
        context.printJson(array);
    else
        context.printTable({QStringLiteral("WORKER"), QStringLiteral("PID"),
                            QStringLiteral("SINCE"), QStringLiteral("RUNNING")},
                           rows);
    return ExitOk;
}

// start, stop, enable, disable and delete-job: NAME CHAIN, and the worker for start/stop.
int actOnChain(CliContext &context, const QString &verb, const QStringList &args)
{
    QCommandLineParser parser;
    const bool needsWorker = verb == QLatin1String("start") || verb == QLatin1String("stop");
    const QCommandLineOption worker(QStringLiteral("worker"),
                                    QStringLiteral("The pg_timetable worker (client name)."),
                                    QStringLiteral("W"));
    if (needsWorker)
        parser.addOption(worker);
    const QString synopsis =
        QStringLiteral("remote %1 NAME CHAIN%2")
            .arg(verb, needsWorker ? QStringLiteral(" [--worker W]") : QString());
    if (!context.parse(parser, args, synopsis)
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("CHAIN")}))
        return context.exitCode();
    const QString chain = parser.positionalArguments().at(1);
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const PgTimetableCatalog &catalog = *remote.value()->catalog;
    QString workerName = parser.isSet(worker) ? parser.value(worker) : QString();
    if (needsWorker && workerName.isEmpty()) {
        // The chain's own client_name, else the only connected worker.
        const Result<PgtChain> settings = catalog.chain(chain);
        if (!settings)
            return context.fail(settings.error());
        workerName = settings->clientName;
        const Result<QList<PgtSession>> sessions = catalog.sessions();
        if (workerName.isEmpty() && sessions && sessions->size() == 1)
            workerName = sessions->constFirst().clientName;
        if (workerName.isEmpty())
            return context.usage(QStringLiteral("remote %1: name the worker with --worker (%2 "
                                                "connected; see remote sessions %3)")
                                     .arg(verb)
                                     .arg(sessions ? sessions->size() : 0)
                                     .arg(remote.value()->profile.name));
    }
    Status done;
    if (verb == QLatin1String("start"))
        done = catalog.start(chain, workerName);
    else if (verb == QLatin1String("stop"))
        done = catalog.stop(chain, workerName);
    else if (verb == QLatin1String("enable") || verb == QLatin1String("disable"))
        done = catalog.setLive(chain, verb == QLatin1String("enable"));
    else
        done = catalog.deleteJob(chain);
    if (!done)
        return context.fail(done.error());
    if (needsWorker)
        context.out() << verb << " sent to worker '" << workerName << "'\n";
    return ExitOk;
}

int addJob(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption schedule(
        QStringLiteral("schedule"),
        QStringLiteral("timetable.cron: cron, @every, @after, @reboot."), QStringLiteral("CRON"));
    const QCommandLineOption command(QStringLiteral("command"), QStringLiteral("The command."),
                                     QStringLiteral("TEXT"));
    const QCommandLineOption kind(QStringLiteral("kind"),
                                  QStringLiteral("SQL, PROGRAM or BUILTIN."),
                                  QStringLiteral("KIND"), QStringLiteral("SQL"));
    const QCommandLineOption parameters(QStringLiteral("parameters"),
                                        QStringLiteral("The task's parameters (JSON)."),
                                        QStringLiteral("JSON"));
    const QCommandLineOption client(QStringLiteral("client"),
                                    QStringLiteral("Only this worker runs it."),
                                    QStringLiteral("NAME"));
    parser.addOptions({schedule, command, kind, parameters, client});
    if (!context.parse(parser, args,
                       QStringLiteral("remote add-job NAME JOB --schedule CRON --command TEXT "
                                      "[--kind SQL|PROGRAM|BUILTIN] [--parameters JSON] "
                                      "[--client W]"))
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("JOB")}))
        return context.exitCode();
    if (!parser.isSet(schedule) || !parser.isSet(command))
        return context.usage(QStringLiteral("remote add-job needs --schedule and --command"));
    PgtChain settings;
    settings.name = parser.positionalArguments().at(1);
    settings.runAt = parser.value(schedule);
    settings.live = true;
    settings.clientName = parser.value(client);
    PgtTask task;
    task.kind = parser.value(kind).toUpper();
    task.command = parser.value(command);
    task.ignoreError = true; // add_job's own default
    if (parser.isSet(parameters))
        task.parameters << parser.value(parameters);
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const Result<qint64> id = remote.value()->catalog->addJob(settings, task);
    if (!id)
        return context.fail(id.error());
    context.out() << "job '" << settings.name << "' added as chain " << id.value() << '\n';
    return ExitOk;
}

int importChain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption into(QStringLiteral("into"),
                                  QStringLiteral("The local project (default: the remote's name)."),
                                  QStringLiteral("PROJECT"));
    parser.addOption(into);
    if (!context.parse(parser, args, QStringLiteral("remote import NAME CHAIN [--into PROJECT]"))
        || !context.expectPositionals(parser, {QStringLiteral("NAME"), QStringLiteral("CHAIN")}))
        return context.exitCode();
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const OpenRemote &open = *remote.value();
    const Result<PgtChain> chain = open.catalog->chain(parser.positionalArguments().at(1));
    if (!chain)
        return context.fail(chain.error());
    const QString project = parser.isSet(into) ? parser.value(into) : open.profile.name;
    QStringList notes;
    QStringList keptKeys; // forgotten again should the import not happen
    PgTimetableConverter::ImportOptions options;
    options.notes = &notes;
    options.keepPassword = [&](const QString &password) {
        Result<QString> key =
            ChannelSecrets().keepPassword(QStringLiteral("sendmail %1").arg(chain->name), password);
        if (key)
            keptKeys << key.value();
        return key;
    };
    const auto failed = [&](const Error &error) {
        for (const QString &key : std::as_const(keptKeys))
            (void)ChannelSecrets().forget(key);
        return context.fail(error);
    };
    const Result<QJsonObject> document = PgTimetableConverter::toDocument(
        chain.value(), project, open.profile.name, open.catalog->info().timeZone, options);
    if (!document)
        return failed(document.error());
    Result<Store *> store = context.store();
    if (!store)
        return failed(store.error());
    ProjectImporter importer(*store.value());
    importer.takePasswordKeys(true); // the converter's, for the passwords it just kept
    const Result<ProjectImporter::Summary> imported =
        importer.importDocument(QJsonDocument(document.value()).toJson());
    if (!imported)
        return failed(imported.error());
    context.out() << "imported " << chain->name << " into " << project << " (" << imported->tasks
                  << " tasks, " << imported->schedules << " schedule(s))\n";
    for (const QString &note : std::as_const(notes))
        context.out() << "  " << note << '\n';
    return ExitOk;
}

int exportChain(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    if (!context.parse(parser, args, QStringLiteral("remote export NAME PROJECT/CHAIN"))
        || !context.expectPositionals(parser,
                                      {QStringLiteral("NAME"), QStringLiteral("PROJECT/CHAIN")}))
        return context.exitCode();
    const QString path = parser.positionalArguments().at(1);
    const qsizetype slash = path.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return context.usage(QStringLiteral("'%1' is not PROJECT/CHAIN").arg(path));
    Result<Store *> store = context.store();
    if (!store)
        return context.fail(store.error());
    ProjectExporter exporter(*store.value());
    exporter.keepPasswordKeys(true); // the converter says the password stays here
    const Result<QJsonObject> exported =
        exporter.exportProject(path.left(slash), path.mid(slash + 1));
    if (!exported)
        return context.fail(exported.error());
    const QJsonObject chainObject = ProjectExporter::firstChain(*exported);
    QStringList notes;
    const Result<PgtChain> chain = PgTimetableConverter::fromChainObject(chainObject, &notes);
    if (!chain)
        return context.fail(Error::invalid(QStringLiteral("cannot export %1 to pg_timetable: %2")
                                               .arg(path, chain.error().message)));
    const Result<std::unique_ptr<OpenRemote>> remote =
        openPgTimetable(context, parser.positionalArguments().at(0));
    if (!remote)
        return context.fail(remote.error());
    const Result<qint64> id = remote.value()->catalog->create(chain.value());
    if (!id)
        return context.fail(id.error());
    context.out() << "exported " << path << " as chain " << id.value() << '\n';
    for (const QString &note : std::as_const(notes))
        context.out() << "  " << note << '\n';
    return ExitOk;
}

} // namespace

int runRemoteCatalogCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    // DolphinScheduler and pgAgent remotes have catalog commands of their own; the rest serve
    // pg_timetable.
    const auto name = std::find_if(args.cbegin(), args.cend(), [](const QString &arg) {
        return !arg.startsWith(QLatin1Char('-'));
    });
    if (name != args.cend()) {
        if (Result<Store *> store = context.store(); store) {
            const Result<ConnectionProfile> profile =
                ConnectionProfileRepository(*store.value()).byName(*name);
            if (profile && profile->kind == ConnectionKind::DolphinScheduler)
                return runDolphinSchedulerCommand(context, profile.value(), verb, args);
            if (profile && profile->kind == ConnectionKind::PgAgent)
                return runPgAgentCommand(context, profile.value(), verb, args);
        }
    }
    if (verb == QLatin1String("chains"))
        return listChains(context, args);
    if (verb == QLatin1String("show"))
        return showChain(context, args);
    if (verb == QLatin1String("runs"))
        return listRuns(context, args);
    if (verb == QLatin1String("sessions"))
        return listSessions(context, args);
    if (verb == QLatin1String("add-job"))
        return addJob(context, args);
    if (verb == QLatin1String("import"))
        return importChain(context, args);
    if (verb == QLatin1String("export"))
        return exportChain(context, args);
    static const QStringList acts{QStringLiteral("start"), QStringLiteral("stop"),
                                  QStringLiteral("enable"), QStringLiteral("disable"),
                                  QStringLiteral("delete-job")};
    if (acts.contains(verb))
        return actOnChain(context, verb, args);
    return context.usage(QStringLiteral("unknown command 'remote %1'; use add, list, rm, test, "
                                        "password, chains, show, runs, sessions, start, stop, "
                                        "enable, disable, add-job, delete-job, import or export")
                             .arg(verb));
}

} // namespace hg
