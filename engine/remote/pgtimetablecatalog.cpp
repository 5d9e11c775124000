#include "pgtimetablecatalog.h"

#include "cron/cronexpression.h"
#include "remotedatabase.h"

#include <QHash>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace hg {
namespace {

// The last migration of each major version (internal/pgengine/migration.go of its tags).
constexpr int firstV5Migration = 436;
constexpr int lastV5Migration = 629;
constexpr int lastV6Migration = 733;

QVariant nullableText(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(text);
}

QVariant nullableInt(const std::optional<int> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<int>());
}

const QString chainColumns =
    QStringLiteral("chain_id, chain_name, COALESCE(run_at::text, ''), max_instances, "
                   "COALESCE(timeout, 0), COALESCE(live, false), COALESCE(self_destruct, false), "
                   "COALESCE(exclusive_execution, false), COALESCE(client_name, ''), "
                   "COALESCE(on_error, '') FROM timetable.chain ");

PgtChain readChain(const QSqlQuery &q)
{
    PgtChain chain;
    chain.id = q.value(0).toLongLong();
    chain.name = q.value(1).toString();
    chain.runAt = q.value(2).toString();
    if (!q.value(3).isNull())
        chain.maxInstances = q.value(3).toInt();
    chain.timeoutMs = q.value(4).toInt();
    chain.live = q.value(5).toBool();
    chain.selfDestruct = q.value(6).toBool();
    chain.exclusive = q.value(7).toBool();
    chain.clientName = q.value(8).toString();
    chain.onError = q.value(9).toString();
    return chain;
}

Status checkRunAt(const QString &runAt)
{
    if (runAt.isEmpty())
        return {};
    const Result<CronExpression> parsed = CronExpression::parse(runAt, CronDialect::PgTimetable);
    if (!parsed)
        return parsed.error();
    return {};
}

Status checkTasks(const PgtChain &chain)
{
    static const QStringList kinds{QStringLiteral("SQL"), QStringLiteral("PROGRAM"),
                                   QStringLiteral("BUILTIN")};
    for (const PgtTask &task : chain.tasks) {
        const QString label = task.name.isEmpty() ? QString::number(task.order) : task.name;
        if (!kinds.contains(task.kind))
            return Error::invalid(PgTimetableCatalog::tr("task %1: kind '%2' is not SQL, PROGRAM "
                                                         "or BUILTIN")
                                      .arg(label, task.kind));
        if (task.command.trimmed().isEmpty())
            return Error::invalid(
                PgTimetableCatalog::tr("task %1: the command is empty").arg(label));
        for (const QString &parameter : task.parameters) {
            QJsonParseError error;
            QJsonDocument::fromJson(parameter.toUtf8(), &error);
            if (error.error != QJsonParseError::NoError)
                return Error::invalid(
                    PgTimetableCatalog::tr("task %1: parameter %2 is not JSON: %3")
                        .arg(label, parameter, error.errorString()));
        }
    }
    return {};
}

} // namespace

Result<PgTimetableCatalog> PgTimetableCatalog::open(RemoteDatabase &remote)
{
    PgTimetableCatalog catalog(remote);
    if (Status inspected = catalog.inspect(); !inspected)
        return inspected.error();
    return catalog;
}

Status PgTimetableCatalog::exec(QSqlQuery &query, const QString &what) const
{
    if (!query.exec())
        return m_remote->queryError(what, query.lastError().text());
    return {};
}

