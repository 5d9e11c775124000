#include "backendtests.h"
#include "store/migrator.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace hg;

class TestStore final : public QObject
{
    Q_OBJECT
    // Functions for one backend only: not run (nor skipped) on the other.
    Q_CLASSINFO("sqliteOnly", "open_sqliteUsesWalForeignKeysAndPrivateFiles, "
                              "fileRemovedWhileOpen_writesAreRefusedNamingIt")
    Q_CLASSINFO("postgresqlOnly", "transaction_failedStatementWithoutSavepoint_rollsBackAllOfIt, "
                                  "lockWait_endsAfterTenSecondsAsTryAgain")

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void open_appliesAllMigrations();
    void open_isIdempotentAndKeepsData();
    void open_refusesNewerSchemaAndChangesNothing();
    void open_sqliteUsesWalForeignKeysAndPrivateFiles();
    void fileRemovedWhileOpen_writesAreRefusedNamingIt();
    void open_createsPrivateDataDirectory();
    void open_unwritablePathIsAClearError();
    void open_hardLinkedFileIsRefusedSymlinkIsNot();
    void open_unreachablePostgresIsAClearError();
    void transaction_rollsBackOnError();
    void transaction_failedStatementWithoutSavepoint_rollsBackAllOfIt();
    void statements_keptForAtMost256Texts();
    void lockWait_endsAfterTenSecondsAsTryAgain();
    void splitStatements_data();
    void splitStatements();
};

namespace {

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

bool sqliteOnly()
{
    return test::TestStore::backend() == StoreBackend::Sqlite;
}

} // namespace

void TestStore::open_appliesAllMigrations()
{
    HG_TEST_STORE(t);
    QVERIFY(Store::knownSchemaVersion(t.store().backend()) >= 1);
    QCOMPARE(t.store().schemaVersion(), Store::knownSchemaVersion(t.store().backend()));
    const QStringList tables = t.store().database().tables();
    for (const char *table :
         {"project", "chain", "task", "dependency", "schedule", "run", "task_run", "log_line",
          "command", "engine_session", "connection_profile", "schema_version"})
        QVERIFY2(tables.contains(QLatin1String(table)), table);
}

void TestStore::open_isIdempotentAndKeepsData()
{
    HG_TEST_STORE(t);
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("kept")));
    t.close();
    std::unique_ptr<Store> again = t.openAnother(QStringLiteral("again"));
    QVERIFY(again);
    QVERIFY(ProjectRepository(*again).byName(QStringLiteral("kept")));
    QSqlQuery count(again->database());
    QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM schema_version")) && count.next());
    QCOMPARE(count.value(0).toInt(), Store::knownSchemaVersion(again->backend()));
}

void TestStore::open_refusesNewerSchemaAndChangesNothing()
{
    HG_TEST_STORE(t);
    const int newer = Store::knownSchemaVersion(t.store().backend()) + 1;
    QSqlQuery insert(t.store().database());
    QVERIFY(insert.exec(
        QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (%1, 0)")
            .arg(newer)));
    if (sqliteOnly()) // DELETE journal mode: what is on disk is the whole store
        QVERIFY(
            QSqlQuery(t.store().database()).exec(QStringLiteral("PRAGMA journal_mode = DELETE")));
    t.close();
    const QByteArray before = sqliteOnly() ? fileHash(t.location().sqlitePath()) : QByteArray();

    const Result<std::unique_ptr<Store>> refused =
        Store::open(t.location(), QStringLiteral("newer"));
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("newer")),
             qPrintable(refused.error().message));
    QVERIFY(!refused.error().isUserError());
    if (sqliteOnly()) {
        QCOMPARE(fileHash(t.location().sqlitePath()), before);
        QVERIFY(!QFileInfo::exists(t.location().sqlitePath() + QLatin1String("-wal")));
    }
}

void TestStore::open_sqliteUsesWalForeignKeysAndPrivateFiles()
{
    HG_TEST_STORE(t);
    QSqlQuery query(t.store().database());
    QVERIFY(query.exec(QStringLiteral("PRAGMA journal_mode")) && query.next());
    QCOMPARE(query.value(0).toString(), QStringLiteral("wal"));
    QVERIFY(query.exec(QStringLiteral("PRAGMA foreign_keys")) && query.next());
    QCOMPARE(query.value(0).toInt(), 1);
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("p"))); // makes the WAL file
    const auto ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        const QString path = t.location().sqlitePath() + suffix;
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        const QFileDevice::Permissions permissions = QFileInfo(path).permissions();
        QVERIFY2((permissions & ~(ownerOnly | QFileDevice::ReadUser | QFileDevice::WriteUser)) == 0,
                 qPrintable(path));
    }
}

