#include "storerestore.h"

#include "enginesessionrepository.h"
#include "integritycheck.h"
#include "migrator.h"
#include "sqlitecopy.h"
#include "store.h"
#include "storebackup.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace hg {
namespace {

QAtomicInteger<quint64> restoreCounter;

// A second name for the same file: instant, and the kept store is exactly the old one.
bool hardLink(const QString &existing, const QString &newName)
{
#ifdef Q_OS_UNIX
    return ::link(QFile::encodeName(existing).constData(), QFile::encodeName(newName).constData())
           == 0;
#else
    Q_UNUSED(existing)
    Q_UNUSED(newName)
    return false;
#endif
}

// The version row alone proves nothing: every table and column that version has must be there,
// or every command would fail on the restored store.
Result<int> lacking(const QSqlDatabase &db, const QString &backupFile, int version)
{
    if (version > Store::knownSchemaVersion(StoreBackend::Sqlite))
        return version; // refused by the caller, naming the newer version
    const Result<QMap<QString, QStringList>> expected = Migrator::expectedTables(version);
    if (!expected)
        return expected.error();
    const QStringList missing = Migrator::missingFrom(db, expected.value());
    if (missing.isEmpty())
        return version;
    return Error::invalid(StoreRestore::tr("%1 is not a Hourglass store of schema version %2: it "
                                           "lacks %3")
                              .arg(backupFile)
                              .arg(version)
                              .arg(missing.mid(0, 8).join(QLatin1String(", "))
                                   + (missing.size() > 8 ? QStringLiteral(", …") : QString())));
}

} // namespace

QString StoreRestore::keepPath(const StoreLocation &store, const QDateTime &at)
{
    const QFileInfo file(store.sqlitePath());
    return file.absoluteDir().filePath(
        QStringLiteral("%1-before-restore-%2.db")
            .arg(file.completeBaseName(), at.toString(QStringLiteral("yyyyMMdd-HHmmss"))));
}

