#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace hg {

// DolphinScheduler's metadata as Hourglass reads it (see DolphinSchedulerCatalog). Codes are
// DolphinScheduler's 64-bit identifiers; numbers it stores as enums are kept as it stores them.

struct DsSchedule
{
    qint64 id = 0;
    QString crontab;  // Quartz syntax
    QString timeZone; // timezone_id; empty: the server's default
    QDateTime start;  // the window it fires in, as stored (DolphinScheduler's local time)
    QDateTime end;
    bool online = false;     // release_state 1
    int failureStrategy = 0; // 0 end, 1 continue
    int warningType = 0;     // 0 none, 1 success, 2 failure, 3 all
    int priority = 2;        // 0 highest .. 4 lowest
    QString workerGroup;
};

struct DsTask
{
    qint64 code = 0;
    int version = 0;
    QString name;
    QString type; // SHELL, SQL, PYTHON, SUB_PROCESS, DEPENDENT, CONDITIONS, ...
    QString description;
    int retries = 0;
    int retryIntervalMinutes = 0;
    int timeoutMinutes = 0; // 0: none (or its timeout flag is off)
    int priority = 2;
    QString workerGroup;
    // A CONDITIONS task's branches (task_params.conditionResult): the tasks that run when its
    // dependence holds, and those that run when it does not.
    QList<qint64> successNodes;
    QList<qint64> failedNodes;
};

struct DsRelation
{
    enum class Branch { Always, OnSuccess, OnFailure };

    qint64 preTaskCode = 0; // 0: the post task is a root
    qint64 postTaskCode = 0;
    int conditionType = 0; // 0 none, 1 judge, 2 delay
    // From a CONDITIONS task: which of its branches this edge is (its conditionResult).
    Branch branch = Branch::Always;
};

struct DsWorkflow
{
    qint64 code = 0;
    int version = 0;
    QString name;
    QString projectName;
    qint64 projectCode = 0;
    QString description;
    bool online = false; // release_state 1
    std::optional<DsSchedule> schedule;
    QList<DsTask> tasks; // of the definition's current version (with workflow())
    QList<DsRelation> relations;
    // "project/name", as the command line names it.
    QString path() const { return projectName + QLatin1Char('/') + name; }
};

// A workflow instance (t_ds_process_instance / t_ds_workflow_instance).
struct DsInstance
{
    qint64 id = 0;
    QString name;
    QString workflowPath; // "project/workflow"
    int definitionVersion = 0;
    int state = 0;       // WorkflowExecutionStatus32/33
    int commandType = 0; // CommandType: what made it (start, complement, scheduler...)
    QString host;        // the master that runs it
    QDateTime start;
    QDateTime end;
    QDateTime scheduleTime; // the fire time, for scheduled and complement runs
    int runTimes = 0;
};

// A task instance of a workflow instance. Its log lives on the worker's disk (host, logPath).
struct DsTaskInstance
{
    qint64 id = 0;
    QString name;
    QString type;
    int state = 0; // TaskExecutionStatus
    QString host;
    QDateTime submitted;
    QDateTime start;
    QDateTime end;
    int retryTimes = 0;
    int maxRetryTimes = 0;
    QString logPath;
    qint64 instanceId = 0; // the workflow instance it belongs to
};

// One page of instances, newest first; the next page starts below the last id shown.
struct DsInstanceFilter
{
    QString workflowPath; // empty: every workflow
    QDateTime since;      // started at or after; invalid: no bound
    bool failedOnly = false;
    int limit = 50;
    qint64 beforeId = 0; // 0: from the newest
};

// One page of task instances across workflow instances, newest first, filtered in SQL; the
// next page starts below the last id shown.
struct DsTaskInstanceFilter
{
    QString workflowPath; // empty: every workflow
    QDateTime since;      // submitted at or after; invalid: no bound
    bool failedOnly = false;
    QString host;     // the worker's "host:port", or its host alone; empty: any
    QString taskName; // exactly; empty: any
    int limit = 50;
    qint64 beforeId = 0; // 0: from the newest
};

} // namespace hg
