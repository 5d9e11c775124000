#include "clicontext.h"
#include "importers/foreignimport.h"
#include "remote/connectionsecrets.h"
#include "remote/pgagentcalendar.h"
#include "remote/pgagentcatalog.h"
#include "remote/pgagentconverter.h"
#include "remote/remotedatabase.h"
#include "subcommands.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <optional>

namespace hg {
namespace {

// A pgAgent remote opened for one command.
struct OpenPgAgent
{
    std::unique_ptr<RemoteDatabase> database;
    std::optional<PgAgentCatalog> catalog;
};

Result<std::unique_ptr<OpenPgAgent>> openRemote(const ConnectionProfile &profile)
{
    const Result<QString> password = ConnectionSecrets().lookup(profile);
    if (!password)
        return password.error();
    auto open = std::make_unique<OpenPgAgent>();
    Result<std::unique_ptr<RemoteDatabase>> database =
        RemoteDatabase::open(profile, password.value());
    if (!database)
        return database.error();
    open->database = std::move(database.value());
    Result<PgAgentCatalog> catalog = PgAgentCatalog::open(*open->database);
    if (!catalog)
        return catalog.error();
    open->catalog.emplace(catalog.value());
    return open;
}

QString durationText(qint64 ms)
{
    return ms < 0 ? QStringLiteral("running")
                  : QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
}

QString stepKind(QChar kind)
{
    return kind == QLatin1Char('b') ? QStringLiteral("batch") : QStringLiteral("sql");
}

QString onErrorText(QChar onError)
{
    if (onError == QLatin1Char('s'))
        return QStringLiteral("succeed");
    if (onError == QLatin1Char('i'))
        return QStringLiteral("ignore");
    return QStringLiteral("fail");
}

QJsonObject scheduleJson(const PgAgentSchedule &schedule, const QTimeZone &zone)
{
    QJsonArray fires;
    for (const QDateTime &fire :
         PgAgentCalendar::next(schedule, QDateTime::currentDateTimeUtc(), zone, 5))
        fires << fire.toString(Qt::ISODate);
    const Result<PgAgentCalendar::Cron> cron = PgAgentCalendar::toCron(schedule);
    QJsonArray exceptions;
    for (const PgAgentSchedule::Exception &e : schedule.exceptions)
        exceptions << QStringLiteral("%1 %2").arg(
            e.date.isValid() ? e.date.toString(Qt::ISODate) : QStringLiteral("*"),
            e.time.isValid() ? e.time.toString(QStringLiteral("HH:mm")) : QStringLiteral("*"));
    return {{QStringLiteral("name"), schedule.name},
            {QStringLiteral("enabled"), schedule.enabled},
            {QStringLiteral("start"), CliContext::isoText(schedule.start, QStringLiteral("-"))},
            {QStringLiteral("end"), CliContext::isoText(schedule.end, QStringLiteral("-"))},
            {QStringLiteral("cron"), cron ? cron->expression : QString()},
            {QStringLiteral("dialect"), cron ? cron->dialect : QString()},
            {QStringLiteral("noCron"), cron ? QString() : cron.error().message},
            {QStringLiteral("exceptions"), exceptions},
            {QStringLiteral("timeZone"), QString::fromUtf8(zone.id())},
            {QStringLiteral("next"), fires}};
}

int listJobs(CliContext &context, const PgAgentCatalog &catalog)
{
    const Result<QList<PgAgentJob>> jobs = catalog.jobs();
    if (!jobs)
        return context.fail(jobs.error());
    if (context.json()) {
        QJsonArray array;
        for (const PgAgentJob &job : jobs.value())
            array << QJsonObject{
                {QStringLiteral("id"), job.id},
                {QStringLiteral("name"), job.name},
                {QStringLiteral("class"), job.jobClass},
                {QStringLiteral("enabled"), job.enabled},
                {QStringLiteral("hostAgent"), job.hostAgent},
                {QStringLiteral("nextRun"), CliContext::isoText(job.nextRun, QStringLiteral("-"))},
                {QStringLiteral("lastRun"), CliContext::isoText(job.lastRun, QStringLiteral("-"))}};
        context.printJson(array);
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const PgAgentJob &job : jobs.value())
        rows << QStringList{QString::number(job.id),
                            job.name,
                            job.jobClass,
                            job.enabled ? QStringLiteral("yes") : QStringLiteral("no"),
                            job.hostAgent.isEmpty() ? QStringLiteral("any") : job.hostAgent,
                            CliContext::isoText(job.nextRun, QStringLiteral("-")),
                            CliContext::isoText(job.lastRun, QStringLiteral("-"))};
    context.printTable({QStringLiteral("ID"), QStringLiteral("JOB"), QStringLiteral("CLASS"),
                        QStringLiteral("ENABLED"), QStringLiteral("AGENT"),
                        QStringLiteral("NEXT RUN"), QStringLiteral("LAST RUN")},
                       rows);
    return ExitOk;
}

int showJob(CliContext &context, const PgAgentCatalog &catalog, const QString &name)
{
    const Result<PgAgentJob> job = catalog.job(name);
    if (!job)
        return context.fail(job.error());
    QJsonArray steps;
    for (const PgAgentStep &step : job->steps)
        steps << QJsonObject{{QStringLiteral("name"), step.name},
                             {QStringLiteral("enabled"), step.enabled},
                             {QStringLiteral("kind"), stepKind(step.kind)},
                             {QStringLiteral("database"), step.database},
                             {QStringLiteral("connection"), step.connection},
                             {QStringLiteral("onError"), onErrorText(step.onError)},
                             {QStringLiteral("code"), step.code}};
    QJsonArray schedules;
    for (const PgAgentSchedule &schedule : job->schedules)
        schedules << scheduleJson(schedule, catalog.serverZone());
    if (context.json()) {
        context.printJson(QJsonObject{
            {QStringLiteral("id"), job->id},
            {QStringLiteral("name"), job->name},
            {QStringLiteral("description"), job->description},
            {QStringLiteral("class"), job->jobClass},
            {QStringLiteral("enabled"), job->enabled},
            {QStringLiteral("hostAgent"), job->hostAgent},
            {QStringLiteral("nextRun"), CliContext::isoText(job->nextRun, QStringLiteral("-"))},
            {QStringLiteral("lastRun"), CliContext::isoText(job->lastRun, QStringLiteral("-"))},
            {QStringLiteral("steps"), steps},
            {QStringLiteral("schedules"), schedules}});
        return ExitOk;
    }
    QTextStream &out = context.out();
    out << job->name << " (job " << job->id << ", class " << job->jobClass << ", "
        << (job->enabled ? "enabled" : "disabled") << ", agent "
        << (job->hostAgent.isEmpty() ? QStringLiteral("any") : job->hostAgent) << ")\n";
    out << "next run " << CliContext::isoText(job->nextRun, QStringLiteral("-")) << ", last run "
        << CliContext::isoText(job->lastRun, QStringLiteral("-")) << '\n';
    out << "steps, in the order the agent runs them:\n";
    for (const PgAgentStep &step : job->steps)
        out << "  " << step.name << ": " << stepKind(step.kind)
            << (step.kind == QLatin1Char('s')
                    ? QStringLiteral(" on ")
                          + (step.connection.isEmpty() ? step.database : step.connection)
                    : QString())
            << ", on error " << onErrorText(step.onError) << (step.enabled ? "" : ", disabled")
            << "\n      "
            << QString(step.code).replace(QLatin1Char('\n'), QStringLiteral("\n      ")) << '\n';
    out << "schedules (" << catalog.serverZone().id() << "):\n";
    for (const auto &value : std::as_const(schedules)) {
        const QJsonObject s = value.toObject();
        out << "  " << s[QStringLiteral("name")].toString() << ": "
            << (s[QStringLiteral("cron")].toString().isEmpty()
                    ? s[QStringLiteral("noCron")].toString()
                    : s[QStringLiteral("cron")].toString() + QStringLiteral(" (")
                          + s[QStringLiteral("dialect")].toString() + QLatin1Char(')'))
            << ", from " << s[QStringLiteral("start")].toString() << " to "
            << s[QStringLiteral("end")].toString()
            << (s[QStringLiteral("enabled")].toBool() ? "" : ", disabled") << '\n';
        if (!s[QStringLiteral("exceptions")].toArray().isEmpty())
            out << "      except "
                << s[QStringLiteral("exceptions")].toVariant().toStringList().join(
                       QStringLiteral(", "))
                << '\n';
        for (const QJsonValue fire : s[QStringLiteral("next")].toArray())
            out << "      " << fire.toString() << '\n';
    }
    out.flush();
    return ExitOk;
}

int listRuns(CliContext &context, const PgAgentCatalog &catalog, const QString &jobName, int limit)
{
    qint64 jobId = 0;
    if (!jobName.isEmpty()) {
        const Result<PgAgentJob> job = catalog.job(jobName);
        if (!job)
            return context.fail(job.error());
        jobId = job->id;
    }
    const Result<QList<PgAgentRun>> runs = catalog.runs(jobId, limit);
    if (!runs)
        return context.fail(runs.error());
    if (context.json()) {
        QJsonArray array;
        for (const PgAgentRun &run : runs.value()) {
            QJsonArray steps;
            for (const PgAgentStepRun &step : run.steps)
                steps << QJsonObject{
                    {QStringLiteral("step"), step.step},
                    {QStringLiteral("state"), PgAgentCatalog::stepStatusName(step.status)},
                    {QStringLiteral("result"), step.result},
                    {QStringLiteral("start"), CliContext::isoText(step.start, QStringLiteral("-"))},
                    {QStringLiteral("durationMs"), step.durationMs},
                    {QStringLiteral("output"), step.output}};
            array << QJsonObject{
                {QStringLiteral("id"), run.id},
                {QStringLiteral("job"), run.job},
                {QStringLiteral("state"), PgAgentCatalog::runStatusName(run.status)},
                {QStringLiteral("start"), CliContext::isoText(run.start, QStringLiteral("-"))},
                {QStringLiteral("durationMs"), run.durationMs},
                {QStringLiteral("steps"), steps}};
        }
        context.printJson(array);
        return ExitOk;
    }
    // A step's output in the table is its first line, cut short; --json has all of it.
    const auto outputLine = [](const QString &output) -> QString {
        const QString first = output.trimmed().section(QLatin1Char('\n'), 0, 0);
        const bool more = first.size() > 60 || first.size() < output.trimmed().size();
        return first.left(60) + (more ? QStringLiteral("…") : QString());
    };
    QList<QStringList> rows;
    for (const PgAgentRun &run : runs.value()) {
        rows << QStringList{QString::number(run.id),
                            run.job,
                            PgAgentCatalog::runStatusName(run.status),
                            CliContext::isoText(run.start, QStringLiteral("-")),
                            durationText(run.durationMs),
                            QString()};
        for (const PgAgentStepRun &step : run.steps)
            rows << QStringList{QString(),
                                QStringLiteral("  ") + step.step,
                                PgAgentCatalog::stepStatusName(step.status)
                                    + QStringLiteral(" (%1)").arg(step.result),
                                CliContext::isoText(step.start, QStringLiteral("-")),
                                durationText(step.durationMs),
                                outputLine(step.output)};
    }
    context.printTable({QStringLiteral("RUN"), QStringLiteral("JOB / STEP"),
                        QStringLiteral("STATE"), QStringLiteral("START"),
                        QStringLiteral("DURATION"), QStringLiteral("OUTPUT")},
                       rows);
    return ExitOk;
}

int importJob(CliContext &context, const PgAgentCatalog &catalog, const ConnectionProfile &profile,
              const QString &name, const QString &project, bool checkOnly)
{
    const Result<PgAgentJob> job = catalog.job(name);
    if (!job)
        return context.fail(job.error());
    Result<Store *> store = context.store();
    if (!store)
        return context.fail(store.error());
    const Result<QSet<QString>> taken = ForeignImport::takenChainNames(*store.value(), project);
    if (!taken)
        return context.fail(taken.error());
    const ImportedDefinitions imported = PgAgentConverter::toChain(
        job.value(), profile, catalog.serverZone(), project, taken.value());
    if (const Status written = ForeignImport::write(*store.value(), imported, checkOnly); !written)
        return context.fail(written.error());
    if (context.json())
        context.printJson(imported.report.toJson(project, checkOnly));
    else
        context.out() << imported.report.toText(project, checkOnly);
    context.out().flush();
    return imported.report.leftSomethingOut() ? ExitFailure : ExitOk;
}

} // namespace

int runPgAgentCommand(CliContext &context, const ConnectionProfile &profile, const QString &verb,
                      const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption limit(QStringLiteral("limit"), QStringLiteral("At most N runs."),
                                   QStringLiteral("N"), QStringLiteral("20"));
    const QCommandLineOption into(QStringLiteral("into"),
                                  QStringLiteral("The project the chain goes to."),
                                  QStringLiteral("PROJECT"), QStringLiteral("pgagent"));
    const QCommandLineOption dryRun(
        QStringLiteral("dry-run"), QStringLiteral("Report what would be imported; write nothing."));
    parser.addOptions({limit, into, dryRun});
    const QString synopsis = QStringLiteral(
        "remote chains NAME | remote show|start|enable|disable NAME JOB | remote runs NAME [JOB] "
        "[--limit N] | remote import NAME JOB [--into PROJECT] [--dry-run]");
    if (!context.parse(parser, args, synopsis, true))
        return context.exitCode();
    const QStringList positional = parser.positionalArguments();
    const bool needsJob = verb != QLatin1String("chains") && verb != QLatin1String("runs");
    if (positional.size() < (needsJob ? 2 : 1) || positional.size() > 2)
        return context.usage(QStringLiteral("usage: hourglass ") + synopsis);
    int runLimit = 20;
    if (!context.intOption(parser, limit, runLimit, 1))
        return context.exitCode();

    static const QStringList verbs{QStringLiteral("chains"), QStringLiteral("show"),
                                   QStringLiteral("runs"),   QStringLiteral("start"),
                                   QStringLiteral("enable"), QStringLiteral("disable"),
                                   QStringLiteral("import")};
    if (!verbs.contains(verb))
        return context.usage(QStringLiteral("a pgAgent remote knows %1, not '%2'")
                                 .arg(verbs.join(QStringLiteral(", ")), verb));
    Result<std::unique_ptr<OpenPgAgent>> remote = openRemote(profile);
    if (!remote)
        return context.fail(remote.error());
    const PgAgentCatalog &catalog = *remote.value()->catalog;
    const QString jobName = positional.value(1);
    if (verb == QLatin1String("chains"))
        return listJobs(context, catalog);
    if (verb == QLatin1String("show"))
        return showJob(context, catalog, jobName);
    if (verb == QLatin1String("runs"))
        return listRuns(context, catalog, jobName, runLimit);
    if (verb == QLatin1String("import"))
        return importJob(context, catalog, profile, jobName, parser.value(into),
                         parser.isSet(dryRun));
    const Result<PgAgentJob> job = catalog.job(jobName);
    if (!job)
        return context.fail(job.error());
    const Status done = verb == QLatin1String("start")
                            ? catalog.runNow(job->id)
                            : catalog.setEnabled(job->id, verb == QLatin1String("enable"));
    if (!done)
        return context.fail(done.error());
    context.out() << (verb == QLatin1String("start")
                          ? QStringLiteral("job %1 is due now: an agent polling %2 runs it\n")
                                .arg(job->name, profile.name)
                          : QStringLiteral("job %1 %2d\n").arg(job->name, verb));
    context.out().flush();
    return ExitOk;
}

} // namespace hg
