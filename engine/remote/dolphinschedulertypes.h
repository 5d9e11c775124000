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
};

struct DsRelation
{
    qint64 preTaskCode = 0; // 0: the post task is a root
    qint64 postTaskCode = 0;
    int conditionType = 0; // 0 none, 1 judge, 2 delay
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

} // namespace hg