Result<int> StoreRestore::check(const QString &backupFile)
{
    const QString name = QStringLiteral("hourglass-restore-check-%1").arg(++restoreCounter);
    Result<int> version = Error::runtime(QString());
    {
        Result<QSqlDatabase> opened = SqliteCopy::openReadOnly(backupFile, name);
        if (!opened) {
            version = opened.error();
        } else {
            // The full check: this file is about to become the store.
            const Result<QStringList> problems =
                IntegrityCheck::problems(opened.value(), IntegrityCheck::Depth::Full);
            QSqlQuery query(opened.value());
            if (!problems)
                version = problems.error();
            else if (!problems->isEmpty())
                version = Error::damaged(tr("%1 fails SQLite's integrity check: %2")
                                             .arg(backupFile, IntegrityCheck::summary(*problems)));
            else if (!query.exec(QStringLiteral("SELECT MAX(version) FROM schema_version"))
                     || !query.next() || query.value(0).toInt() <= 0)
                version = Error::invalid(tr("%1 is not a Hourglass store (it has no schema "
                                            "version)")
                                             .arg(backupFile));
            else
                version = lacking(opened.value(), backupFile, query.value(0).toInt());
            query.finish();
            opened->close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    if (version) {
        const int known = Store::knownSchemaVersion(StoreBackend::Sqlite);
        if (version.value() > known)
            return Error::invalid(tr("%1 has schema version %2, newer than this Hourglass "
                                     "understands (%3); restore it with a newer Hourglass")
                                      .arg(backupFile)
                                      .arg(version.value())
                                      .arg(known));
    }
    return version;
}

Result<QList<EngineSession>> StoreRestore::servingEngines(const StoreLocation &store)
{
    if (!QFileInfo::exists(store.sqlitePath()))
        return QList<EngineSession>();
    // As it is, damaged or not: reading who serves it must change nothing.
    Store::Options options;
    options.mode = Store::OpenMode::AsIs;
    options.readOnlyWhenDamaged = true;
    Result<std::unique_ptr<Store>> opened = Store::open(store, QStringLiteral("restore"), options);
    if (!opened)
        return opened.error();
    return EngineSessionRepository(*opened.value()).liveNow();
}

Result<StoreRestore::Restored> StoreRestore::restore(const StoreLocation &store,
                                                     const QString &backupFile, bool force)
{
    if (store.backend() != StoreBackend::Sqlite)
        return Error::invalid(StoreBackup::postgresAdvice(store));
    // Through a link, the store it names is restored: the link itself was replaced by the
    // restored file, and the store it pointed at went on apart from it (helper-11).
    const QFileInfo named(store.sqlitePath());
    const QString storePath =
        named.isSymLink() && named.exists() ? named.canonicalFilePath() : store.sqlitePath();
    const QString backupPath = QFileInfo(backupFile).absoluteFilePath();
    if (backupPath == QFileInfo(storePath).absoluteFilePath())
        return Error::invalid(tr("%1 is the store itself").arg(backupPath));
    const Result<int> version = check(backupPath);
    if (!version)
        return version.error();

    const Result<QList<EngineSession>> serving = servingEngines(store);
    if (serving && !serving->isEmpty())
        return Error::runtime(tr("an engine serves %1: %2; stop it first, then restore")
                                  .arg(store.displayName(),
                                       EngineSessionRepository::describe(serving->constFirst())));
    if (!serving && !force)
        return Error(serving.error().kind,
                     tr("cannot tell whether an engine serves %1 (%2); make sure none does, "
                        "then restore with --force")
                         .arg(store.displayName(), serving.error().message));

    // The copy is made beside the store (the same file system, so the rename is one step),
    // from a read-only connection: a backup that is itself in WAL mode is read with its log.
    const QString incoming = storePath + QStringLiteral(".restoring");
    QFile::remove(incoming);
    const QString name = QStringLiteral("hourglass-restore-%1").arg(++restoreCounter);
    Status copied;
    {
        Result<QSqlDatabase> source = SqliteCopy::openReadOnly(backupPath, name);
        if (!source) {
            copied = source.error();
        } else {
            const Result<SqliteCopy::Copied> written = SqliteCopy::write(source.value(), incoming);
            if (!written)
                copied = written.error();
            source->close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    if (!copied)
        return copied.error();

    Restored restored;
    restored.schemaVersion = version.value();
    if (QFileInfo::exists(storePath)) {
        // The store being replaced stays as it was: its file (a second name for it) and its
        // write-ahead log, which must never meet the restored file.
        const Result<StoreLocation> resolved = StoreLocation::parse(storePath);
        const QString kept =
            keepPath(resolved ? resolved.value() : store, QDateTime::currentDateTime());
        restored.keptAs = kept;
        // Two restores within a second: the second keeps its store under a name of its own.
        for (int n = 2; QFileInfo::exists(restored.keptAs); ++n)
            restored.keptAs = kept.chopped(3) + QStringLiteral("-%1.db").arg(n);
        if (!hardLink(storePath, restored.keptAs) && !QFile::copy(storePath, restored.keptAs)) {
            QFile::remove(incoming);
            return Error::storage(tr("cannot keep %1 as %2").arg(storePath, restored.keptAs));
        }
        const QString wal = storePath + QStringLiteral("-wal");
        if (QFileInfo::exists(wal)) {
            if (const Status moved =
                    SqliteCopy::moveIntoPlace(wal, restored.keptAs + QStringLiteral("-wal"));
                !moved) {
                QFile::remove(incoming);
                QFile::remove(restored.keptAs); // the store itself is untouched
                return moved.error();
            }
        }
        QFile::remove(storePath + QStringLiteral("-shm"));
    }
    if (const Status placed = SqliteCopy::moveIntoPlace(incoming, storePath); !placed) {
        QFile::remove(incoming);
        return placed.error();
    }
    return restored;
}

} // namespace hg
