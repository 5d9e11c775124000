#include "dolphinschedulerquartz.h"

#include "cron/cronexpression.h"
#include "quartzjobdatamap.h"
#include "remotedatabase.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTimeZone>

namespace hg {
namespace {

const QString schedulerName = QStringLiteral("DolphinScheduler"); // instanceName

QString jobName(int scheduleId)
{
    return QStringLiteral("job_%1").arg(scheduleId);
}

QString jobGroup(int projectId)
{
    return QStringLiteral("jobgroup_%1").arg(projectId);
}

QTimeZone zoneOf(const QString &id)
{
    const QTimeZone zone(id.toUtf8());
    return zone.isValid() ? zone : QTimeZone::systemTimeZone();
}

// DateUtils.transformTimezoneDate: a stored wall time read in the schedule's zone.
QDateTime inZone(const QDateTime &stored, const QString &zoneId)
{
    return QDateTime(stored.date(), stored.time(), zoneOf(zoneId));
}

Status run(RemoteDatabase &remote, QSqlQuery &q, const QString &what)
{
    if (!q.exec())
        return remote.queryError(what, q.lastError().text());
    return {};
}

// StdRowLockSemaphore: the TRIGGER_ACCESS row, locked for the transaction (made if missing).
Status lockTriggers(RemoteDatabase &remote)
{
    QSqlQuery lock(remote.db());
    lock.prepare(QStringLiteral("SELECT LOCK_NAME FROM QRTZ_LOCKS WHERE SCHED_NAME = ? AND "
                                "LOCK_NAME = 'TRIGGER_ACCESS' FOR UPDATE"));
    lock.addBindValue(schedulerName);
    if (Status locked = run(remote, lock, DolphinSchedulerQuartz::tr("lock Quartz's triggers"));
        !locked)
        return locked;
    if (lock.next())
        return {};
    QSqlQuery insert(remote.db());
    insert.prepare(QStringLiteral("INSERT INTO QRTZ_LOCKS (SCHED_NAME, LOCK_NAME) VALUES (?, "
                                  "'TRIGGER_ACCESS')"));
    insert.addBindValue(schedulerName);
    return run(remote, insert, DolphinSchedulerQuartz::tr("lock Quartz's triggers"));
}

Status deleteJob(RemoteDatabase &remote, int projectId, int scheduleId)
{
    // JobStoreSupport.removeJob: the job's triggers (each kind's row first), then the job.
    for (const char *table : {"QRTZ_CRON_TRIGGERS", "QRTZ_SIMPLE_TRIGGERS", "QRTZ_SIMPROP_TRIGGERS",
                              "QRTZ_BLOB_TRIGGERS"}) {
        QSqlQuery q(remote.db());
        q.prepare(QStringLiteral("DELETE FROM %1 WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND "
                                 "TRIGGER_GROUP = ?")
                      .arg(QLatin1String(table)));
        q.addBindValue(schedulerName);
        q.addBindValue(jobName(scheduleId));
        q.addBindValue(jobGroup(projectId));
        if (Status done = run(remote, q, DolphinSchedulerQuartz::tr("delete the Quartz trigger"));
            !done)
            return done;
    }
    for (const char *table : {"QRTZ_TRIGGERS", "QRTZ_JOB_DETAILS"}) {
        const bool triggers = qstrcmp(table, "QRTZ_TRIGGERS") == 0;
        QSqlQuery q(remote.db());
        q.prepare(
            QStringLiteral("DELETE FROM %1 WHERE SCHED_NAME = ? AND %2 = ? AND %3 = ?")
                .arg(QLatin1String(table),
                     triggers ? QStringLiteral("TRIGGER_NAME") : QStringLiteral("JOB_NAME"),
                     triggers ? QStringLiteral("TRIGGER_GROUP") : QStringLiteral("JOB_GROUP")));
        q.addBindValue(schedulerName);
        q.addBindValue(jobName(scheduleId));
        q.addBindValue(jobGroup(projectId));
        if (Status done = run(remote, q, DolphinSchedulerQuartz::tr("delete the Quartz job"));
            !done)
            return done;
    }
    return {};
}

QDateTime triggerStart(const DolphinSchedulerQuartz::Job &job,
                       DolphinSchedulerQuartz::Release release, const QDateTime &now)
{
    const QDateTime start = inZone(job.start, job.timeZone);
    // QuartzCornTriggerBuilder (3.x): a start in the past becomes now.
    if (release == DolphinSchedulerQuartz::Release::V3 && start < now)
        return now;
    return start;
}

} // namespace

std::optional<QDateTime> DolphinSchedulerQuartz::firstFire(const Job &job, Release release,
                                                           const QDateTime &now)
{
    const Result<CronExpression> cron = CronExpression::parse(job.crontab, CronDialect::Quartz);
    if (!cron)
        return std::nullopt;
    // CronTriggerImpl.computeFirstFireTime: the first fire after one second before the start.
    const QDateTime start = triggerStart(job, release, now);
    const std::optional<QDateTime> fire =
        cron->next(start.addMSecs(-1000 - start.time().msec()), zoneOf(job.timeZone));
    const QDateTime end = inZone(job.end, job.timeZone);
    if (!fire || (job.end.isValid() && *fire > end))
        return std::nullopt;
    return fire;
}

Status DolphinSchedulerQuartz::schedule(RemoteDatabase &remote, const Job &job, Release release,
                                        const QDateTime &now)
{
    const std::optional<QDateTime> first = firstFire(job, release, now);
    if (!first)
        return Error::invalid(tr("remote '%1': schedule %2 (%3) never fires again before its end: "
                                 "Quartz would refuse it")
                                  .arg(remote.profile().name)
                                  .arg(job.scheduleId)
                                  .arg(job.crontab));
    if (Status locked = lockTriggers(remote); !locked)
        return locked;
    if (Status removed = deleteJob(remote, job.projectId, job.scheduleId); !removed)
        return removed;

    // The job: ProcessScheduleJob (2.0) or ProcessScheduleTask (3.x), not durable, allowed to
    // overlap, its data map the ids (and 2.0's schedule JSON).
    QList<QuartzJobDataMap::Entry> data{{QStringLiteral("projectId"), job.projectId},
                                        {QStringLiteral("scheduleId"), job.scheduleId}};
    if (release == Release::V20)
        data << QuartzJobDataMap::Entry{QStringLiteral("schedule"), job.scheduleJson};
    QSqlQuery detail(remote.db());
    detail.prepare(QStringLiteral(
        "INSERT INTO QRTZ_JOB_DETAILS (SCHED_NAME, JOB_NAME, JOB_GROUP, DESCRIPTION, "
        "JOB_CLASS_NAME, IS_DURABLE, IS_NONCONCURRENT, IS_UPDATE_DATA, REQUESTS_RECOVERY, "
        "JOB_DATA) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)"));
    detail.addBindValue(schedulerName);
    detail.addBindValue(jobName(job.scheduleId));
    detail.addBindValue(jobGroup(job.projectId));
    detail.addBindValue(release == Release::V20
                            ? QStringLiteral("org.apache.dolphinscheduler.service.quartz."
                                             "ProcessScheduleJob")
                            : QStringLiteral("org.apache.dolphinscheduler.scheduler.quartz."
                                             "ProcessScheduleTask"));
    for (int flag = 0; flag < 4; ++flag)
        detail.addBindValue(false);
    detail.addBindValue(QuartzJobDataMap::serialize(data));
    if (Status done = run(remote, detail, tr("store the Quartz job")); !done)
        return done;

    // Its CRON trigger, WAITING for its first fire; 3.x ignores misfires (-1), 2.0 does nothing
    // about them (2). Times are milliseconds since the epoch; no end is 0.
    const QDateTime start = triggerStart(job, release, now);
    QSqlQuery trigger(remote.db());
    trigger.prepare(QStringLiteral(
        "INSERT INTO QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP, JOB_NAME, "
        "JOB_GROUP, DESCRIPTION, NEXT_FIRE_TIME, PREV_FIRE_TIME, PRIORITY, TRIGGER_STATE, "
        "TRIGGER_TYPE, START_TIME, END_TIME, CALENDAR_NAME, MISFIRE_INSTR, JOB_DATA) VALUES (?, "
        "?, ?, ?, ?, NULL, ?, -1, 5, 'WAITING', 'CRON', ?, ?, NULL, ?, NULL)"));
    trigger.addBindValue(schedulerName);
    trigger.addBindValue(jobName(job.scheduleId));
    trigger.addBindValue(jobGroup(job.projectId));
    trigger.addBindValue(jobName(job.scheduleId));
    trigger.addBindValue(jobGroup(job.projectId));
    trigger.addBindValue(first->toMSecsSinceEpoch());
    trigger.addBindValue(start.toMSecsSinceEpoch() / 1000 * 1000);
    trigger.addBindValue(job.end.isValid() ? inZone(job.end, job.timeZone).toMSecsSinceEpoch()
                                           : qint64(0));
    trigger.addBindValue(release == Release::V20 ? 2 : -1);
    if (Status done = run(remote, trigger, tr("store the Quartz trigger")); !done)
        return done;
    QSqlQuery cron(remote.db());
    cron.prepare(QStringLiteral("INSERT INTO QRTZ_CRON_TRIGGERS (SCHED_NAME, TRIGGER_NAME, "
                                "TRIGGER_GROUP, CRON_EXPRESSION, TIME_ZONE_ID) VALUES (?, ?, ?, "
                                "?, ?)"));
    cron.addBindValue(schedulerName);
    cron.addBindValue(jobName(job.scheduleId));
    cron.addBindValue(jobGroup(job.projectId));
    cron.addBindValue(job.crontab);
    cron.addBindValue(QString::fromUtf8(zoneOf(job.timeZone).id()));
    return run(remote, cron, tr("store the Quartz trigger's cron"));
}

Status DolphinSchedulerQuartz::unschedule(RemoteDatabase &remote, int projectId, int scheduleId)
{
    if (Status locked = lockTriggers(remote); !locked)
        return locked;
    return deleteJob(remote, projectId, scheduleId);
}

} // namespace hg
