#pragma once

#include "domain/connectionprofile.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace hg {

// What `remote test` and the Connections tree show about a remote: which system and version
// it holds, whether Hourglass writes to it, and a warning when it only reads.
struct RemoteInfo
{
    Q_DECLARE_TR_FUNCTIONS(hg::RemoteInfo)

public:
    QString system;  // "pg_timetable", "DolphinScheduler", "pgAgent", "PostgreSQL", "MySQL"
    QString version; // the system's own version, as far as its schema tells
    int major = 0;
    QString serverVersion; // the database server's
    QString timeZone;      // the server's TimeZone setting, where schedules are computed
    bool readOnly = false;
    QString warning;
    // What its administrator could do for Hourglass to read it faster (an index its schema
    // lacks); Hourglass never changes a remote's schema itself.
    QString advice;

    QJsonObject toJson() const;
    // "remote 'tt': pg_timetable 6.x (…) on PostgreSQL 15.4, time zone UTC, read-write".
    QString summary(const ConnectionProfile &profile) const;
};

} // namespace hg
