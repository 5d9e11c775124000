#include "sqlexecutor.h"

#include "base/waitingworkpool.h"
#include "sqlscript.h"
#include "store/postgresnotices.h"

#include <QAtomicInteger>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <mutex>
#include <sqlite3.h>

namespace hg {

struct SqlExecutor::Control
{
    std::mutex mutex;
    std::function<void()> cancel; // set while a statement runs
    bool cancelRequested = false;

    void requestCancel()
    {
        const std::lock_guard lock(mutex);
        cancelRequested = true;
        if (cancel)
            cancel();
    }
};

namespace {

QAtomicInteger<quint64> sqlConnectionCounter;

QString nextConnectionName()
{
    return QStringLiteral("hourglass-sql-%1").arg(++sqlConnectionCounter);
}

// Runs `statement` on a short-lived second connection to the same server (to cancel the
// first one's statement).
void runOnSecondConnection(const SqlTarget &target, const QString &statement, qint64 id)
{
    const QString name = nextConnectionName();
    {
        Result<QSqlDatabase> db = target.open(name);
        if (db) {
            QSqlQuery query(db.value());
            query.exec(statement.arg(id));
            db->close();
        }
    }
    QSqlDatabase::removeDatabase(name);
}

// How to cancel what runs on `db` from another thread.
std::function<void()> cancellerFor(QSqlDatabase &db, const SqlTarget &target)
{
    if (target.driver == QLatin1String("QSQLITE")) {
        const QVariant handle = db.driver()->handle();
        if (qstrcmp(handle.typeName(), "sqlite3*") != 0)
            return {};
        sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData());
        return [connection] {
            sqlite3_interrupt(connection);
        }; // made for other threads
    }
    const bool postgres = target.driver == QLatin1String("QPSQL");
    QSqlQuery idQuery(db);
    if (!idQuery.exec(postgres ? QStringLiteral("SELECT pg_backend_pid()")
                               : QStringLiteral("SELECT CONNECTION_ID()"))
        || !idQuery.next())
        return {};
    const qint64 id = idQuery.value(0).toLongLong();
    const QString statement =
        postgres ? QStringLiteral("SELECT pg_cancel_backend(%1)") : QStringLiteral("KILL QUERY %1");
    return [target, statement, id] {
        runOnSecondConnection(target, statement, id);
    };
}

void collectOutput(QSqlQuery &query, QStringList &lines)
{
    if (!query.isSelect()) {
        lines << QStringLiteral("%1 rows affected").arg(query.numRowsAffected());
        return;
    }
    const QSqlRecord record = query.record();
    QStringList header;
    for (int i = 0; i < record.count(); ++i)
        header << record.fieldName(i);
    lines << header.join(QLatin1Char('\t'));
    qint64 rows = 0;
    while (query.next()) {
        if (++rows > SqlExecutor::maxLoggedRows)
            continue; // still counted
        QStringList values;
        for (int i = 0; i < record.count(); ++i)
            values << (query.isNull(i) ? QStringLiteral("NULL") : query.value(i).toString());
        lines << values.join(QLatin1Char('\t'));
    }
    if (rows > SqlExecutor::maxLoggedRows)
        lines << QStringLiteral("[%1 more rows not logged]").arg(rows - SqlExecutor::maxLoggedRows);
    lines << QStringLiteral("(%1 rows)").arg(rows);
}

// One statement of the script, its output appended.
bool executeOne(QSqlDatabase &db, const QString &statement, const QStringList &parameters,
                QStringList &lines, QString &error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    bool ok = false;
    if (parameters.isEmpty()) {
        ok = query.exec(statement);
    } else {
        ok = query.prepare(statement);
        for (const QString &parameter : parameters)
            query.addBindValue(parameter);
        ok = ok && query.exec();
    }
    if (ok)
        collectOutput(query, lines);
    else
        error = query.lastError().text().simplified();
    query.finish();
    return ok;
}

// The rule for every backend: the statements run one by one in one transaction, committed
// when all succeeded, rolled back at the first failure (pgAgent and pg_timetable steps are
// scripts too). Parameters bind to a script of one statement only. MySQL and MariaDB commit
// DDL at once whatever the transaction: there the transaction begins anew after each such
// statement, and a failure says what was committed already.
void execute(QSqlDatabase &db, const SqlTarget &target, const QString &sql,
             const QStringList &parameters, SqlExecutor::Outcome &outcome)
{
    const QStringList statements = sqlscript::split(sql);
    if (statements.isEmpty()) {
        outcome.error = QStringLiteral("the SQL text holds no statement");
        return;
    }
    for (qsizetype i = 0; i < statements.size(); ++i) {
        if (const QString verb = sqlscript::transactionControl(statements.at(i)); !verb.isEmpty()) {
            outcome.error = QStringLiteral("statement %1 (%2) would end or begin the transaction "
                                           "the script runs in: a SQL task runs all its "
                                           "statements in one transaction, all or nothing; "
                                           "leave out BEGIN, COMMIT, END and ROLLBACK "
                                           "(nothing was run)")
                                .arg(i + 1)
                                .arg(verb);
            return;
        }
    }
    if (!parameters.isEmpty() && statements.size() > 1) {
        outcome.error = QStringLiteral("parameters bind to a single statement; this text holds "
                                       "%1 (make them separate tasks, or use no parameters)")
                            .arg(statements.size());
        return;
    }
    const bool mysql = target.driver == QLatin1String("QMYSQL");
    bool transactional = db.transaction();
    qsizetype committedThrough = -1; // the last statement MySQL committed by itself
    for (qsizetype i = 0; i < statements.size(); ++i) {
        QString error;
        if (!executeOne(db, statements.at(i), parameters, outcome.lines, error)) {
            outcome.error = statements.size() == 1 ? error
                                                   : QStringLiteral("statement %1 of %2 failed: %3")
                                                         .arg(i + 1)
                                                         .arg(statements.size())
                                                         .arg(error);
            if (transactional)
                db.rollback();
            if (committedThrough >= 0)
                outcome.error += QStringLiteral("; statements 1 to %1 were committed already "
                                                "(MySQL and MariaDB commit DDL at once); the "
                                                "rest was rolled back")
                                     .arg(committedThrough + 1);
            return;
        }
        if (mysql && statements.size() > 1
            && sqlscript::commitsImplicitlyOnMySql(statements.at(i))) {
            committedThrough = i;
            if (transactional)
                db.commit(); // already done by the server; ends Qt's transaction too
            transactional = db.transaction();
        }
    }
    if (transactional && !db.commit())
        outcome.error = QStringLiteral("commit failed: %1").arg(db.lastError().text());
}

SqlExecutor::Outcome runSql(const SqlTarget &target, const QString &sql,
                            const QStringList &parameters,
                            const std::shared_ptr<SqlExecutor::Control> &control)
{
    SqlExecutor::Outcome outcome;
    const QString name = nextConnectionName();
    {
        Result<QSqlDatabase> opened = target.open(name);
        if (!opened) {
            outcome.error = opened.error().message;
        } else {
            QSqlDatabase db = opened.value();
            bool cancelled = false;
            {
                const std::lock_guard lock(control->mutex);
                control->cancel = cancellerFor(db, target);
                cancelled = control->cancelRequested;
            }
            // PostgreSQL's notices (RAISE NOTICE) are the task's output, in their place.
            postgresnotices::appendTo(db, &outcome.lines);
            if (!cancelled)
                execute(db, target, sql, parameters, outcome);
            {
                const std::lock_guard lock(control->mutex);
                control->cancel = nullptr; // the connection goes: nothing left to cancel
            }
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return outcome;
}

} // namespace

SqlExecutor::SqlExecutor(SqlTarget target, QString sql, QStringList parameters, qint64 timeoutMs,
                         QObject *parent)
    : TaskExecutor(parent)
    , m_target(std::move(target))
    , m_sql(std::move(sql))
    , m_parameters(std::move(parameters))
    , m_timeoutMs(timeoutMs)
    , m_control(std::make_shared<Control>())
{
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        m_timeout.stop();
        const Outcome outcome = m_watcher.result();
        for (const QString &line : outcome.lines)
            emitText(LogStream::Stdout, line);
        if (m_stopReason) {
            deliverOutcome(
                TaskOutcome{*m_stopReason, std::nullopt,
                            *m_stopReason == RunState::TimedOut
                                ? QStringLiteral("timed out; the statement was cancelled")
                                : QStringLiteral("stopped; the statement was cancelled")});
        } else if (!outcome.error.isEmpty()) {
            deliverOutcome(
                TaskOutcome{RunState::Failed, std::nullopt,
                            QStringLiteral("%1: %2").arg(m_target.displayName, outcome.error)});
        } else {
            deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
        }
    });
}

SqlExecutor::~SqlExecutor()
{
    if (m_watcher.isRunning()) {
        m_watcher.disconnect(this);
        m_control->requestCancel();
        m_watcher.waitForFinished(); // its connection closes before the engine goes on
    }
}

void SqlExecutor::start()
{
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
    m_watcher.setFuture(
        QtConcurrent::run(waitingWorkPool(), runSql, m_target, m_sql, m_parameters, m_control));
}

void SqlExecutor::stop(RunState reason)
{
    if (outcomeDelivered() || m_stopReason)
        return;
    m_stopReason = reason;
    m_timeout.stop();
    if (!m_watcher.isRunning()) {
        deliverOutcome(TaskOutcome{reason, std::nullopt, QStringLiteral("stopped")});
        return;
    }
    // Cancelling may open a second connection: not on the engine's thread.
    (void)QtConcurrent::run(waitingWorkPool(), [control = m_control] { control->requestCancel(); });
}

} // namespace hg
