#include "chain/chaineditor.h"
#include "dag/connecttaskdialog.h"
#include "dag/dagscene.h"
#include "dag/tasknodeitem.h"
#include "definitioneditor.h"
#include "dependenciesmodel.h"
#include "fixtures.h"
#include "logmodel.h"
#include "projecttreemodel.h"
#include "runs/logview.h"
#include "runs/runganttchart.h"
#include "runs/runsview.h"
#include "runsmodel.h"
#include "schedule/scheduledialog.h"
#include "scheduler/enginehost.h"
#include "schedulesmodel.h"
#include "statementrecorder.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "taskform/taskform.h"
#include "taskrunsmodel.h"
#include "tasksmodel.h"
#include "testservers.h"
#include "teststore.h"
#include "upcoming/upcomingtimeline.h"
#include "window/helpdialogs.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QGraphicsView>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>

using namespace hg;

// The main window with its engine in its own thread, driven through its widgets.
class TestMainWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runNow_showsTheRunItsAttemptsAndItsLiveLog();
    void wholeChain_builtThroughTheUi_runsAndSucceeds();
    void treeFollowsChangesMadeElsewhere();
    void emptyChain_showsWhatToDoFirstAndNoOtherChainsTask();
    void openingAChain_readsOnTheReaderNotTheWindowsConnection();
    void connectDialog_neverOffersALoopFirst();
    void addTask_withTheFormScrolledDown_bringsTheNameIntoView();
};

