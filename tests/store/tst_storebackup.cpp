#include "base/epochtime.h"
#include "fixtures.h"
#include "store/dailybackups.h"
#include "store/enginesessionrepository.h"
#include "store/projectrepository.h"
#include "store/sqlitecopy.h"
#include "store/store.h"
#include "store/storebackup.h"
#include "store/storerestore.h"
#include "storedamage.h"
#include "teststore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace hg;

// Backups through SQLite's online backup API and restores that replace the store in one
// rename, on real files: what must never happen is a backup that does not open, a restore
// under a serving engine, or a restore that loses the store it replaced.
class TestStoreBackup final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void backup_isOneCheckedPrivateFileWithTheData();
    void backup_isConsistentWhileAnotherConnectionWrites();
    void backup_refusesAnExistingFileADamagedStoreAndPostgres();
    void restore_putsTheBackupBackAndKeepsTheStoreItReplaced();
    void restore_isRefusedWhileAnEngineServesAndNamesIt();
    void restore_refusesADamagedOrNewerBackup();
    void restore_replacesADamagedStore();
    void restore_refusesAFileThatOnlyLooksLikeAStore();
    void daily_oneADayTheNewestKeptOthersLeftAlone();

private:
    static int projectCount(const QString &path);
    // Enough rows for the project table to span many pages.
    static bool addProjects(Store &store, int count);
};

bool TestStoreBackup::addProjects(Store &store, int count)
{
    return QSqlQuery(store.database())
        .exec(QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
                             "WHERE i < %1) INSERT INTO project (name, description, created_at) "
                             "SELECT 'x' || n.i, 'a project of the test', 0 FROM n")
                  .arg(count - 1));
}

int TestStoreBackup::projectCount(const QString &path)
{
    Result<std::unique_ptr<Store>> store =
        Store::open(StoreLocation::parse(path).value(), QStringLiteral("count"));
    if (!store)
        return -1;
    const Result<QList<Project>> projects = ProjectRepository(*store.value()).list();
    return projects ? int(projects->size()) : -1;
}

void TestStoreBackup::backup_isOneCheckedPrivateFileWithTheData()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QVERIFY(test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("nightly")).id > 0);
    const QString target =
        StoreBackup::defaultPath(t.location(), QDateTime(QDate(2024, 5, 1), QTime(12, 3, 4)));
    QCOMPARE(QFileInfo(target).fileName(), QStringLiteral("hourglass-backup-20240501-120304.db"));
    QCOMPARE(QFileInfo(target).absolutePath(), QFileInfo(t.location().sqlitePath()).absolutePath());

    const Result<StoreBackup::Written> written = StoreBackup::write(t.store(), target);
    QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
    QCOMPARE(written->path, target);
    QCOMPARE(written->bytes, QFileInfo(target).size());
    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                            | QFileDevice::ReadOther | QFileDevice::WriteOther;
    QCOMPARE(QFile::permissions(target) & others, QFileDevice::Permissions());
    // One self-contained file: nothing half-written or beside it.
    for (const char *suffix : {".partial", "-wal", "-journal"})
        QVERIFY2(!QFileInfo::exists(target + QLatin1String(suffix)), suffix);
    QCOMPARE(StoreRestore::check(target).value(), t.store().schemaVersion());
    QCOMPARE(projectCount(target), 1);
}

void TestStoreBackup::backup_isConsistentWhileAnotherConnectionWrites()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    std::atomic<bool> stop = false;
    std::atomic<int> written = 0;
    // A writer of its own, as a serving engine would be: a project a transaction.
    QThread *writer = QThread::create([&] {
        std::unique_ptr<Store> store = t.openAnother(QStringLiteral("writer"));
        while (!stop) {
            if (ProjectRepository(*store).add(QStringLiteral("p%1").arg(written.load())))
                ++written;
        }
    });
    writer->start();
    QTRY_VERIFY(written > 50);
    QTemporaryDir dir;
    QList<int> counts;
    for (int i = 0; i < 5; ++i) {
        const QString target = dir.filePath(QStringLiteral("b%1.db").arg(i));
        const Result<StoreBackup::Written> backup = StoreBackup::write(t.store(), target);
        QVERIFY2(backup, qPrintable(backup ? QString() : backup.error().message));
        QVERIFY(StoreRestore::check(target)); // integrity_check passes
        counts << projectCount(target);
    }
    stop = true;
    writer->wait();
    delete writer;
    // Each copy is one moment of the store: later copies hold more, none holds a torn write.
    for (qsizetype i = 1; i < counts.size(); ++i)
        QVERIFY2(counts.at(i) >= counts.at(i - 1), qPrintable(QString::number(counts.at(i))));
    QVERIFY(counts.constLast() <= written);
}

