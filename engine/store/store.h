#pragma once

#include "base/result.h"
#include "sqlitefileidentity.h"
#include "storelocation.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <functional>
#include <memory>

namespace hg {

// One open connection to the store, owned by the thread that opened it (Qt Sql connections
// are per thread). The repositories are thin views over it.
class Store final
{
    Q_DECLARE_TR_FUNCTIONS(hg::Store)

public:
    // Migrate: an older schema is brought up to date. ExistingSchemaOnly: refused instead.
    // AsIs: any schema up to ours is read as it is and the file is not changed at all (a
    // backup of a store that a newer engine has not migrated yet).
    enum class OpenMode { Migrate, ExistingSchemaOnly, AsIs };

    struct Options
    {
        OpenMode mode = OpenMode::Migrate;
        // Every SQLite open runs quick_check before anything reads or writes the file (see
        // checkSqlite() for why and what it costs). A file that fails it is refused
        // (ErrorKind::Damaged) unless this is set: then it opens read-only, unmigrated, with
        // damage() saying what is wrong.
        bool readOnlyWhenDamaged = false;
        // This process checked the file when it opened its first connection: a second one (a
        // reader thread's, see StoreReader) need not read the whole file again.
        bool alreadyChecked = false;
    };

    // The newest schema version this binary knows: a store beyond it is refused untouched.
    static int knownSchemaVersion(StoreBackend backend);

    static Result<std::unique_ptr<Store>> open(const StoreLocation &location,
                                               const QString &purpose, const Options &options);
    static Result<std::unique_ptr<Store>> open(const StoreLocation &location,
                                               const QString &purpose)
    {
        return open(location, purpose, Options{});
    }
    ~Store();
    Q_DISABLE_COPY_MOVE(Store)

    QSqlDatabase database() const;
    StoreBackend backend() const { return m_location.backend(); }
    const StoreLocation &location() const { return m_location; }
    int schemaVersion() const { return m_schemaVersion; }
    // What SQLite's check found wrong with the file (one line), empty when it is sound. A
    // damaged store is read-only: every write is refused with ErrorKind::Damaged.
    QString damage() const { return m_damage; }
    bool isReadOnly() const { return !m_damage.isEmpty(); }

    // Runs work inside one transaction: committed when it returns ok, rolled back otherwise.
    // Nested calls join the outer transaction.
    Status transaction(const std::function<Status()> &work);
    bool inTransaction() const { return m_transactionDepth > 0; }
    // SQLite: the file this connection opened is still at its path. Deleted (or replaced by
    // another file), writes would go to a file nobody will open again, silently lost.
    Status stillInPlace() const;
    // SQLite: "device:inode" of the file as opened (empty on PostgreSQL).
    QString fileIdentity() const { return m_files.text(); }
    // Refuses `path` as a file to write an export or a copy to when it is this store's file
    // or one of its companions (-wal, -shm, -journal), by any name or link: `export --output`
    // onto the store once replaced the database with its own JSON.
    Status refuseAsTarget(const QString &path) const;
    // Which outermost transaction is open (or was last): grows with every one begun.
    quint64 transactionSerial() const { return m_transactionSerial; }
    // A statement without a savepoint of its own failed in the open transaction
    // (StoreQuery::withoutSavepoint()): on PostgreSQL nothing more can run in it, so the
    // statements after it fail at once and it is rolled back at its end. True from then until
    // the next transaction is begun, so a transaction observer can tell it.
    bool isTransactionAborted() const { return !m_abortedBy.isEmpty(); }
    QString transactionAbortedBy() const { return m_abortedBy; }
    void abortTransaction(const QString &why) const;

    // Prepared statements are kept per SQL text and reused: preparing costs more than running
    // most of our statements. A statement taken is out of the pool until given back, so a
    // nested use of the same SQL gets its own. Empty error: prepared.
    QSqlQuery takeStatement(const QString &sql, QString *error) const;
    // The pool is bounded in texts too: statements with ids written in (RunRepository::byIds)
    // differ each time, and kept, each would hold its plan (on the server, or in this process
    // for SQLite) for the connection's lifetime.
    static constexpr qsizetype maxPooledTexts = 256;
    qsizetype pooledTexts() const { return m_statements.size(); }

    // A PostgreSQL server can go away (a restart, a network cut). A failed statement asks
    // checkReachable(), which probes the connection; while unreachable every statement fails
    // at once with ErrorKind::Unavailable, without touching the dead connection, until
    // reconnect() succeeds. SQLite is always reachable.
    //
    // Outside the engine (the GUI, the command line) the store reconnects by itself: at the
    // next statement after an outage, at most every two seconds. The engine turns that off:
    // it must check its lease before it writes again, so it calls reconnect() itself.
    bool isReachable() const { return !m_unreachable || reviveIfDue(); }
    bool checkReachable() const;
    Status reconnect();
    void setReconnectsItself(bool on) { m_reconnectsItself = on; }

    // PostgreSQL LISTEN: the handler gets each notification's payload on this thread's event
    // loop, again after a reconnect. False where the store cannot notify (SQLite).
    bool listen(const QString &channel, std::function<void(const QString &payload)> handler);
    // Told at the end of every outermost transaction whether it committed: a writer that
    // keeps what it wrote in memory (RunRecorder) writes it again when it did not.
    void setTransactionObserver(std::function<void(bool committed)> observer)
    {
        m_transactionObserver = std::move(observer);
    }
    void giveBackStatement(const QString &sql, QSqlQuery statement) const;
    // A writer that keeps its writes back within a transaction, to send many as one statement
    // (RunRecorder): flush is called before any other statement in it (except those marked
    // StoreQuery::leavesWriteBehind()) and before its commit, so nothing reads past them. A
    // failed flush fails that statement, or rolls the transaction back.
    void setWriteBehind(std::function<Status()> flush) { m_writeBehind = std::move(flush); }
    Status flushWriteBehind() const;

private:
    Store(StoreLocation location, QString connectionName);
    Status openSqlite();
    Status openPostgreSql();
    Status configureSqliteJournal();
    // quick_check; on damage the connection becomes read-only (or the open is refused).
    Status checkSqlite(const Options &options);
    Status beginTransaction();

    StoreLocation m_location;
    QString m_connectionName;
    QSqlDatabase m_database; // cached handle: QSqlDatabase::database() takes a global lock
    mutable QHash<QString, QList<QSqlQuery>> m_statements;
    int m_schemaVersion = 0;
    QString m_damage;
    int m_transactionDepth = 0;
    SqliteFileIdentity m_files; // SQLite: the files opened (stillInPlace)
    quint64 m_transactionSerial = 0;
    mutable QString m_abortedBy; // the failure that aborted the open transaction
    bool reviveIfDue() const;

    mutable bool m_unreachable = false;
    bool m_reconnectsItself = true;
    mutable qint64 m_lastReviveMs = 0;
    std::function<void(bool committed)> m_transactionObserver;
    std::function<Status()> m_writeBehind;
    mutable bool m_flushingWriteBehind = false;
    QString m_channel;
    std::function<void(const QString &payload)> m_notificationHandler;
    bool subscribe();
};

} // namespace hg
