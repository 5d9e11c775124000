#pragma once

#include "base/result.h"
#include "storelocation.h"

#include <QCoreApplication>
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

    Result<int> currentVersion() const;
    Status migrateFrom(int version);

private:
    Store &m_store;
};

} // namespace hg
