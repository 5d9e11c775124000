#include "storebackup.h"

#include "sqlitecopy.h"
#include "store.h"

#include <QDir>
#include <QFileInfo>

namespace hg {

QString StoreBackup::defaultPath(const StoreLocation &store, const QDateTime &at)
{
    const QFileInfo file(store.sqlitePath());
    return file.absoluteDir().filePath(
        QStringLiteral("%1-backup-%2.db")
            .arg(file.completeBaseName(), at.toString(QStringLiteral("yyyyMMdd-HHmmss"))));
}

QString StoreBackup::postgresAdvice(const StoreLocation &store)
{
    return tr("%1 is a PostgreSQL store: back it up with pg_dump and restore it with "
              "pg_restore (PostgreSQL's own tools keep its transactions consistent)")
        .arg(store.displayName());
}

Result<StoreBackup::Written> StoreBackup::write(const Store &store, const QString &target)
{
    if (store.backend() != StoreBackend::Sqlite)
        return Error::invalid(postgresAdvice(store.location()));
    if (store.isReadOnly())
        return Error::damaged(tr("store %1 is damaged (%2): a backup would carry the damage; "
                                 "export what can still be read instead")
                                  .arg(store.location().displayName(), store.damage()));
    const QString path = QFileInfo(target).absoluteFilePath();
    if (path == QFileInfo(store.location().sqlitePath()).absoluteFilePath())
        return Error::invalid(tr("%1 is the store itself").arg(path));
    if (QFileInfo::exists(path))
        return Error::exists(tr("%1 exists already; choose another file").arg(path));
    if (!QFileInfo(QFileInfo(path).absolutePath()).isDir())
        return Error::notFound(tr("cannot write %1: folder %2 does not exist")
                                   .arg(path, QFileInfo(path).absolutePath()));
    // A partial name until complete: a crash or a full disk never leaves a file that looks
    // like a backup.
    const QString partial = path + QStringLiteral(".partial");
    QFile::remove(partial); // an earlier attempt that died
    const Result<SqliteCopy::Copied> copied = SqliteCopy::write(store.database(), partial);
    if (!copied)
        return copied.error();
    if (const Status placed = SqliteCopy::moveIntoPlace(partial, path); !placed) {
        QFile::remove(partial);
        return placed.error();
    }
    return Written{path, copied->bytes, copied->elapsedMs};
}

} // namespace hg