Status PgTimetableCatalog::inspect()
{
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT to_regclass('timetable.migration') IS NOT NULL, "
                             "current_setting('TimeZone'), current_setting('server_version')"));
    if (Status s = exec(q, tr("read the server's settings")); !s)
        return s;
    q.next();
    m_info.system = QStringLiteral("pg_timetable");
    m_info.timeZone = q.value(1).toString();
    m_info.serverVersion = QStringLiteral("PostgreSQL ") + q.value(2).toString();
    if (!q.value(0).toBool())
        return Error::notFound(
            tr("remote '%1': database '%2' holds no pg_timetable schema (no table "
               "timetable.migration); pg_timetable creates it when its worker first connects")
                .arg(m_remote->profile().name, m_remote->profile().database));
    q.prepare(QStringLiteral("SELECT version FROM timetable.migration ORDER BY id DESC LIMIT 1"));
    if (Status s = exec(q, tr("read timetable.migration")); !s)
        return s;
    const QString latest = q.next() ? q.value(0).toString() : QString();
    const int migration = latest.section(QLatin1Char(' '), 0, 0).toInt();
    if (migration >= firstV5Migration && migration <= lastV5Migration)
        m_info.major = 5;
    else if (migration > lastV5Migration && migration <= lastV6Migration)
        m_info.major = 6;
    // Not "unknown": which side of the versions known here (issue 34: a 7.0 schema).
    m_info.version =
        m_info.major > 0 ? tr("%1.x (migration %2)").arg(m_info.major).arg(latest)
        : migration > lastV6Migration
            ? tr("newer than 6.x (migration %1; Hourglass knows 5.x and 6.x)").arg(latest)
            : tr("older than 5.0 (migration %1)").arg(latest);
    if (migration > lastV6Migration) {
        m_info.readOnly = true;
        m_info.warning = tr("pg_timetable's schema is newer than 6.x (migration '%1'): shown read "
                            "only, so Hourglass changes nothing it may not understand")
                             .arg(latest);
    } else if (m_info.major == 0) {
        m_info.readOnly = true;
        m_info.warning = tr("pg_timetable's schema is older than 5.0 (migration '%1'): shown read "
                            "only; pg_timetable 5 or 6 upgrades it when it connects")
                             .arg(latest);
    }
    return {};
}

Status PgTimetableCatalog::refuseWhenReadOnly(const QString &what) const
{
    if (!m_info.readOnly)
        return {};
    return Error::invalid(tr("remote '%1' is read only (%2): cannot %3")
                              .arg(m_remote->profile().name, m_info.version, what));
}

Status PgTimetableCatalog::inTransaction(const QString &what,
                                         const std::function<Status()> &work) const
{
    QSqlDatabase &db = m_remote->db();
    if (!db.transaction())
        return m_remote->queryError(what, db.lastError().text());
    const Status done = work();
    if (!done) {
        db.rollback();
        return done;
    }
    if (!db.commit()) {
        const QString text = db.lastError().text();
        db.rollback();
        return m_remote->queryError(what, text);
    }
    return {};
}