void TestStore::open_createsPrivateDataDirectory()
{
    QTemporaryDir root;
    const QString directory = root.filePath(QStringLiteral("data/hourglass"));
    const Result<StoreLocation> location = StoreLocation::parse(directory + QLatin1String("/h.db"));
    QVERIFY(location);
    const Result<std::unique_ptr<Store>> store =
        Store::open(location.value(), QStringLiteral("dir"));
    QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    const QFileDevice::Permissions permissions = QFileInfo(directory).permissions();
    QVERIFY(permissions & QFileDevice::ExeOwner);
    QVERIFY(!(permissions
              & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::ExeGroup
                 | QFileDevice::ExeOther)));
}

// Two hard links are two names of one file, and SQLite journals and locks by name: two
// engines would write it at once. Refused under either name; a symbolic link is fine.
void TestStore::open_hardLinkedFileIsRefusedSymlinkIsNot()
{
    QTemporaryDir root;
    const QString path = root.filePath(QStringLiteral("h.db"));
    {
        const Result<std::unique_ptr<Store>> store =
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("first"));
        QVERIFY(store);
    }
    const QString symbolic = root.filePath(QStringLiteral("soft.db"));
    QVERIFY(QFile::link(path, symbolic));
    QVERIFY(Store::open(StoreLocation::parse(symbolic).value(), QStringLiteral("soft")));
    const QString hard = root.filePath(QStringLiteral("hard.db"));
    QCOMPARE(::link(QFile::encodeName(path).constData(), QFile::encodeName(hard).constData()), 0);
    for (const QString &name : {path, hard}) {
        const Result<std::unique_ptr<Store>> store =
            Store::open(StoreLocation::parse(name).value(), QStringLiteral("linked"));
        QVERIFY(!store);
        QVERIFY2(store.error().message.contains(QLatin1String("2 hard links")),
                 qPrintable(store.error().message));
    }
    QVERIFY(QFile::remove(hard));
    QVERIFY(Store::open(StoreLocation::parse(path).value(), QStringLiteral("again")));
}

void TestStore::open_unwritablePathIsAClearError()
{
    // A path below a regular file fails even for root, unlike a permission bit.
    QTemporaryDir root;
    QFile blocker(root.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const Result<StoreLocation> location =
        StoreLocation::parse(blocker.fileName() + QLatin1String("/sub/h.db"));
    QVERIFY(location);
    const Result<std::unique_ptr<Store>> store =
        Store::open(location.value(), QStringLiteral("bad"));
    QVERIFY(!store);
    QCOMPARE(store.error().kind, ErrorKind::Storage);
    QVERIFY2(store.error().message.contains(blocker.fileName()), qPrintable(store.error().message));
}

void TestStore::open_unreachablePostgresIsAClearError()
{
    // Port 1 on loopback: nothing listens, the refusal is immediate.
    const Result<StoreLocation> location =
        StoreLocation::parse(QStringLiteral("postgresql://nobody:pw@127.0.0.1:1/none"));
    QVERIFY(location);
    const Result<std::unique_ptr<Store>> store =
        Store::open(location.value(), QStringLiteral("pg"));
    QVERIFY(!store);
    QCOMPARE(store.error().kind, ErrorKind::Storage);
    QVERIFY2(store.error().message.contains(QLatin1String("127.0.0.1:1")),
             qPrintable(store.error().message));
    QVERIFY(!store.error().message.contains(QLatin1String("pw")));
}

void TestStore::transaction_rollsBackOnError()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    const Status status = t.store().transaction([&]() -> Status {
        if (!projects.add(QStringLiteral("first")))
            return Error::runtime(QStringLiteral("unexpected"));
        return Error::invalid(QStringLiteral("stop here"));
    });
    QVERIFY(!status);
    QCOMPARE(status.error().message, QStringLiteral("stop here"));
    QCOMPARE(projects.byName(QStringLiteral("first")).error().kind, ErrorKind::NotFound);
}

void TestStore::transaction_failedStatementWithoutSavepoint_rollsBackAllOfIt()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    Status failed;
    Status after;
    const Status status = t.store().transaction([&]() -> Status {
        if (!projects.add(QStringLiteral("first")))
            return Error::runtime(QStringLiteral("unexpected"));
        StoreQuery broken(t.store(), QStringLiteral("SELECT 1 / (SELECT COUNT(*) - COUNT(*) "
                                                    "FROM project)"));
        broken.withoutSavepoint();
        failed = broken.exec(QStringLiteral("divide"));
        // Nothing more is sent: the statements after it fail at once, as "try again".
        StoreQuery next(t.store(), QStringLiteral("SELECT 1"));
        after = next.exec(QStringLiteral("go on"));
        return Status{}; // the caller carries on: the store still rolls it all back
    });
    QVERIFY(!failed);
    QCOMPARE(failed.error().kind, ErrorKind::Storage);
    QVERIFY(failed.error().message.contains(QLatin1String("division by zero")));
    QVERIFY(!after);
    QCOMPARE(after.error().kind, ErrorKind::Unavailable);
    QVERIFY(!status);
    QVERIFY(status.error().message.contains(QLatin1String("division by zero")));
    QCOMPARE(projects.byName(QStringLiteral("first")).error().kind, ErrorKind::NotFound);
    // The store is sound afterwards: neither unreachable nor stuck in the aborted transaction.
    QVERIFY(t.store().isReachable());
    QVERIFY(projects.add(QStringLiteral("second")));
}

