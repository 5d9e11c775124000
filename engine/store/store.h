#pragma once

#include "domain/result.h"
#include "storelocation.h"

#include <QSqlDatabase>
#include <QString>

#include <functional>
#include <memory>

namespace hg {

// One open connection to the store, owned by the thread that opened it (Qt Sql connections
// are per thread). The repositories are thin views over it.
class Store final
{
public:
    enum class OpenMode { Migrate, ExistingSchemaOnly };

    // The newest schema version this binary knows: a store beyond it is refused untouched.
    static int knownSchemaVersion(StoreBackend backend);

    static Result<std::unique_ptr<Store>>
    open(const StoreLocation &location, const QString &purpose, OpenMode mode = OpenMode::Migrate);
    ~Store();
    Q_DISABLE_COPY_MOVE(Store)

    QSqlDatabase database() const;
    StoreBackend backend() const { return m_location.backend(); }
    const StoreLocation &location() const { return m_location; }
    int schemaVersion() const { return m_schemaVersion; }

    // Runs work inside one transaction: committed when it returns ok, rolled back otherwise.
    // Nested calls join the outer transaction.
    Status transaction(const std::function<Status()> &work);
    bool inTransaction() const { return m_transactionDepth > 0; }

private:
    Store(StoreLocation location, QString connectionName);
    Status openSqlite();
    Status openPostgreSql();
    Status configureSqliteJournal();

    StoreLocation m_location;
    QString m_connectionName;
    int m_schemaVersion = 0;
    int m_transactionDepth = 0;
};

} // namespace hg