namespace {

// Types a name into the tree's in-place editor, as after New project / New chain.
void renameInTree(QTreeView *tree, const QString &name)
{
    QLineEdit *editor = nullptr;
    QTRY_VERIFY((editor = tree->viewport()->findChild<QLineEdit *>()) != nullptr);
    editor->selectAll();
    QTest::keyClicks(editor, name);
    QTest::keyClick(editor, Qt::Key_Return);
}

void clickToolButtonOf(QWidget *parent, QAction *action)
{
    for (QToolButton *button : parent->findChildren<QToolButton *>()) {
        if (button->defaultAction() == action) {
            QTest::mouseClick(button, Qt::LeftButton);
            return;
        }
    }
    QFAIL("no button for the action");
}

// Fills the selected task's form as a shell task and applies it.
void defineShellTask(TaskForm *form, const QString &name, const QString &script)
{
    auto *nameField = form->findChild<QLineEdit *>(QStringLiteral("task.name"));
    nameField->selectAll();
    QTest::keyClicks(nameField, name);
    auto *kind = form->findChild<QComboBox *>(QStringLiteral("task.kind"));
    kind->setCurrentIndex(kind->findText(QStringLiteral("shell")));
    auto *shell = form->findChild<QPlainTextEdit *>(QStringLiteral("shell.command"));
    shell->setFocus();
    shell->selectAll();
    QTest::keyClicks(shell, script);
    // Tab leaves the script (before: it inserted a tab); Ctrl+Tab inserts one, taken out again.
    QTest::keyClick(shell, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(shell->toPlainText(), script + QLatin1Char('\t'));
    QTest::keyClick(shell, Qt::Key_Backspace);
    QTest::keyClick(shell, Qt::Key_Tab);
    QCOMPARE(shell->toPlainText(), script);
    QVERIFY(!shell->hasFocus());
    auto *apply = form->findChild<QPushButton *>(QStringLiteral("apply"));
    QVERIFY2(apply->isEnabled(), qPrintable(form->problem()));
    QTest::mouseClick(apply, Qt::LeftButton);
}

} // namespace

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
    // The view hears the end as the engine records it; on PostgreSQL the write is kept back
    // to the end of that transaction, a moment later (once seen still "running" under load).
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).byId(runId)->state, RunState::Succeeded,
                              5000);

    // The log of the selected run received the output, streams apart.
    LogModel *log = runs->log()->model();
    QTRY_VERIFY_WITH_TIMEOUT(log->rowCount() >= 2, 5000);
    QVERIFY2(log->text().contains(QLatin1String("greet | hello from greet")),
             qPrintable(log->text()));
    QVERIFY2(log->text().contains(QLatin1String("greet ! oops")), qPrintable(log->text()));
    QCOMPARE(runs->attempts()->rowCount(), 1);

    // A table is one stop for Tab: arrows move inside it, Tab leaves it at once (before, Tab
    // walked every cell of every row, and Ctrl+Tab did not leave either).
    runs->table()->setFocus();
    runs->table()->setCurrentIndex(runs->runs()->index(0, 0));
    QTRY_VERIFY(runs->table()->hasFocus());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
    QCOMPARE(runs->table()->currentIndex().column(), 1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QVERIFY(!runs->table()->hasFocus());
    for (const QAbstractItemView *view : window.findChildren<QAbstractItemView *>())
        QVERIFY2(!view->tabKeyNavigation(), qPrintable(view->objectName()));

    // Go to: each part one key away.
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QTRY_VERIFY(tree->hasFocus());
    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    QTRY_VERIFY(runs->table()->hasFocus());
    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    QTRY_VERIFY(window.findChild<ChainEditor *>()->canvas()->hasFocus());
    QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);
    QTRY_COMPARE(window.tabs()->currentWidget(), runs);
    QVERIFY(runs->log()->isAncestorOf(QApplication::focusWidget()));
    // Help → Keyboard shortcuts lists every action that has keys, the Go to ones too.
    QTest::keyClick(&window, Qt::Key_Slash, Qt::ControlModifier);
    QMessageBox *shortcuts = nullptr;
    QTRY_VERIFY((shortcuts = window.findChild<QMessageBox *>(QStringLiteral("shortcuts"))));
    for (const char *listed : {"Quit", "Rerun", "Chain canvas", "Log", "Pause all schedules",
                               "Canvas: remove the selected task or dependency"})
        QVERIFY2(shortcuts->text().contains(QLatin1String(listed)), listed);
    shortcuts->close();
    // F1: the first steps, in the window (Help had Shortcuts and About only; issue 34).
    QTest::keyClick(&window, Qt::Key_F1);
    QMessageBox *started = nullptr;
    QTRY_VERIFY((started = window.findChild<QMessageBox *>(QStringLiteral("gettingStarted"))));
    for (const char *step : {"Ctrl+T", "Ctrl+K", "Ctrl+Shift+S", "Ctrl+R", "man hourglass"})
        QVERIFY2(started->text().contains(QLatin1String(step)), step);
    started->close();
    // Help → Manual: the README, found beside the program (here, the source tree's).
    const QString manual = HelpDialogs::manualPath();
    QVERIFY2(manual.endsWith(QLatin1String("/README.md")), qPrintable(manual));
    bool listed = false;
    for (QAction *menu : window.menuBar()->actions()) {
        if (menu->text() != QLatin1String("&Help"))
            continue;
        for (QAction *item : menu->menu()->actions())
            listed = listed || item->text() == QLatin1String("&Manual");
    }
    QVERIFY(listed);
}

