#include "store.h"

#include "integritycheck.h"
#include "migrator.h"
#include "postgresnotices.h"
#include "sqlitewritefailure.h"
#include "sqltarget.h"
#include "storefaulthook.h"
#include "storepermissions.h"
#include "storequery.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

#include <sqlite3.h>
#include <sys/stat.h>

namespace hg {
namespace {

QAtomicInteger<quint64> connectionCounter;

constexpr QFileDevice::Permissions ownerOnlyFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions ownerOnlyDir = ownerOnlyFile | QFileDevice::ExeOwner;

Status execPragma(const QSqlDatabase &db, const QString &pragma)
{
    QSqlQuery query(db);
    if (!query.exec(pragma))
        return Error::storage(
            QCoreApplication::translate("hg::Store", "cannot configure store (%1): %2")
                .arg(pragma, query.lastError().text()));
    return {};
}

// A PostgreSQL session as the store wants it. No statement waits more than 10 s for a lock:
// one blocked behind another session's lock (an administrator's open transaction, a long
// DDL) holds the engine's thread inside libpq, deaf even to SIGTERM; failed with
// lock_not_available instead, the write is held and tried again (StoreQuery::failure).
Status configurePostgreSql(const QSqlDatabase &db)
{
    postgresnotices::routeThroughQt(db);
    if (const Status quiet = execPragma(db, QStringLiteral("SET client_min_messages = WARNING"));
        !quiet)
        return quiet;
    return execPragma(db, QStringLiteral("SET lock_timeout = '10s'"));
}

} // namespace

int Store::knownSchemaVersion(StoreBackend backend)
{
    return Migrator::latestVersion(backend);
}

Store::Store(StoreLocation location, QString connectionName)
    : m_location(std::move(location))
    , m_connectionName(std::move(connectionName))
{}

Store::~Store()
{
    m_statements.clear(); // statements must go before their connection
    const bool gone = m_files.isRecorded() && !m_files.inPlace();
    // Moved away, not deleted: its last transactions still in the log go into it (SQLite does
    // not checkpoint a moved database on close). Deleted: they go into the unlinked file.
    if (gone && m_database.isOpen())
        (void)QSqlQuery(m_database).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    if (m_database.isOpen())
        m_database.close();
    m_database = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
    if (gone)
        m_files.dropLeftovers();
}

QSqlDatabase Store::database() const
{
    return m_database;
}

QSqlQuery Store::takeStatement(const QString &sql, QString *error) const
{
    error->clear();
    if (!isReachable()) { // preparing on a dead connection only fails, noisily
        *error = tr("the store cannot be reached");
        return QSqlQuery(m_database);
    }
    if (auto pooled = m_statements.find(sql); pooled != m_statements.end() && !pooled->isEmpty())
        return pooled->takeLast();
    QSqlQuery statement(m_database);
    // Rows are read once; QSQLITE would cache them all otherwise. Not for QPSQL: forward-only
    // there means single-row mode, and the next statement on the connection loses the rest.
    statement.setForwardOnly(backend() == StoreBackend::Sqlite);
    if (!statement.prepare(sql))
        *error = statement.lastError().text();
    return statement;
}

void Store::giveBackStatement(const QString &sql, QSqlQuery statement) const
{
    // finish() resets the statement: an SQLite SELECT left open would pin its WAL snapshot.
    statement.finish();
    if (!m_statements.contains(sql) && m_statements.size() >= maxPooledTexts)
        m_statements.erase(m_statements.begin()); // any one: a hot one is prepared again
    QList<QSqlQuery> &pool = m_statements[sql];
    if (pool.size() < 4)
        pool.append(std::move(statement));
}

Result<std::unique_ptr<Store>> Store::open(const StoreLocation &location, const QString &purpose,
                                           const Options &options)
{
    const QString name = QStringLiteral("hourglass-%1-%2").arg(purpose).arg(++connectionCounter);
    std::unique_ptr<Store> store(new Store(location, name));
    const Status opened =
        location.backend() == StoreBackend::Sqlite ? store->openSqlite() : store->openPostgreSql();
    if (!opened)
        return opened.error();
    if (location.backend() == StoreBackend::Sqlite && !options.alreadyChecked) {
        if (const Status sound = store->checkSqlite(options); !sound)
            return sound.error();
    }

    Migrator migrator(*store);
    const Result<int> version = migrator.currentVersion();
    // So damaged that not even the schema version can be read (or the file is no database).
    if (store->isReadOnly() && (!version || version.value() == 0))
        return Error::damaged(tr("store %1 is damaged and cannot be read: %2")
                                  .arg(location.displayName(), store->damage()));
    if (!version)
        return version.error();
    const int known = knownSchemaVersion(location.backend());
    if (version.value() > known)
        return Error::runtime(tr("store %1 has schema version %2, newer than this "
                                 "Hourglass understands (%3); upgrade Hourglass")
                                  .arg(location.displayName())
                                  .arg(version.value())
                                  .arg(known));
    if (store->isReadOnly() || options.mode == OpenMode::AsIs) {
        store->m_schemaVersion = version.value();
        return store;
    }
    // Only now that the schema is known to be ours may the file be changed.
    if (location.backend() == StoreBackend::Sqlite) {
        if (const Status journal = store->configureSqliteJournal(); !journal)
            return journal.error();
    }
    const OpenMode mode = options.mode;
    if (mode == OpenMode::Migrate && version.value() < known) {
        if (const Status migrated = migrator.migrateFrom(version.value()); !migrated)
            return migrated.error();
    } else if (version.value() < known) {
        return Error::runtime(tr("store %1 has schema version %2; this Hourglass needs "
                                 "%3 and was asked not to migrate it")
                                  .arg(location.displayName())
                                  .arg(version.value())
                                  .arg(known));
    }
    store->m_schemaVersion = known;
    return store;
}

Status Store::openSqlite()
{
    const QString path = m_location.sqlitePath();
    const QFileInfo file(path);
    const QString directory = file.absolutePath();
    if (!QFileInfo::exists(directory)) {
        if (!QDir().mkpath(directory))
            return Error::storage(tr("cannot create store directory %1").arg(directory));
        // A directory we create holds nobody else's files: keep it private.
        QFile::setPermissions(directory, ownerOnlyDir);
    }
    if (Status secured = StorePermissions::secure(path); !secured)
        return secured;
    if (!file.exists()) {
        QFile create(path);
        // Another process may create it between the look and here (serve and a command
        // started together): then it is that one's new store, and as good as ours.
        if (create.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            create.setPermissions(ownerOnlyFile);
        else if (!QFileInfo::exists(path))
            return Error::storage(tr("cannot create store %1: %2").arg(path, create.errorString()));
    } else if (file.isDir()) {
        return Error::storage(tr("cannot open store %1: it is a directory").arg(path));
    } else if (!file.isFile()) { // SQLite's own word was "disk I/O error" (helper-1)
        return Error::storage(
            tr("cannot open store %1: it is not a regular file (a FIFO, a device or a socket)")
                .arg(path));
    }
    // SQLite names its journal and its lock file after the path it opened: under two hard
    // links two engines each get their own and write one database at once (every file of a
    // file trigger ran twice; hostile test). A symbolic link is one name: fine.
    if (struct stat st{}; ::stat(QFile::encodeName(path).constData(), &st) == 0 && st.st_nlink > 1)
        return Error::storage(
            tr("cannot open store %1: the file has %2 hard links, and SQLite keeps its journal "
               "and locks by name, so two names of one file let two engines write it at once; "
               "remove the other links (find / -samefile %1) or use a symbolic link")
                .arg(path)
                .arg(qulonglong(st.st_nlink)));

    m_database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    QSqlDatabase &db = m_database;
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open())
        return Error::storage(tr("cannot open store %1: %2").arg(path, db.lastError().text()));
    m_files = SqliteFileIdentity(path);
    m_files.recordDatabase();
    // Not persistent, so safe before the schema version is checked.
    return execPragma(db, QStringLiteral("PRAGMA foreign_keys = ON"));
}

// Cost, measured on a store of 100,000 runs with a task run and ten log lines each (133 MB;
// tests/bench/bench_storecheck): quick_check 0.13 s with the file in the page cache, 1.9 s
// straight after the caches were dropped; integrity_check 0.46 s warm. A plain command on
// that store takes 0.01 s without either. So:
// - quick_check, not integrity_check, at open: it reads every page and checks every b-tree,
//   the freelist and each record -- what an overwritten or torn page breaks. Matching each
//   index against its table (integrity_check's extra) costs 3.5 times as much and finds
//   damage of another kind (a collation changed under an index), not a desktop's.
// - At every open, before a migration or the journal setting touches the file: the GUI,
//   serve and each command. Skipping it for listings was weighed and refused: a look-up
//   through a broken b-tree page can find nothing without any error, and a scan that meets
//   one part-way ends its rows early, so a listing would be silently short. A command-line
//   loop over a large store pays for this.
// - integrity_check where a file is about to be trusted: a backup just written, and the
//   backup a restore puts in place.
Status Store::checkSqlite(const Options &options)
{
    const Result<QStringList> problems =
        IntegrityCheck::problems(m_database, IntegrityCheck::Depth::Quick);
    if (!problems)
        return problems.error();
    if (problems->isEmpty())
        return {};
    m_damage = IntegrityCheck::summary(problems.value());
    if (!options.readOnlyWhenDamaged)
        return Error::damaged(tr("store %1 is damaged: %2; it was left untouched")
                                  .arg(m_location.displayName(), m_damage));
    // Nothing of ours may write to it, and neither may SQLite itself: closing the last
    // connection would otherwise checkpoint the write-ahead log into the damaged file.
    const QVariant handle = m_database.driver()->handle();
    if (qstrcmp(handle.typeName(), "sqlite3*") == 0) {
        sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData());
        sqlite3_db_config(connection, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    }
    return execPragma(m_database, QStringLiteral("PRAGMA query_only = ON"));
}

Status Store::configureSqliteJournal()
{
    const QSqlDatabase db = database();
    // Switching a new file to WAL takes it exclusively, and SQLite answers "locked" at once
    // rather than through the busy timeout: two processes opening a new store together (serve
    // and a command) would fail the second. It is tried again for as long as a statement waits.
    Status wal;
    QDeadlineTimer patience(5000);
    do {
        wal = execPragma(db, QStringLiteral("PRAGMA journal_mode = WAL"));
        if (wal || !wal.error().message.contains(QLatin1String("locked")))
            break;
        QThread::msleep(20);
    } while (!patience.hasExpired());
    if (!wal)
        return wal;
    m_files.recordJournal();
    return execPragma(db, QStringLiteral("PRAGMA synchronous = NORMAL"));
}

Status Store::openPostgreSql()
{
    Result<QSqlDatabase> db = SqlTarget::forStore(m_location).open(m_connectionName);
    if (!db)
        return Error::storage(db.error().message); // names the store and the reason
    m_database = db.value();
    return configurePostgreSql(m_database);
}

bool Store::checkReachable() const
{
    if (backend() == StoreBackend::Sqlite)
        return true;
    if (!m_unreachable && m_database.isOpen()) {
        QSqlQuery probe(m_database);
        if (probe.exec(QStringLiteral("SELECT 1")))
            return true;
        // Refused with an SQLSTATE (an aborted transaction's 25P02): the server answered.
        const QString code = probe.lastError().nativeErrorCode();
        if (!code.isEmpty() && !code.startsWith(QLatin1String("08"))
            && !code.startsWith(QLatin1String("57P")))
            return true;
    }
    m_unreachable = true;
    return false;
}

bool Store::listen(const QString &channel, std::function<void(const QString &payload)> handler)
{
    if (backend() == StoreBackend::Sqlite
        || !m_database.driver()->hasFeature(QSqlDriver::EventNotifications))
        return false;
    const bool first = m_channel.isEmpty();
    m_channel = channel;
    m_notificationHandler = std::move(handler);
    if (first) {
        QObject::connect(
            m_database.driver(), &QSqlDriver::notification, m_database.driver(),
            [this](const QString &name, QSqlDriver::NotificationSource, const QVariant &payload) {
                if (name == m_channel && m_notificationHandler)
                    m_notificationHandler(payload.toString());
            });
    }
    return subscribe();
}

bool Store::subscribe()
{
    return m_channel.isEmpty() || m_database.driver()->subscribeToNotification(m_channel);
}

bool Store::reviveIfDue() const
{
    if (!m_reconnectsItself || m_transactionDepth > 0)
        return false;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - m_lastReviveMs < 2000)
        return false;
    m_lastReviveMs = now;
    // StoreQuery sees the store through a const reference; the store itself is never const.
    return const_cast<Store *>(this)->reconnect().ok();
}

