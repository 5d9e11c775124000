#pragma once

#include "enums.h"

#include <QString>

namespace hg {

// Where a remote or SQL-task database lives. The password is never stored here: it is kept
// in the OS keychain under keychainKey, or in ~/.pgpass or ~/.my.cnf where no keychain runs.
struct ConnectionProfile
{
    qint64 id = 0;
    QString name;
    ConnectionKind kind = ConnectionKind::PostgreSql;
    // The database server behind a remote scheduler: PostgreSQL, or MySQL/MariaDB for
    // DolphinScheduler. For the plain kinds (sqlite, postgresql, mysql) it equals kind.
    ConnectionKind databaseKind = ConnectionKind::PostgreSql;
    QString host;
    int port = 0;
    QString database;
    QString userName;
    QString options;
    QString keychainKey;

    // pg_timetable, DolphinScheduler and pgAgent are schedulers read through their database.
    bool isRemoteScheduler() const
    {
        return kind == ConnectionKind::PgTimetable || kind == ConnectionKind::DolphinScheduler
               || kind == ConnectionKind::PgAgent || kind == ConnectionKind::Goscheduler;
    }
    // The server actually spoken to: a plain database is its own server, whatever
    // databaseKind says; read this, not databaseKind.
    ConnectionKind server() const
    {
        if (kind == ConnectionKind::Sqlite || kind == ConnectionKind::PostgreSql
            || kind == ConnectionKind::MySql)
            return kind;
        return databaseKind;
    }
    int effectivePort() const
    {
        if (port > 0)
            return port;
        return server() == ConnectionKind::MySql ? 3306 : 5432;
    }
};

} // namespace hg
