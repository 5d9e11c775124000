#pragma once

#include "enums.h"

#include <QString>

namespace hg {

// Where a remote or SQL-task database lives. The password is never stored here: it is kept
// in the OS keychain under keychainKey.
struct ConnectionProfile
{
    qint64 id = 0;
    QString name;
    ConnectionKind kind = ConnectionKind::PostgreSql;
    QString host;
    int port = 0;
    QString database;
    QString userName;
    QString options;
    QString keychainKey;
};

} // namespace hg
