#pragma once

#include "base/result.h"
#include "pgtimetabletypes.h"
#include "remoteinfo.h"

#include <QCoreApplication>
#include <QVariantList>

#include <functional>

class QSqlQuery;

namespace hg {

class RemoteDatabase;

// pg_timetable's database (schema `timetable`) read and written directly, the way its own
// functions and worker do: jobs are added through timetable.add_job and deleted through
// timetable.delete_job, chains started and stopped through notify_chain_start/stop (a NOTIFY
// the named worker listens for). Versions 5.x (migrations up to 00629) and 6.x (00721–00733)
// are read and written; a newer schema is read only, with a warning.
class PgTimetableCatalog final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgTimetableCatalog)

public:
    // Reads the schema version; a database without pg_timetable's schema is an error that
    // says so. The catalog uses `remote` in the calling thread and must not outlive it.
    static Result<PgTimetableCatalog> open(RemoteDatabase &remote);

    const RemoteInfo &info() const { return m_info; }

    Result<QList<PgtChain>> chains() const;
    // The chain with its tasks (in task_order) and their parameters.
    Result<PgtChain> chain(const QString &name) const;
    // Writes the chain's settings and its tasks as given in one transaction: tasks with an id
    // are updated, tasks without one inserted, tasks no longer listed deleted.
    Status save(const PgtChain &chain) const;
    // A new chain with its tasks and parameters, in one transaction; its id.
    Result<qint64> create(const PgtChain &chain) const;

    // timetable.add_job: a one-task chain.
    Result<qint64> addJob(const PgtChain &settings, const PgtTask &task) const;
    Status deleteJob(const QString &name) const;
    Status setLive(const QString &name, bool live) const;

    Status start(const QString &name, const QString &worker) const;
    Status stop(const QString &name, const QString &worker) const;
    Result<QList<PgtSession>> sessions() const;

    // execution_log joined with the chain's name, newest first, one page.
    Result<QList<PgtExecution>> executions(const PgtExecutionFilter &filter) const;

private:
    explicit PgTimetableCatalog(RemoteDatabase &remote)
        : m_remote(&remote)
    {}
    Status inspect();
    Status refuseWhenReadOnly(const QString &what) const;
    Result<qint64> chainId(const QString &name) const;
    Status writeTasks(qint64 chainId, const QList<PgtTask> &tasks, bool replacing) const;
    Status exec(QSqlQuery &query, const QString &what) const;
    Status inTransaction(const QString &what, const std::function<Status()> &work) const;

    RemoteDatabase *m_remote;
    RemoteInfo m_info;
};

} // namespace hg
