#pragma once

#include "base/result.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>

namespace hg {

// pg_timetable's schema (5.x or 6.x) created in a test database, and data written the way
// pg_timetable's worker writes it. The SQL is in tests/support/pgtimetable/.
class PgTimetableSchema final
{
public:
    static Status create(QSqlDatabase &db, int majorVersion);

    // What the worker's LogChainElementExecution inserts for one task run that took
    // durationMs and ended now (params only on 6.x).
    struct Execution
    {
        qint64 chainId = 0;
        qint64 taskId = 0;
        QString command;
        QString kind = QStringLiteral("SQL");
        qint64 durationMs = 10;
        int returnCode = 0;
        QString output;
        QString clientName = QStringLiteral("worker-1");
        qint64 txid = 1;
        bool ignoreError = false;
        QString params;
    };
    static Status recordExecution(QSqlDatabase &db, const Execution &execution, int majorVersion);
    // A worker's session as try_lock_client_name registers it, and a chain it runs now
    // (InsertChainRunStatus).
    static Status registerSession(QSqlDatabase &db, qint64 clientPid, const QString &clientName);
    static Status markChainRunning(QSqlDatabase &db, qint64 chainId, const QString &clientName);
};

} // namespace hg
