#include "remotedatabase.h"

#include "store/sqltarget.h"

#include <QAtomicInteger>
#include <QSqlError>
#include <QSqlQuery>

namespace hg {
namespace {

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("hourglass-remote-%1").arg(counter.fetchAndAddRelaxed(1));
}

bool mentions(const QString &text, std::initializer_list<const char *> phrases)
{
    for (const char *phrase : phrases)
        if (text.contains(QLatin1String(phrase), Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace

RemoteDatabase::RemoteDatabase(ConnectionProfile profile, QString connectionName)
    : m_profile(std::move(profile))
    , m_connectionName(std::move(connectionName))
{}

RemoteDatabase::~RemoteDatabase()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

Result<std::unique_ptr<RemoteDatabase>>
RemoteDatabase::open(const ConnectionProfile &profile, const QString &password, int timeoutSeconds)
{
    const Result<SqlTarget> target = SqlTarget::forProfile(profile, password, timeoutSeconds);
    if (!target)
        return target.error();
    std::unique_ptr<RemoteDatabase> remote(new RemoteDatabase(profile, nextConnectionName()));
    Result<QSqlDatabase> opened = target->open(remote->m_connectionName);
    if (!opened) {
        QString driverText =
            QSqlDatabase::database(remote->m_connectionName, false).lastError().text().simplified();
        if (driverText.isEmpty())
            driverText = opened.error().message;
        return Error::unavailable(explainConnectError(profile, driverText, timeoutSeconds));
    }
    remote->m_db = opened.value();
    return remote;
}

QString RemoteDatabase::explainConnectError(const ConnectionProfile &profile,
                                            const QString &driverText, int timeoutSeconds)
{
    const QString where = QStringLiteral("%1:%2").arg(profile.host).arg(profile.effectivePort());
    QString cause;
    if (mentions(driverText, {"could not translate host name", "Unknown MySQL server host",
                              "Unknown server host", "Name or service not known"}))
        cause = tr("host '%1' not found (DNS)").arg(profile.host);
    else if (mentions(driverText, {"Connection refused", "(111)"}))
        cause = tr("%1 refused the connection: no server listens there").arg(where);
    else if (mentions(driverText, {"timeout expired", "timed out", "No route to host",
                                   "Network is unreachable", "(110)", "(113)"}))
        cause = tr("%1 is unreachable: no answer within %2 s").arg(where).arg(timeoutSeconds);
    else if (mentions(driverText,
                      {"password authentication failed", "no password supplied",
                       "Access denied for user", "authentication failed", "password is required"}))
        cause = tr("authentication failed for user '%1' at %2 (the password comes from the "
                   "keychain, ~/.pgpass or ~/.my.cnf)")
                    .arg(profile.userName, where);
    else if (mentions(driverText, {"does not exist", "Unknown database"}))
        cause = tr("database '%1' does not exist at %2").arg(profile.database, where);
    else
        cause = tr("cannot connect to %1").arg(where);
    return tr("remote '%1': %2 (%3)").arg(profile.name, cause, driverText);
}

Result<QHash<QString, QStringList>> RemoteDatabase::columns(const QStringList &tables)
{
    QSqlQuery q(m_db);
    if (isMysql()) {
        q.prepare(QStringLiteral("SELECT LOWER(table_name) AS t, LOWER(column_name) AS c FROM "
                                 "information_schema.columns WHERE table_schema = DATABASE() "
                                 "AND FIND_IN_SET(LOWER(table_name), ?) > 0"));
        q.addBindValue(tables.join(QLatin1Char(',')).toLower());
    } else {
        q.prepare(QStringLiteral("SELECT c.relname, a.attname FROM pg_catalog.pg_class c JOIN "
                                 "pg_catalog.pg_attribute a ON a.attrelid = c.oid WHERE "
                                 "c.relkind IN ('r', 'p', 'v') AND c.relname = ANY(CAST(? AS "
                                 "text[])) AND pg_catalog.pg_table_is_visible(c.oid) AND "
                                 "a.attnum > 0 AND NOT a.attisdropped"));
        q.addBindValue(
            QString(QLatin1Char('{') + tables.join(QLatin1Char(',')).toLower() + QLatin1Char('}')));
    }
    if (!q.exec())
        return queryError(tr("read the tables' columns"), q.lastError().text());
    QHash<QString, QStringList> found;
    while (q.next())
        found[q.value(0).toString()] << q.value(1).toString();
    return found;
}

Result<bool> RemoteDatabase::hasIndexLeadingWith(const QString &table, const QString &column)
{
    QSqlQuery q(m_db);
    if (isMysql()) {
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM information_schema.statistics WHERE "
                                 "table_schema = DATABASE() AND LOWER(table_name) = ? AND "
                                 "seq_in_index = 1 AND LOWER(column_name) = ?"));
    } else {
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM pg_catalog.pg_index i JOIN "
                                 "pg_catalog.pg_class c ON c.oid = i.indrelid JOIN "
                                 "pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = "
                                 "i.indkey[0] WHERE c.relname = ? AND "
                                 "pg_catalog.pg_table_is_visible(c.oid) AND a.attname = ?"));
    }
    q.addBindValue(table.toLower());
    q.addBindValue(column.toLower());
    if (!q.exec() || !q.next())
        return queryError(tr("read the indexes of %1").arg(table), q.lastError().text());
    return q.value(0).toInt() > 0;
}

Error RemoteDatabase::queryError(const QString &what, const QString &driverText) const
{
    return Error::runtime(
        tr("remote '%1': %2: %3").arg(m_profile.name, what, driverText.simplified()));
}

qint64 RemoteDatabase::insertedId(QSqlQuery &insert, bool mysql)
{
    if (mysql)
        return insert.lastInsertId().toLongLong();
    return insert.next() ? insert.value(0).toLongLong() : 0;
}

} // namespace hg