Result<QList<PgtChain>> PgTimetableCatalog::chains() const
{
    QSqlQuery q(m_remote->db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT ") + chainColumns + QStringLiteral("ORDER BY chain_name"));
    if (Status s = exec(q, tr("list chains")); !s)
        return s.error();
    QList<PgtChain> chains;
    while (q.next())
        chains << readChain(q);
    return chains;
}

Result<qint64> PgTimetableCatalog::chainId(const QString &name) const
{
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT chain_id FROM timetable.chain WHERE chain_name = ?"));
    q.addBindValue(name);
    if (Status s = exec(q, tr("find chain '%1'").arg(name)); !s)
        return s.error();
    if (!q.next())
        return Error::notFound(
            tr("remote '%1' has no chain '%2'").arg(m_remote->profile().name, name));
    return q.value(0).toLongLong();
}

Result<PgtChain> PgTimetableCatalog::chain(const QString &name) const
{
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT ") + chainColumns + QStringLiteral("WHERE chain_name = ?"));
    q.addBindValue(name);
    if (Status s = exec(q, tr("read chain '%1'").arg(name)); !s)
        return s.error();
    if (!q.next())
        return Error::notFound(
            tr("remote '%1' has no chain '%2'").arg(m_remote->profile().name, name));
    PgtChain chain = readChain(q);
    q.prepare(QStringLiteral(
        "SELECT task_id, task_order, COALESCE(task_name, ''), kind::text, command, "
        "COALESCE(run_as, ''), COALESCE(database_connection, ''), ignore_error, autonomous, "
        "COALESCE(timeout, 0) FROM timetable.task WHERE chain_id = ? ORDER BY task_order, "
        "task_id"));
    q.addBindValue(chain.id);
    if (Status s = exec(q, tr("read the tasks of '%1'").arg(name)); !s)
        return s.error();
    QHash<qint64, qsizetype> indexOfTask;
    while (q.next()) {
        PgtTask task;
        task.id = q.value(0).toLongLong();
        task.order = q.value(1).toDouble();
        task.name = q.value(2).toString();
        task.kind = q.value(3).toString();
        task.command = q.value(4).toString();
        task.runAs = q.value(5).toString();
        task.databaseConnection = q.value(6).toString();
        task.ignoreError = q.value(7).toBool();
        task.autonomous = q.value(8).toBool();
        task.timeoutMs = q.value(9).toInt();
        indexOfTask.insert(task.id, chain.tasks.size());
        chain.tasks << task;
    }
    // add_job stores a row with a NULL value when a job has no parameters; the task then runs
    // once with none, as it does with no row at all, so such rows are left out.
    q.prepare(QStringLiteral("SELECT p.task_id, p.value::text FROM timetable.parameter p "
                             "JOIN timetable.task t USING (task_id) WHERE t.chain_id = ? "
                             "AND p.value IS NOT NULL ORDER BY p.task_id, p.order_id"));
    q.addBindValue(chain.id);
    if (Status s = exec(q, tr("read the parameters of '%1'").arg(name)); !s)
        return s.error();
    while (q.next()) {
        const auto found = indexOfTask.constFind(q.value(0).toLongLong());
        if (found != indexOfTask.constEnd())
            chain.tasks[*found].parameters << q.value(1).toString();
    }
    return chain;
}

Status PgTimetableCatalog::writeTasks(qint64 chainId, const QList<PgtTask> &tasks,
                                      bool replacing) const
{
    QSqlQuery q(m_remote->db());
    QList<qint64> kept;
    for (const PgtTask &task : tasks)
        if (task.id > 0)
            kept << task.id;
    if (replacing) {
        q.prepare(QStringLiteral("SELECT task_id FROM timetable.task WHERE chain_id = ?"));
        q.addBindValue(chainId);
        if (Status s = exec(q, tr("read the chain's tasks")); !s)
            return s;
        QList<qint64> existing;
        while (q.next())
            existing << q.value(0).toLongLong();
        for (const qint64 id : std::as_const(kept))
            if (!existing.contains(id))
                return Error::invalid(tr("task %1 does not belong to the chain").arg(id));
        for (const qint64 id : std::as_const(existing)) {
            if (kept.contains(id))
                continue;
            q.prepare(QStringLiteral("DELETE FROM timetable.task WHERE task_id = ?"));
            q.addBindValue(id);
            if (Status s = exec(q, tr("delete task %1").arg(id)); !s)
                return s;
        }
    }
    for (const PgtTask &task : tasks) {
        qint64 taskId = task.id;
        if (taskId > 0) {
            q.prepare(QStringLiteral(
                "UPDATE timetable.task SET task_order = ?, task_name = ?, "
                "kind = ?::timetable.command_kind, command = ?, run_as = ?, "
                "database_connection = ?, ignore_error = ?, autonomous = ?, timeout = ? "
                "WHERE task_id = ?"));
        } else {
            q.prepare(QStringLiteral(
                "INSERT INTO timetable.task (task_order, task_name, kind, command, run_as, "
                "database_connection, ignore_error, autonomous, timeout, chain_id) VALUES "
                "(?, ?, ?::timetable.command_kind, ?, ?, ?, ?, ?, ?, ?) RETURNING task_id"));
        }
        q.addBindValue(task.order);
        q.addBindValue(nullableText(task.name));
        q.addBindValue(task.kind);
        q.addBindValue(task.command);
        q.addBindValue(nullableText(task.runAs));
        q.addBindValue(nullableText(task.databaseConnection));
        q.addBindValue(task.ignoreError);
        q.addBindValue(task.autonomous);
        q.addBindValue(task.timeoutMs);
        q.addBindValue(taskId > 0 ? taskId : chainId);
        if (Status s = exec(q, tr("write task '%1'").arg(task.name)); !s)
            return s;
        if (taskId == 0) {
            q.next();
            taskId = q.value(0).toLongLong();
        }
        q.prepare(QStringLiteral("DELETE FROM timetable.parameter WHERE task_id = ?"));
        q.addBindValue(taskId);
        if (Status s = exec(q, tr("replace the parameters of '%1'").arg(task.name)); !s)
            return s;
        for (qsizetype i = 0; i < task.parameters.size(); ++i) {
            q.prepare(QStringLiteral("INSERT INTO timetable.parameter (task_id, order_id, value) "
                                     "VALUES (?, ?, ?::jsonb)"));
            q.addBindValue(taskId);
            q.addBindValue(int(i + 1));
            q.addBindValue(task.parameters.at(i));
            if (Status s = exec(q, tr("write the parameters of '%1'").arg(task.name)); !s)
                return s;
        }
    }
    return {};
}

Status PgTimetableCatalog::save(const PgtChain &chain) const
{
    if (Status s = refuseWhenReadOnly(tr("change chain '%1'").arg(chain.name)); !s)
        return s;
    if (Status s = checkRunAt(chain.runAt); !s)
        return s;
    if (Status s = checkTasks(chain); !s)
        return s;
    return inTransaction(tr("save chain '%1'").arg(chain.name), [&]() -> Status {
        QSqlQuery q(m_remote->db());
        q.prepare(QStringLiteral(
            "UPDATE timetable.chain SET chain_name = ?, run_at = ?::timetable.cron, "
            "max_instances = ?, timeout = ?, live = ?, self_destruct = ?, "
            "exclusive_execution = ?, client_name = ?, on_error = ? WHERE chain_id = ?"));
        q.addBindValue(chain.name);
        q.addBindValue(nullableText(chain.runAt));
        q.addBindValue(nullableInt(chain.maxInstances));
        q.addBindValue(chain.timeoutMs);
        q.addBindValue(chain.live);
        q.addBindValue(chain.selfDestruct);
        q.addBindValue(chain.exclusive);
        q.addBindValue(nullableText(chain.clientName));
        q.addBindValue(nullableText(chain.onError));
        q.addBindValue(chain.id);
        if (Status s = exec(q, tr("save chain '%1'").arg(chain.name)); !s)
            return s;
        if (q.numRowsAffected() != 1)
            return Error::notFound(tr("remote '%1' has no chain %2 any more (deleted meanwhile?)")
                                       .arg(m_remote->profile().name)
                                       .arg(chain.id));
        return writeTasks(chain.id, chain.tasks, true);
    });
}

Result<qint64> PgTimetableCatalog::create(const PgtChain &chain) const
{
    if (Status s = refuseWhenReadOnly(tr("add chain '%1'").arg(chain.name)); !s)
        return s.error();
    if (Status s = checkRunAt(chain.runAt); !s)
        return s.error();
    if (Status s = checkTasks(chain); !s)
        return s.error();
    qint64 id = 0;
    const Status created = inTransaction(tr("add chain '%1'").arg(chain.name), [&]() -> Status {
        QSqlQuery q(m_remote->db());
        // chain_name is unique in pg_timetable: said plainly, not as the constraint's error.
        q.prepare(QStringLiteral("SELECT chain_id FROM timetable.chain WHERE chain_name = ?"));
        q.addBindValue(chain.name);
        if (Status s = exec(q, tr("add chain '%1'").arg(chain.name)); !s)
            return s;
        if (q.next())
            return Error::exists(tr("remote '%1' has a chain named '%2' already (chain %3); "
                                    "pg_timetable's chain names are unique: rename one of them")
                                     .arg(m_remote->profile().name, chain.name)
                                     .arg(q.value(0).toLongLong()));
        q.prepare(QStringLiteral(
            "INSERT INTO timetable.chain (chain_name, run_at, max_instances, timeout, live, "
            "self_destruct, exclusive_execution, client_name, on_error) VALUES "
            "(?, ?::timetable.cron, ?, ?, ?, ?, ?, ?, ?) RETURNING chain_id"));
        q.addBindValue(chain.name);
        q.addBindValue(nullableText(chain.runAt));
        q.addBindValue(nullableInt(chain.maxInstances));
        q.addBindValue(chain.timeoutMs);
        q.addBindValue(chain.live);
        q.addBindValue(chain.selfDestruct);
        q.addBindValue(chain.exclusive);
        q.addBindValue(nullableText(chain.clientName));
        q.addBindValue(nullableText(chain.onError));
        if (Status s = exec(q, tr("add chain '%1'").arg(chain.name)); !s)
            return s;
        q.next();
        id = q.value(0).toLongLong();
        return writeTasks(id, chain.tasks, false);
    });
    if (!created)
        return created.error();
    return id;
}

Result<qint64> PgTimetableCatalog::addJob(const PgtChain &settings, const PgtTask &task) const
{
    if (Status s = refuseWhenReadOnly(tr("add job '%1'").arg(settings.name)); !s)
        return s.error();
    if (Status s = checkRunAt(settings.runAt); !s)
        return s.error();
    // Named arguments: 5.0 has no job_on_error, and defaults stay pg_timetable's own.
    QStringList arguments{QStringLiteral("job_name => ?"),
                          QStringLiteral("job_schedule => ?::timetable.cron"),
                          QStringLiteral("job_command => ?"),
                          QStringLiteral("job_kind => ?::timetable.command_kind"),
                          QStringLiteral("job_live => ?"),
                          QStringLiteral("job_self_destruct => ?"),
                          QStringLiteral("job_ignore_errors => ?"),
                          QStringLiteral("job_exclusive => ?")};
    QVariantList values{
        settings.name, nullableText(settings.runAt), task.command,     task.kind,
        settings.live, settings.selfDestruct,        task.ignoreError, settings.exclusive};
    if (!task.parameters.isEmpty()) {
        arguments << QStringLiteral("job_parameters => ?::jsonb");
        values << task.parameters.constFirst();
    }
    if (!settings.clientName.isEmpty()) {
        arguments << QStringLiteral("job_client_name => ?");
        values << settings.clientName;
    }
    if (settings.maxInstances) {
        arguments << QStringLiteral("job_max_instances => ?");
        values << *settings.maxInstances;
    }
    if (!settings.onError.isEmpty()) {
        arguments << QStringLiteral("job_on_error => ?");
        values << settings.onError;
    }
    QSqlQuery q(m_remote->db());
    q.prepare(
        QStringLiteral("SELECT timetable.add_job(%1)").arg(arguments.join(QLatin1String(", "))));
    for (const QVariant &value : std::as_const(values))
        q.addBindValue(value);
    if (Status s = exec(q, tr("add job '%1'").arg(settings.name)); !s)
        return s.error();
    q.next();
    return q.value(0).toLongLong();
}

Status PgTimetableCatalog::deleteJob(const QString &name) const
{
    if (Status s = refuseWhenReadOnly(tr("delete '%1'").arg(name)); !s)
        return s;
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT timetable.delete_job(?)"));
    q.addBindValue(name);
    if (Status s = exec(q, tr("delete job '%1'").arg(name)); !s)
        return s;
    if (!q.next() || !q.value(0).toBool())
        return Error::notFound(
            tr("remote '%1' has no chain '%2'").arg(m_remote->profile().name, name));
    return {};
}

Status PgTimetableCatalog::setLive(const QString &name, bool live) const
{
    if (Status s =
            refuseWhenReadOnly(live ? tr("enable '%1'").arg(name) : tr("disable '%1'").arg(name));
        !s)
        return s;
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("UPDATE timetable.chain SET live = ? WHERE chain_name = ?"));
    q.addBindValue(live);
    q.addBindValue(name);
    if (Status s = exec(q, tr("change chain '%1'").arg(name)); !s)
        return s;
    if (q.numRowsAffected() == 0)
        return Error::notFound(
            tr("remote '%1' has no chain '%2'").arg(m_remote->profile().name, name));
    return {};
}

