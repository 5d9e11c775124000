#include "sqltarget.h"

#include "storelocation.h"

#include <QHostAddress>
#include <QSqlError>
#include <QUrlQuery>

namespace hg {

SqlTarget SqlTarget::forStore(const StoreLocation &location)
{
    SqlTarget target;
    target.displayName = QStringLiteral("the store (%1)").arg(location.displayName());
    if (location.backend() == StoreBackend::Sqlite) {
        target.driver = QStringLiteral("QSQLITE");
        target.databaseName = location.sqlitePath();
        target.options = QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000");
        return target;
    }
    const QUrl &url = location.url();
    target.driver = QStringLiteral("QPSQL");
    target.host = url.host();
    target.port = url.port(5432);
    target.databaseName = location.databaseName();
    target.userName = url.userName();
    target.password = url.password();
    // A dead server or a cut network must show within seconds, not after the kernel's two
    // hours of TCP retries: the engine then holds its writes and reconnects. A query the
    // server does not answer ends after tcp_user_timeout (ms) of unacknowledged data.
    QStringList options{
        QStringLiteral("connect_timeout=5"),  QStringLiteral("keepalives=1"),
        QStringLiteral("keepalives_idle=5"),  QStringLiteral("keepalives_interval=2"),
        QStringLiteral("keepalives_count=3"), QStringLiteral("tcp_user_timeout=10000")};
    const QUrlQuery query(url);
    // libpq's default, sslmode=prefer, falls back to plain text without a word: a shared
    // store on another machine requires TLS, and checks the server's certificate and name
    // once a CA is given. An explicit sslmode in the URL wins (sslmode=disable included).
    if (!query.hasQueryItem(QStringLiteral("sslmode"))) {
        const QString host = url.host();
        const bool local = host.isEmpty() || host.startsWith(QLatin1Char('/'))
                           || host == QLatin1String("localhost") || QHostAddress(host).isLoopback();
        if (query.hasQueryItem(QStringLiteral("sslrootcert")))
            options << QStringLiteral("sslmode=verify-full");
        else if (!local)
            options << QStringLiteral("sslmode=require");
    }
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : items)
        options << key + QLatin1Char('=') + value;
    target.options = options.join(QLatin1Char(';'));
    return target;
}

Result<SqlTarget> SqlTarget::forProfile(const ConnectionProfile &profile, const QString &password)
{
    SqlTarget target;
    target.databaseName = profile.database;
    target.host = profile.host;
    target.userName = profile.userName;
    target.password = password;
    target.options = profile.options;
    switch (profile.kind) {
    case ConnectionKind::Sqlite:
        target.driver = QStringLiteral("QSQLITE");
        target.displayName =
            QStringLiteral("connection '%1' (%2)").arg(profile.name, profile.database);
        return target;
    case ConnectionKind::PostgreSql:
    case ConnectionKind::PgTimetable:
        target.driver = QStringLiteral("QPSQL");
        target.port = profile.port > 0 ? profile.port : 5432;
        if (target.options.isEmpty())
            target.options = QStringLiteral("connect_timeout=5");
        break;
    case ConnectionKind::MySql:
        target.driver = QStringLiteral("QMYSQL");
        target.port = profile.port > 0 ? profile.port : 3306;
        // The [client] group of ~/.my.cnf may hold the password, as ~/.pgpass does for libpq.
        if (target.options.isEmpty())
            target.options =
                QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT=5;MYSQL_READ_DEFAULT_GROUP=client");
        break;
    default:
        return Error::invalid(QStringLiteral("connection '%1' is a %2 profile; SQL tasks need a "
                                             "sqlite, postgresql or mysql connection")
                                  .arg(profile.name, enumName(profile.kind)));
    }
    target.displayName = QStringLiteral("connection '%1' (%2@%3:%4/%5)")
                             .arg(profile.name, profile.userName, profile.host)
                             .arg(target.port)
                             .arg(profile.database);
    return target;
}

Result<QSqlDatabase> SqlTarget::open(const QString &connectionName) const
{
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, connectionName);
    db.setDatabaseName(databaseName);
    if (!host.isEmpty())
        db.setHostName(host);
    if (port > 0)
        db.setPort(port);
    if (!userName.isEmpty())
        db.setUserName(userName);
    if (!password.isEmpty())
        db.setPassword(password);
    db.setConnectOptions(options);
    if (!db.open())
        return Error::runtime(QStringLiteral("cannot connect to %1: %2")
                                  .arg(displayName, db.lastError().text().simplified()));
    return db;
}

} // namespace hg
