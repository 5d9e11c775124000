#include "domain/dependencygraph.h"

#include <QTest>

using namespace hg;

class TestDependencyGraph final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cycleIfAdded_data();
    void cycleIfAdded();
    void findCycle_reportsCycleOfImportedGraph();
    void findCycle_emptyForDag();
};

namespace {

// Tasks 1..5 named a..e; edges given as "upstream>task".
QHash<qint64, QString> names()
{
    return {{1, QStringLiteral("a")},
            {2, QStringLiteral("b")},
            {3, QStringLiteral("c")},
            {4, QStringLiteral("d")},
            {5, QStringLiteral("e")}};
}

QList<Dependency> edges(const QStringList &pairs)
{
    QList<Dependency> result;
    for (const QString &pair : pairs) {
        const qint64 upstream = pair.at(0).unicode() - 'a' + 1;
        const qint64 task = pair.at(2).unicode() - 'a' + 1;
        result << Dependency{task, upstream, DependencyCondition::Success, {}, {}};
    }
    return result;
}

} // namespace

void TestDependencyGraph::cycleIfAdded_data()
{
    QTest::addColumn<QStringList>("existing");
    QTest::addColumn<qint64>("task");
    QTest::addColumn<qint64>("upstream");
    QTest::addColumn<QString>("cycle");

    QTest::newRow("independent edge is fine")
        << QStringList{QStringLiteral("a>b")} << qint64(3) << qint64(2) << QString();
    QTest::newRow("diamond join is fine")
        << QStringList{QStringLiteral("a>b"), QStringLiteral("a>c"), QStringLiteral("b>d")}
        << qint64(4) << qint64(3) << QString();
    QTest::newRow("self edge") << QStringList{} << qint64(1) << qint64(1)
                               << QStringLiteral("a → a");
    QTest::newRow("two-node cycle") << QStringList{QStringLiteral("a>b")} << qint64(1) << qint64(2)
                                    << QStringLiteral("b → a → b");
    QTest::newRow("three-node cycle names every task")
        << QStringList{QStringLiteral("a>b"), QStringLiteral("b>c")} << qint64(1) << qint64(3)
        << QStringLiteral("c → a → b → c");
    QTest::newRow("shortest cycle is reported")
        << QStringList{QStringLiteral("a>b"), QStringLiteral("b>c"), QStringLiteral("c>d"),
                       QStringLiteral("a>d")}
        << qint64(1) << qint64(4) << QStringLiteral("d → a → d");
}

void TestDependencyGraph::cycleIfAdded()
{
    QFETCH(QStringList, existing);
    QFETCH(qint64, task);
    QFETCH(qint64, upstream);
    QFETCH(QString, cycle);
    const DependencyGraph graph(names(), edges(existing));
    QCOMPARE(DependencyGraph::describeCycle(graph.cycleIfAdded(task, upstream)), cycle);
}

void TestDependencyGraph::findCycle_reportsCycleOfImportedGraph()
{
    const DependencyGraph graph(names(), edges({QStringLiteral("a>b"), QStringLiteral("b>c"),
                                                QStringLiteral("c>a"), QStringLiteral("d>e")}));
    QCOMPARE(DependencyGraph::describeCycle(graph.findCycle()), QStringLiteral("a → b → c → a"));
}

void TestDependencyGraph::findCycle_emptyForDag()
{
    const DependencyGraph graph(names(), edges({QStringLiteral("a>b"), QStringLiteral("a>c"),
                                                QStringLiteral("b>d"), QStringLiteral("c>d")}));
    QVERIFY(graph.findCycle().isEmpty());
}

QTEST_GUILESS_MAIN(TestDependencyGraph)
#include "tst_dependencygraph.moc"
