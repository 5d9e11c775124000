#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"

#include <QSqlDatabase>
#include <QString>

namespace hg {

class StoreLocation;

// The database an SQL task runs against: the store itself or a connection profile. Built in
// the engine thread, opened in whichever thread runs the statement (one connection each).
struct SqlTarget
{
    QString driver; // QSQLITE, QPSQL or QMYSQL
    QString databaseName;
    QString host;
    int port = 0;
    QString userName;
    QString password;
    QString options;
    QString displayName; // for messages, never with the password

    static SqlTarget forStore(const StoreLocation &location);
    // The password comes from the keychain (never from the store); empty lets the client
    // library look elsewhere (~/.pgpass, a libpq service file, ~/.my.cnf).
    static Result<SqlTarget> forProfile(const ConnectionProfile &profile, const QString &password,
                                        int connectTimeoutSeconds = 5);

    // Opens a new connection under `connectionName` in the calling thread.
    Result<QSqlDatabase> open(const QString &connectionName) const;
};

} // namespace hg
