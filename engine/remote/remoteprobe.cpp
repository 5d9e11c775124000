#include "remoteprobe.h"

#include "connectionsecrets.h"
#include "dolphinschedulercatalog.h"
#include "pgagentcatalog.h"
#include "pgtimetablecatalog.h"
#include "remotedatabase.h"

#include <QSqlError>
#include <QSqlQuery>

namespace hg {
namespace {

Result<QString> scalar(RemoteDatabase &remote, const QString &sql, const QString &what)
{
    QSqlQuery q(remote.db());
    if (!q.exec(sql))
        return remote.queryError(what, q.lastError().text());
    return q.next() ? q.value(0).toString() : QString();
}

Result<RemoteInfo> inspectServer(RemoteDatabase &remote)
{
    RemoteInfo info;
    info.system = remote.isMysql() ? QStringLiteral("MySQL") : QStringLiteral("PostgreSQL");
    const Result<QString> version =
        scalar(remote,
               remote.isMysql() ? QStringLiteral("SELECT version()")
                                : QStringLiteral("SELECT current_setting('server_version')"),
               RemoteProbe::tr("read the version"));
    if (!version)
        return version.error();
    info.version = version.value();
    info.serverVersion = info.system + QLatin1Char(' ') + info.version;
    return info;
}

// DolphinScheduler: the layout its tables have, and the version its schema records.
Result<RemoteInfo> inspectDolphinScheduler(RemoteDatabase &remote)
{
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(remote);
    if (!catalog)
        return catalog.error();
    return catalog->info();
}

Result<RemoteInfo> inspectPgAgent(RemoteDatabase &remote)
{
    const Result<PgAgentCatalog> catalog = PgAgentCatalog::open(remote);
    if (!catalog)
        return catalog.error();
    return catalog->info();
}

} // namespace

Result<RemoteInfo> RemoteProbe::test(const ConnectionProfile &profile)
{
    const Result<QString> password = ConnectionSecrets().lookup(profile);
    if (!password)
        return password.error();
    Result<std::unique_ptr<RemoteDatabase>> remote =
        RemoteDatabase::open(profile, password.value());
    if (!remote)
        return remote.error();
    return inspect(*remote.value());
}

Result<RemoteInfo> RemoteProbe::inspect(RemoteDatabase &remote)
{
    switch (remote.profile().kind) {
    case ConnectionKind::PgTimetable: {
        const Result<PgTimetableCatalog> catalog = PgTimetableCatalog::open(remote);
        if (!catalog)
            return catalog.error();
        return catalog->info();
    }
    case ConnectionKind::DolphinScheduler:
        return inspectDolphinScheduler(remote);
    case ConnectionKind::PgAgent:
        return inspectPgAgent(remote);
    case ConnectionKind::PostgreSql:
    case ConnectionKind::MySql:
    case ConnectionKind::Sqlite:
    case ConnectionKind::Goscheduler:
        break;
    }
    return inspectServer(remote);
}

} // namespace hg
