#include "storequery.h"

#include "base/epochtime.h"
#include "integritycheck.h"
#include "sqlitewritefailure.h"
#include "store.h"
#include "storefaulthook.h"

#include <QJsonDocument>
#include <QSqlError>

#include <algorithm>
#include <array>

namespace hg {
namespace {

constexpr std::array writeVerbs{QLatin1StringView("INSERT"), QLatin1StringView("UPDATE"),
                                QLatin1StringView("DELETE"), QLatin1StringView("REPLACE")};

} // namespace

StoreQuery::StoreQuery(const Store &store, const QString &sql)
    : m_store(store)
    , m_sql(sql)
    , m_query(store.takeStatement(sql, &m_prepareError))
{}

StoreQuery::~StoreQuery()
{
    if (m_prepareError.isEmpty() && !m_unexecutedBinds)
        m_store.giveBackStatement(m_sql, std::move(m_query));
}

StoreQuery &StoreQuery::bind(const QVariant &value)
{
    m_unexecutedBinds = true;
    // Qt binds a null QString as SQL NULL; our text columns are NOT NULL with '' for "none".
    if (value.typeId() == QMetaType::QString && value.toString().isNull())
        m_query.addBindValue(QString::fromLatin1(""));
    else
        m_query.addBindValue(value);
    return *this;
}

Status StoreQuery::exec(const QString &whatFor)
{
    if (!m_store.isReachable())
        return Error::unavailable(tr("cannot %1: the store cannot be reached").arg(whatFor));
    // A write outside a transaction (transaction() looks itself) to a deleted file is lost.
    if (!m_store.inTransaction() && !m_sql.startsWith(QLatin1String("SELECT"), Qt::CaseInsensitive))
        if (Status inPlace = m_store.stillInPlace(); !inPlace)
            return Error::storage(tr("cannot %1: %2").arg(whatFor, inPlace.error().message));
    // Even preparing fails in an aborted transaction: nothing is sent until it is rolled back.
    if (m_store.inTransaction() && m_store.isTransactionAborted())
        return Error::unavailable(tr("cannot %1: its transaction is rolled back after: %2")
                                      .arg(whatFor, m_store.transactionAbortedBy()));
    if (m_flushesFirst) {
        if (Status flushed = m_store.flushWriteBehind(); !flushed)
            return Error::unavailable(tr("cannot %1: %2").arg(whatFor, flushed.error().message));
    }
    if (!m_prepareError.isEmpty()) {
        // Preparing is a statement too: it waits for locks (and may time out), and on
        // PostgreSQL its failure aborts the transaction it was sent in.
        const QSqlError error = m_query.lastError();
        if (!error.isValid()) // never sent: the store was away when it was taken
            return Error::unavailable(tr("cannot %1: %2").arg(whatFor, m_prepareError));
        Status failed = failure(whatFor, error);
        if (m_store.backend() == StoreBackend::PostgreSql && m_store.inTransaction())
            m_store.abortTransaction(failed.error().message);
        return failed;
    }
    // Before the binds count as executed: a refused statement is not reused with them.
    if (StoreFaultHook *faults = StoreFaultHook::installed();
        faults && faults->failStatement(m_store, m_sql)) {
        // It takes its transaction with it, as a refusal by the server would: refused, yet
        // committed with the rest, a dispatch pass stored an attempt queued for other engines
        // without its offer, which no engine ever claimed, and its run never ended.
        return abortUnguarded(
            Error::unavailable(tr("cannot %1: %2").arg(whatFor, injectedFault())));
    }
    m_unexecutedBinds = false; // exec() starts binding from the first placeholder again
    m_rowKept = false;
    if (execGuarded())
        return {};
    return abortUnguarded(failure(whatFor, m_query.lastError()));
}

Status StoreQuery::abortUnguarded(Status failed) const
{
    if (!m_savepoint && m_store.backend() == StoreBackend::PostgreSql && m_store.inTransaction())
        m_store.abortTransaction(failed.error().message);
    return failed;
}

Status StoreQuery::failure(const QString &whatFor, const QSqlError &error) const
{
    const QString text =
        (error.databaseText().isEmpty() ? error.driverText() : error.databaseText()).simplified();
    const QString code = error.nativeErrorCode();
    // A server that went away: the caller holds its writes and waits for reconnect(). An
    // error with an SQLSTATE outside connection (08) and shutdown (57P) classes came from a
    // server that answered; probing then would fail inside the aborted transaction anyway.
    const bool serverAnswered = !code.isEmpty() && !code.startsWith(QLatin1String("08"))
                                && !code.startsWith(QLatin1String("57P"));
    if (m_store.backend() == StoreBackend::PostgreSql && !serverAnswered
        && !m_store.checkReachable())
        return Error::unavailable(tr("cannot %1: %2").arg(whatFor, text));
    // A deadlock, a serialization failure, a lock not granted: the server asks for the same
    // work again, so its writer holds it and retries, as after an outage.
    if (m_store.backend() == StoreBackend::PostgreSql
        && (code.startsWith(QLatin1String("40")) || code == QLatin1String("55P03")))
        return Error::unavailable(tr("cannot %1: %2").arg(whatFor, text));
    if (m_store.backend() == StoreBackend::Sqlite) {
        // SQLite refuses to hand out a broken page: the same damage its check would report.
        if (IntegrityCheck::meansDamage(code))
            return Error::damaged(tr("cannot %1: store %2 is damaged (%3)")
                                      .arg(whatFor, m_store.location().displayName(), text));
        if (m_store.isReadOnly())
            return Error::damaged(tr("cannot %1: store %2 is damaged and open read-only")
                                      .arg(whatFor, m_store.location().displayName()));
        // A full disk, an I/O error, a busy file: the engine holds its writes and retries.
        if (SqliteWriteFailure::isTransient(code))
            return Error::unavailable(tr("cannot %1: store %2 cannot be written (%3)")
                                          .arg(whatFor, m_store.location().displayName(), text));
    }
    // SQLite reports constraint failures by text; PostgreSQL by SQLSTATE.
    if (code == QLatin1String("23505") || text.contains(QLatin1String("UNIQUE constraint")))
        return Error::exists(tr("cannot %1: already exists (%2)").arg(whatFor, text));
    if (code == QLatin1String("23503") || text.contains(QLatin1String("FOREIGN KEY constraint")))
        return Error::invalid(
            tr("cannot %1: it is still referenced or refers to something missing (%2)")
                .arg(whatFor, text));
    if (code == QLatin1String("23514") || text.contains(QLatin1String("CHECK constraint")))
        return Error::invalid(tr("cannot %1: a value is out of range (%2)").arg(whatFor, text));
    return Error::storage(tr("cannot %1: %2").arg(whatFor, text));
}

bool StoreQuery::execGuarded()
{
    // A failed statement aborts a PostgreSQL transaction: nothing after it works, not even
    // freeing prepared statements. A savepoint per statement keeps the transaction usable so
    // the caller can report the error (or try something else) and roll back cleanly. They
    // cost two round trips of an engine's ~12 per run; without them, one failed statement in a
    // transaction the engine shares between many runs (a log line for an attempt whose row a
    // refused commit took back) failed all of it, and runs were left unended in a fault test.
    if (m_store.backend() != StoreBackend::PostgreSql || !m_store.inTransaction() || !m_savepoint)
        return m_query.exec();
    QSqlQuery savepoint(m_store.database());
    savepoint.exec(QStringLiteral("SAVEPOINT hg_statement"));
    const bool ok = m_query.exec();
    savepoint.exec(ok ? QStringLiteral("RELEASE SAVEPOINT hg_statement")
                      : QStringLiteral("ROLLBACK TO SAVEPOINT hg_statement"));
    return ok;
}

Status StoreQuery::execSingle(const QString &whatFor, const QString &notFoundMessage)
{
    if (Status status = exec(whatFor); !status)
        return status;
    if (!m_query.next()) {
        if (m_query.lastError().isValid())
            return failure(whatFor, m_query.lastError());
        return Error::notFound(notFoundMessage);
    }
    const QStringView start = QStringView(m_sql).trimmed();
    const bool writes = std::any_of(writeVerbs.cbegin(), writeVerbs.cend(), [start](auto verb) {
        return start.startsWith(verb, Qt::CaseInsensitive);
    });
    if (writes && m_store.backend() == StoreBackend::Sqlite && !m_store.inTransaction()) {
        // Autocommit: the commit happens at the statement's end, and a full disk fails it.
        m_row = m_query.record();
        m_rowKept = true;
        while (m_query.next()) {
        }
        if (m_query.lastError().isValid())
            return failure(whatFor, m_query.lastError());
    }
    return {};
}

QString StoreQuery::injectedFault()
{
    return QStringLiteral("fault injected by a test");
}

QDateTime StoreQuery::time(int column) const
{
    const QVariant value = at(column);
    if (value.isNull())
        return {};
    return utcFromMs(value.toLongLong());
}

QJsonObject StoreQuery::object(int column) const
{
    const QString text = at(column).toString();
    if (text.size() <= 2) // '{}' or '': most rows, and parsing costs more than the rest of one
        return {};
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

QJsonArray StoreQuery::array(int column) const
{
    const QString text = at(column).toString();
    if (text.size() <= 2)
        return {};
    return QJsonDocument::fromJson(text.toUtf8()).array();
}

QVariant StoreQuery::fromTime(const QDateTime &time)
{
    return time.isValid() ? QVariant(time.toMSecsSinceEpoch())
                          : QVariant(QMetaType::fromType<qint64>());
}

QVariant StoreQuery::fromId(qint64 id)
{
    return id > 0 ? QVariant(id) : QVariant(QMetaType::fromType<qint64>());
}

QString StoreQuery::fromJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString StoreQuery::fromJson(const QJsonArray &array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QString StoreQuery::fromIds(const QList<qint64> &ids)
{
    return QLatin1Char('{') + idList(ids) + QLatin1Char('}');
}

QString StoreQuery::idList(const QList<qint64> &ids)
{
    QStringList texts;
    texts.reserve(ids.size());
    for (qint64 id : ids)
        texts << QString::number(id);
    return texts.join(QLatin1Char(','));
}

} // namespace hg
