#pragma once

#include "base/result.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace hg {

// pg_timetable's schema as its 5.x (v5.13.0) or 6.x (v6.3.0) worker creates it in a fresh
// database, and rows written with the statements its worker runs (internal/pgengine/*.go).
// The SQL is in tests/support/pgtimetable/v5 and v6; pgtimetable/README.md says what differs.
class PgTimetableSchema final
{
public:
    // The resource paths of the files of that major version, in the order pg_timetable runs
    // them (bootstrap.go: init, cron, ddl, json_schema, job_functions); empty for others.
    static QStringList files(int majorVersion);
    // Runs each file as one simple query, as pg_timetable's ExecuteSchemaScripts does; when one
    // fails, drops schema timetable again as it does and names the file. AlreadyExists, and
    // nothing runs, when the database has a schema timetable already.
    static Status create(QSqlDatabase &db, int majorVersion);

    // One execution_log row as LogTaskExecution (access.go) inserts it.
    struct Execution
    {
        qint64 chainId = 0;
        qint64 taskId = 0;
        QString command;
        QString kind = QStringLiteral("SQL");
        // last_run is clock_timestamp() minus this. 5.x passes the task's run time; 6.x logs
        // before it measures it, so a real 6.x row always has 0 here (last_run == finished).
        qint64 durationUs = 0;
        // 0 or -1 (-1: failed); 5.x gives a program's own exit code, 6.x always -1.
        int returnCode = 0;
        // Trimmed; empty becomes NULL. 5.x appends the error text after a newline when the
        // task failed; 6.x stores only the command tag or program output.
        QString output;
        // The worker's random session id (Getsid), the same number as active_session.client_pid.
        qint64 clientPid = 1;
        QString clientName = QStringLiteral("worker-1");
        // The chain transaction's virtual xid, (backend id << 32) | local xid, not a txid.
        qint64 txid = 1;
        bool ignoreError = false;
        // 6.x only: the parameter set's JSON text, '' (not NULL) for a task without any.
        QString params;
    };
    static Status recordExecution(QSqlDatabase &db, const Execution &execution, int majorVersion);

    // One timetable.log row as LogHook.send (log_hook.go) copies it in.
    struct LogEntry
    {
        QDateTime ts = QDateTime::currentDateTimeUtc();
        QString clientName = QStringLiteral("worker-1");
        qint64 clientPid = 1;
        QString level = QStringLiteral("INFO"); // DEBUG, INFO, ERROR or PANIC
        QString message;
        QString data = QStringLiteral("{}"); // the entry's fields as a JSON object
    };
    static Status recordLog(QSqlDatabase &db, const LogEntry &entry);

    // What the worker's AfterConnect does on each pooled connection: this connection is named
    // 'pg_timetable' (try_lock_client_name forgets the sessions of other backends), registers
    // in active_session through try_lock_client_name, and LISTENs on the worker's name.
    // AlreadyExists when another client_pid holds the name.
    static Status registerSession(QSqlDatabase &db, qint64 clientPid, const QString &clientName);
    // A chain run starting (InsertChainRunStatus): AlreadyExists when maxInstances runs of it
    // are under way already (the worker reads a NULL max_instances as 16).
    static Status markChainRunning(QSqlDatabase &db, qint64 chainId, const QString &clientName,
                                   int maxInstances = 16);
    // The run finished or failed (RemoveChainRunStatus): every active_chain row of the chain
    // and worker goes.
    static Status finishChainRun(QSqlDatabase &db, qint64 chainId, const QString &clientName);
    // The worker shutting down (Finalize): its active_chain and active_session rows go.
    static Status closeSession(QSqlDatabase &db, const QString &clientName);
};

} // namespace hg
