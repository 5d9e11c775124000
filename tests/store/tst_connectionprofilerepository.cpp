#include "fixtures.h"
#include "store/connectionprofilerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestConnectionProfileRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_keepsFieldsButNoPassword();
    void add_refusesDuplicateAndBadPort();
    void remove_refusedWhileATaskUsesIt();
};

void TestConnectionProfileRepository::add_keepsFieldsButNoPassword()
{
    HG_TEST_STORE(t);
    ConnectionProfile p;
    p.name = QStringLiteral("timetable");
    p.kind = ConnectionKind::PgTimetable;
    p.host = QStringLiteral("db.local");
    p.port = 5432;
    p.database = QStringLiteral("tt");
    p.userName = QStringLiteral("scheduler");
    p.options = QStringLiteral("sslmode=require");
    p.keychainKey = QStringLiteral("hourglass/timetable");
    ConnectionProfileRepository profiles(t.store());
    QVERIFY(profiles.add(p));
    const Result<ConnectionProfile> read = profiles.byName(QStringLiteral("timetable"));
    QVERIFY(read);
    QCOMPARE(read->kind, ConnectionKind::PgTimetable);
    QCOMPARE(read->host, p.host);
    QCOMPARE(read->port, 5432);
    QCOMPARE(read->database, p.database);
    QCOMPARE(read->userName, p.userName);
    QCOMPARE(read->options, p.options);
    QCOMPARE(read->keychainKey, p.keychainKey);
    QCOMPARE(profiles.list()->size(), 1);
}

void TestConnectionProfileRepository::add_refusesDuplicateAndBadPort()
{
    HG_TEST_STORE(t);
    ConnectionProfile p;
    p.name = QStringLiteral("x");
    ConnectionProfileRepository profiles(t.store());
    QVERIFY(profiles.add(p));
    QCOMPARE(profiles.add(p).error().kind, ErrorKind::AlreadyExists);
    p.name = QStringLiteral("y");
    p.port = 70000;
    QCOMPARE(profiles.add(p).error().kind, ErrorKind::Invalid);
}

void TestConnectionProfileRepository::remove_refusedWhileATaskUsesIt()
{
    HG_TEST_STORE(t);
    ConnectionProfile p;
    p.name = QStringLiteral("db");
    ConnectionProfileRepository profiles(t.store());
    QVERIFY(profiles.add(p));
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task task;
    task.chainId = chain.id;
    task.name = QStringLiteral("q");
    task.kind = TaskKind::Sql;
    task.command = QStringLiteral("SELECT 1");
    task.connectionName = QStringLiteral("db");
    QVERIFY(TaskRepository(t.store()).add(task));
    const Status refused = profiles.remove(QStringLiteral("db"));
    QCOMPARE(refused.error().message, QStringLiteral("connection 'db' is still used by a task"));
    QVERIFY(profiles.byName(QStringLiteral("db")));
    QCOMPARE(profiles.remove(QStringLiteral("none")).error().kind, ErrorKind::NotFound);
}

QTEST_GUILESS_MAIN(TestConnectionProfileRepository)
#include "tst_connectionprofilerepository.moc"
