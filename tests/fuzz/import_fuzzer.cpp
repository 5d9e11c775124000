// libFuzzer target for the import document: no input may crash, hang or trip a sanitizer, and
// an import that reports an error must leave the store exactly as it was (all or nothing: no
// row of any table added, changed away or removed). Each input gets a fresh SQLite store.
#include "fuzzcheck.h"
#include "store/projectimporter.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <memory>

using namespace hg;

namespace {

QTemporaryDir *directory = nullptr;
QByteArray templateBytes; // an empty store at the current schema, migrated once
QStringList tables;

std::unique_ptr<Store> openStore(const QString &path)
{
    const Result<StoreLocation> location = StoreLocation::parse(path);
    if (!location)
        HG_FUZZ_FAIL();
    Result<std::unique_ptr<Store>> opened = Store::open(location.value(), QStringLiteral("fuzz"));
    if (!opened)
        HG_FUZZ_FAIL();
    return std::move(opened.value());
}

QHash<QString, qint64> rowCounts(Store &store)
{
    QHash<QString, qint64> counts;
    QSqlQuery query(store.database());
    for (const QString &table : tables) {
        if (!query.exec(QStringLiteral("SELECT COUNT(*) FROM \"%1\"").arg(table)) || !query.next())
            HG_FUZZ_FAIL();
        counts.insert(table, query.value(0).toLongLong());
    }
    return counts;
}

// A fresh store per input: the migrated template copied over whatever the last input left.
std::unique_ptr<Store> freshStore()
{
    const QString path = directory->filePath(QStringLiteral("run.db"));
    for (const char *suffix : {"", "-wal", "-shm"})
        QFile::remove(path + QLatin1String(suffix));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(templateBytes) != templateBytes.size())
        HG_FUZZ_FAIL();
    file.close();
    return openStore(path);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    // The SQLite driver is a plugin, and Qt loads plugins only with an application object.
    static QCoreApplication application(*argc, *argv);
    directory = new QTemporaryDir;
    if (!directory->isValid())
        HG_FUZZ_FAIL();
    const QString path = directory->filePath(QStringLiteral("template.db"));
    {
        std::unique_ptr<Store> store = openStore(path);
        QSqlQuery query(store->database());
        if (!query.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' "
                                       "AND name NOT LIKE 'sqlite_%' ORDER BY name")))
            HG_FUZZ_FAIL();
        while (query.next())
            tables << query.value(0).toString();
    } // closing the last connection checkpoints the write-ahead log into the file
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        HG_FUZZ_FAIL();
    templateBytes = file.readAll();
    if (tables.isEmpty() || templateBytes.isEmpty())
        HG_FUZZ_FAIL();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size > 64 * 1024)
        return 0;
    const QByteArray document(reinterpret_cast<const char *>(data), qsizetype(size));
    std::unique_ptr<Store> store = freshStore();
    const QHash<QString, qint64> before = rowCounts(*store);
    const Result<ProjectImporter::Summary> imported =
        ProjectImporter(*store).importDocument(document);
    const QHash<QString, qint64> after = rowCounts(*store);
    if (!imported) {
        if (after != before)
            HG_FUZZ_FAIL();
        return 0;
    }
    if (after.value(QStringLiteral("project")) - before.value(QStringLiteral("project"))
            != imported->projects
        || after.value(QStringLiteral("chain")) - before.value(QStringLiteral("chain"))
               != imported->chains)
        HG_FUZZ_FAIL();

    // Every number an import stores is one the engine can honour: durations not negative,
    // a backoff it can raise to a power (1e308 was accepted), limits not negative.
    QSqlQuery numbers(store->database());
    if (!numbers.exec(QStringLiteral(
            "SELECT COUNT(*) FROM task WHERE timeout_s < 0 OR max_retries < 0 OR "
            "retry_delay_s < 0 OR retry_backoff < 1 OR retry_backoff > 100 OR retry_backoff "
            "IS NULL"))
        || !numbers.next() || numbers.value(0).toLongLong() != 0)
        HG_FUZZ_FAIL();
    if (!numbers.exec(QStringLiteral("SELECT COUNT(*) FROM chain WHERE timeout_s < 0 OR "
                                     "max_instances < 0"))
        || !numbers.next() || numbers.value(0).toLongLong() != 0)
        HG_FUZZ_FAIL();
    numbers.finish();

    // The same document again meets its own chains: an error (a chain that already exists),
    // and again nothing of it may stay behind, now in a store that is not empty.
    const Result<ProjectImporter::Summary> again = ProjectImporter(*store).importDocument(document);
    if (imported->chains > 0 && again)
        HG_FUZZ_FAIL();
    if (!again && rowCounts(*store) != after)
        HG_FUZZ_FAIL();
    return 0;
}
