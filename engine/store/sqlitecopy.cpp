#include "sqlitecopy.h"

#include "base/outputfile.h"
#include "integritycheck.h"

#include <QAtomicInteger>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sqlite3.h>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace hg {
namespace {

QAtomicInteger<quint64> copyCounter;

sqlite3 *handleOf(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    if (qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

// All pages in one step; a busy source (a checkpoint, a writer's recovery) is retried for as
// long as a statement would wait.
Status copyPages(sqlite3 *source, sqlite3 *destination)
{
    sqlite3_backup *backup = sqlite3_backup_init(destination, "main", source, "main");
    if (!backup)
        return Error::storage(QString::fromUtf8(sqlite3_errmsg(destination)));
    const QDeadlineTimer deadline(5000);
    int step = SQLITE_OK;
    do {
        step = sqlite3_backup_step(backup, -1);
        if (step == SQLITE_BUSY || step == SQLITE_LOCKED)
            QThread::msleep(50);
    } while ((step == SQLITE_BUSY || step == SQLITE_LOCKED) && !deadline.hasExpired());
    const int finished = sqlite3_backup_finish(backup);
    if (step != SQLITE_DONE)
        return Error::storage(QString::fromUtf8(sqlite3_errstr(step)));
    if (finished != SQLITE_OK)
        return Error::storage(QString::fromUtf8(sqlite3_errmsg(destination)));
    return {};
}

Status syncFolderOf(const QString &path)
{
#ifdef Q_OS_UNIX
    const int folder = ::open(QFile::encodeName(QFileInfo(path).absolutePath()).constData(),
                              O_RDONLY | O_DIRECTORY);
    if (folder < 0)
        return {}; // nothing to sync through; the rename itself stands
    ::fsync(folder);
    ::close(folder);
#else
    Q_UNUSED(path)
#endif
    return {};
}

void removeWithCompanions(const QString &path)
{
    for (const char *suffix : {"", "-journal", "-wal", "-shm"})
        QFile::remove(path + QLatin1String(suffix));
}

} // namespace

Result<QSqlDatabase> SqliteCopy::openReadOnly(const QString &path, const QString &connectionName)
{
    if (!QFileInfo(path).isFile())
        return Error::notFound(tr("%1 does not exist or is not a file").arg(path));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connectionName);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open())
        return Error::storage(tr("cannot open %1: %2").arg(path, db.lastError().text()));
    return db;
}

Result<SqliteCopy::Copied> SqliteCopy::write(const QSqlDatabase &source, const QString &path)
{
    QElapsedTimer timer;
    timer.start();
    sqlite3 *from = handleOf(source);
    if (!from)
        return Error::runtime(tr("%1 is not a SQLite database").arg(source.databaseName()));
    {
        // Created here, owner-only like the store: SQLite would create it readable by all.
        QFile create(path);
        if (!create.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            return Error::storage(tr("cannot create %1: %2").arg(path, create.errorString()));
        create.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    const QString name = QStringLiteral("hourglass-copy-%1").arg(++copyCounter);
    Status written;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open()) {
            written = Error::storage(tr("cannot open %1: %2").arg(path, db.lastError().text()));
        } else {
            written = copyPages(from, handleOf(db));
            QSqlQuery query(db);
            // The copy carries the source's WAL flag: a backup is one file, read anywhere.
            if (written && !query.exec(QStringLiteral("PRAGMA journal_mode = DELETE")))
                written = Error::storage(query.lastError().text());
            query.finish();
            if (written) {
                const Result<QStringList> problems =
                    IntegrityCheck::problems(db, IntegrityCheck::Depth::Full);
                if (!problems)
                    written = problems.error();
                else if (!problems->isEmpty())
                    written = Error::damaged(tr("the copy fails SQLite's integrity check: %1")
                                                 .arg(IntegrityCheck::summary(problems.value())));
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    if (!written) {
        removeWithCompanions(path);
        return Error(written.error().kind,
                     tr("cannot copy %1 to %2: %3")
                         .arg(source.databaseName(), path, written.error().message));
    }
    return Copied{QFileInfo(path).size(), timer.elapsed()};
}

Status SqliteCopy::moveIntoPlace(const QString &from, const QString &to)
{
    // Never over a device or a FIFO: the rename would put a regular file in its place.
    if (const Status target = OutputFile::checkRenameTarget(to); !target)
        return target;
    // The store keeps its owner, group and mode: restored by root, a user's store became
    // root's, and the user's own window could no longer write it. (A store is always renamed
    // into place, whole: another hard link of it keeps the old one.)
    struct stat existing = {};
    if (::stat(QFile::encodeName(to).constData(), &existing) == 0) {
        (void)::chown(QFile::encodeName(from).constData(), existing.st_uid, existing.st_gid);
        (void)::chmod(QFile::encodeName(from).constData(), existing.st_mode & 07777);
    }
    // std::rename replaces `to` in one step on POSIX; QFile::rename refuses an existing one.
    if (std::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) != 0)
        return Error::storage(tr("cannot rename %1 to %2: %3")
                                  .arg(from, to, QString::fromLocal8Bit(std::strerror(errno))));
    return syncFolderOf(to);
}

} // namespace hg
