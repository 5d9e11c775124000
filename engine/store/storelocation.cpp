#include "storelocation.h"

#include "domain/passwordsettings.h"

#include <QDir>
#include <QStandardPaths>

namespace hg {

Result<StoreLocation> StoreLocation::resolve(const QString &commandLineValue)
{
    if (!commandLineValue.isEmpty()) {
        Result<StoreLocation> location = parse(commandLineValue);
        // Argv is anyone's to read (ps, /proc/PID/cmdline) for as long as the engine runs.
        // Also "?password=…" and the like in its query, which libpq reads as well.
        if (location && location->backend() == StoreBackend::PostgreSql
            && (!location->url().password().isEmpty()
                || !passwordsettings::named(location->url().query(QUrl::FullyDecoded)).isEmpty()))
            return Error::invalid(
                tr("--db: the URL carries a password, which every user of this machine can read "
                   "in the process list for as long as Hourglass runs; give the URL without it "
                   "and keep the password in the keychain (hourglass --db URL store password "
                   "--password-stdin), in ~/.pgpass, or pass the URL in HOURGLASS_DB"));
        // A libpq connection string ("host=… password=…") would become a SQLite file's name.
        if (location && location->backend() == StoreBackend::Sqlite
            && !passwordsettings::named(commandLineValue).isEmpty())
            return Error::invalid(
                tr("--db: this holds a password setting; a SQLite store is a file path, a "
                   "PostgreSQL store a postgresql:// URL without a password (keep it in the "
                   "keychain: hourglass --db URL store password --password-stdin, or in "
                   "~/.pgpass)"));
        return location;
    }
    const QString fromEnvironment = qEnvironmentVariable("HOURGLASS_DB");
    if (!fromEnvironment.isEmpty())
        return parse(fromEnvironment);
    return parse(defaultSqlitePath());
}

Result<StoreLocation> StoreLocation::parse(const QString &text)
{
    StoreLocation location;
    if (text.startsWith(QLatin1String("postgresql://"))
        || text.startsWith(QLatin1String("postgres://"))) {
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty())
            return Error::invalid(tr("invalid PostgreSQL URL '%1': expected "
                                     "postgresql://user[:password]@host[:port]/database")
                                      .arg(url.toDisplayString(QUrl::RemovePassword)));
        if (url.path().size() <= 1)
            return Error::invalid(tr("PostgreSQL URL '%1' names no database")
                                      .arg(url.toDisplayString(QUrl::RemovePassword)));
        location.m_backend = StoreBackend::PostgreSql;
        location.m_url = url;
        return location;
    }
    QString path = text;
    if (path.startsWith(QLatin1String("sqlite://")))
        path = path.mid(9);
    else if (path.startsWith(QLatin1String("sqlite:")))
        path = path.mid(7);
    if (path.isEmpty())
        return Error::invalid(tr("empty store path"));
    if (path.contains(QLatin1String("://")))
        return Error::invalid(tr("unsupported store URL '%1': use a file path or "
                                 "postgresql://")
                                  .arg(path));
    location.m_backend = StoreBackend::Sqlite;
    location.m_sqlitePath = QDir::cleanPath(QDir::current().absoluteFilePath(path));
    return location;
}

QString StoreLocation::defaultSqlitePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QLatin1String("/hourglass/hourglass.db");
}

QString StoreLocation::databaseName() const
{
    return m_backend == StoreBackend::Sqlite ? m_sqlitePath : m_url.path().mid(1);
}

namespace {

StoreLocation::PasswordSource &passwordSource()
{
    static StoreLocation::PasswordSource source;
    return source;
}

} // namespace

void StoreLocation::setPasswordSource(PasswordSource source)
{
    passwordSource() = std::move(source);
}

QString StoreLocation::secretKey() const
{
    if (m_backend == StoreBackend::Sqlite)
        return {};
    QUrl url = m_url;
    url.setPassword({});
    url.setQuery(QString());
    url.setFragment({});
    if (url.port() < 0)
        url.setPort(5432);
    return QStringLiteral("store/") + url.toString();
}

QString StoreLocation::password() const
{
    if (m_backend == StoreBackend::Sqlite)
        return {};
    if (!m_url.password().isEmpty())
        return m_url.password();
    const PasswordSource &source = passwordSource();
    return source ? source(secretKey()) : QString();
}

QString StoreLocation::displayName() const
{
    return m_backend == StoreBackend::Sqlite ? m_sqlitePath
                                             : m_url.toDisplayString(QUrl::RemovePassword);
}

} // namespace hg
