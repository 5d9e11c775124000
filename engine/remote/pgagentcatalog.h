#pragma once

#include "base/result.h"
#include "pgagenttypes.h"

#include <QCoreApplication>
#include <QTimeZone>

namespace hg {

class RemoteDatabase;

// A pgAgent database (schema `pgagent`, 3.4 to 4.2) read and driven as pgAdmin does: jobs with
// their steps in the order the agent runs them (by name, then id), schedules with their
// exceptions, the history of pga_joblog and pga_jobsteplog; run now (the job's next run set
// to now, for an agent to pick up), enable and disable.
class PgAgentCatalog final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgAgentCatalog)

public:
    static Result<PgAgentCatalog> open(RemoteDatabase &database);

    int schemaVersion() const { return m_schemaVersion; }
    const QTimeZone &serverZone() const { return m_zone; }

    Result<QList<PgAgentJob>> jobs();
    // By name or id, with its steps and schedules.
    Result<PgAgentJob> job(const QString &nameOrId);
    // Newest first; JOBID 0: every job's.
    Result<QList<PgAgentRun>> runs(qint64 jobId, int limit);
    Status runNow(qint64 jobId);
    Status setEnabled(qint64 jobId, bool enabled);

private:
    // NAMEORID empty: every job.
    Result<QList<PgAgentJob>> readJobs(const QString &nameOrId);

    explicit PgAgentCatalog(RemoteDatabase &database)
        : m_database(&database)
    {}

    RemoteDatabase *m_database;
    int m_schemaVersion = 0;
    QTimeZone m_zone;
};

} // namespace hg
