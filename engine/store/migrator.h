#pragma once

#include "base/result.h"
#include "storelocation.h"

#include <QCoreApplication>
#include <QMap>
#include <QSqlDatabase>
#include <QStringList>

namespace hg {

class Store;

// Applies the versioned SQL migrations kept as resources under :/sql/<backend>/NNN_name.sql.
class Migrator final
{
    Q_DECLARE_TR_FUNCTIONS(hg::Migrator)

public:
    explicit Migrator(Store &store);

    static int latestVersion(StoreBackend backend);
    // Splits a migration into statements: each ends with ';' at the end of a line, outside
    // quotes. Our migrations keep to that (no triggers with inner semicolons).
    static QStringList splitStatements(const QString &script);

    // What a store of `version` holds, table by table with its columns: the migrations applied
    // to an empty database in memory. A file that lacks any of it is no Hourglass store.
    static Result<QMap<QString, QStringList>> expectedTables(int sqliteVersion);
    // The tables (and columns) of `expected` that `db` lacks, as "run.state" or "chain".
    static QStringList missingFrom(const QSqlDatabase &db,
                                   const QMap<QString, QStringList> &expected);

    Result<int> currentVersion() const;
    Status migrateFrom(int version);

private:
    // checkForeignKeys: keys were off (a table rebuilt); the rows must still agree.
    Status migrateInTransaction(int version, bool checkForeignKeys);

    Store &m_store;
};

} // namespace hg
