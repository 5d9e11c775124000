#pragma once

#include "base/result.h"
#include "connectionprofile.h"

#include <QCoreApplication>

namespace hg {

// postgresql://user@host:port/database?sslmode=require and mysql://user@host:port/database,
// the form `hourglass remote add --url` takes and `remote list` shows. A password inside the
// URL is refused: it would end up in the store, in shell history and in argv.
class ConnectionUrl final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ConnectionUrl)

public:
    // Fills host, port, database, user, options and databaseKind of a profile of `kind`.
    static Result<ConnectionProfile> parse(const QString &name, ConnectionKind kind,
                                           const QString &text);
    // The profile as a URL, without a password (there is none to show).
    static QString format(const ConnectionProfile &profile);
};

} // namespace hg