void TestMainWindow::wholeChain_builtThroughTheUi_runsAndSucceeds()
{
    HG_TEST_STORE(t);
    EngineHost engine(test::engineConfig(t));
    MainWindow window(t.store(), &engine);
    engine.start();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTreeView *tree = window.projectTree();
    QCOMPARE(tree->model()->rowCount(), 0); // an empty store

    // A project and a chain, named in place.
    QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    renameInTree(tree, QStringLiteral("ops"));
    QTRY_COMPARE(tree->model()->index(0, 0).data().toString(), QStringLiteral("ops"));
    QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier);
    renameInTree(tree, QStringLiteral("nightly"));
    const QModelIndex chainIndex = tree->model()->index(0, 0, tree->model()->index(0, 0));
    QTRY_COMPARE(chainIndex.data().toString(), QStringLiteral("nightly"));
    QTRY_COMPARE(tree->currentIndex(), chainIndex);

    // Two tasks, each added with the toolbar and defined in the form.
    ChainEditor *editor = window.chainEditor();
    QCOMPARE(window.tabs()->currentWidget(), editor);
    // Opened on the reader's thread: disabled (its buttons too) until the chain is read, which
    // on PostgreSQL under load took longer than the test gave it (a click then did nothing).
    QTRY_COMPARE(editor->chainId(), chainIndex.data(ProjectTreeModel::IdRole).toLongLong());
    QTRY_VERIFY(editor->isEnabled());
    TaskForm *form = editor->taskForm();
    clickToolButtonOf(editor, editor->addTaskAction());
    QTRY_COMPARE(editor->tasks()->rowCount(), 1);
    QTRY_VERIFY(form->isEnabled());
    // A mistake is named inline, with the command line's words, and cannot be applied.
    auto *nameField = form->findChild<QLineEdit *>(QStringLiteral("task.name"));
    nameField->selectAll();
    QTest::keyClicks(nameField, QStringLiteral("a/b"));
    QVERIFY2(form->problem().contains(QLatin1String("task name")), qPrintable(form->problem()));
    QVERIFY(!form->findChild<QPushButton *>(QStringLiteral("apply"))->isEnabled());
    defineShellTask(form, QStringLiteral("extract"), QStringLiteral("echo extracted"));
    QTRY_COMPARE(editor->tasks()->tasks().at(0).name, QStringLiteral("extract"));
    clickToolButtonOf(editor, editor->addTaskAction());
    QTRY_COMPARE(editor->tasks()->rowCount(), 2);
    QTRY_COMPARE(form->taskId(), editor->tasks()->tasks().at(1).id);
    defineShellTask(form, QStringLiteral("load"), QStringLiteral("echo loaded by $HOURGLASS_TASK"));
    QTRY_COMPARE(editor->tasks()->tasks().at(1).name, QStringLiteral("load"));
    const qint64 extractId = editor->tasks()->tasks().at(0).id;
    const qint64 loadId = editor->tasks()->tasks().at(1).id;

    // Connect them on the canvas: from extract's port onto load.
    QGraphicsView *canvas = editor->canvas();
    QTRY_VERIFY(editor->scene()->node(loadId) != nullptr);
    const QPoint from = canvas->mapFromScene(editor->scene()->node(extractId)->outPort());
    const QPoint to = canvas->mapFromScene(editor->scene()->node(loadId)->mapToScene(
        editor->scene()->node(loadId)->boundingRect().center()));
    QTest::mousePress(canvas->viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(canvas->viewport(), (from + to) / 2);
    QTest::mouseMove(canvas->viewport(), to);
    QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, {}, to);
    QTRY_VERIFY2(editor->dependencies()->rowCount() == 1, qPrintable(editor->message()));
    const Dependency edge = DependencyRepository(t.store()).list(editor->chainId())->at(0);
    QCOMPARE(edge.upstreamName, QStringLiteral("extract"));
    QCOMPARE(edge.taskName, QStringLiteral("load"));
    QTRY_VERIFY(editor->scene()->edge(loadId, extractId) != nullptr);
    // The reverse would close a cycle: refused and named above the canvas.
    const QPoint back = canvas->mapFromScene(editor->scene()->node(loadId)->outPort());
    const QPoint onto = canvas->mapFromScene(editor->scene()->node(extractId)->mapToScene(
        editor->scene()->node(extractId)->boundingRect().center()));
    QTest::mousePress(canvas->viewport(), Qt::LeftButton, {}, back);
    QTest::mouseMove(canvas->viewport(), onto);
    QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, {}, onto);
    QTRY_VERIFY2(editor->message().contains(QLatin1String("cycle")), qPrintable(editor->message()));
    QCOMPARE(editor->dependencies()->rowCount(), 1);

    // A schedule, typed into the dialog: a wrong hour is pointed at, a right one explained.
    editor->addScheduleAction()->trigger();
    ScheduleDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<ScheduleDialog *>()) != nullptr);
    auto *expression = dialog->findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    QTest::keyClicks(expression, QStringLiteral("0 24 * * *"));
    QVERIFY2(dialog->problem().contains(QLatin1String("column 3")), qPrintable(dialog->problem()));
    auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
    expression->selectAll();
    QTest::keyClicks(expression, QStringLiteral("30 6 * * 1-5"));
    QVERIFY2(dialog->explanation().contains(QLatin1String("06:30")),
             qPrintable(dialog->explanation()));
    QCOMPARE(dialog->nextFireTimes().size(), 10);
    QVERIFY(ok->isEnabled());
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_COMPARE(editor->schedules()->rowCount(), 1);
    QCOMPARE(editor->schedules()->schedules().at(0).expression, QStringLiteral("30 6 * * 1-5"));

    // The engine picked the new schedule up: the status bar names its next fire.
    QTRY_VERIFY2(window.engineStateText().contains(QLatin1String("next fire")),
                 qPrintable(window.engineStateText()));

    // The coming week shows it, row by chain.
    window.tabs()->setCurrentIndex(2);
    auto *timeline = window.findChild<UpcomingTimeline *>();
    QVERIFY(timeline);
    QTRY_COMPARE(timeline->rowLabels(), QStringList{QStringLiteral("ops/nightly")});
    window.tabs()->setCurrentWidget(editor);

    // Undo takes the schedule back, redo restores it.
    QUndoStack *undo = window.definitionEditor()->undoStack();
    undo->undo();
    QTRY_COMPARE(editor->schedules()->rowCount(), 0);
    undo->redo();
    QTRY_COMPARE(editor->schedules()->rowCount(), 1);

    // Run now: the run succeeds, the log gets both tasks' output, the canvas turns green.
    // (The dialog had the focus; shortcuts go to the active window.)
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    tree->setFocus();
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
    RunsView *runs = window.runsView();
    QTRY_COMPARE_WITH_TIMEOUT(runs->runs()->rowCount(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(runs->runs()->index(0, RunsModel::StateColumn).data().toString(),
                              QStringLiteral("succeeded"), 15000);
    LogModel *log = runs->log()->model();
    QTRY_VERIFY_WITH_TIMEOUT(log->text().contains(QLatin1String("load | loaded by load")), 5000);
    QVERIFY2(log->text().contains(QLatin1String("extract | extracted")), qPrintable(log->text()));
    QTRY_COMPARE(editor->tasks()->lastState(loadId), std::optional(RunState::Succeeded));
    // Selecting an attempt shows only its log; clearing the selection, the whole run's again.
    runs->attemptTable()->selectRow(0);
    const QString only = runs->attempts()->index(0, TaskRunsModel::TaskColumn).data().toString();
    // One wait for both: the log is read again off the GUI thread, and between the two it is
    // empty for a moment (which has no other task's lines; a loaded pass failed on that).
    const QString other =
        only == QLatin1String("load") ? QStringLiteral("extract |") : QStringLiteral("load |");
    QTRY_VERIFY2(!log->text().contains(other) && log->text().contains(only + QLatin1String(" |")),
                 qPrintable(log->text()));
    runs->attemptTable()->clearSelection();
    QTRY_VERIFY(log->text().contains(QLatin1String("extract |"))
                && log->text().contains(QLatin1String("load |")));

    // The run's timeline has a row per task, in the order they ran.
    QTRY_COMPARE(runs->gantt()->rowLabels(),
                 (QStringList{QStringLiteral("extract"), QStringLiteral("load")}));
}

// Found by helper-9: chains added or removed from the command line never reached the tree of an
// open window (a restart did). Another connection stands for the command line here.
void TestMainWindow::treeFollowsChangesMadeElsewhere()
{
    HG_TEST_STORE(t);
    const Chain kept = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("kept"));
    const Chain gone = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("gone"));
    MainWindow window(t.store());
    window.show();
    QAbstractItemModel *tree = window.projectTree()->model();
    const auto shows = [tree](const QString &name) {
        return !tree->match(tree->index(0, 0), Qt::DisplayRole, name, 1,
                            Qt::MatchExactly | Qt::MatchRecursive)
                    .isEmpty();
    };
    QVERIFY(shows(QStringLiteral("gone")));
    window.selectChain(kept.id);
    {
        const std::unique_ptr<Store> elsewhere = t.openAnother(QStringLiteral("cli"));
        QVERIFY(elsewhere);
        test::makeChain(*elsewhere, QStringLiteral("etl"), QStringLiteral("added"));
        QVERIFY(ChainRepository(*elsewhere).remove(gone.id));
    }
    QTRY_VERIFY_WITH_TIMEOUT(shows(QStringLiteral("added")), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(!shows(QStringLiteral("gone")), 15000);
    QCOMPARE(window.chainEditor()->chainId(), kept.id); // the selection stays where it was
}

