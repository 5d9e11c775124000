#include "fixtures.h"
#include "logmodel.h"
#include "logview.h"
#include "mainwindow.h"
#include "projecttreemodel.h"
#include "runsmodel.h"
#include "runsview.h"
#include "scheduler/enginehost.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "taskrunsmodel.h"
#include "testservers.h"
#include "teststore.h"

#include <QTableView>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace hg;

// The main window with its engine in its own thread, driven through its widgets.
class TestMainWindow final : public QObject
{
    Q_OBJECT

private slots:
    void runNow_showsTheRunItsAttemptsAndItsLiveLog();
};

void TestMainWindow::runNow_showsTheRunItsAttemptsAndItsLiveLog()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("hello"));
    const Task greet =
        test::addTask(t.store(), chain.id, QStringLiteral("greet"), TaskKind::Shell,
                      QStringLiteral("echo hello from $HOURGLASS_TASK; echo oops >&2"));
    QVERIFY(greet.id > 0);
    EngineHost engine(test::engineConfig(t));
    MainWindow window(t.store(), &engine);
    engine.start();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // Select the chain in the tree, as a user would, and press Ctrl+R.
    QTreeView *tree = window.projectTree();
    const QModelIndex project = tree->model()->index(0, 0);
    const QModelIndex chainIndex = tree->model()->index(0, 0, project);
    QCOMPARE(chainIndex.data().toString(), QStringLiteral("hello"));
    tree->setCurrentIndex(chainIndex);
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);

    RunsView *runs = window.runsView();
    QCOMPARE(window.tabs()->currentWidget(), runs);
    QTRY_COMPARE_WITH_TIMEOUT(runs->runs()->rowCount(), 1, 5000);
    const QModelIndex state = runs->runs()->index(0, RunsModel::StateColumn);
    QTRY_COMPARE_WITH_TIMEOUT(state.data().toString(), QStringLiteral("succeeded"), 15000);
    const qint64 runId = runs->runs()->index(0, 0).data(RunsModel::RunIdRole).toLongLong();
    QCOMPARE(RunRepository(t.store()).byId(runId)->state, RunState::Succeeded);

    // The log of the selected run received the output, streams apart.
    LogModel *log = runs->log()->model();
    QTRY_VERIFY_WITH_TIMEOUT(log->rowCount() >= 2, 5000);
    QVERIFY2(log->text().contains(QLatin1String("greet | hello from greet")),
             qPrintable(log->text()));
    QVERIFY2(log->text().contains(QLatin1String("greet ! oops")), qPrintable(log->text()));
    QCOMPARE(runs->attempts()->rowCount(), 1);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
