#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace hg {

// pg_timetable's rows as Hourglass reads and writes them (schema `timetable`, 5.x and 6.x).
// Times are as the server gives them; timeouts are milliseconds, as pg_timetable keeps them.

struct PgtTask
{
    qint64 id = 0; // 0: not saved yet
    double order = 0;
    QString name;
    QString kind = QStringLiteral("SQL"); // SQL, PROGRAM or BUILTIN
    QString command;
    QString runAs;
    QString databaseConnection;
    bool ignoreError = false;
    bool autonomous = false;
    int timeoutMs = 0;
    // Each element is one parameter row's JSON (order_id 1, 2, …): pg_timetable runs the task
    // once per row.
    QStringList parameters;
};

struct PgtChain
{
    qint64 id = 0;
    QString name;
    QString runAt; // a timetable.cron value; empty: started only by notify_chain_start
    std::optional<int> maxInstances;
    int timeoutMs = 0;
    bool live = false;
    bool selfDestruct = false;
    bool exclusive = false;
    QString clientName;
    QString onError;
    QList<PgtTask> tasks; // in task_order; filled by PgTimetableCatalog::chain()
};

// One row of timetable.execution_log: one task's execution by a worker.
struct PgtExecution
{
    qint64 chainId = 0;
    QString chainName; // empty when the chain was deleted since
    qint64 taskId = 0;
    qint64 txid = 0;
    QDateTime lastRun;
    QDateTime finished;
    qint64 pid = 0;
    std::optional<int> returnCode;
    bool ignoreError = false;
    QString kind;
    QString command;
    QString output;
    QString clientName;
    QString params; // 6.x only
    // last_run as the server prints it, to the microsecond: where a keyset page ends
    // (QDateTime keeps only milliseconds).
    QString lastRunExact;

    bool failed() const { return returnCode.value_or(0) != 0; }
};

// Where a page of execution_log ends: the next page starts strictly before it.
struct PgtExecutionKey
{
    QString lastRunExact;
    qint64 txid = 0;
    qint64 taskId = 0;

    static PgtExecutionKey after(const PgtExecution &row)
    {
        return {row.lastRunExact, row.txid, row.taskId};
    }
};

struct PgtExecutionFilter
{
    QString chainName;
    QDateTime since;
    bool failedOnly = false;
    std::optional<PgtExecutionKey> before;
    int limit = 200;
};

// A connected worker (active_session) and the chains it runs now (active_chain).
struct PgtSession
{
    qint64 clientPid = 0;
    qint64 serverPid = 0;
    QString clientName;
    QDateTime startedAt;
    QStringList activeChains;
};

} // namespace hg
