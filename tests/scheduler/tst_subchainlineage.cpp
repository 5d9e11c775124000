#include "fixtures.h"
#include "scheduler/subchainlineage.h"
#include "store/runrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

// A SUBCHAIN task's child run and the cycle check along the run's ancestors.
class TestSubchainLineage final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void childRun_data();
    void childRun();
};

void TestSubchainLineage::childRun_data()
{
    QTest::addColumn<QStringList>("lineage"); // chains of the parent's ancestry, root first
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("error"); // empty: the child run is made
    QTest::newRow("another chain")
        << QStringList{QStringLiteral("a")} << QStringLiteral("p/b") << QString();
    QTest::newRow("deep, no cycle") << QStringList{QStringLiteral("a"), QStringLiteral("b")}
                                    << QStringLiteral("p/c") << QString();
    QTest::newRow("itself") << QStringList{QStringLiteral("a")} << QStringLiteral("p/a")
                            << QStringLiteral("subchain cycle: p/a → p/a");
    QTest::newRow("its grandparent")
        << QStringList{QStringLiteral("a"), QStringLiteral("b")} << QStringLiteral("p/a")
        << QStringLiteral("subchain cycle: p/a → p/b → p/a");
    QTest::newRow("an ancestor in the middle: the cycle only, not the whole lineage")
        << QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}
        << QStringLiteral("p/b") << QStringLiteral("subchain cycle: p/b → p/c → p/b");
    QTest::newRow("no such chain")
        << QStringList{QStringLiteral("a")} << QStringLiteral("p/missing")
        << QStringLiteral("subchain p/missing: ");
    QTest::newRow("not a path") << QStringList{QStringLiteral("a")} << QStringLiteral("missing")
                                << QStringLiteral("subchain missing: ");
}

void TestSubchainLineage::childRun()
{
    QFETCH(QStringList, lineage);
    QFETCH(QString, path);
    QFETCH(QString, error);
    HG_TEST_STORE(t);
    QHash<QString, qint64> chains;
    for (const char *name : {"a", "b", "c"}) {
        const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QLatin1String(name));
        QVERIFY(chain.id > 0);
        chains.insert(QLatin1String(name), chain.id);
    }
    Run parent;
    for (const QString &name : lineage) {
        Run run;
        run.chainId = chains.value(name);
        run.parentRunId = parent.id;
        run.trigger = parent.id > 0 ? RunTrigger::Subchain : RunTrigger::Manual;
        run.scheduledFor = QDateTime(QDate(2026, 11, 23), QTime(4, 0), Qt::UTC);
        run.parameters = QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}};
        parent = RunRepository(t.store()).insert(run).value();
    }

    const Result<Run> child = SubchainLineage(t.store()).childRun(path, parent);
    if (!error.isEmpty()) {
        QVERIFY(!child);
        QVERIFY2(child.error().message.startsWith(error), qPrintable(child.error().message));
        return;
    }
    QVERIFY2(child, child ? "" : qPrintable(child.error().message));
    QCOMPARE(child->id, 0); // not inserted: the engine does that
    QCOMPARE(child->chainId, chains.value(path.mid(2)));
    QCOMPARE(child->parentRunId, parent.id);
    QCOMPARE(child->trigger, RunTrigger::Subchain);
    QCOMPARE(child->scheduledFor, parent.scheduledFor);
    QCOMPARE(child->parameters, parent.parameters);
}

QTEST_GUILESS_MAIN(TestSubchainLineage)
#include "tst_subchainlineage.moc"
