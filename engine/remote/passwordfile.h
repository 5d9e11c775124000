#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"

#include <QCoreApplication>

namespace hg {

// Where no keychain runs (a headless server), a password goes where the client libraries look
// for it themselves: a line of ~/.pgpass (or $PGPASSFILE) for PostgreSQL, and for MySQL the
// profile's own [hourglass-NAME] group of ~/.my.cnf, which the driver reads beside [client].
// Both files are made readable by their owner only, as libpq insists.
class PasswordFile final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PasswordFile)

public:
    // The file the profile's password goes to; homeDir defaults to the user's home.
    static QString pathFor(const ConnectionProfile &profile, const QString &homeDir = {});
    static Status write(const ConnectionProfile &profile, const QString &password,
                        const QString &homeDir = {});
    // Takes out only the profile's own line or group; succeeds when there was none.
    static Status remove(const ConnectionProfile &profile, const QString &homeDir = {});
    // Whether the file holds a password for the profile (for `remote list`).
    static bool holds(const ConnectionProfile &profile, const QString &homeDir = {});
};

} // namespace hg