// A new empty chain showed a disabled form holding the task of the chain shown before (its
// script too), and a blank canvas (issue 34).
// On a store across a network each statement the window sends is a round trip it waits for:
// opening a chain (its editor: the chain, tasks with their last states, dependencies,
// schedules, connections) reads on the reader's thread, the editor disabled meanwhile, and
// what it shows is the chain asked for last.
void TestMainWindow::openingAChain_readsOnTheReaderNotTheWindowsConnection()
{
    HG_TEST_STORE(t);
    const Chain first = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("first"));
    const Chain second =
        test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("second"));
    const Task task = test::addTask(t.store(), second.id, QStringLiteral("load"), TaskKind::Shell,
                                    QStringLiteral("echo load"));
    const Chain third = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("third"));
    Schedule hourly;
    hourly.chainId = second.id;
    hourly.expression = QStringLiteral("0 * * * *");
    QVERIFY(ScheduleRepository(t.store()).add(hourly));
    MainWindow window(t.store(), nullptr);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ChainEditor *editor = window.chainEditor();
    window.selectChain(first.id);
    QTRY_VERIFY(!editor->isOpening());
    QCOMPARE(editor->chainId(), first.id);

    const test::StatementRecorder onTheWindows(t.store());
    window.selectChain(second.id);
    QVERIFY(editor->isOpening());
    QVERIFY(!editor->isEnabled()); // nothing edits the first chain meanwhile
    QCOMPARE(editor->chainId(), first.id);
    // Not even the window-wide actions (helper-15: Ctrl+T added the task to the first chain).
    editor->addTaskAction()->trigger();
    editor->addScheduleAction()->trigger();
    QVERIFY(!QApplication::activeModalWidget());
    QTRY_VERIFY(!editor->isOpening());
    QCOMPARE(onTheWindows.statements(), QStringList());
    QCOMPARE(TaskRepository(t.store()).list(first.id)->size(), 0);
    QCOMPARE(editor->chainId(), second.id);
    QVERIFY(editor->isEnabled());
    QCOMPARE(editor->tasks()->tasks().size(), 1);
    QCOMPARE(editor->schedules()->rowCount(), 1);
    QTRY_COMPARE(editor->taskForm()->taskId(), task.id); // its first task, as before

    // Asked for one chain, then others before the answer: the last one asked is shown (read
    // once the one out answers; helper-15: ten Downs queued ten reads, 6 s away).
    window.selectChain(first.id);
    QTRY_VERIFY(!editor->isOpening());
    window.selectChain(second.id);
    window.selectChain(third.id);
    window.selectChain(second.id);
    window.selectChain(third.id);
    QTRY_VERIFY(!editor->isOpening());
    QCOMPARE(editor->chainId(), third.id);
    QCOMPARE(editor->tasks()->tasks().size(), 0);
}

