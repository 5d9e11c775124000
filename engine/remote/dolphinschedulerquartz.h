#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QDateTime>

namespace hg {

class RemoteDatabase;

// A DolphinScheduler schedule's Quartz job, written into Quartz's tables as Quartz's JDBC job
// store writes them when DolphinScheduler's API server schedules or deletes it (2.0.9
// QuartzExecutors.addJob/deleteJob; 3.2.2 and 3.3 QuartzScheduler.insertOrUpdateScheduleTask
// with QuartzJobDetailBuilder and QuartzCornTriggerBuilder, deleteScheduleTask): scheduler
// "DolphinScheduler", job and trigger job_<schedule id> in group jobgroup_<project id>, the
// job's data map Java-serialized (QuartzJobDataMap), a CRON trigger WAITING for its first fire
// in the schedule's zone. Both run inside the caller's transaction and take Quartz's
// TRIGGER_ACCESS row lock first, as Quartz does, so the masters' schedulers never see half a
// job.
class DolphinSchedulerQuartz final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DolphinSchedulerQuartz)

public:
    struct Job
    {
        int projectId = 0; // t_ds_project.id
        int scheduleId = 0;
        QString crontab;
        QString timeZone; // the schedule's timezone_id
        QDateTime start;  // as stored: wall times in the schedule's zone
        QDateTime end;
        // 2.0 puts the whole schedule in the data map too (only the ids are read back).
        QString scheduleJson;
    };
    enum class Release { V20, V3 };

    DolphinSchedulerQuartz() = delete;

    // The job and its trigger, replacing any there were. NOW: 3.x starts the trigger no
    // earlier than now; 2.0 at the schedule's start.
    static Status schedule(RemoteDatabase &remote, const Job &job, Release release,
                           const QDateTime &now);
    static Status unschedule(RemoteDatabase &remote, int projectId, int scheduleId);
    // The first fire time Quartz computes for the trigger (computeFirstFireTime), or none when
    // it never fires (Quartz refuses to schedule it then).
    static std::optional<QDateTime> firstFire(const Job &job, Release release,
                                              const QDateTime &now);
};

} // namespace hg
