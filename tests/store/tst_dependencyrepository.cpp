#include "fixtures.h"
#include "store/dependencyrepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestDependencyRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup() { m_store.reset(); }
    void add_listsEdgesWithNamesAndConditions();
    void add_refusesCycleAndNamesIt();
    void add_refusesDuplicateEdge();
    void add_refusesTaskOfAnotherChain();
    void remove_deletesOnlyThatEdge();
    void removingTask_removesItsEdges();

private:
    std::unique_ptr<test::TestStore> m_store;
    qint64 m_chain = 0;
    qint64 m_a = 0, m_b = 0, m_c = 0;
};

void TestDependencyRepository::init()
{
    m_store = std::make_unique<test::TestStore>();
    if (!m_store->create()) {
        if (!test::requireServers() && test::postgresUrl().isEmpty())
            QSKIP(qPrintable(m_store->error()));
        QFAIL(qPrintable(m_store->error()));
    }
    Store &store = m_store->store();
    m_chain = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c")).id;
    m_a = test::makeTask(store, m_chain, QStringLiteral("a")).id;
    m_b = test::makeTask(store, m_chain, QStringLiteral("b")).id;
    m_c = test::makeTask(store, m_chain, QStringLiteral("c")).id;
    QVERIFY(m_a > 0 && m_b > 0 && m_c > 0);
}

void TestDependencyRepository::add_listsEdgesWithNamesAndConditions()
{
    DependencyRepository deps(m_store->store());
    QVERIFY(deps.add(m_chain, m_b, m_a, DependencyCondition::Success));
    QVERIFY(deps.add(m_chain, m_c, m_b, DependencyCondition::Failure));
    const Result<QList<Dependency>> edges = deps.list(m_chain);
    QVERIFY(edges);
    QCOMPARE(edges->size(), 2);
    QCOMPARE(edges->at(0).taskName, QStringLiteral("b"));
    QCOMPARE(edges->at(0).upstreamName, QStringLiteral("a"));
    QCOMPARE(edges->at(1).condition, DependencyCondition::Failure);
}

void TestDependencyRepository::add_refusesCycleAndNamesIt()
{
    DependencyRepository deps(m_store->store());
    QVERIFY(deps.add(m_chain, m_b, m_a, DependencyCondition::Success));
    QVERIFY(deps.add(m_chain, m_c, m_b, DependencyCondition::Success));
    const Status cycle = deps.add(m_chain, m_a, m_c, DependencyCondition::Completion);
    QVERIFY(!cycle);
    QCOMPARE(cycle.error().kind, ErrorKind::Invalid);
    QCOMPARE(cycle.error().message,
             QStringLiteral("dependency would close a cycle: c → a → b → c"));
    QCOMPARE(deps.list(m_chain)->size(), 2); // nothing was written
}

void TestDependencyRepository::add_refusesDuplicateEdge()
{
    DependencyRepository deps(m_store->store());
    QVERIFY(deps.add(m_chain, m_b, m_a, DependencyCondition::Success));
    QCOMPARE(deps.add(m_chain, m_b, m_a, DependencyCondition::Failure).error().kind,
             ErrorKind::AlreadyExists);
}

void TestDependencyRepository::add_refusesTaskOfAnotherChain()
{
    const qint64 other =
        test::makeChain(m_store->store(), QStringLiteral("p"), QStringLiteral("o")).id;
    const qint64 x = test::makeTask(m_store->store(), other, QStringLiteral("x")).id;
    const Status status =
        DependencyRepository(m_store->store()).add(m_chain, m_a, x, DependencyCondition::Success);
    QCOMPARE(status.error().kind, ErrorKind::Invalid);
}

void TestDependencyRepository::remove_deletesOnlyThatEdge()
{
    DependencyRepository deps(m_store->store());
    QVERIFY(deps.add(m_chain, m_b, m_a, DependencyCondition::Success));
    QVERIFY(deps.add(m_chain, m_c, m_a, DependencyCondition::Success));
    QVERIFY(deps.remove(m_b, m_a));
    QCOMPARE(deps.list(m_chain)->size(), 1);
    QCOMPARE(deps.remove(m_b, m_a).error().kind, ErrorKind::NotFound);
}

void TestDependencyRepository::removingTask_removesItsEdges()
{
    DependencyRepository deps(m_store->store());
    QVERIFY(deps.add(m_chain, m_b, m_a, DependencyCondition::Success));
    QVERIFY(TaskRepository(m_store->store()).remove(m_a));
    QVERIFY(deps.list(m_chain)->isEmpty());
}

QTEST_GUILESS_MAIN(TestDependencyRepository)
#include "tst_dependencyrepository.moc"