Status Store::reconnect()
{
    if (backend() == StoreBackend::Sqlite)
        return {};
    m_statements.clear(); // prepared on the old connection
    m_transactionDepth = 0;
    m_database.close();
    if (!m_database.open()) {
        m_unreachable = true;
        return Error::unavailable(
            tr("cannot connect to %1: %2")
                .arg(m_location.displayName(), m_database.lastError().text().simplified()));
    }
    m_unreachable = false;
    if (const Status set = configurePostgreSql(m_database); !set)
        return set;
    (void)subscribe(); // a new connection listens to nothing yet
    return {};
}

Status Store::beginTransaction()
{
    QSqlDatabase &db = m_database;
    if (!isReachable())
        return Error::unavailable(tr("the store cannot be reached"));
    if (backend() != StoreBackend::Sqlite) {
        if (!db.transaction()) {
            const QString why = db.lastError().text();
            if (!checkReachable())
                return Error::unavailable(tr("cannot begin a transaction: %1").arg(why));
            return Error::storage(tr("cannot begin a transaction: %1").arg(why));
        }
        return {};
    }
    // SQLite's plain BEGIN is deferred: a transaction that reads and then writes must upgrade
    // its lock, and when another connection writes meanwhile the upgrade fails at once with
    // "database is locked" -- the busy timeout does not apply. IMMEDIATE takes the write lock
    // up front, where the busy timeout does wait. (COMMIT/ROLLBACK from the driver still fit.)
    QSqlQuery begin(db);
    if (!begin.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        const QSqlError error = begin.lastError();
        if (SqliteWriteFailure::isTransient(error.nativeErrorCode()))
            return Error::unavailable(tr("cannot begin a transaction: store %1 cannot be "
                                         "written (%2)")
                                          .arg(m_location.displayName(), error.text()));
        return Error::storage(tr("cannot begin a transaction: %1").arg(error.text()));
    }
    return {};
}

