#include "sqltarget.h"

#include "storelocation.h"

#include <QDir>
#include <QFile>
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

// Qt 6.4's MySQL driver refuses MYSQL_READ_DEFAULT_GROUP, so the option file is read here,
// as the client library would: the profile's own [hourglass-NAME] group (written where no
// keychain runs), else [client]. Quotes and backslash escapes as in MySQL option files.
QString myCnfPassword(const QString &profileName)
{
    QFile file(QDir::homePath() + QStringLiteral("/.my.cnf"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    const QString own = QStringLiteral("[hourglass-%1]").arg(profileName);
    QString group;
    QString ownPassword;
    QString clientPassword;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            group = line;
            continue;
        }
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals < 0 || line.left(equals).trimmed() != QLatin1String("password"))
            continue;
        QString value = line.mid(equals + 1).trimmed();
        if (value.size() >= 2
            && (value.startsWith(QLatin1Char('"')) || value.startsWith(QLatin1Char('\''))))
            value = value.mid(1, value.size() - 2);
        QString unescaped;
        for (qsizetype i = 0; i < value.size(); ++i) {
            if (value.at(i) == QLatin1Char('\\') && i + 1 < value.size())
                ++i;
            unescaped += value.at(i);
        }
        if (group == own)
            ownPassword = unescaped;
        else if (group == QLatin1String("[client]"))
            clientPassword = unescaped;
    }
    return ownPassword.isEmpty() ? clientPassword : ownPassword;
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
    switch (profile.server()) {
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
        if (target.password.isEmpty())
            target.password = myCnfPassword(profile.name);
        break;
    default:
        return Error::invalid(QStringLiteral("connection '%1' names no database server (%2)")
                                  .arg(profile.name, enumName(profile.server())));
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
