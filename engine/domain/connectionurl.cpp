#include "connectionurl.h"

#include "passwordsettings.h"

#include <QUrl>
#include <QUrlQuery>

namespace hg {
namespace {

bool isPostgresScheme(const QString &scheme)
{
    return scheme == QLatin1String("postgresql") || scheme == QLatin1String("postgres");
}

bool isMysqlScheme(const QString &scheme)
{
    return scheme == QLatin1String("mysql") || scheme == QLatin1String("mariadb");
}

// Which servers each kind's data can live on.
bool kindAccepts(ConnectionKind kind, ConnectionKind server)
{
    switch (kind) {
    case ConnectionKind::PostgreSql:
    case ConnectionKind::PgTimetable:
    case ConnectionKind::PgAgent:
        return server == ConnectionKind::PostgreSql;
    case ConnectionKind::MySql:
        return server == ConnectionKind::MySql;
    case ConnectionKind::DolphinScheduler:
        return server == ConnectionKind::PostgreSql || server == ConnectionKind::MySql;
    case ConnectionKind::Sqlite:
    case ConnectionKind::Goscheduler:
        break;
    }
    return false;
}

} // namespace

Result<ConnectionProfile> ConnectionUrl::parse(const QString &name, ConnectionKind kind,
                                               const QString &text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || scheme.isEmpty())
        return Error::invalid(
            tr("'%1' is not a URL; write it as postgresql://USER@HOST:PORT/DATABASE").arg(text));
    ConnectionProfile profile;
    profile.name = name;
    profile.kind = kind;
    if (isPostgresScheme(scheme))
        profile.databaseKind = ConnectionKind::PostgreSql;
    else if (isMysqlScheme(scheme))
        profile.databaseKind = ConnectionKind::MySql;
    else
        return Error::invalid(
            tr("unknown URL scheme '%1:'; use postgresql:// or mysql://").arg(scheme));
    if (!kindAccepts(kind, profile.databaseKind))
        return Error::invalid(
            tr("a %1 connection cannot use a %2:// URL").arg(enumName(kind), scheme));
    if (!url.password().isEmpty())
        return Error::invalid(
            tr("the URL holds a password; leave it out and give it with --password-stdin "
               "(kept in the OS keychain) or in ~/.pgpass or ~/.my.cnf"));
    if (url.host().isEmpty())
        return Error::invalid(tr("the URL names no host: %1").arg(text));
    profile.host = url.host();
    profile.port = url.port(0);
    profile.userName = url.userName();
    profile.database = url.path().mid(1); // the leading '/'
    if (profile.database.contains(QLatin1Char('/')))
        return Error::invalid(tr("the URL's path must be just the database name: %1").arg(text));
    QStringList options;
    const auto items = QUrlQuery(url).queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : items) {
        // Also one hidden in another setting's value ("application_name=a password=b").
        if (!passwordsettings::named(key + QLatin1Char('=') + value).isEmpty())
            return Error::invalid(tr("the URL holds a password; leave it out and give it with "
                                     "--password-stdin"));
        options << key + QLatin1Char('=') + value;
    }
    profile.options = options.join(QLatin1Char(';'));
    return profile;
}

QString ConnectionUrl::format(const ConnectionProfile &profile)
{
    if (profile.kind == ConnectionKind::Sqlite)
        return QStringLiteral("sqlite:") + profile.database;
    QUrl url;
    url.setScheme(profile.server() == ConnectionKind::MySql ? QStringLiteral("mysql")
                                                            : QStringLiteral("postgresql"));
    url.setUserName(profile.userName);
    url.setHost(profile.host);
    if (profile.port > 0)
        url.setPort(profile.port);
    url.setPath(QLatin1Char('/') + profile.database);
    if (!profile.options.isEmpty()) {
        QUrlQuery query;
        const QStringList options = profile.options.split(QLatin1Char(';'), Qt::SkipEmptyParts);
        for (const QString &option : options)
            query.addQueryItem(option.section(QLatin1Char('='), 0, 0),
                               option.section(QLatin1Char('='), 1));
        url.setQuery(query);
    }
    return url.toString();
}

} // namespace hg
