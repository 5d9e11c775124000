#include "pgtimetableschema.h"

#include <QFile>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace hg {
namespace {

Status failed(const QSqlQuery &q, const QString &what)
{
    return Error::storage(
        QStringLiteral("pg_timetable schema, %1: %2").arg(what, q.lastError().text()));
}

// Without bound values QPSQL sends the text as one simple query: several statements and
// $$-quoted bodies with semicolons go as they are, in one implicit transaction, as pgx's Exec
// without arguments sends pg_timetable's files.
Status runScript(QSqlDatabase &db, const QString &sql, const QString &what)
{
    QSqlQuery q(db);
    if (!q.exec(sql))
        return failed(q, what);
    return {};
}

} // namespace

QStringList PgTimetableSchema::files(int majorVersion)
{
    if (majorVersion != 5 && majorVersion != 6)
        return {};
    QStringList paths;
    for (const char *name : {"init", "cron", "ddl", "json_schema", "job_functions"})
        paths << QStringLiteral(":/pgtimetable/v%1/%2.sql")
                     .arg(majorVersion)
                     .arg(QLatin1String(name));
    return paths;
}

Status PgTimetableSchema::create(QSqlDatabase &db, int majorVersion)
{
    const QStringList paths = files(majorVersion);
    if (paths.isEmpty())
        return Error::invalid(
            QStringLiteral("pg_timetable %1.x is not recreated (5 and 6 are)").arg(majorVersion));
    // pg_timetable runs its files only where there is no schema timetable yet.
    QSqlQuery exists(db);
    if (!exists.exec(QStringLiteral("SELECT to_regnamespace('timetable') IS NOT NULL"))
        || !exists.next())
        return failed(exists, QStringLiteral("schema check"));
    if (exists.value(0).toBool())
        return Error::exists(
            QStringLiteral("schema timetable exists already in %1").arg(db.databaseName()));
    for (const QString &path : paths) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error::runtime(QStringLiteral("missing resource %1").arg(path));
        if (Status done = runScript(db, QString::fromUtf8(file.readAll()), path); !done) {
            // The first error is the one to report; a failed drop adds nothing to it.
            [[maybe_unused]] const Status dropped =
                runScript(db, QStringLiteral("DROP SCHEMA IF EXISTS timetable CASCADE"), path);
            return done;
        }
    }
    return {};
}

Status PgTimetableSchema::recordExecution(QSqlDatabase &db, const Execution &e, int majorVersion)
{
    const bool withParams = majorVersion >= 6;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO timetable.execution_log (chain_id, task_id, command, "
                             "kind, last_run, finished, returncode, pid, output, client_name, "
                             "txid, ignore_error%1) VALUES (?, ?, ?, ?, clock_timestamp() - ? "
                             ":: interval, clock_timestamp(), ?, ?, NULLIF(?, ''), ?, ?, ?%2)")
                  .arg(withParams ? QStringLiteral(", params") : QString(),
                       withParams ? QStringLiteral(", ?") : QString()));
    q.addBindValue(e.chainId);
    q.addBindValue(e.taskId);
    q.addBindValue(e.command);
    q.addBindValue(e.kind);
    // The worker formats microseconds with Go's %f: six decimals.
    q.addBindValue(
        QStringLiteral("%1 seconds").arg(static_cast<double>(e.durationUs) / 1e6, 0, 'f', 6));
    q.addBindValue(e.returnCode);
    q.addBindValue(e.clientPid);
    q.addBindValue(e.output.trimmed());
    q.addBindValue(e.clientName);
    q.addBindValue(e.txid);
    q.addBindValue(e.ignoreError);
    if (withParams)
        q.addBindValue(e.params.isNull() ? QStringLiteral("") : e.params);
    if (!q.exec())
        return failed(q, QStringLiteral("execution_log"));
    return {};
}

Status PgTimetableSchema::recordLog(QSqlDatabase &db, const LogEntry &entry)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO timetable.log (ts, client_name, pid, log_level, "
                             "message, message_data) VALUES (?, ?, ?, ?, ?, ?::jsonb)"));
    q.addBindValue(entry.ts);
    q.addBindValue(entry.clientName);
    q.addBindValue(entry.clientPid);
    q.addBindValue(entry.level);
    q.addBindValue(entry.message);
    q.addBindValue(entry.data);
    if (!q.exec())
        return failed(q, QStringLiteral("log"));
    return {};
}

Status PgTimetableSchema::registerSession(QSqlDatabase &db, qint64 clientPid,
                                          const QString &clientName)
{
    if (Status named = runScript(db, QStringLiteral("SET application_name = 'pg_timetable'"),
                                 QStringLiteral("application_name"));
        !named)
        return named;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT timetable.try_lock_client_name(?, ?)"));
    q.addBindValue(clientPid);
    q.addBindValue(clientName);
    if (!q.exec() || !q.next())
        return failed(q, QStringLiteral("try_lock_client_name"));
    if (!q.value(0).toBool())
        return Error::exists(
            QStringLiteral("another pg_timetable worker holds the name %1").arg(clientName));
    return runScript(db,
                     QStringLiteral("LISTEN ")
                         + db.driver()->escapeIdentifier(clientName, QSqlDriver::FieldName),
                     QStringLiteral("LISTEN"));
}

Status PgTimetableSchema::markChainRunning(QSqlDatabase &db, qint64 chainId,
                                           const QString &clientName, int maxInstances)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO timetable.active_chain (chain_id, client_name) "
                             "SELECT ?, ? WHERE (SELECT COALESCE(count(*) < ?, TRUE) "
                             "FROM timetable.active_chain ac WHERE ac.chain_id = ?)"));
    q.addBindValue(chainId);
    q.addBindValue(clientName);
    q.addBindValue(maxInstances);
    q.addBindValue(chainId);
    if (!q.exec())
        return failed(q, QStringLiteral("active_chain"));
    if (q.numRowsAffected() != 1)
        return Error::exists(
            QStringLiteral("chain %1 runs %2 times already").arg(chainId).arg(maxInstances));
    return {};
}

Status PgTimetableSchema::finishChainRun(QSqlDatabase &db, qint64 chainId,
                                         const QString &clientName)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "DELETE FROM timetable.active_chain WHERE chain_id = ? and client_name = ?"));
    q.addBindValue(chainId);
    q.addBindValue(clientName);
    if (!q.exec())
        return failed(q, QStringLiteral("active_chain"));
    return {};
}

Status PgTimetableSchema::closeSession(QSqlDatabase &db, const QString &clientName)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("WITH del_ch AS (DELETE FROM timetable.active_chain WHERE "
                             "client_name = ?) DELETE FROM timetable.active_session WHERE "
                             "client_name = ?"));
    q.addBindValue(clientName);
    q.addBindValue(clientName);
    if (!q.exec())
        return failed(q, QStringLiteral("active_session"));
    return {};
}

} // namespace hg