void TestStoreBackup::backup_refusesAnExistingFileADamagedStoreAndPostgres()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QTemporaryDir dir;
    const QString existing = dir.filePath(QStringLiteral("mine.txt"));
    QFile file(existing);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("keep me");
    file.close();
    const Result<StoreBackup::Written> over = StoreBackup::write(t.store(), existing);
    QVERIFY(!over);
    QCOMPARE(over.error().kind, ErrorKind::AlreadyExists);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("keep me"));
    file.close();

    QVERIFY(addProjects(t.store(), 1000));
    t.close();
    QCOMPARE(test::damageTablePage(t.location().sqlitePath(), QStringLiteral("project")),
             QString());
    Store::Options readOnly;
    readOnly.readOnlyWhenDamaged = true;
    Result<std::unique_ptr<Store>> damaged =
        Store::open(t.location(), QStringLiteral("t"), readOnly);
    QVERIFY(damaged);
    const Result<StoreBackup::Written> ofDamage =
        StoreBackup::write(*damaged.value(), dir.filePath(QStringLiteral("b.db")));
    QVERIFY(!ofDamage);
    QCOMPARE(ofDamage.error().kind, ErrorKind::Damaged);
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("b.db"))));

    const StoreLocation postgres =
        StoreLocation::parse(QStringLiteral("postgresql://u@db.example/hourglass")).value();
    QVERIFY(StoreBackup::postgresAdvice(postgres).contains(QLatin1String("pg_dump")));
    const Result<StoreRestore::Restored> restored = StoreRestore::restore(postgres, existing);
    QVERIFY(!restored);
    QVERIFY(restored.error().message.contains(QLatin1String("pg_restore")));
}

void TestStoreBackup::restore_putsTheBackupBackAndKeepsTheStoreItReplaced()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("before")));
    QTemporaryDir dir;
    const QString backup = dir.filePath(QStringLiteral("backup.db"));
    QVERIFY(StoreBackup::write(t.store(), backup));
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("after")));
    t.close(); // the WAL still holds "after": a restore must keep it with the old store

    const Result<StoreRestore::Restored> restored = StoreRestore::restore(t.location(), backup);
    QVERIFY2(restored, qPrintable(restored ? QString() : restored.error().message));
    QVERIFY(restored->keptAs.contains(QLatin1String("hourglass-before-restore-")));
    QCOMPARE(projectCount(t.location().sqlitePath()), 1);
    QCOMPARE(projectCount(restored->keptAs), 2);
    QVERIFY(!QFileInfo::exists(t.location().sqlitePath() + QStringLiteral(".restoring")));
    QCOMPARE(StoreRestore::restore(t.location(), t.location().sqlitePath()).error().kind,
             ErrorKind::Invalid); // the store itself

    // Again within the same second: the store replaced now is kept under a name of its own
    // (it was "cannot keep", no reason given; helper-11). And through a link to the store,
    // the store is restored and the link stays a link (it was replaced by the file).
    const QString link = dir.filePath(QStringLiteral("link.db"));
    QVERIFY(QFile::link(t.location().sqlitePath(), link));
    const Result<StoreRestore::Restored> again =
        StoreRestore::restore(StoreLocation::parse(link).value(), backup);
    QVERIFY2(again, qPrintable(again ? QString() : again.error().message));
    QVERIFY(again->keptAs != restored->keptAs);
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(QFileInfo::exists(again->keptAs));
    QCOMPARE(projectCount(t.location().sqlitePath()), 1);
}

