#include "fixtures.h"
#include "projecttreemodel.h"
#include "store/exampleproject.h"
#include "store/projectrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace hg;

class TestProjectTreeModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emptyStore_hasNoRows();
    void exampleProject_showsProjectsThenChains();
    void reload_picksUpNewChains();
};

void TestProjectTreeModel::emptyStore_hasNoRows()
{
    HG_TEST_STORE(t);
    ProjectTreeModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(), 0);
}

void TestProjectTreeModel::exampleProject_showsProjectsThenChains()
{
    HG_TEST_STORE(t);
    QVERIFY(ExampleProject::install(t.store()));
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("Empty")));
    ProjectTreeModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex empty = model.index(0, 0);
    const QModelIndex examples = model.index(1, 0);
    QCOMPARE(empty.data().toString(), QStringLiteral("Empty"));
    QCOMPARE(model.rowCount(empty), 0);
    QCOMPARE(examples.data().toString(), QStringLiteral("Examples"));
    QCOMPARE(examples.data(ProjectTreeModel::IsChainRole).toBool(), false);
    QCOMPARE(model.rowCount(examples), 3);
    const QModelIndex chain = model.index(0, 0, examples);
    QCOMPARE(chain.data().toString(), QStringLiteral("daily-report"));
    QCOMPARE(chain.parent(), examples);
    QCOMPARE(chain.data(ProjectTreeModel::IsChainRole).toBool(), true);
    QVERIFY(chain.data(ProjectTreeModel::IdRole).toLongLong() > 0);
    // The disabled example chain is shown, greyed out.
    const QModelIndex disabled = model.index(1, 0, examples);
    QCOMPARE(disabled.data().toString(), QStringLiteral("every-20-seconds"));
    QCOMPARE(disabled.data(ProjectTreeModel::EnabledRole).toBool(), false);
    QVERIFY(disabled.data(Qt::ForegroundRole).isValid());
    QVERIFY(!chain.data(Qt::ForegroundRole).isValid());
}

void TestProjectTreeModel::reload_picksUpNewChains()
{
    HG_TEST_STORE(t);
    ProjectTreeModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.reload());
    QVERIFY(test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c")).id > 0);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QVERIFY(model.reload());
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(model.index(0, 0)), 1);
}

QTEST_MAIN(TestProjectTreeModel)
#include "tst_projecttreemodel.moc"
