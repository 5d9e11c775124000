#include "domain/connectionurl.h"
#include "fixtures.h"
#include "projecttreemodel.h"
#include "store/connectionprofilerepository.h"
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
    void connections_followTheirChecksBelowTheProjects();
    void rightToLeftOverride_isShownEscaped();
};

// helper-2: a chain "rtl\u202egnp.exe" showed as "rtlexe.png". Shown escaped, as the command
// line shows it; edited (renamed) as it is.
void TestProjectTreeModel::rightToLeftOverride_isShownEscaped()
{
    HG_TEST_STORE(t);
    const QString name = QStringLiteral("rtl") + QChar(0x202e) + QStringLiteral("gnp.exe");
    QVERIFY(test::makeChain(t.store(), QStringLiteral("p"), name).id > 0);
    ProjectTreeModel model(t.store());
    QVERIFY(model.reload());
    const QModelIndex chain = model.index(0, 0, model.index(0, 0));
    QCOMPARE(chain.data().toString(), QStringLiteral("rtl\\u202egnp.exe"));
    QCOMPARE(chain.data(Qt::EditRole).toString(), name);
}

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

void TestProjectTreeModel::connections_followTheirChecksBelowTheProjects()
{
    HG_TEST_STORE(t);
    QVERIFY(ExampleProject::install(t.store()));
    ProjectTreeModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(), 1); // no connection, no Connections node
    QVERIFY(!model.connectionsIndex().isValid());
    for (const QString &name : {QStringLiteral("tt"), QStringLiteral("warehouse")})
        QVERIFY(ConnectionProfileRepository(t.store()).add(
            ConnectionUrl::parse(name, ConnectionKind::PgTimetable,
                                 QStringLiteral("postgresql://u@db.example/") + name)
                .value()));
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex root = model.connectionsIndex();
    QCOMPARE(root.row(), 1);
    QCOMPARE(ProjectTreeModel::kindOf(root), ProjectTreeModel::NodeKind::Connections);
    QCOMPARE(model.rowCount(root), 2);
    const QModelIndex tt = model.indexOfConnection(QStringLiteral("tt"));
    QCOMPARE(ProjectTreeModel::kindOf(tt), ProjectTreeModel::NodeKind::Connection);
    QCOMPARE(tt.parent(), root);
    QVERIFY(tt.data(Qt::ToolTipRole).toString().contains(QLatin1String("checking")));
    QVERIFY(!(model.flags(tt) & Qt::ItemIsEditable));
    QCOMPARE(tt.data(ProjectTreeModel::IsChainRole).toBool(), false);
    QCOMPARE(tt.data(ProjectTreeModel::IdRole).toLongLong(), 0);

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setConnectionCheck(QStringLiteral("tt"), {ConnectionCheck::State::Connected,
                                                    QStringLiteral("pg_timetable 6.x"),
                                                    {QStringLiteral("a"), QStringLiteral("b")}});
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(model.rowCount(tt), 2);
    const QModelIndex b = model.indexOfConnection(QStringLiteral("tt"), QStringLiteral("b"));
    QCOMPARE(b.data().toString(), QStringLiteral("b"));
    QCOMPARE(b.parent(), tt);
    QCOMPARE(ProjectTreeModel::kindOf(b), ProjectTreeModel::NodeKind::RemoteChain);
    QCOMPARE(b.data(ProjectTreeModel::ConnectionNameRole).toString(), QStringLiteral("tt"));
    QCOMPARE(tt.data(Qt::ToolTipRole).toString(), QStringLiteral("pg_timetable 6.x"));
    QVERIFY(!model.chainAt(b));

    // The answer outlives a reload; a failed check drops the chains.
    QVERIFY(model.reload());
    QCOMPARE(model.rowCount(model.indexOfConnection(QStringLiteral("tt"))), 2);
    model.setConnectionCheck(
        QStringLiteral("tt"),
        {ConnectionCheck::State::Failed, QStringLiteral("connection refused"), {}});
    QCOMPARE(model.rowCount(model.indexOfConnection(QStringLiteral("tt"))), 0);
    QVERIFY(!model.indexOfConnection(QStringLiteral("tt"), QStringLiteral("b")).isValid());
    // Projects and their chains are where they were.
    QCOMPARE(ProjectTreeModel::kindOf(model.index(0, 0)), ProjectTreeModel::NodeKind::Project);
    QCOMPARE(model.rowCount(model.index(0, 0)), 3);
}

QTEST_MAIN(TestProjectTreeModel)
#include "tst_projecttreemodel.moc"