void TestStoreBackup::restore_isRefusedWhileAnEngineServesAndNamesIt()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QTemporaryDir dir;
    const QString backup = dir.filePath(QStringLiteral("backup.db"));
    QVERIFY(StoreBackup::write(t.store(), backup));
    EngineSession session;
    session.name = QStringLiteral("serve-1");
    session.host = QSysInfo::machineHostName();
    session.pid = QCoreApplication::applicationPid(); // alive: this test
    const QDateTime since = QDateTime::currentDateTimeUtc().addSecs(-90);
    session.leaseUntil = since.addSecs(3600);
    QVERIFY(EngineSessionRepository(t.store()).acquire(session, since));
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("kept")));
    t.close();
    const QByteArray before = test::storeFilesHash(t.location().sqlitePath());

    const Result<StoreRestore::Restored> refused = StoreRestore::restore(t.location(), backup);
    QVERIFY(!refused);
    QCOMPARE(refused.error().kind, ErrorKind::Runtime);
    const QString &why = refused.error().message;
    QVERIFY2(why.contains(QStringLiteral("'serve-1', pid %1 on %2")
                              .arg(QCoreApplication::applicationPid())
                              .arg(QSysInfo::machineHostName())),
             qPrintable(why));
    QVERIFY2(why.contains(since.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))),
             qPrintable(why));
    QCOMPARE(test::storeFilesHash(t.location().sqlitePath()), before);
    QCOMPARE(projectCount(t.location().sqlitePath()), 1);
}

void TestStoreBackup::restore_refusesADamagedOrNewerBackup()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QVERIFY(addProjects(t.store(), 1000));
    QTemporaryDir dir;
    const QString damaged = dir.filePath(QStringLiteral("damaged.db"));
    const QString newer = dir.filePath(QStringLiteral("newer.db"));
    QVERIFY(StoreBackup::write(t.store(), damaged));
    QVERIFY(StoreBackup::write(t.store(), newer));
    QCOMPARE(test::damageTablePage(damaged, QStringLiteral("project")), QString());
    {
        Result<std::unique_ptr<Store>> future =
            Store::open(StoreLocation::parse(newer).value(), QStringLiteral("future"));
        QVERIFY(future);
        QVERIFY(QSqlQuery(future.value()->database())
                    .exec(QStringLiteral("INSERT INTO schema_version VALUES (999, 0)")));
    }
    t.close();
    const QByteArray before = test::storeFilesHash(t.location().sqlitePath());

    const Result<StoreRestore::Restored> fromDamage = StoreRestore::restore(t.location(), damaged);
    QVERIFY(!fromDamage);
    QCOMPARE(fromDamage.error().kind, ErrorKind::Damaged);
    QVERIFY2(fromDamage.error().message.contains(damaged), qPrintable(fromDamage.error().message));
    const Result<StoreRestore::Restored> fromFuture = StoreRestore::restore(t.location(), newer);
    QVERIFY(!fromFuture);
    QVERIFY2(fromFuture.error().message.contains(QLatin1String("schema version 999")),
             qPrintable(fromFuture.error().message));
    const Result<StoreRestore::Restored> fromNothing =
        StoreRestore::restore(t.location(), dir.filePath(QStringLiteral("missing.db")));
    QCOMPARE(fromNothing.error().kind, ErrorKind::NotFound);
    QCOMPARE(test::storeFilesHash(t.location().sqlitePath()), before);
}