Status PgTimetableCatalog::start(const QString &name, const QString &worker) const
{
    if (worker.isEmpty())
        return Error::invalid(tr("starting '%1' needs the worker (client name) that should run "
                                 "it; see the active sessions")
                                  .arg(name));
    const Result<qint64> id = chainId(name);
    if (!id)
        return id.error();
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT timetable.notify_chain_start(?, ?)"));
    q.addBindValue(id.value());
    q.addBindValue(worker);
    return exec(q, tr("start chain '%1'").arg(name));
}

Status PgTimetableCatalog::stop(const QString &name, const QString &worker) const
{
    if (worker.isEmpty())
        return Error::invalid(
            tr("stopping '%1' needs the worker (client name) that runs it").arg(name));
    const Result<qint64> id = chainId(name);
    if (!id)
        return id.error();
    QSqlQuery q(m_remote->db());
    q.prepare(QStringLiteral("SELECT timetable.notify_chain_stop(?, ?)"));
    q.addBindValue(id.value());
    q.addBindValue(worker);
    return exec(q, tr("stop chain '%1'").arg(name));
}

Result<QList<PgtSession>> PgTimetableCatalog::sessions() const
{
    QSqlQuery q(m_remote->db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "SELECT s.client_pid, s.server_pid, s.client_name, s.started_at, "
        "COALESCE((SELECT string_agg(COALESCE(c.chain_name, a.chain_id::text), E'\\n' "
        "ORDER BY a.started_at) FROM timetable.active_chain a LEFT JOIN timetable.chain c "
        "USING (chain_id) WHERE a.client_name = s.client_name), '') "
        "FROM timetable.active_session s ORDER BY s.client_name, s.client_pid"));
    if (Status s = exec(q, tr("read the active sessions")); !s)
        return s.error();
    QList<PgtSession> sessions;
    while (q.next()) {
        PgtSession session;
        session.clientPid = q.value(0).toLongLong();
        session.serverPid = q.value(1).toLongLong();
        session.clientName = q.value(2).toString();
        session.startedAt = q.value(3).toDateTime();
        session.activeChains = q.value(4).toString().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        sessions << session;
    }
    return sessions;
}

