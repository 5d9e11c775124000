#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <array>

namespace hg {

// pgAgent's rows (schema `pgagent`, pgagent--4.2.sql), as the console shows them.
struct PgAgentStep
{
    qint64 id = 0;
    QString name;
    QString description;
    bool enabled = true;
    QChar kind; // 's' SQL, 'b' batch (a shell script on the agent's host)
    QString code;
    QString database;   // jstdbname: a database on the agent's server
    QString connection; // jstconnstr: a libpq connection string instead
    QChar onError;      // 'f' fail the job, 's' count as success, 'i' ignore
};

struct PgAgentSchedule
{
    qint64 id = 0;
    QString name;
    QString description;
    bool enabled = true;
    QDateTime start;
    QDateTime end; // invalid: none
    // pgAgent's arrays, 0-based here: minutes 0-59, hours 0-23, weekdays 0 = Sunday,
    // monthdays 0-30 for days 1-31 and 31 for "the last day", months 0-11. All false: any.
    std::array<bool, 60> minutes{};
    std::array<bool, 24> hours{};
    std::array<bool, 7> weekdays{};
    std::array<bool, 32> monthdays{};
    std::array<bool, 12> months{};
    struct Exception
    {
        QDate date; // invalid: every date
        QTime time; // invalid: the whole day
    };
    QList<Exception> exceptions;
};

struct PgAgentJob
{
    qint64 id = 0;
    QString name;
    QString description;
    QString jobClass;
    QString hostAgent; // empty: any agent
    bool enabled = true;
    QDateTime nextRun;
    QDateTime lastRun;
    QList<PgAgentStep> steps;         // filled by PgAgentCatalog::job()
    QList<PgAgentSchedule> schedules; // 〃
};

struct PgAgentStepRun
{
    QString step;
    QChar status; // 'r' running, 's' success, 'i' ignored, 'f' failed, 'd' aborted
    int result = 0;
    QDateTime start;
    qint64 durationMs = -1;
    QString output;
};

struct PgAgentRun
{
    qint64 id = 0;
    qint64 jobId = 0;
    QString job;
    QChar status; // 'r' running, 's' success, 'f' failed, 'i' internal failure, 'd' aborted
    QDateTime start;
    qint64 durationMs = -1; // -1: still running
    QList<PgAgentStepRun> steps;
};

} // namespace hg
