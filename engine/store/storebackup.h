#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

namespace hg {

class Store;
class StoreLocation;

// `hourglass backup` and the desktop's daily backups: a consistent copy of a SQLite store,
// taken while engines go on serving it (SqliteCopy), that appears under its name only once
// complete and checked. A PostgreSQL store has pg_dump for this; a damaged one would only
// pass its damage on, so both are refused.
class StoreBackup final
{
    Q_DECLARE_TR_FUNCTIONS(hg::StoreBackup)

public:
    struct Written
    {
        QString path;
        qint64 bytes = 0;
        qint64 elapsedMs = 0;
    };

    // `store` is open in this thread. An existing `target` is refused, never replaced.
    static Result<Written> write(const Store &store, const QString &target);
    // Beside the store: <folder>/<name>-backup-20240501-120304.db for hourglass.db.
    static QString defaultPath(const StoreLocation &store, const QDateTime &at);
    // What to say about a PostgreSQL store, for backup and restore alike.
    static QString postgresAdvice(const StoreLocation &store);
};

} // namespace hg
