#include "pgagentcatalog.h"

#include "remotedatabase.h"

#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace hg {
namespace {

// PostgreSQL's text form of a bool[]: "{t,f,...}".
template<std::size_t N>
std::array<bool, N> boolArray(const QVariant &value)
{
    std::array<bool, N> result{};
    QString text = value.toString();
    text.remove(QLatin1Char('{')).remove(QLatin1Char('}'));
    const QStringList items = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < items.size() && std::size_t(i) < N; ++i)
        result.at(std::size_t(i)) = items.at(i).trimmed() == QLatin1String("t")
                                    || items.at(i).trimmed() == QLatin1String("true");
    return result;
}

qint64 intervalMs(const QVariant &seconds)
{
    return seconds.isNull() ? -1 : qint64(seconds.toDouble() * 1000.0);
}

QChar charOf(const QVariant &value)
{
    const QString text = value.toString();
    return text.isEmpty() ? QChar() : text.front();
}

} // namespace

Result<PgAgentCatalog> PgAgentCatalog::open(RemoteDatabase &database)
{
    PgAgentCatalog catalog(database);
    QSqlQuery query(database.db());
    if (!query.exec(QStringLiteral("SELECT to_regclass('pgagent.pga_job') IS NOT NULL, "
                                   "current_setting('TimeZone'), "
                                   "current_setting('server_version')"))
        || !query.next())
        return database.queryError(tr("read the schema"), query.lastError().text());
    if (!query.value(0).toBool())
        return Error::notFound(tr("remote '%1': database '%2' holds no pgAgent schema (no table "
                                  "pgagent.pga_job; CREATE EXTENSION pgagent makes it)")
                                   .arg(database.profile().name, database.profile().database));
    RemoteInfo &info = catalog.m_info;
    info.system = QStringLiteral("pgAgent");
    info.timeZone = query.value(1).toString();
    info.serverVersion = QStringLiteral("PostgreSQL ") + query.value(2).toString();
    catalog.m_zone = QTimeZone(info.timeZone.toUtf8());
    if (!catalog.m_zone.isValid())
        catalog.m_zone = QTimeZone::utc();
    // pgagent_schema_version() came with 3.4; older schemas lack it.
    if (query.exec(QStringLiteral("SELECT pgagent.pgagent_schema_version()")) && query.next())
        catalog.m_schemaVersion = query.value(0).toInt();
    info.major = catalog.m_schemaVersion;
    info.version = catalog.m_schemaVersion > 0 ? tr("schema %1").arg(catalog.m_schemaVersion)
                                               : tr("schema older than 3.4");
    if (catalog.m_schemaVersion > newestKnownSchema) {
        info.readOnly = true;
        info.warning = tr("pgAgent schema %1 is newer than this Hourglass knows (%2): shown read "
                          "only")
                           .arg(catalog.m_schemaVersion)
                           .arg(newestKnownSchema);
    }
    return catalog;
}

Result<QList<PgAgentJob>> PgAgentCatalog::jobs() const
{
    return readJobs(QString());
}

Result<QList<PgAgentJob>> PgAgentCatalog::readJobs(const QString &nameOrId) const
{
    // One job (by name, else by id) or all of them.
    QSqlQuery query(m_database->db());
    query.prepare(QStringLiteral(
        "SELECT j.jobid, j.jobname, j.jobdesc, c.jclname, j.jobhostagent, j.jobenabled, "
        "j.jobnextrun, j.joblastrun FROM pgagent.pga_job j "
        "JOIN pgagent.pga_jobclass c ON c.jclid = j.jobjclid "
        "WHERE coalesce(?, '') = '' OR j.jobname = ? OR j.jobid::text = ? "
        "ORDER BY j.jobname = ? DESC, j.jobname, j.jobid"));
    for (int i = 0; i < 4; ++i)
        query.addBindValue(nameOrId);
    if (!query.exec())
        return m_database->queryError(tr("list jobs"), query.lastError().text());
    QList<PgAgentJob> jobs;
    while (query.next()) {
        PgAgentJob job;
        job.id = query.value(0).toLongLong();
        job.name = query.value(1).toString();
        job.description = query.value(2).toString();
        job.jobClass = query.value(3).toString();
        job.hostAgent = query.value(4).toString();
        job.enabled = query.value(5).toBool();
        job.nextRun = query.value(6).toDateTime();
        job.lastRun = query.value(7).toDateTime();
        jobs << job;
    }
    return jobs;
}

