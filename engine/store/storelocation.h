#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>
#include <QUrl>

#include <functional>

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

    // A PostgreSQL store's password: the URL's own, else what the password source (the OS
    // keychain, set by the application) keeps under secretKey(), else empty, and libpq reads
    // ~/.pgpass or a service file itself.
    QString password() const;
    // "store/postgresql://user@host:port/database": the URL without password and options.
    QString secretKey() const;
    using PasswordSource = std::function<QString(const QString &secretKey)>;
    static void setPasswordSource(PasswordSource source);

private:
    StoreBackend m_backend = StoreBackend::Sqlite;
    QString m_sqlitePath;
    QUrl m_url;
};

} // namespace hg
