#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>
#include <QUrl>

namespace hg {

enum class StoreBackend { Sqlite, PostgreSql };

// Where the store lives: a SQLite file or a PostgreSQL URL
// (postgresql://user:password@host:port/database).
class StoreLocation final
{
    Q_DECLARE_TR_FUNCTIONS(hg::StoreLocation)

public:
    // --db wins over HOURGLASS_DB, which wins over the default file in the data directory.
    static Result<StoreLocation> resolve(const QString &commandLineValue);
    static Result<StoreLocation> parse(const QString &text);
    static QString defaultSqlitePath();

    StoreBackend backend() const { return m_backend; }
    QString sqlitePath() const { return m_sqlitePath; }
    const QUrl &url() const { return m_url; }
    QString databaseName() const;
    // For messages: never shows a password.
    QString displayName() const;

private:
    StoreBackend m_backend = StoreBackend::Sqlite;
    QString m_sqlitePath;
    QUrl m_url;
};

} // namespace hg