void TestStore::statements_keptForAtMost256Texts()
{
    HG_TEST_STORE(t);
    // Statements with ids written into them are all different: the pool must not keep each.
    for (int i = 0; i < 1000; ++i) {
        StoreQuery q(t.store(), QStringLiteral("SELECT %1").arg(i));
        QVERIFY(q.exec(QStringLiteral("select")));
    }
    // Kept for reuse up to the bound, then one goes for each new text.
    QCOMPARE(t.store().pooledTexts(), Store::maxPooledTexts);
    if (t.store().backend() != StoreBackend::PostgreSql)
        return; // SQLite keeps them in this process alone: the pool is all there is to count
    // The server holds no more than the pool (and the few statements outside it).
    QSqlQuery prepared(t.store().database());
    QVERIFY(prepared.exec(QStringLiteral("SELECT COUNT(*) FROM pg_prepared_statements")));
    QVERIFY(prepared.next());
    QVERIFY2(prepared.value(0).toInt() <= 256 + 16, qPrintable(prepared.value(0).toString()));
}

void TestStore::lockWait_endsAfterTenSecondsAsTryAgain()
{
    HG_TEST_STORE(t);
    const Result<Project> project = ProjectRepository(t.store()).add(QStringLiteral("p"));
    QVERIFY(project);
    // Another session holds the table: a write waits for it at most ten seconds, then is
    // refused as "try again", so the engine's thread is never held inside libpq for good.
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("locker"));
    QSqlQuery lock(other->database());
    QVERIFY(lock.exec(QStringLiteral("BEGIN")));
    QVERIFY(lock.exec(QStringLiteral("LOCK TABLE project IN ACCESS EXCLUSIVE MODE")));
    QElapsedTimer waited;
    waited.start();
    StoreQuery rename(t.store(), QStringLiteral("UPDATE project SET name = 'q' WHERE id = ?"));
    rename.bind(project->id);
    const Status renamed = rename.exec(QStringLiteral("rename project"));
    const qint64 ms = waited.elapsed();
    QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
    QVERIFY(!renamed);
    QVERIFY2(renamed.error().kind == ErrorKind::Unavailable, qPrintable(renamed.error().message));
    QVERIFY2(ms >= 9000 && ms < 20000, qPrintable(QString::number(ms)));
    QVERIFY(t.store().isReachable());
}

void TestStore::splitStatements_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("count");
    QTest::newRow("two statements")
        << QStringLiteral("CREATE TABLE a (x);\nCREATE TABLE b (y);\n") << 2;
    QTest::newRow("comment lines skipped")
        << QStringLiteral("-- a comment;\nCREATE TABLE a (x);\n") << 1;
    QTest::newRow("semicolon inside a string")
        << QStringLiteral("INSERT INTO a VALUES ('x;\ny');\nSELECT 1;\n") << 2;
    QTest::newRow("a SQLite trigger's body")
        << QStringLiteral("CREATE TRIGGER t AFTER INSERT ON a BEGIN\n    UPDATE b SET y = 1;\n"
                          "    INSERT INTO c VALUES (1);\nEND;\nSELECT 1;\n")
        << 2;
}

void TestStore::splitStatements()
{
    QFETCH(QString, script);
    QTEST(int(Migrator::splitStatements(script).size()), "count");
}

// Found by helper-9: with the store's file deleted under an open window, an edit "saved" into
// the unlinked file and was gone at exit, without a word. Writes are refused, naming why; the
// same for a file replaced by another (a copy moved over it).
void TestStore::fileRemovedWhileOpen_writesAreRefusedNamingIt()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    QVERIFY(projects.add(QStringLiteral("before")));
    const QString path = t.location().sqlitePath();
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(path + suffix);
    const Result<Project> lost = projects.add(QStringLiteral("ghost"));
    QVERIFY(!lost);
    QVERIFY2(lost.error().message.contains(QLatin1String("was removed or replaced")),
             qPrintable(lost.error().message));
    const Status inTransaction = t.store().transaction([&]() -> Status {
        return projects.add(QStringLiteral("ghost2")).ok() ? Status{} : Error::storage({});
    });
    QVERIFY(!inTransaction);
    QVERIFY(inTransaction.error().message.contains(QLatin1String("was removed or replaced")));

    // Replaced: another file at the path (a new store there) is not this connection's.
    QFile other(path);
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.close();
    QVERIFY(!projects.add(QStringLiteral("ghost3")));
}

HG_BACKEND_TEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
