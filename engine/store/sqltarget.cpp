#include "sqltarget.h"

#include "storelocation.h"

#include <QHostAddress>
#include <QSqlError>
#include <QUrlQuery>

#include <algorithm>

namespace hg {
namespace {

// libpq's default, sslmode=prefer, falls back to plain text without a word: a database on
// another machine requires TLS, and checks the server's certificate and name once a CA is
// given. An explicit sslmode wins (sslmode=disable included).
QString defaultSslMode(const QString &host, bool sslModeGiven, bool rootCertGiven)
{
    if (sslModeGiven)
        return {};
    if (rootCertGiven)
        return QStringLiteral("sslmode=verify-full");
    const bool local = host.isEmpty() || host.startsWith(QLatin1Char('/'))
                       || host == QLatin1String("localhost") || QHostAddress(host).isLoopback();
    return local ? QString() : QStringLiteral("sslmode=require");
}

} // namespace

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
    target.password = location.password();
    // A dead server or a cut network must show within seconds, not after the kernel's two
    // hours of TCP retries: the engine then holds its writes and reconnects. A query the
    // server does not answer ends after tcp_user_timeout (ms) of unacknowledged data.
    QStringList options{
        QStringLiteral("connect_timeout=5"),  QStringLiteral("keepalives=1"),
        QStringLiteral("keepalives_idle=5"),  QStringLiteral("keepalives_interval=2"),
        QStringLiteral("keepalives_count=3"), QStringLiteral("tcp_user_timeout=10000")};
    const QUrlQuery query(url);
    if (const QString tls =
            defaultSslMode(url.host(), query.hasQueryItem(QStringLiteral("sslmode")),
                           query.hasQueryItem(QStringLiteral("sslrootcert")));
        !tls.isEmpty())
        options << tls;
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : items)
        options << key + QLatin1Char('=') + value;
    target.options = options.join(QLatin1Char(';'));
    return target;
}

Result<SqlTarget> SqlTarget::forProfile(const ConnectionProfile &profile, const QString &password,
                                        int connectTimeoutSeconds)
{
    SqlTarget target;
    target.databaseName = profile.database;
    target.host = profile.host;
    target.userName = profile.userName;
    target.password = password;
    QStringList options = profile.options.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    const auto hasOption = [&options](QLatin1StringView key) {
        return std::any_of(options.cbegin(), options.cend(), [key](const QString &option) {
            return option.section(QLatin1Char('='), 0, 0).trimmed() == key;
        });
    };
    switch (profile.databaseKind) {
    case ConnectionKind::Sqlite:
        target.driver = QStringLiteral("QSQLITE");
        target.options = profile.options;
        target.displayName =
            QStringLiteral("connection '%1' (%2)").arg(profile.name, profile.database);
        return target;
    case ConnectionKind::PostgreSql:
        target.driver = QStringLiteral("QPSQL");
        if (!hasOption(QLatin1StringView("connect_timeout")))
            options << QStringLiteral("connect_timeout=%1").arg(connectTimeoutSeconds);
        if (const QString tls =
                defaultSslMode(profile.host, hasOption(QLatin1StringView("sslmode")),
                               hasOption(QLatin1StringView("sslrootcert")));
            !tls.isEmpty())
            options << tls;
        break;
    case ConnectionKind::MySql:
        target.driver = QStringLiteral("QMYSQL");
        if (!hasOption(QLatin1StringView("MYSQL_OPT_CONNECT_TIMEOUT")))
            options << QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT=%1").arg(connectTimeoutSeconds);
        // The [client] group of ~/.my.cnf may hold the password, as ~/.pgpass does for libpq;
        // a profile's own group (written where no keychain runs) is read beside it.
        if (!hasOption(QLatin1StringView("MYSQL_READ_DEFAULT_GROUP")))
            options << QStringLiteral("MYSQL_READ_DEFAULT_GROUP=hourglass-") + profile.name;
        break;
    default:
        return Error::invalid(QStringLiteral("connection '%1' names no database server (%2)")
                                  .arg(profile.name, enumName(profile.databaseKind)));
    }
    target.port = profile.effectivePort();
    target.options = options.join(QLatin1Char(';'));
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