Result<QList<PgtExecution>> PgTimetableCatalog::executions(const PgtExecutionFilter &filter) const
{
    // 6.x added params; 5.x has none.
    const QString params =
        m_info.major == 5 ? QStringLiteral("NULL::text") : QStringLiteral("e.params");
    // 5.x and 6.x have no index on execution_log: the page is chosen from the bare rows
    // first (a top-N sort), and only its rows are joined and formatted — formatting a
    // million timestamps before sorting tripled the time of a page.
    QString page = QStringLiteral("SELECT * FROM timetable.execution_log e WHERE true");
    QVariantList values;
    if (!filter.chainName.isEmpty()) {
        page += QStringLiteral(
            " AND e.chain_id IN (SELECT chain_id FROM timetable.chain WHERE chain_name = ?)");
        values << filter.chainName;
    }
    if (filter.since.isValid()) {
        page += QStringLiteral(" AND e.last_run >= ?");
        values << filter.since;
    }
    if (filter.failedOnly)
        page += QStringLiteral(" AND e.returncode <> 0");
    if (filter.before) {
        page += QStringLiteral(" AND (e.last_run, e.txid, e.task_id) < (?::timestamptz, ?, ?)");
        values << filter.before->lastRunExact << filter.before->txid << filter.before->taskId;
    }
    const QString order = QStringLiteral(" ORDER BY e.last_run DESC, e.txid DESC, e.task_id DESC");
    page += order + QStringLiteral(" LIMIT ?");
    values << std::max(1, filter.limit);
    const QString sql =
        QStringLiteral("SELECT e.chain_id, COALESCE(c.chain_name, ''), e.task_id, e.txid, "
                       "e.last_run, e.finished, e.pid, e.returncode, COALESCE(e.ignore_error, "
                       "false), COALESCE(e.kind::text, ''), COALESCE(e.command, ''), "
                       "COALESCE(e.output, ''), e.client_name, %1, e.last_run::text FROM (%2) e "
                       "LEFT JOIN timetable.chain c ON c.chain_id = e.chain_id")
            .arg(params, page)
        + order;
    QSqlQuery q(m_remote->db());
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const QVariant &value : std::as_const(values))
        q.addBindValue(value);
    if (Status s = exec(q, tr("read execution_log")); !s)
        return s.error();
    QList<PgtExecution> rows;
    while (q.next()) {
        PgtExecution row;
        row.chainId = q.value(0).toLongLong();
        row.chainName = q.value(1).toString();
        row.taskId = q.value(2).toLongLong();
        row.txid = q.value(3).toLongLong();
        row.lastRun = q.value(4).toDateTime();
        row.finished = q.value(5).toDateTime();
        row.pid = q.value(6).toLongLong();
        if (!q.value(7).isNull())
            row.returnCode = q.value(7).toInt();
        row.ignoreError = q.value(8).toBool();
        row.kind = q.value(9).toString();
        row.command = q.value(10).toString();
        row.output = q.value(11).toString();
        row.clientName = q.value(12).toString();
        row.params = q.value(13).toString();
        row.lastRunExact = q.value(14).toString();
        rows << row;
    }
    return rows;
}

} // namespace hg
