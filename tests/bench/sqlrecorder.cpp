#include "sqlrecorder.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <libpq-fe.h>
#include <optional>
#include <sqlite3.h>
#include <utility>
#include <vector>

namespace hg::bench {
namespace {

std::atomic<SqlRecorder *> recording{nullptr};
QMutex statementsLock;

// Transaction control and settings are no reads a replay may repeat on its own.
bool isRead(const QString &sql)
{
    static const QRegularExpression control(
        QStringLiteral("^\\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression setting(QStringLiteral("^\\s*PRAGMA\\b[^=]*="),
                                            QRegularExpression::CaseInsensitiveOption);
    return !control.match(sql).hasMatch() && !setting.match(sql).hasMatch();
}

int traced(unsigned type, void *, void *statement, void *text)
{
    SqlRecorder *recorder = recording.load();
    const auto *sql = static_cast<const char *>(text);
    // A trigger's program announces itself as a comment: its statement is already recorded.
    if (type != SQLITE_TRACE_STMT || !recorder || (sql && qstrncmp(sql, "--", 2) == 0))
        return 0;
    auto *stmt = static_cast<sqlite3_stmt *>(statement);
    char *expanded = sqlite3_expanded_sql(stmt);
    RecordedStatement recorded;
    recorded.file = QString::fromUtf8(sqlite3_db_filename(sqlite3_db_handle(stmt), "main"));
    recorded.sql = QString::fromUtf8(expanded ? expanded : sqlite3_sql(stmt));
    recorded.reads = sqlite3_stmt_readonly(stmt) != 0 && isRead(recorded.sql);
    sqlite3_free(expanded);
    recorder->add(std::move(recorded));
    return 0;
}

int traceConnection(sqlite3 *db, const char **, const sqlite3_api_routines *)
{
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, &traced, nullptr);
    return SQLITE_OK;
}

// Statements a replay keeps prepared; past this (a start-up reading row by row) it prepares each
// as it runs it.
constexpr qsizetype maxPrepared = 4096;

qint64 sizeOf(const QVariant &value)
{
    if (value.typeId() == QMetaType::QString)
        return 2 * value.toString().size();
    if (value.typeId() == QMetaType::QByteArray)
        return value.toByteArray().size();
    return value.isNull() ? 0 : 8;
}

template<typename Handle>
Handle *handleOf(const QSqlDatabase &db, const char *typeName)
{
    const QVariant handle = db.driver()->handle();
    if (qstrcmp(handle.typeName(), typeName) != 0)
        return nullptr;
    return *static_cast<Handle *const *>(handle.constData());
}

} // namespace

SqlRecorder::SqlRecorder()
{
    // Every SQLite connection opened from now on (Qt's driver uses this libsqlite3) is traced;
    // the callback returns at once while nothing records.
    static const bool installed = [] {
        sqlite3_auto_extension(reinterpret_cast<void (*)()>(&traceConnection));
        return true;
    }();
    Q_UNUSED(installed)
}

SqlRecorder::~SqlRecorder()
{
    SqlRecorder *self = this;
    recording.compare_exchange_strong(self, nullptr);
    if (m_postgres)
        PQuntrace(m_postgres);
    if (m_trace)
        std::fclose(m_trace);
}

void SqlRecorder::attach(const QSqlDatabase &db)
{
    if (sqlite3 *connection = handleOf<sqlite3>(db, "sqlite3*")) {
        traceConnection(connection, nullptr, nullptr);
        return;
    }
    // Qt's driver names the type as the compiler spells it.
    m_postgres = handleOf<PGconn>(db, "pg_conn*");
    if (!m_postgres)
        m_postgres = handleOf<PGconn>(db, "PGconn*");
    if (!m_postgres)
        qFatal("SqlRecorder: %s's handle (%s) is neither SQLite's nor libpq's",
               qPrintable(db.driverName()), db.driver()->handle().typeName());
}

void SqlRecorder::start()
{
    {
        QMutexLocker locked(&statementsLock);
        m_statements.clear();
    }
    if (m_postgres) {
        m_trace = std::tmpfile();
        if (!m_trace)
            qFatal("SqlRecorder: no temporary file for the trace");
        PQtrace(m_postgres, m_trace);
        PQsetTraceFlags(m_postgres, PQTRACE_SUPPRESS_TIMESTAMPS);
    }
    SqlRecorder *none = nullptr;
    if (!recording.compare_exchange_strong(none, this))
        qFatal("SqlRecorder: another recorder is recording");
}

QList<RecordedStatement> SqlRecorder::stop()
{
    recording.store(nullptr);
    if (m_postgres) {
        PQuntrace(m_postgres);
        const QList<RecordedStatement> sent = readPostgresTrace();
        QMutexLocker locked(&statementsLock);
        m_statements += sent;
    }
    QMutexLocker locked(&statementsLock);
    return std::exchange(m_statements, {});
}

void SqlRecorder::add(RecordedStatement statement)
{
    QMutexLocker locked(&statementsLock);
    m_statements << std::move(statement);
}

// PQtrace writes one message a line ("F\t<length>\tQuery\t \"<text>\""); a query's text may
// run over lines. Qt's driver prepares with PREPARE and runs with EXECUTE: a replay sends both
// under a name of its own, so it never meets a statement the driver still holds.
QList<RecordedStatement> SqlRecorder::readPostgresTrace()
{
    std::fflush(m_trace);
    std::rewind(m_trace);
    QByteArray text;
    char buffer[65536];
    for (size_t read; (read = std::fread(buffer, 1, sizeof buffer, m_trace)) > 0;)
        text.append(buffer, qsizetype(read));
    std::fclose(m_trace);
    m_trace = nullptr;

    static const QRegularExpression message(QStringLiteral("^[FB]\\t\\d+\\t"),
                                            QRegularExpression::MultilineOption);
    static const QRegularExpression query(QStringLiteral("^F\\t\\d+\\tQuery\\t \"(.*)\"\\s*$"),
                                          QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression prepare(QStringLiteral("^PREPARE\\s+(\\S+)\\s+AS\\s+(\\S+)"),
                                            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression named(QStringLiteral("^(EXECUTE|DEALLOCATE)\\s+(\\w+)"),
                                          QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression select(QStringLiteral("^\\s*(SELECT|WITH|SHOW|VALUES)\\b"),
                                           QRegularExpression::CaseInsensitiveOption);
    const QString all = QString::fromUtf8(text);
    QList<qsizetype> starts;
    for (auto it = message.globalMatch(all); it.hasNext();)
        starts << it.next().capturedStart();
    starts << all.size();
    QHash<QString, bool> preparedReads;
    QList<RecordedStatement> sent;
    for (qsizetype i = 0; i + 1 < starts.size(); ++i) {
        const QRegularExpressionMatch q =
            query.match(all.mid(starts.at(i), starts.at(i + 1) - starts.at(i)));
        if (!q.hasMatch())
            continue;
        RecordedStatement statement;
        statement.sql = q.captured(1);
        if (const auto p = prepare.match(statement.sql); p.hasMatch()) {
            statement.reads = select.match(p.captured(2)).hasMatch();
            preparedReads.insert(p.captured(1), statement.reads);
        } else if (const auto n = named.match(statement.sql); n.hasMatch()) {
            statement.reads = preparedReads.value(n.captured(2), false); // prepared before: left
        } else {
            statement.reads = select.match(statement.sql).hasMatch();
        }
        statement.sql.replace(QLatin1String("qpsqlpstmt_"), QLatin1String("hgbare_"));
        sent << statement;
    }
    return sent;
}

Replayed replay(const QList<RecordedStatement> &statements, int repeats, const QSqlDatabase &on)
{
    static int connections = 0;
    QHash<QString, QString> connectionOf; // file -> connection name
    QList<std::pair<QSqlDatabase, QString>> reads;
    for (const RecordedStatement &statement : statements) {
        if (!statement.reads)
            continue;
        if (on.isValid()) {
            reads << std::pair(on, statement.sql);
            continue;
        }
        if (statement.file.isEmpty())
            continue; // a temporary or in-memory database: nothing to open again
        if (!connectionOf.contains(statement.file)) {
            const QString name = QStringLiteral("bench-bare-%1").arg(++connections);
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(statement.file);
            if (!db.open())
                qFatal("replay: cannot open %s: %s", qPrintable(statement.file),
                       qPrintable(db.lastError().text()));
            connectionOf.insert(statement.file, name);
        }
        reads << std::pair(QSqlDatabase::database(connectionOf.value(statement.file), false),
                           statement.sql);
    }
    Replayed replayed;
    replayed.statements = reads.size();
    {
        // SQLite: each text prepared once before the clock starts, as the store keeps its
        // prepared statements; a server's PREPARE and EXECUTE are replayed as they were sent.
        std::vector<QSqlQuery> prepared;
        prepared.reserve(size_t(std::min<qsizetype>(reads.size(), maxPrepared)));
        QHash<QString, size_t> preparedIndex;
        for (const auto &[db, sql] : std::as_const(reads)) {
            if (db.driverName() != QLatin1String("QSQLITE") || preparedIndex.contains(sql)
                || prepared.size() >= size_t(maxPrepared))
                continue;
            QSqlQuery q(db);
            q.setForwardOnly(true);
            if (!q.prepare(sql))
                qFatal("replay: %s: %s", qPrintable(sql.left(300)),
                       qPrintable(q.lastError().text()));
            preparedIndex.insert(sql, prepared.size());
            prepared.push_back(std::move(q));
        }
        QList<double> passes;
        for (int pass = 0; pass < std::max(1, repeats); ++pass) {
            qint64 rows = 0;
            qint64 bytes = 0;
            QElapsedTimer timer;
            timer.start();
            for (const auto &[db, sql] : std::as_const(reads)) {
                const auto index = preparedIndex.constFind(sql);
                std::optional<QSqlQuery> adhoc;
                if (index == preparedIndex.constEnd())
                    adhoc.emplace(db);
                QSqlQuery &q = adhoc ? *adhoc : prepared[*index];
                q.setForwardOnly(true);
                if (!(adhoc ? q.exec(sql) : q.exec()))
                    qFatal("replay: %s: %s", qPrintable(sql.left(300)),
                           qPrintable(q.lastError().text()));
                const int columns = q.record().count();
                while (q.next()) {
                    ++rows;
                    for (int column = 0; column < columns; ++column)
                        bytes += sizeOf(q.value(column));
                }
                q.finish();
            }
            passes << double(timer.nsecsElapsed()) / 1e6;
            replayed.rows = rows;
            replayed.bytes = bytes;
        }
        std::sort(passes.begin(), passes.end());
        replayed.ms = passes.at(passes.size() / 2);
        replayed.fastestMs = passes.constFirst();
    }
    reads.clear();
    for (const QString &name : std::as_const(connectionOf)) {
        QSqlDatabase::database(name, false).close();
        QSqlDatabase::removeDatabase(name);
    }
    return replayed;
}

} // namespace hg::bench
