#include "remoteprobe.h"

#include "connectionsecrets.h"
#include "dolphinschedulercatalog.h"
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

// Informational reads: a failure leaves the field empty rather than failing the test.
QString orEmpty(const Result<QString> &value)
{
    return value ? value.value() : QString();
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

// pgAgent: recognised and versioned; its console comes later, so it is shown read only.
Result<RemoteInfo> inspectPgAgent(RemoteDatabase &remote)
{
    Result<RemoteInfo> server = inspectServer(remote);
    if (!server)
        return server;
    RemoteInfo info = server.value();
    info.system = QStringLiteral("pgAgent");
    const Result<QString> present =
        scalar(remote, QStringLiteral("SELECT to_regclass('pgagent.pga_job') IS NOT NULL"),
               RemoteProbe::tr("look for the pgagent schema"));
    if (!present)
        return present.error();
    if (present.value() != QLatin1String("true"))
        return Error::notFound(RemoteProbe::tr("remote '%1': database '%2' holds no pgAgent "
                                               "schema (no table pgagent.pga_job)")
                                   .arg(remote.profile().name, remote.profile().database));
    info.version =
        orEmpty(scalar(remote, QStringLiteral("SELECT pgagent.pgagent_schema_version()::text"),
                       RemoteProbe::tr("read the pgAgent schema version")));
    // Schema 4 is pgAgent 4.x (pgagent--4.2.sql), the one the console follows.
    if (info.version.toInt() > 4) {
        info.readOnly = true;
        info.warning = RemoteProbe::tr("pgAgent schema %1 is newer than this Hourglass knows "
                                       "(4): read only")
                           .arg(info.version);
    }
    return info;
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
