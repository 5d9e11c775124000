#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

namespace hg {

class Store;

// A prepared statement on one store whose failures come back as Error values: unique and
// foreign-key violations become AlreadyExists / Invalid, everything else Storage.
class StoreQuery final
{
    Q_DECLARE_TR_FUNCTIONS(hg::StoreQuery)

public:
    StoreQuery(const Store &store, const QString &sql);
    ~StoreQuery();
    Q_DISABLE_COPY_MOVE(StoreQuery)

    StoreQuery &bind(const QVariant &value);
    // For the engine's hot statements: no savepoint of its own inside a PostgreSQL
    // transaction (one costs two round trips and a subtransaction, and past 64 of them in one
    // transaction every snapshot on the server gets slower). Should it fail, the transaction
    // is aborted and rolled back at its end (Store::isTransactionAborted()); the statements
    // after it fail as Unavailable, so their writers hold them and write them again.
    StoreQuery &withoutSavepoint()
    {
        m_savepoint = false;
        return *this;
    }
    // Sent without first writing what a writer keeps back until then (Store::setWriteBehind()):
    // for statements that neither read nor change what those writes touch, and for theirs.
    StoreQuery &leavesWriteBehind()
    {
        m_flushesFirst = false;
        return *this;
    }
    Status exec(const QString &whatFor);
    // exec() and move to the single expected row; NotFound with the message when absent.
    Status execSingle(const QString &whatFor, const QString &notFoundMessage);

    bool next() { return m_query.next(); }
    QVariant value(int column) const { return at(column); }
    qint64 int64(int column) const { return at(column).toLongLong(); }
    int integer(int column) const { return at(column).toInt(); }
    bool boolean(int column) const { return at(column).toBool(); }
    QString text(int column) const { return at(column).toString(); }
    QDateTime time(int column) const;
    QJsonObject object(int column) const;
    QJsonArray array(int column) const;
    int rowsAffected() const { return m_query.numRowsAffected(); }

    // Binding helpers: invalid times and zero ids become SQL NULL.
    static QVariant fromTime(const QDateTime &time);
    static QVariant fromId(qint64 id);
    static QString fromJson(const QJsonObject &object);
    static QString fromJson(const QJsonArray &array);
    // A PostgreSQL array literal, bound as text for "CAST(? AS bigint[])".
    static QString fromIds(const QList<qint64> &ids);
    // Ids spelled into a statement, "1,2,3" for "id IN (…)": numbers, so nothing to escape, and
    // alike on both backends.
    static QString idList(const QList<qint64> &ids);
    // The reason a StoreFaultHook's refusal gives (tests look for it in logs).
    static QString injectedFault();

private:
    bool execGuarded();
    // A failure without a savepoint of its own in a PostgreSQL transaction aborts it
    // (withoutSavepoint()); returns the failure.
    Status abortUnguarded(Status failed) const;
    // The statement's failure as an Error: what it means for the caller (see exec()).
    Status failure(const QString &whatFor, const QSqlError &error) const;
    QVariant at(int column) const
    {
        return m_rowKept ? m_row.value(column) : m_query.value(column);
    }

    const Store &m_store;
    QString m_sql;
    QString m_prepareError; // before m_query: its initializer fills this
    QSqlQuery m_query;
    bool m_savepoint = true;
    bool m_flushesFirst = true;
    bool m_unexecutedBinds = false; // Qt has no public way to clear them: don't reuse then
    // A SQLite write with RETURNING outside a transaction commits only when stepped to its
    // end; its row is kept here while it is, so a failed commit is seen, not lost.
    QSqlRecord m_row;
    bool m_rowKept = false;
};

} // namespace hg