// A schema_version row alone was enough: every command failed on the restored file.
void TestStoreBackup::restore_refusesAFileThatOnlyLooksLikeAStore()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QVERIFY(addProjects(t.store(), 3));
    t.close();
    QTemporaryDir dir;
    const QString impostor = dir.filePath(QStringLiteral("impostor.db"));
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("impostor"));
        db.setDatabaseName(impostor);
        QVERIFY(db.open());
        QSqlQuery query(db);
        QVERIFY(query.exec(
            QStringLiteral("CREATE TABLE schema_version (version INTEGER, applied_at BIGINT)")));
        QVERIFY(query.exec(QStringLiteral("INSERT INTO schema_version VALUES (1, 0)")));
        QVERIFY(query.exec(QStringLiteral("CREATE TABLE project (id INTEGER PRIMARY KEY)")));
        query.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("impostor"));
    const QByteArray before = test::storeFilesHash(t.location().sqlitePath());
    const Result<StoreRestore::Restored> restored = StoreRestore::restore(t.location(), impostor);
    QVERIFY(!restored);
    QCOMPARE(restored.error().kind, ErrorKind::Invalid);
    QVERIFY2(restored.error().message.contains(QLatin1String("is not a Hourglass store"))
                 && restored.error().message.contains(QLatin1String("lacks chain")),
             qPrintable(restored.error().message));
    QCOMPARE(test::storeFilesHash(t.location().sqlitePath()), before);
}

void TestStoreBackup::restore_replacesADamagedStore()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    QVERIFY(addProjects(t.store(), 1000));
    QTemporaryDir dir;
    const QString backup = dir.filePath(QStringLiteral("backup.db"));
    QVERIFY(StoreBackup::write(t.store(), backup));
    t.close();
    QCOMPARE(test::damageTablePage(t.location().sqlitePath(), QStringLiteral("project")),
             QString());
    QCOMPARE(Store::open(t.location(), QStringLiteral("t")).error().kind, ErrorKind::Damaged);

    const Result<StoreRestore::Restored> restored = StoreRestore::restore(t.location(), backup);
    QVERIFY2(restored, qPrintable(restored ? QString() : restored.error().message));
    QCOMPARE(projectCount(t.location().sqlitePath()), 1000);
    // The damaged store is kept as it was, damage and all.
    QCOMPARE(Store::open(StoreLocation::parse(restored->keptAs).value(), QStringLiteral("k"))
                 .error()
                 .kind,
             ErrorKind::Damaged);
}

void TestStoreBackup::daily_oneADayTheNewestKeptOthersLeftAlone()
{
    test::TestStore t;
    QVERIFY2(t.create(), qPrintable(t.error()));
    const QString folder = QFileInfo(t.location().sqlitePath()).absolutePath();
    const QString manual = StoreBackup::defaultPath(t.location(), QDateTime::currentDateTime());
    QVERIFY(StoreBackup::write(t.store(), manual));
    const QDate first(2024, 5, 1);
    for (int day = 0; day < 5; ++day) {
        const Result<QString> taken = DailyBackups::takeIfDue(t.store(), first.addDays(day), 3);
        QVERIFY2(taken, qPrintable(taken ? QString() : taken.error().message));
        QCOMPARE(*taken, DailyBackups::pathFor(t.location(), first.addDays(day)));
        // Once a day: a second start the same day takes none.
        QCOMPARE(DailyBackups::takeIfDue(t.store(), first.addDays(day), 3).value(), QString());
    }
    QCOMPARE(DailyBackups::existing(t.location()),
             (QStringList{DailyBackups::pathFor(t.location(), first.addDays(4)),
                          DailyBackups::pathFor(t.location(), first.addDays(3)),
                          DailyBackups::pathFor(t.location(), first.addDays(2))}));
    QVERIFY(QFileInfo::exists(manual)); // the user's own backup is theirs
    QVERIFY(QFileInfo::exists(t.location().sqlitePath()));
    // 0 turns them off: nothing taken, nothing removed.
    QCOMPARE(DailyBackups::takeIfDue(t.store(), first.addDays(9), 0).value(), QString());
    QCOMPARE(DailyBackups::existing(t.location()).size(), 3);
    QCOMPARE(QFileInfo(DailyBackups::pathFor(t.location(), first)).fileName(),
             QStringLiteral("hourglass-daily-20240501.db"));
    QCOMPARE(QDir(folder).entryList({QStringLiteral("*.partial")}, QDir::Files), QStringList());
}

QTEST_GUILESS_MAIN(TestStoreBackup)
#include "tst_storebackup.moc"
