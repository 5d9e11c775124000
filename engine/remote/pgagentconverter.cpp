#include "pgagentconverter.h"

#include "domain/connectionprofile.h"
#include "importers/chainnamer.h"
#include "pgagentcalendar.h"

#include <QJsonArray>

namespace hg {

ImportedDefinitions PgAgentConverter::toChain(const PgAgentJob &job,
                                              const ConnectionProfile &remote,
                                              const QTimeZone &serverZone, const QString &project,
                                              const QSet<QString> &takenChainNames)
{
    ImportedDefinitions out{project, {}, ImportReport(remote.name)};
    ChainNamer namer(takenChainNames);
    const QString chainName = namer.fromName(job.name);
    const QString where = tr("job %1").arg(job.name);
    if (!job.hostAgent.isEmpty())
        out.report.note(where, job.hostAgent,
                        tr("pgAgent runs it only on agent %1; Hourglass runs it on its engine")
                            .arg(job.hostAgent));

    QJsonArray tasks;
    QJsonArray dependencies;
    ChainNamer taskNames;
    QString previous;
    bool previousMustSucceed = false;
    for (const PgAgentStep &step : job.steps) {
        const QString at = tr("job %1, step %2").arg(job.name, step.name);
        if (!step.enabled) {
            out.report.note(at, {}, tr("a disabled step, which pgAgent skips: not imported"));
            continue;
        }
        QJsonObject task{{QStringLiteral("name"), taskNames.fromName(step.name)},
                         {QStringLiteral("command"), step.code},
                         {QStringLiteral("ignoreError"), step.onError != QLatin1Char('f')}};
        if (step.kind == QLatin1Char('b')) {
            task.insert(QStringLiteral("kind"), QStringLiteral("shell"));
        } else if (!step.connection.isEmpty()) {
            out.report.leftOut(at, step.connection,
                               tr("runs on its own connection string: add that database with "
                                  "hourglass remote add, then give the SQL task that connection"));
            continue;
        } else if (step.database != remote.database) {
            out.report.leftOut(at, step.database,
                               tr("runs on database %1, not %2 of this remote: add a connection "
                                  "for it, then give the SQL task that connection")
                                   .arg(step.database, remote.database));
            continue;
        } else {
            task.insert(QStringLiteral("kind"), QStringLiteral("sql"));
            task.insert(QStringLiteral("connection"), remote.name);
        }
        if (!previous.isEmpty())
            dependencies << QJsonObject{
                {QStringLiteral("task"), task[QStringLiteral("name")]},
                {QStringLiteral("upstream"), previous},
                {QStringLiteral("when"),
                 previousMustSucceed ? QStringLiteral("success") : QStringLiteral("completion")}};
        previous = task[QStringLiteral("name")].toString();
        previousMustSucceed = step.onError == QLatin1Char('f');
        tasks << task;
    }
    if (tasks.isEmpty()) {
        out.report.leftOut(where, {}, tr("no step could be imported: nothing to run"));
        return out;
    }

    QJsonArray schedules;
    QStringList shown;
    for (const PgAgentSchedule &schedule : job.schedules) {
        const QString at = tr("job %1, schedule %2").arg(job.name, schedule.name);
        const Result<PgAgentCalendar::Cron> cron = PgAgentCalendar::toCron(schedule);
        if (!cron) {
            QStringList fires;
            for (const QDateTime &fire :
                 PgAgentCalendar::next(schedule, QDateTime::currentDateTimeUtc(), serverZone, 5))
                fires << fire.toString(Qt::ISODate);
            out.report.leftOut(at, fires.join(QStringLiteral(", ")),
                               tr("%1; its next fire times are listed").arg(cron.error().message));
            continue;
        }
        schedules << QJsonObject{
            {QStringLiteral("kind"), QStringLiteral("cron")},
            {QStringLiteral("expression"), cron->expression},
            {QStringLiteral("dialect"), cron->dialect},
            {QStringLiteral("timeZone"), QString::fromUtf8(serverZone.id())},
            {QStringLiteral("misfire"),
             QStringLiteral("once")}, // an agent runs what it missed once
            {QStringLiteral("enabled"), schedule.enabled},
            {QStringLiteral("activeFrom"), schedule.start.isValid()
                                               ? schedule.start.toUTC().toString(Qt::ISODateWithMs)
                                               : QString()},
            {QStringLiteral("activeUntil"), schedule.end.isValid()
                                                ? schedule.end.toUTC().toString(Qt::ISODateWithMs)
                                                : QString()}};
        shown << cron->expression;
    }
    out.chains << QJsonObject{
        {QStringLiteral("name"), chainName},
        {QStringLiteral("description"), job.description.isEmpty()
                                            ? tr("pgAgent job %1 on %2").arg(job.name, remote.name)
                                            : job.description},
        {QStringLiteral("enabled"), job.enabled},
        {QStringLiteral("maxInstances"), 1}, // an agent runs one at a time
        {QStringLiteral("tasks"), tasks},
        {QStringLiteral("dependencies"), dependencies},
        {QStringLiteral("schedules"), schedules}};
    out.report.converted(where, {}, chainName,
                         shown.isEmpty() ? tr("no schedule") : shown.join(QStringLiteral("; ")));
    return out;
}

} // namespace hg
