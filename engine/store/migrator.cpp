#include "migrator.h"

#include "store.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

namespace hg {
namespace {

QString folderFor(StoreBackend backend)
{
    return backend == StoreBackend::Sqlite ? QStringLiteral(":/sql/sqlite")
                                           : QStringLiteral(":/sql/postgresql");
}

// File name NNN_what.sql -> NNN; 0 when the name has no leading number.
int versionOf(const QString &fileName)
{
    return fileName.section(QLatin1Char('_'), 0, 0).toInt();
}

QStringList migrationFiles(StoreBackend backend)
{
    QStringList files =
        QDir(folderFor(backend)).entryList({QStringLiteral("*.sql")}, QDir::Files, QDir::Name);
    files.removeIf([](const QString &name) { return versionOf(name) <= 0; });
    return files;
}

QAtomicInteger<quint64> referenceCounter;

// A SQLite migration that rebuilds a table others refer to says so in its first line: with
// foreign keys on, dropping the old table would cascade to (or clear) the rows naming it.
const QByteArray foreignKeysOff = QByteArrayLiteral("-- hourglass: foreign keys off");

bool pendingNeedsForeignKeysOff(int from)
{
    for (const QString &fileName : migrationFiles(StoreBackend::Sqlite)) {
        if (versionOf(fileName) <= from)
            continue;
        QFile file(folderFor(StoreBackend::Sqlite) + QLatin1Char('/') + fileName);
        if (file.open(QIODevice::ReadOnly) && file.readLine().trimmed() == foreignKeysOff)
            return true;
    }
    return false;
}

} // namespace

Result<QMap<QString, QStringList>> Migrator::expectedTables(int sqliteVersion)
{
    const QString name = QStringLiteral("hourglass-reference-schema-%1").arg(++referenceCounter);
    Result<QMap<QString, QStringList>> tables = QMap<QString, QStringList>();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QStringLiteral(":memory:"));
        if (!db.open())
            tables = Error::storage(db.lastError().text());
        QSqlQuery query(db);
        for (const QString &fileName : migrationFiles(StoreBackend::Sqlite)) {
            if (!tables || versionOf(fileName) > sqliteVersion)
                break;
            QFile file(folderFor(StoreBackend::Sqlite) + QLatin1Char('/') + fileName);
            if (!file.open(QIODevice::ReadOnly)) {
                tables = Error::runtime(tr("missing migration %1").arg(fileName));
                break;
            }
            for (const QString &statement : splitStatements(QString::fromUtf8(file.readAll()))) {
                if (!query.exec(statement)) {
                    tables = Error::storage(tr("migration %1 failed in memory: %2")
                                                .arg(fileName, query.lastError().text()));
                    break;
                }
            }
        }
        query.finish();
        if (tables) {
            for (const QString &table : db.tables()) {
                QStringList columns;
                const QSqlRecord record = db.record(table);
                for (int i = 0; i < record.count(); ++i)
                    columns << record.fieldName(i);
                tables->insert(table, columns);
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return tables;
}

QStringList Migrator::missingFrom(const QSqlDatabase &db,
                                  const QMap<QString, QStringList> &expected)
{
    QStringList missing;
    const QStringList present = db.tables();
    for (auto table = expected.cbegin(); table != expected.cend(); ++table) {
        if (!present.contains(table.key())) {
            missing << table.key();
            continue;
        }
        const QSqlRecord record = db.record(table.key());
        for (const QString &column : table.value()) {
            if (record.indexOf(column) < 0)
                missing << table.key() + QLatin1Char('.') + column;
        }
    }
    return missing;
}

Migrator::Migrator(Store &store)
    : m_store(store)
{}

int Migrator::latestVersion(StoreBackend backend)
{
    const QStringList files = migrationFiles(backend);
    return files.isEmpty() ? 0 : versionOf(files.last());
}

QStringList Migrator::splitStatements(const QString &script)
{
    QStringList statements;
    QString current;
    bool inString = false;
    const QStringList lines = script.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (!inString && line.trimmed().startsWith(QLatin1String("--")))
            continue;
        for (QChar c : line) {
            if (c == QLatin1Char('\''))
                inString = !inString;
        }
        current += line + QLatin1Char('\n');
        // A SQLite trigger's body holds statements of its own: it ends at its END.
        const bool inTriggerBody = current.trimmed().startsWith(QLatin1String("CREATE TRIGGER"))
                                   && current.contains(QLatin1String(" BEGIN\n"))
                                   && !line.trimmed().endsWith(QLatin1String("END;"));
        if (!inString && !inTriggerBody && line.trimmed().endsWith(QLatin1Char(';'))) {
            statements << current.trimmed().chopped(1);
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        statements << current.trimmed();
    return statements;
}

Result<int> Migrator::currentVersion() const
{
    const QSqlDatabase db = m_store.database();
    if (!db.tables().contains(QStringLiteral("schema_version")))
        return 0;
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")))
        return Error::storage(tr("cannot read the schema version of %1: %2")
                                  .arg(m_store.location().displayName(), query.lastError().text()));
    return query.next() ? query.value(0).toInt() : 0;
}

Status Migrator::migrateFrom(int version)
{
    const StoreBackend backend = m_store.backend();
    // PRAGMA foreign_keys is ignored inside a transaction: it is set around it, and what the
    // rebuild left is checked before the commit.
    const bool keysOff = backend == StoreBackend::Sqlite && pendingNeedsForeignKeysOff(version);
    if (keysOff)
        QSqlQuery(m_store.database()).exec(QStringLiteral("PRAGMA foreign_keys = OFF"));
    const Status migrated = migrateInTransaction(version, keysOff);
    if (keysOff)
        QSqlQuery(m_store.database()).exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    return migrated;
}

Status Migrator::migrateInTransaction(int version, bool checkForeignKeys)
{
    const StoreBackend backend = m_store.backend();
    return m_store.transaction([&]() -> Status {
        QSqlQuery query(m_store.database());
        const auto run = [&](const QString &sql) -> Status {
            if (!query.exec(sql))
                return Error::storage(
                    tr("migration failed: %1\n%2").arg(query.lastError().text(), sql));
            return {};
        };
        if (backend == StoreBackend::PostgreSql) {
            // Engines on several machines may start at once: one migrates, the others wait.
            if (Status locked = run(QStringLiteral("SELECT pg_advisory_xact_lock(72007001)"));
                !locked)
                return locked;
        }
        if (Status created = run(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version ("
                                                "version INTEGER NOT NULL PRIMARY KEY, "
                                                "applied_at BIGINT NOT NULL)"));
            !created)
            return created;
        // Another engine may have migrated while we waited for the lock.
        int from = version;
        if (query.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")) && query.next())
            from = qMax(from, query.value(0).toInt());

        for (const QString &fileName : migrationFiles(backend)) {
            const int fileVersion = versionOf(fileName);
            if (fileVersion <= from)
                continue;
            QFile file(folderFor(backend) + QLatin1Char('/') + fileName);
            if (!file.open(QIODevice::ReadOnly))
                return Error::runtime(tr("missing migration %1").arg(fileName));
            for (const QString &statement : splitStatements(QString::fromUtf8(file.readAll()))) {
                if (Status applied = run(statement); !applied)
                    return applied;
            }
            query.prepare(QStringLiteral("INSERT INTO schema_version (version, applied_at) "
                                         "VALUES (?, ?)"));
            query.addBindValue(fileVersion);
            query.addBindValue(QDateTime::currentMSecsSinceEpoch());
            if (!query.exec())
                return Error::storage(
                    tr("cannot record schema version: %1").arg(query.lastError().text()));
        }
        if (checkForeignKeys) {
            if (!query.exec(QStringLiteral("PRAGMA foreign_key_check")))
                return Error::storage(tr("migration failed: %1").arg(query.lastError().text()));
            if (query.next())
                return Error::storage(
                    tr("migration failed: a row of %1 names a missing row "
                       "of %2")
                        .arg(query.value(0).toString(), query.value(2).toString()));
        }
        return {};
    });
}

} // namespace hg
