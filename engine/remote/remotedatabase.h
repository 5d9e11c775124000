#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"

#include <QCoreApplication>
#include <QHash>
#include <QSqlDatabase>

#include <memory>

class QSqlQuery;

namespace hg {

// One connection to a remote scheduler's database, opened in and owned by the calling thread
// (Qt Sql connections belong to one thread), closed and unregistered when it goes. A failed
// connect says which of the usual causes it was: host unknown or unreachable, connection
// refused, authentication failed, database missing.
class RemoteDatabase final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RemoteDatabase)

public:
    static constexpr int defaultTimeoutSeconds = 10;

    static Result<std::unique_ptr<RemoteDatabase>> open(const ConnectionProfile &profile,
                                                        const QString &password,
                                                        int timeoutSeconds = defaultTimeoutSeconds);
    ~RemoteDatabase();
    RemoteDatabase(const RemoteDatabase &) = delete;
    RemoteDatabase &operator=(const RemoteDatabase &) = delete;

    QSqlDatabase &db() { return m_db; }
    const ConnectionProfile &profile() const { return m_profile; }
    bool isMysql() const { return m_profile.server() == ConnectionKind::MySql; }
    // An INSERT's new id: PostgreSQL returns it (append returningId() to the statement),
    // MySQL reports it after.
    QString returningId() const { return isMysql() ? QString() : QStringLiteral(" RETURNING id"); }
    static qint64 insertedId(QSqlQuery &insert, bool mysql);
    qint64 insertedId(QSqlQuery &insert) const { return insertedId(insert, isMysql()); }

    // The columns of each of TABLES that an unqualified name reaches here (PostgreSQL: on the
    // search path; MySQL: in the connection's database), table and column names lower case; a
    // table that is not there has no entry. One statement, where QSqlDatabase::tables() and
    // record() cost one each (a page's connection spent 20 ms on them).
    Result<QHash<QString, QStringList>> columns(const QStringList &tables);
    // Whether an index of TABLE (as columns() finds it) starts with COLUMN, so that it serves
    // a search by that column alone.
    Result<bool> hasIndexLeadingWith(const QString &table, const QString &column);

    // The driver's message turned into one a user can act on, naming the remote.
    static QString explainConnectError(const ConnectionProfile &profile, const QString &driverText,
                                       int timeoutSeconds);
    // "remote 'NAME': what failed: the driver's message", for a failed query.
    Error queryError(const QString &what, const QString &driverText) const;

private:
    RemoteDatabase(ConnectionProfile profile, QString connectionName);

    ConnectionProfile m_profile;
    QString m_connectionName;
    QSqlDatabase m_db;
};

} // namespace hg
