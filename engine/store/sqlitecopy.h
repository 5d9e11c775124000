#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

class QSqlDatabase;

namespace hg {

// Copies a SQLite database into a new file with SQLite's online backup API, all pages in one
// step: a snapshot as of one read transaction, consistent while other connections (other
// processes: a serving engine) go on writing -- in WAL mode a reader blocks no writer.
class SqliteCopy final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SqliteCopy)

public:
    struct Copied
    {
        qint64 bytes = 0;
        qint64 elapsedMs = 0; // the copy and its check
    };

    // Writes the copy of `source` (an open QSQLITE connection of this thread) to `path`, which
    // must not exist: owner-only, one self-contained file (rollback journal, no -wal beside
    // it), passed by integrity_check and synced. On failure nothing is left at `path`.
    static Result<Copied> write(const QSqlDatabase &source, const QString &path);
    // Renames `from` to `to` in one step (an existing `to` is replaced) and syncs the folder,
    // so a crash leaves the one or the other, never neither.
    static Status moveIntoPlace(const QString &from, const QString &to);
    // Opens a file read-only under `connectionName` in this thread; the caller removes the
    // connection. A database in WAL mode is read with its log, which is left as it is.
    static Result<QSqlDatabase> openReadOnly(const QString &path, const QString &connectionName);
};

} // namespace hg