void TestMainWindow::emptyChain_showsWhatToDoFirstAndNoOtherChainsTask()
{
    HG_TEST_STORE(t);
    const Chain full = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("full"));
    const Task task = test::addTask(t.store(), full.id, QStringLiteral("backup"), TaskKind::Shell,
                                    QStringLiteral("rsync -a /srv /backup"));
    const Chain empty = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("empty"));
    MainWindow window(t.store(), nullptr);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.selectChain(full.id);
    ChainEditor *editor = window.chainEditor();
    editor->scene()->selectTask(task.id);
    auto *shell = editor->taskForm()->findChild<QPlainTextEdit *>(QStringLiteral("shell.command"));
    QTRY_COMPARE(shell->toPlainText(), QStringLiteral("rsync -a /srv /backup"));
    auto *emptyState = editor->findChild<QWidget *>(QStringLiteral("chain.emptyState"));
    QVERIFY(!emptyState->isVisible());

    window.selectChain(empty.id);
    QTRY_COMPARE(editor->chainId(), empty.id);
    QVERIFY(!editor->taskForm()->isEnabled());
    QVERIFY(shell->toPlainText().isEmpty());
    QVERIFY(
        editor->taskForm()->findChild<QLineEdit *>(QStringLiteral("task.name"))->text().isEmpty());
    QVERIFY(emptyState->isVisible());
    auto *add = editor->findChild<QPushButton *>(QStringLiteral("chain.addFirstTask"));
    QTest::mouseClick(add, Qt::LeftButton);
    QTRY_COMPARE(editor->tasks()->tasks().size(), 1);
    QTRY_VERIFY(!emptyState->isVisible());
    QTRY_VERIFY(editor->taskForm()->isEnabled());
}

