#include "pgtimetableschema.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>

namespace hg {
namespace {

Status run(QSqlDatabase &db, const QString &sql, const QString &what)
{
    QSqlQuery q(db);
    // No bound values: the driver sends the text as one simple query, several statements
    // and $$-quoted bodies included.
    if (!q.exec(sql))
        return Error::storage(
            QStringLiteral("pg_timetable schema, %1: %2").arg(what, q.lastError().text()));
    return {};
}

} // namespace

Status PgTimetableSchema::create(QSqlDatabase &db, int majorVersion)
{
    if (majorVersion != 5 && majorVersion != 6)
        return Error::invalid(
            QStringLiteral("pg_timetable %1.x is not recreated").arg(majorVersion));
    const QStringList files{QStringLiteral("init"), QStringLiteral("cron"), QStringLiteral("ddl"),
                            QStringLiteral("job_functions"),
                            QStringLiteral("v%1").arg(majorVersion)};
    for (const QString &name : files) {
        QFile file(QStringLiteral(":/pgtimetable/%1.sql").arg(name));
        if (!file.open(QIODevice::ReadOnly))
            return Error::runtime(QStringLiteral("missing resource %1").arg(file.fileName()));
        if (Status done = run(db, QString::fromUtf8(file.readAll()), name + QLatin1String(".sql"));
            !done)
            return done;
    }
    return {};
}

Status PgTimetableSchema::recordExecution(QSqlDatabase &db, const Execution &e, int majorVersion)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
                  "INSERT INTO timetable.execution_log (chain_id, task_id, command, kind, "
                  "last_run, finished, returncode, pid, output, client_name, txid, ignore_error%1) "
                  "VALUES (?, ?, ?, ?::timetable.command_kind, clock_timestamp() - ?::interval, "
                  "clock_timestamp(), ?, pg_backend_pid(), NULLIF(?, ''), ?, ?, ?%2)")
                  .arg(majorVersion >= 6 ? QStringLiteral(", params") : QString(),
                       majorVersion >= 6 ? QStringLiteral(", ?") : QString()));
    q.addBindValue(e.chainId);
    q.addBindValue(e.taskId);
    q.addBindValue(e.command);
    q.addBindValue(e.kind);
    q.addBindValue(QStringLiteral("%1 seconds").arg(e.durationMs / 1000.0, 0, 'f', 6));
    q.addBindValue(e.returnCode);
    q.addBindValue(e.output);
    q.addBindValue(e.clientName);
    q.addBindValue(e.txid);
    q.addBindValue(e.ignoreError);
    if (majorVersion >= 6)
        q.addBindValue(e.params);
    if (!q.exec())
        return Error::storage(q.lastError().text());
    return {};
}

Status PgTimetableSchema::registerSession(QSqlDatabase &db, qint64 clientPid,
                                          const QString &clientName)
{
    // try_lock_client_name forgets sessions of backends that are not pg_timetable's: this
    // connection says it is one, as the worker's does.
    if (Status named = run(db, QStringLiteral("SET application_name = 'pg_timetable'"),
                           QStringLiteral("application_name"));
        !named)
        return named;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT timetable.try_lock_client_name(?, ?)"));
    q.addBindValue(clientPid);
    q.addBindValue(clientName);
    if (!q.exec() || !q.next())
        return Error::storage(q.lastError().text());
    if (!q.value(0).toBool())
        return Error::exists(QStringLiteral("worker name %1 is taken").arg(clientName));
    return {};
}

Status PgTimetableSchema::markChainRunning(QSqlDatabase &db, qint64 chainId,
                                           const QString &clientName)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO timetable.active_chain (chain_id, client_name) "
                             "VALUES (?, ?)"));
    q.addBindValue(chainId);
    q.addBindValue(clientName);
    if (!q.exec())
        return Error::storage(q.lastError().text());
    return {};
}

} // namespace hg
