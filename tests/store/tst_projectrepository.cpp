#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestProjectRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_thenFindByNameAndId();
    void add_refusesDuplicateName();
    void add_refusesBadName();
    void list_isSortedByName();
    void rename_refusesTakenName();
    void remove_refusesNonEmptyProjectUnlessForced();
    void remove_unknownProjectIsNotFound();
};

void TestProjectRepository::add_thenFindByNameAndId()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    const Result<Project> added = projects.add(QStringLiteral("ops"), QStringLiteral("Operations"));
    QVERIFY(added);
    QVERIFY(added->id > 0);
    const Result<Project> byName = projects.byName(QStringLiteral("ops"));
    QVERIFY(byName);
    QCOMPARE(byName->id, added->id);
    QCOMPARE(byName->description, QStringLiteral("Operations"));
    QVERIFY(byName->createdAt.isValid());
    QCOMPARE(projects.byId(added->id)->name, QStringLiteral("ops"));
}

void TestProjectRepository::add_refusesDuplicateName()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    QVERIFY(projects.add(QStringLiteral("ops")));
    const Result<Project> again = projects.add(QStringLiteral("ops"));
    QVERIFY(!again);
    QCOMPARE(again.error().kind, ErrorKind::AlreadyExists);
    QCOMPARE(again.error().message, QStringLiteral("project 'ops' already exists"));
}

void TestProjectRepository::add_refusesBadName()
{
    HG_TEST_STORE(t);
    const Result<Project> bad = ProjectRepository(t.store()).add(QStringLiteral("a/b"));
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, ErrorKind::Invalid);
}

void TestProjectRepository::list_isSortedByName()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    for (const char *name : {"zeta", "alpha", "mid"})
        QVERIFY(projects.add(QLatin1String(name)));
    const Result<QList<Project>> list = projects.list();
    QVERIFY(list);
    QStringList names;
    for (const Project &p : list.value())
        names << p.name;
    QCOMPARE(names,
             (QStringList{QStringLiteral("alpha"), QStringLiteral("mid"), QStringLiteral("zeta")}));
}

void TestProjectRepository::rename_refusesTakenName()
{
    HG_TEST_STORE(t);
    ProjectRepository projects(t.store());
    const Result<Project> a = projects.add(QStringLiteral("a"));
    QVERIFY(projects.add(QStringLiteral("b")));
    const Status taken = projects.rename(a->id, QStringLiteral("b"));
    QCOMPARE(taken.error().kind, ErrorKind::AlreadyExists);
    QVERIFY(projects.rename(a->id, QStringLiteral("c")));
    QVERIFY(projects.byName(QStringLiteral("c")));
}

void TestProjectRepository::remove_refusesNonEmptyProjectUnlessForced()
{
    HG_TEST_STORE(t);
    QVERIFY(test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("nightly")).id > 0);
    ProjectRepository projects(t.store());
    const Status refused = projects.remove(QStringLiteral("ops"), false);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("1 chain")),
             qPrintable(refused.error().message));
    QVERIFY(projects.byName(QStringLiteral("ops")));
    QVERIFY(projects.remove(QStringLiteral("ops"), true));
    QCOMPARE(projects.byName(QStringLiteral("ops")).error().kind, ErrorKind::NotFound);
    QVERIFY(ChainRepository(t.store()).list()->isEmpty());
}

void TestProjectRepository::remove_unknownProjectIsNotFound()
{
    HG_TEST_STORE(t);
    const Status status = ProjectRepository(t.store()).remove(QStringLiteral("nope"), false);
    QCOMPARE(status.error().kind, ErrorKind::NotFound);
    QCOMPARE(status.error().message, QStringLiteral("unknown project 'nope'"));
}

QTEST_GUILESS_MAIN(TestProjectRepository)
#include "tst_projectrepository.moc"