// Ctrl+K's dialog offered, as its default, a task that would close a loop (issue 34).
void TestMainWindow::connectDialog_neverOffersALoopFirst()
{
    const auto task = [](qint64 id, const QString &name) {
        Task t;
        t.id = id;
        t.name = name;
        return t;
    };
    const QList<Task> tasks{task(1, QStringLiteral("extract")), task(2, QStringLiteral("load")),
                            task(3, QStringLiteral("report"))};
    // load after extract, report after load.
    const QList<Dependency> edges{{2, 1, DependencyCondition::Success, {}, {}},
                                  {3, 2, DependencyCondition::Success, {}, {}}};
    const auto choices = [](const ConnectTaskDialog &dialog) {
        return dialog.findChild<QComboBox *>(QStringLiteral("connect.downstream"));
    };
    ConnectTaskDialog fromReport(tasks.at(2), tasks, edges);
    QCOMPARE(choices(fromReport)->currentIndex(), -1); // both would close a loop
    QVERIFY(!fromReport.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
    QVERIFY(choices(fromReport)->itemText(0).contains(QStringLiteral("a loop")));
    ConnectTaskDialog fromExtract(tasks.at(0), tasks, edges);
    QCOMPARE(fromExtract.downstreamId(), 3); // load is after it already
    QVERIFY(choices(fromExtract)->itemText(0).contains(QStringLiteral("already after it")));
}

// At 1024x640 with the task form scrolled down, Add task focused a name field out of view
// (issue 34): the user typed a name nobody saw.
void TestMainWindow::addTask_withTheFormScrolledDown_bringsTheNameIntoView()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("c"));
    const Task first = test::addTask(t.store(), chain.id, QStringLiteral("first"), TaskKind::Shell,
                                     QStringLiteral("true"));
    MainWindow window(t.store(), nullptr);
    window.resize(1024, 640);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.selectChain(chain.id);
    ChainEditor *editor = window.chainEditor();
    editor->scene()->selectTask(first.id);
    QTRY_COMPARE(editor->taskForm()->taskId(), first.id);
    auto *name = editor->taskForm()->findChild<QLineEdit *>(QStringLiteral("task.name"));
    QScrollArea *scroll = nullptr;
    for (QWidget *up = name; up && !scroll; up = up->parentWidget())
        scroll = qobject_cast<QScrollArea *>(up);
    QVERIFY(scroll);
    QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0); // 640 px: the fields scroll
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QTRY_VERIFY(name->visibleRegion().isEmpty());
    QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier);
    QTRY_COMPARE(editor->tasks()->tasks().size(), 2);
    QTRY_VERIFY(name->hasFocus());
    QTRY_VERIFY(!name->visibleRegion().isEmpty());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
