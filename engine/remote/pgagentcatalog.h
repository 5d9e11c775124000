#pragma once

#include "base/result.h"
#include "pgagenttypes.h"
#include "remoteinfo.h"

#include <QCoreApplication>
#include <QTimeZone>

namespace hg {

class RemoteDatabase;

// A pgAgent database (schema `pgagent`, 3.4 to 4.2) read and driven as pgAdmin does: jobs with
// their steps in the order the agent runs them (by name, then id), schedules with their
// exceptions, the history of pga_joblog and pga_jobsteplog; run now (the job's next run set
// to now, for an agent to pick up), enable and disable. A schema newer than 4 is read only.
class PgAgentCatalog final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgAgentCatalog)

public:
    static Result<PgAgentCatalog> open(RemoteDatabase &database);

    static constexpr int newestKnownSchema = 4; // pgagent--4.2.sql

    int schemaVersion() const { return m_schemaVersion; }
    const QTimeZone &serverZone() const { return m_zone; }
    // The system, versions and zone as `remote test` and the Connections tree show them.
    const RemoteInfo &info() const { return m_info; }

    Result<QList<PgAgentJob>> jobs() const;
    // By name or id, with its steps and schedules.
    Result<PgAgentJob> job(const QString &nameOrId) const;
    // Newest first; JOBID 0: every job's. AFTERRUNID (the last run shown, 0: none) pages on:
    // the runs that started before it.
    Result<QList<PgAgentRun>> runs(qint64 jobId, int limit, qint64 afterRunId = 0) const;
    Status runNow(qint64 jobId) const;
    Status setEnabled(qint64 jobId, bool enabled) const;

    // In words, as the console shows them.
    static QString runStatusName(QChar status);
    static QString stepStatusName(QChar status);

private:
    // NAMEORID empty: every job.
    Result<QList<PgAgentJob>> readJobs(const QString &nameOrId) const;
    Status refuseWhenReadOnly(const QString &what) const;

    explicit PgAgentCatalog(RemoteDatabase &database)
        : m_database(&database)
    {}

    RemoteDatabase *m_database;
    int m_schemaVersion = 0;
    QTimeZone m_zone;
    RemoteInfo m_info;
};

} // namespace hg