Status Store::flushWriteBehind() const
{
    if (!m_writeBehind || m_flushingWriteBehind || m_transactionDepth == 0)
        return {};
    m_flushingWriteBehind = true;
    const Status flushed = m_writeBehind();
    m_flushingWriteBehind = false;
    return flushed;
}

void Store::abortTransaction(const QString &why) const
{
    if (m_transactionDepth > 0 && m_abortedBy.isEmpty())
        m_abortedBy = why;
}

Status Store::stillInPlace() const
{
    return m_files.inPlace();
}

Status Store::refuseAsTarget(const QString &path) const
{
    if (backend() != StoreBackend::Sqlite)
        return {};
    struct stat target
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &target) != 0)
        return {}; // a new file
    const QString store = m_location.sqlitePath();
    for (const QString &suffix :
         {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")}) {
        struct stat file
        {
        };
        if (::stat(QFile::encodeName(store + suffix).constData(), &file) == 0
            && file.st_dev == target.st_dev && file.st_ino == target.st_ino)
            return Error::invalid(
                tr("%1 is the store itself (%2): not written over").arg(path, store + suffix));
    }
    return {};
}

Status Store::transaction(const std::function<Status()> &work)
{
    if (isReadOnly())
        return Error::damaged(tr("store %1 is damaged and open read-only: nothing can be "
                                 "written to it")
                                  .arg(m_location.displayName()));
    QSqlDatabase &db = m_database;
    if (m_transactionDepth > 0) {
        ++m_transactionDepth;
        const Status status = work();
        --m_transactionDepth;
        return status;
    }
    m_abortedBy.clear();
    if (Status inPlace = stillInPlace(); !inPlace)
        return inPlace;
    if (const Status begun = beginTransaction(); !begun)
        return begun;
    ++m_transactionSerial;
    ++m_transactionDepth;
    Status status = work();
    if (status && !isTransactionAborted())
        status = flushWriteBehind();
    --m_transactionDepth;
    if (status && isTransactionAborted())
        status = Error::storage(tr("the transaction was rolled back: %1").arg(m_abortedBy));
    const auto ended = [this](bool committed) {
        if (m_transactionObserver)
            m_transactionObserver(committed);
    };
    if (!status) {
        if (!m_unreachable)
            db.rollback();
        ended(false);
        return status;
    }
    StoreFaultHook::CommitFault fault = StoreFaultHook::CommitFault::None;
    if (StoreFaultHook *faults = StoreFaultHook::installed())
        fault = faults->commitFault(*this);
    if (fault == StoreFaultHook::CommitFault::Refuse) {
        db.rollback();
        ended(false);
        return Error::unavailable(tr("cannot commit: %1").arg(StoreQuery::injectedFault()));
    }
    // SQLite's COMMIT is sent by hand, as its BEGIN IMMEDIATE is: Qt's driver reports a
    // failed commit without SQLite's result code, and a full disk must be told from damage.
    QSqlError commitError;
    if (backend() == StoreBackend::Sqlite) {
        QSqlQuery commit(db);
        if (!commit.exec(QStringLiteral("COMMIT")))
            commitError = commit.lastError();
    } else if (!db.commit()) {
        commitError = db.lastError();
    }
    if (commitError.isValid()) {
        const QString why = commitError.text();
        const bool reachable = checkReachable();
        if (reachable)
            db.rollback();
        ended(false);
        if (!reachable
            || (backend() == StoreBackend::Sqlite
                && SqliteWriteFailure::isTransient(commitError.nativeErrorCode())))
            return Error::unavailable(tr("cannot commit: %1").arg(why));
        return Error::storage(tr("cannot commit: %1").arg(why));
    }
    if (fault == StoreFaultHook::CommitFault::CommitThenReport) {
        ended(false);
        return Error::unavailable(tr("cannot commit: %1").arg(StoreQuery::injectedFault()));
    }
    ended(true);
    return {};
}

} // namespace hg