Result<PgAgentJob> PgAgentCatalog::job(const QString &nameOrId) const
{
    const Result<QList<PgAgentJob>> found = readJobs(nameOrId);
    if (!found)
        return found.error();
    if (nameOrId.isEmpty() || found->isEmpty())
        return Error::notFound(
            tr("remote '%1': no pgAgent job '%2'").arg(m_database->profile().name, nameOrId));
    PgAgentJob job = found->constFirst();

    QSqlQuery steps(m_database->db());
    steps.prepare(QStringLiteral(
        "SELECT jstid, jstname, jstdesc, jstenabled, jstkind, jstcode, jstdbname, jstconnstr, "
        "jstonerror FROM pgagent.pga_jobstep WHERE jstjobid = ? ORDER BY jstname, jstid"));
    steps.addBindValue(job.id);
    if (!steps.exec())
        return m_database->queryError(tr("read the steps"), steps.lastError().text());
    while (steps.next()) {
        job.steps << PgAgentStep{
            steps.value(0).toLongLong(), steps.value(1).toString(), steps.value(2).toString(),
            steps.value(3).toBool(),     charOf(steps.value(4)),    steps.value(5).toString(),
            steps.value(6).toString(),   steps.value(7).toString(), charOf(steps.value(8))};
    }

    QSqlQuery schedules(m_database->db());
    schedules.prepare(QStringLiteral(
        "SELECT jscid, jscname, jscdesc, jscenabled, jscstart, jscend, jscminutes, jschours, "
        "jscweekdays, jscmonthdays, jscmonths FROM pgagent.pga_schedule WHERE jscjobid = ? "
        "ORDER BY jscname, jscid"));
    schedules.addBindValue(job.id);
    if (!schedules.exec())
        return m_database->queryError(tr("read the schedules"), schedules.lastError().text());
    while (schedules.next()) {
        PgAgentSchedule schedule;
        schedule.id = schedules.value(0).toLongLong();
        schedule.name = schedules.value(1).toString();
        schedule.description = schedules.value(2).toString();
        schedule.enabled = schedules.value(3).toBool();
        schedule.start = schedules.value(4).toDateTime();
        schedule.end = schedules.value(5).toDateTime();
        schedule.minutes = boolArray<60>(schedules.value(6));
        schedule.hours = boolArray<24>(schedules.value(7));
        schedule.weekdays = boolArray<7>(schedules.value(8));
        schedule.monthdays = boolArray<32>(schedules.value(9));
        schedule.months = boolArray<12>(schedules.value(10));
        job.schedules << schedule;
    }
    for (PgAgentSchedule &schedule : job.schedules) {
        QSqlQuery exceptions(m_database->db());
        exceptions.prepare(QStringLiteral("SELECT jexdate, jextime FROM pgagent.pga_exception "
                                          "WHERE jexscid = ? ORDER BY jexdate, jextime"));
        exceptions.addBindValue(schedule.id);
        if (!exceptions.exec())
            return m_database->queryError(tr("read the exceptions"), exceptions.lastError().text());
        while (exceptions.next())
            schedule.exceptions << PgAgentSchedule::Exception{exceptions.value(0).toDate(),
                                                              exceptions.value(1).toTime()};
    }
    return job;
}

