#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace hg {

// A column instance listings are ordered by, in SQL (DolphinSchedulerOrder). Retries are a
// workflow instance's run_times and a task instance's retry_times; Type is a task's alone.
enum class DsSortColumn { Id, Name, Type, State, Host, Start, End, Duration, Retries };

// An order of a listing. A NULL key (not started, not ended, not on a worker yet) comes last
// in either direction; rows with the same key follow each other by id, in the same direction.
struct DsSort
{
    DsSortColumn column = DsSortColumn::Id;
    bool descending = true;
};

// Where the next page of a listing starts: just after this row in the listing's order. The key
// is the row's sort key as the database writes it as text, so that it comes back exact
// (PostgreSQL keeps microseconds, QDateTime milliseconds).
struct DsKeyset
{
    qint64 id = 0;              // 0: from the first row
    std::optional<QString> key; // none: the row's key is NULL
};

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
    // Why its DAG is drawn empty or in part (rows missing), naming the table; else empty.
    QString dagProblem;
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
    DsKeyset keyset; // from a listing: where a page after this row starts, in its order
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
    DsKeyset keyset;       // from a listing: where a page after this row starts, in its order
};

// One page of instances in the sort's order (newest first by default); the next page starts
// after the keyset of the last row shown.
struct DsInstanceFilter
{
    QString workflowPath; // empty: every workflow
    QDateTime since;      // started at or after; invalid: no bound
    bool failedOnly = false;
    int limit = 50;
    DsSort sort;
    DsKeyset after; // its id 0: from the first
};

// One page of task instances across workflow instances (or of one), filtered in SQL, in the
// sort's order (newest first by default); the next page starts after the keyset of the last
// row shown.
struct DsTaskInstanceFilter
{
    QString workflowPath;  // empty: every workflow
    qint64 instanceId = 0; // 0: of every workflow instance
    QDateTime since;       // submitted at or after; invalid: no bound
    bool failedOnly = false;
    QString host;     // the worker's "host:port", or its host alone; empty: any
    QString taskName; // exactly; empty: any
    int limit = 50;
    DsSort sort;
    DsKeyset after; // its id 0: from the first
};

} // namespace hg