Result<QList<PgAgentRun>> PgAgentCatalog::runs(qint64 jobId, int limit, qint64 afterRunId) const
{
    // Keyset paging on (start, id): a page costs the same however deep the history goes. The
    // run's start is read in the server, where it keeps the microseconds QDateTime drops.
    QSqlQuery query(m_database->db());
    query.prepare(QStringLiteral(
        "SELECT l.jlgid, l.jlgjobid, j.jobname, l.jlgstatus, l.jlgstart, "
        "extract(epoch FROM l.jlgduration) FROM pgagent.pga_joblog l "
        "JOIN pgagent.pga_job j ON j.jobid = l.jlgjobid WHERE (? = 0 OR l.jlgjobid = ?) "
        "AND (? = 0 OR (l.jlgstart, l.jlgid) < "
        "(SELECT a.jlgstart, a.jlgid FROM pgagent.pga_joblog a WHERE a.jlgid = ?)) "
        "ORDER BY l.jlgstart DESC, l.jlgid DESC LIMIT ?"));
    query.addBindValue(jobId);
    query.addBindValue(jobId);
    query.addBindValue(afterRunId);
    query.addBindValue(afterRunId);
    query.addBindValue(limit);
    if (!query.exec())
        return m_database->queryError(tr("read the history"), query.lastError().text());
    QList<PgAgentRun> runs;
    while (query.next()) {
        runs << PgAgentRun{query.value(0).toLongLong(),
                           query.value(1).toLongLong(),
                           query.value(2).toString(),
                           charOf(query.value(3)),
                           query.value(4).toDateTime(),
                           intervalMs(query.value(5)),
                           {}};
    }
    if (runs.isEmpty())
        return runs;
    // Every run's step log in one query: a page of runs costs two round trips, not one each.
    QStringList ids;
    QHash<qint64, PgAgentRun *> byId;
    for (PgAgentRun &run : runs) {
        ids << QString::number(run.id);
        byId.insert(run.id, &run);
    }
    QSqlQuery steps(m_database->db());
    if (!steps.exec(
            QStringLiteral(
                "SELECT l.jsljlgid, s.jstname, l.jslstatus, l.jslresult, l.jslstart, "
                "extract(epoch FROM l.jslduration), l.jsloutput FROM pgagent.pga_jobsteplog l "
                "JOIN pgagent.pga_jobstep s ON s.jstid = l.jsljstid WHERE l.jsljlgid IN (%1) "
                "ORDER BY l.jslstart, l.jslid")
                .arg(ids.join(QLatin1Char(',')))))
        return m_database->queryError(tr("read the step history"), steps.lastError().text());
    while (steps.next()) {
        if (PgAgentRun *run = byId.value(steps.value(0).toLongLong()))
            run->steps << PgAgentStepRun{steps.value(1).toString(),  charOf(steps.value(2)),
                                         steps.value(3).toInt(),     steps.value(4).toDateTime(),
                                         intervalMs(steps.value(5)), steps.value(6).toString()};
    }
    return runs;
}

Status PgAgentCatalog::runNow(qint64 jobId) const
{
    if (Status refused = refuseWhenReadOnly(tr("start a job")); !refused)
        return refused;
    // What pgAdmin's "Run now" does: an agent polling for due jobs picks it up.
    QSqlQuery query(m_database->db());
    query.prepare(QStringLiteral("UPDATE pgagent.pga_job SET jobnextrun = now() WHERE jobid = ?"));
    query.addBindValue(jobId);
    if (!query.exec())
        return m_database->queryError(tr("start the job"), query.lastError().text());
    if (query.numRowsAffected() != 1)
        return Error::notFound(
            tr("remote '%1': no pgAgent job %2").arg(m_database->profile().name).arg(jobId));
    return {};
}

Status PgAgentCatalog::setEnabled(qint64 jobId, bool enabled) const
{
    if (Status refused = refuseWhenReadOnly(enabled ? tr("enable a job") : tr("disable a job"));
        !refused)
        return refused;
    // The job's trigger recomputes the next run (or clears it when disabled).
    QSqlQuery query(m_database->db());
    query.prepare(QStringLiteral("UPDATE pgagent.pga_job SET jobenabled = ?, jobnextrun = NULL "
                                 "WHERE jobid = ?"));
    query.addBindValue(enabled);
    query.addBindValue(jobId);
    if (!query.exec())
        return m_database->queryError(enabled ? tr("enable the job") : tr("disable the job"),
                                      query.lastError().text());
    if (query.numRowsAffected() != 1)
        return Error::notFound(
            tr("remote '%1': no pgAgent job %2").arg(m_database->profile().name).arg(jobId));
    return {};
}

Status PgAgentCatalog::refuseWhenReadOnly(const QString &what) const
{
    if (!m_info.readOnly)
        return {};
    return Error::invalid(tr("remote '%1' is read only (pgAgent %2): cannot %3")
                              .arg(m_database->profile().name, m_info.version, what));
}

QString PgAgentCatalog::runStatusName(QChar status)
{
    switch (status.unicode()) {
    case 'r':
        return tr("running");
    case 's':
        return tr("succeeded");
    case 'f':
        return tr("failed");
    case 'i':
        return tr("internal failure");
    case 'd':
        return tr("aborted");
    default:
        return QString(status);
    }
}

QString PgAgentCatalog::stepStatusName(QChar status)
{
    // A step's 'i' is a failure the step's on-error policy ignored.
    return status == QLatin1Char('i') ? tr("ignored") : runStatusName(status);
}

} // namespace hg
