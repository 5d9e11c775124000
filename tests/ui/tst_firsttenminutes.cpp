#include "chain/chaineditor.h"
#include "chain/retentiondialog.h"
#include "dag/dagscene.h"
#include "dag/tasknodeitem.h"
#include "definitioneditor.h"
#include "dependenciesmodel.h"
#include "desk.h"
#include "fixtures.h"
#include "logmodel.h"
#include "overview/overviewpage.h"
#include "overviewchainsmodel.h"
#include "projecttreemodel.h"
#include "runs/durationbars.h"
#include "runs/logview.h"
#include "runs/runsview.h"
#include "runsmodel.h"
#include "schedule/scheduledialog.h"
#include "scheduler/enginehost.h"
#include "schedulesmodel.h"
#include "settings/appsettings.h"
#include "settings/colorscheme.h"
#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/connectionprofilerepository.h"
#include "store/dependencyrepository.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "taskform/taskform.h"
#include "taskrunsmodel.h"
#include "tasksmodel.h"
#include "testservers.h"
#include "teststore.h"
#include "window/mainwindow.h"
#include "window/treefilter.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGraphicsView>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QWheelEvent>

#include <algorithm>

using namespace hg;
using namespace hg::test;

// What a new user met in the first ten minutes and must never meet again: edits lost in
// silence, a window that says what is not so, schedules that stop without a word, a runs
// list that misses runs, deletes without a question. Each through the real widgets.
class TestFirstTenMinutes final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void taskForm_keepsApplyInView_marksEdits_andAppliesOnEnter();
    void taskForm_showsTheMessageBesideItsField();
    void builtinTask_shownUnchanged_hasNoUnappliedEdits();
    void copyBuiltin_keepsItsConnectionThroughAnEdit();
    void sendMailPassword_typedInTheForm_isKeptByKeyNeverAsText();
    void otherTask_orChain_asksApplyDiscardOrCancel();
    void overlapBox_showsAndSetsTheRealRule();
    void retention_isShownAndSetFromTheChainEditor();
    void close_withoutTray_asksToKeepRunningOrQuit();
    void runs_rerunShowsAtOnce_failureHasItsReason_listFollowsTheTree();
    void runs_runningRunCountsUp();
    void deleteTask_withDependents_asksFirst_andUndoBringsItBackInView();
    void tree_clickOnSelectedDoesNotRename_deleteKeyDeletesAfterConfirmation();

private:
    QString iniFile() const { return m_dir.filePath(QStringLiteral("hourglass.ini")); }
    QTemporaryDir m_dir;
};

void TestFirstTenMinutes::taskForm_keepsApplyInView_marksEdits_andAppliesOnEnter()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    TaskForm *form = desk.form();
    QTRY_COMPARE(form->taskId(), desk.taskIds.at(0));

    // Apply and Revert are inside the window at 1280×800, not below the fold.
    auto *apply = form->findChild<QPushButton *>(QStringLiteral("apply"));
    const QRect inWindow(apply->mapTo(desk.window.get(), QPoint(0, 0)), apply->size());
    QVERIFY2(desk.window->rect().contains(inWindow),
             qPrintable(QStringLiteral("Apply at %1,%2").arg(inWindow.x()).arg(inWindow.y())));
    QVERIFY(!apply->visibleRegion().isEmpty());

    auto *unapplied = form->findChild<QLabel *>(QStringLiteral("task.unapplied"));
    QVERIFY(!unapplied->isVisible());
    QLineEdit *name = nameField(form);
    name->setFocus();
    name->selectAll();
    QTest::keyClicks(name, QStringLiteral("renamed"));
    QVERIFY(unapplied->isVisible());
    QVERIFY(form->hasUnappliedChanges());

    // Enter in a field applies, as in a dialog.
    QTest::keyClick(name, Qt::Key_Return);
    QTRY_COMPARE(TaskRepository(t.store()).byId(desk.taskIds.at(0))->name,
                 QStringLiteral("renamed"));
    QTRY_VERIFY(!unapplied->isVisible());
    QVERIFY(!form->hasUnappliedChanges());
    // One undo step for the apply.
    QCOMPARE(desk.window->definitionEditor()->undoStack()->count(), 1);

    // Quit (Ctrl+Q, File → Quit, the tray's Quit) asks about unapplied edits as a close does:
    // it dropped them in silence (helper-13). Cancel keeps the window and the edit.
    name->setFocus();
    QTest::keyClicks(name, QStringLiteral("-again"));
    QVERIFY(form->hasUnappliedChanges());
    desk.window->quit();
    answer(desk.window.get(), QStringLiteral("unappliedPrompt"), QMessageBox::Cancel);
    QVERIFY(desk.window->isVisible());
    QVERIFY(form->hasUnappliedChanges());
    QCOMPARE(name->text(), QStringLiteral("renamed-again"));

    // The wheel over a number the focus is not in scrolls the form, it does not change it
    // (Retries went 0 to 3 as the form scrolled; helper-13).
    QSpinBox *retries = nullptr;
    for (QSpinBox *box : form->findChildren<QSpinBox *>())
        if (box->accessibleName() == QLatin1String("Retries"))
            retries = box;
    QVERIFY(retries && !retries->hasFocus());
    const int before = retries->value();
    const QPointF at(retries->width() / 2.0, retries->height() / 2.0);
    QWheelEvent wheel(at, retries->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(retries, &wheel);
    QCOMPARE(retries->value(), before);

    // Another chain's task starts at the top of the fields, its name in view (the form kept
    // the last one's scroll; helper-13).
    form->revert();
    QVERIFY(!form->hasUnappliedChanges());
    const Chain other = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("other"));
    test::addTask(t.store(), other.id, QStringLiteral("second"), TaskKind::Shell,
                  QStringLiteral("echo second"));
    desk.window->resize(1024, 640);
    QScrollBar *fields =
        form->findChild<QScrollArea *>(QStringLiteral("task.fields"))->verticalScrollBar();
    QTRY_VERIFY(fields->maximum() > 0);
    fields->setValue(fields->maximum());
    QVERIFY(desk.window->treeModel()->reload());
    desk.window->selectChain(other.id);
    QTRY_COMPARE(nameField(form)->text(), QStringLiteral("second"));
    QCOMPARE(fields->value(), 0);
}

void TestFirstTenMinutes::builtinTask_shownUnchanged_hasNoUnappliedEdits()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    const Task sleep =
        test::addTask(t.store(), desk.chain.id, QStringLiteral("nap"), TaskKind::Builtin,
                      QStringLiteral("Sleep"), {QStringLiteral(R"({"seconds": 2})")});
    QVERIFY(sleep.id > 0);
    desk.editor()->showChain(0);
    desk.editor()->showChain(desk.chain.id);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTRY_VERIFY(desk.editor()->scene()->node(sleep.id));
    desk.selectTask(sleep.id);
    QTRY_COMPARE(desk.form()->taskId(), sleep.id);
    // Its fields write the JSON their own way: that is no edit of the user's.
    QVERIFY(!desk.form()->hasUnappliedChanges());
    desk.selectTask(desk.taskIds.at(0));
    QTRY_COMPARE(desk.form()->taskId(), desk.taskIds.at(0)); // no question asked
}

// A COPY builtin runs on its task's connection: the form cleared every builtin's on Apply,
// which would have moved an imported pg_timetable COPY onto the store without a word.
void TestFirstTenMinutes::copyBuiltin_keepsItsConnectionThroughAnEdit()
{
    HG_TEST_STORE(t);
    ConnectionProfile warehouse;
    warehouse.name = QStringLiteral("warehouse");
    warehouse.host = QStringLiteral("127.0.0.1");
    warehouse.database = QStringLiteral("dw");
    QVERIFY(ConnectionProfileRepository(t.store()).add(warehouse));
    Desk desk(t);
    Task copy =
        test::addTask(t.store(), desk.chain.id, QStringLiteral("load"), TaskKind::Builtin,
                      QStringLiteral("CopyFromFile"),
                      {QStringLiteral(R"({"sql": "COPY t FROM STDIN", "file": "/srv/in/t.csv"})")});
    copy.connectionName = warehouse.name;
    QVERIFY(TaskRepository(t.store()).update(copy));
    desk.editor()->showChain(0);
    desk.editor()->showChain(desk.chain.id);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTRY_VERIFY(desk.editor()->scene()->node(copy.id));
    desk.selectTask(copy.id);
    QTRY_COMPARE(desk.form()->taskId(), copy.id);
    auto *connection = desk.form()->findChild<QComboBox *>(QStringLiteral("builtin.connection"));
    QVERIFY(connection);
    QVERIFY(connection->isEnabled());
    QCOMPARE(connection->currentText(), warehouse.name);
    QVERIFY(!desk.form()->hasUnappliedChanges());
    // An edit of its file, typed, then Enter.
    auto *file = desk.form()->findChild<QLineEdit *>(QStringLiteral("builtin.file"));
    QVERIFY(file);
    file->setFocus();
    file->selectAll();
    QTest::keyClicks(file, QStringLiteral("/srv/in/u.csv"));
    QTest::keyClick(file, Qt::Key_Return);
    QTRY_VERIFY(TaskRepository(t.store()).byId(copy.id)->arguments.value(0).contains(
        QLatin1String("u.csv")));
    QCOMPARE(TaskRepository(t.store()).byId(copy.id)->connectionName, warehouse.name);
    // Another builtin takes no connection: the box says so by being off.
    auto *builtin = desk.form()->findChild<QComboBox *>(QStringLiteral("builtin.name"));
    builtin->setCurrentText(QStringLiteral("Sleep"));
    QVERIFY(!connection->isEnabled());
}

void TestFirstTenMinutes::sendMailPassword_typedInTheForm_isKeptByKeyNeverAsText()
{
    // No keychain here (CTest gives no session bus): the password goes to the 0600 file.
    qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
    HG_TEST_STORE(t);
    Desk desk(t);
    const Task mail = test::addTask(
        t.store(), desk.chain.id, QStringLiteral("mail"), TaskKind::Builtin,
        QStringLiteral("SendMail"),
        {QStringLiteral("{\"server\": \"smtp://u@mail.example.org:587\", \"from\": "
                        "\"a@example.org\", \"to\": [\"b@example.org\"], \"subject\": \"s\"}")});
    desk.editor()->showChain(0);
    desk.editor()->showChain(desk.chain.id);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTRY_VERIFY(desk.editor()->scene()->node(mail.id));
    desk.selectTask(mail.id);
    QTRY_COMPARE(desk.form()->taskId(), mail.id);
    auto *password = desk.form()->findChild<QLineEdit *>(QStringLiteral("builtin.passwordKey"));
    QVERIFY(password);
    QCOMPARE(password->echoMode(), QLineEdit::Password);
    password->setFocus();
    QTest::keyClicks(password, QStringLiteral("s3cret-pw"));
    QTest::keyClick(password, Qt::Key_Return);
    QTRY_VERIFY(TaskRepository(t.store()).byId(mail.id)->arguments.value(0).contains(
        QLatin1String("hourglass-sendmail:")));
    const QString stored = TaskRepository(t.store()).byId(mail.id)->arguments.value(0);
    QVERIFY2(!stored.contains(QLatin1String("s3cret-pw")), qPrintable(stored));
    // Shown again after the apply: empty, and saying where the password is.
    password = desk.form()->findChild<QLineEdit *>(QStringLiteral("builtin.passwordKey"));
    QVERIFY(password);
    QVERIFY(password->text().isEmpty());
    QVERIFY2(password->placeholderText().contains(QLatin1String("kept in the keychain")),
             qPrintable(password->placeholderText()));
    QFile kept(m_dir.filePath(QStringLiteral("config/hourglass/channel-secrets.json")));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QVERIFY(kept.readAll().contains("s3cret-pw"));
    QCOMPARE(kept.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());
}

void TestFirstTenMinutes::taskForm_showsTheMessageBesideItsField()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    TaskForm *form = desk.form();
    QTRY_COMPARE(form->taskId(), desk.taskIds.at(0));
    QLineEdit *name = nameField(form);
    name->selectAll();
    QTest::keyClicks(name, QStringLiteral("a/b"));
    auto *message = form->findChild<QLabel *>(QStringLiteral("message.name"));
    QVERIFY(message);
    QVERIFY(message->isVisible());
    QVERIFY2(message->text().contains(QLatin1String("contains '/'")), qPrintable(message->text()));
    // Right under the name field, not somewhere at the bottom of the form.
    const int below = message->mapTo(form, QPoint(0, 0)).y() - name->mapTo(form, QPoint(0, 0)).y();
    QVERIFY2(below > 0 && below <= name->height() + 8, qPrintable(QString::number(below)));
    QVERIFY(!form->canApply());
    // An empty script is named under the script.
    name->selectAll();
    QTest::keyClicks(name, QStringLiteral("fine"));
    QVERIFY(!message->isVisible());
    auto *script = form->findChild<QWidget *>(QStringLiteral("shell.command"));
    QVERIFY(script);
    auto *scriptMessage = form->findChild<QLabel *>(QStringLiteral("message.command/shell"));
    QVERIFY(scriptMessage && !scriptMessage->isVisible());
}

void TestFirstTenMinutes::otherTask_orChain_asksApplyDiscardOrCancel()
{
    HG_TEST_STORE(t);
    const Chain other = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("other"));
    Desk desk(t, {QStringLiteral("one"), QStringLiteral("two")});
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    TaskForm *form = desk.form();
    const qint64 one = desk.taskIds.at(0);
    const qint64 two = desk.taskIds.at(1);
    desk.selectTask(one);
    QTRY_COMPARE(form->taskId(), one);
    nameField(form)->selectAll();
    QTest::keyClicks(nameField(form), QStringLiteral("one-edited"));

    // Another task: Cancel keeps the edits where they are.
    desk.selectTask(two);
    answer(desk.window.get(), QStringLiteral("unappliedPrompt"), QMessageBox::Cancel);
    QCOMPARE(form->taskId(), one);
    QCOMPARE(nameField(form)->text(), QStringLiteral("one-edited"));
    QVERIFY(form->hasUnappliedChanges());

    // Discard drops them and shows the other task; nothing was stored.
    desk.selectTask(two);
    answer(desk.window.get(), QStringLiteral("unappliedPrompt"), QMessageBox::Discard);
    QTRY_COMPARE(form->taskId(), two);
    QCOMPARE(TaskRepository(t.store()).byId(one)->name, QStringLiteral("one"));

    // Apply stores them first.
    nameField(form)->selectAll();
    QTest::keyClicks(nameField(form), QStringLiteral("two-edited"));
    desk.selectTask(one);
    answer(desk.window.get(), QStringLiteral("unappliedPrompt"), QMessageBox::Apply);
    QTRY_COMPARE(form->taskId(), one);
    QCOMPARE(TaskRepository(t.store()).byId(two)->name, QStringLiteral("two-edited"));

    // Another chain in the tree: asked too; Cancel keeps the tree on this chain.
    nameField(form)->selectAll();
    QTest::keyClicks(nameField(form), QStringLiteral("one-again"));
    QTreeView *tree = desk.window->projectTree();
    const QModelIndex otherIndex = desk.window->treeModel()->indexOf(true, other.id);
    tree->setCurrentIndex(otherIndex);
    QCOMPARE(desk.editor()->chainId(), desk.chain.id);
    answer(desk.window.get(), QStringLiteral("unappliedPrompt"), QMessageBox::Cancel);
    QCOMPARE(desk.editor()->chainId(), desk.chain.id);
    QCOMPARE(tree->currentIndex().data(ProjectTreeModel::IdRole).toLongLong(), desk.chain.id);
    QCOMPARE(nameField(form)->text(), QStringLiteral("one-again"));
    tree->setCurrentIndex(desk.window->treeModel()->indexOf(true, other.id));
    answer(desk.window.get(), QStringLiteral("unappliedPrompt"), QMessageBox::Apply);
    QTRY_COMPARE(desk.editor()->chainId(), other.id);
    QCOMPARE(TaskRepository(t.store()).byId(one)->name, QStringLiteral("one-again"));
}

void TestFirstTenMinutes::overlapBox_showsAndSetsTheRealRule()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    auto *overlap = desk.editor()->findChild<QComboBox *>(QStringLiteral("chain.overlap"));
    QVERIFY(overlap);
    // The fixture's chain has no limit: the box says so instead of "queue".
    QCOMPARE(desk.chain.maxInstances, 0);
    QCOMPARE(overlap->currentText(), QStringLiteral("run beside it"));

    // A chain made in the window runs one at a time, the next waiting.
    desk.window->newChain();
    QLineEdit *rename = nullptr;
    QTRY_VERIFY((rename = desk.window->projectTree()->viewport()->findChild<QLineEdit *>()));
    QTest::keyClick(rename, Qt::Key_Escape);
    QTRY_VERIFY(desk.editor()->chainId() != desk.chain.id);
    const Chain fresh = ChainRepository(t.store()).byId(desk.editor()->chainId()).value();
    QCOMPARE(fresh.maxInstances, 1);
    QCOMPARE(fresh.overlap, OverlapPolicy::Queue);
    QCOMPARE(overlap->currentText(), QStringLiteral("wait for it, then run"));

    // Choosing sets both max_instances and the policy.
    const auto choose = [&](const QString &label) {
        const int index = overlap->findText(label);
        QVERIFY2(index >= 0, qPrintable(label));
        overlap->setCurrentIndex(index);
        Q_EMIT overlap->activated(index);
    };
    choose(QStringLiteral("run beside it"));
    QTRY_COMPARE(ChainRepository(t.store()).byId(fresh.id)->maxInstances, 0);
    choose(QStringLiteral("skip this one"));
    QTRY_COMPARE(ChainRepository(t.store()).byId(fresh.id)->maxInstances, 1);
    QCOMPARE(ChainRepository(t.store()).byId(fresh.id)->overlap, OverlapPolicy::Skip);

    // A rule set elsewhere (the command line) is shown as it is.
    Chain three = ChainRepository(t.store()).byId(fresh.id).value();
    three.maxInstances = 3;
    QVERIFY(desk.window->definitionEditor()->updateChain(three));
    QTRY_COMPARE(overlap->currentText(), QStringLiteral("run up to 3 at once, then skip"));
}

void TestFirstTenMinutes::retention_isShownAndSetFromTheChainEditor()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    auto *history = desk.editor()->findChild<QPushButton *>(QStringLiteral("chain.retention"));
    QVERIFY(history);
    QCOMPARE(history->text(), QStringLiteral("History: all runs kept…"));
    history->click();
    RetentionDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = desk.editor()->findChild<RetentionDialog *>()));
    QCOMPARE(dialog->findChild<QSpinBox *>(QStringLiteral("keepRuns"))->text(),
             QStringLiteral("all"));
    dialog->findChild<QSpinBox *>(QStringLiteral("keepRuns"))->setValue(100);
    dialog->findChild<QSpinBox *>(QStringLiteral("keepFailedDays"))->setValue(90);
    dialog->accept();
    QTRY_COMPARE(ChainRepository(t.store()).byId(desk.chain.id)->retention,
                 (Retention{100, 0, 0, 90}));
    QTRY_COMPARE(history->text(),
                 QStringLiteral("History: newest 100 run(s), failed: last 90 day(s)…"));
    // Undo gives the old limits back, as for any other edit of the chain.
    desk.window->definitionEditor()->undoStack()->undo();
    QTRY_COMPARE(ChainRepository(t.store()).byId(desk.chain.id)->retention, Retention{});
    QTRY_COMPARE(history->text(), QStringLiteral("History: all runs kept…"));
}

void TestFirstTenMinutes::close_withoutTray_asksToKeepRunningOrQuit()
{
    HG_TEST_STORE(t);
    QFile::remove(iniFile());
    AppSettings settings(iniFile());
    EngineHost engine(test::engineConfig(t));
    Desk desk(t, {QStringLiteral("first")}, &engine);
    desk.window->setSettings(&settings);
    engine.start();
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QApplication::setQuitOnLastWindowClosed(true);

    // Cancel: nothing happens.
    desk.window->close();
    answer(desk.window.get(), QStringLiteral("closePrompt"), QMessageBox::Cancel);
    QVERIFY(desk.window->isVisible());

    // Keep running: hidden, the application stays, the engine goes on.
    desk.window->close();
    clickButtonNamed(desk.window.get(), QStringLiteral("closePrompt"),
                     QStringLiteral("keepRunning"));
    QTRY_VERIFY(!desk.window->isVisible());
    QVERIFY(!QApplication::quitOnLastWindowClosed());
    QVERIFY(engine.thread()->isRunning());

    // A second start brings it forward (SingleInstance calls this).
    desk.window->bringForward();
    QTRY_VERIFY(desk.window->isVisible());

    // Quit, remembered: the next close quits without asking. (A splitter moved first.)
    auto *split = desk.window->findChild<QSplitter *>(QStringLiteral("chain.canvasAndForm"));
    QVERIFY(split);
    split->setSizes({700, 400});
    const QList<int> sizes = split->sizes();
    desk.window->close();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = desk.window->findChild<QMessageBox *>(QStringLiteral("closePrompt"))));
    box->findChild<QCheckBox *>(QStringLiteral("rememberChoice"))->setChecked(true);
    QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("quit")), Qt::LeftButton);
    QTRY_VERIFY(!desk.window->isVisible());
    QCOMPARE(settings.askOnClose(), false);
    QCOMPARE(settings.closeToTray(), false);
    // The layout was kept for the next start: the window, every splitter, the chain.
    QVERIFY(!settings.windowGeometry().isEmpty());
    QCOMPARE(settings.selectedChain(), desk.chain.id);
    MainWindow again(t.store());
    again.resize(1280, 800);
    again.show();
    again.setSettings(&settings);
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QCOMPARE(again.findChild<QSplitter *>(QStringLiteral("chain.canvasAndForm"))->sizes(), sizes);
    QTRY_COMPARE(again.chainEditor()->chainId(), desk.chain.id); // read on the reader's thread
}

void TestFirstTenMinutes::runs_rerunShowsAtOnce_failureHasItsReason_listFollowsTheTree()
{
    HG_TEST_STORE(t);
    const Chain quiet = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("quiet"));
    QVERIFY(test::addTask(t.store(), quiet.id, QStringLiteral("nothing"), TaskKind::Shell,
                          QStringLiteral("true"))
                .id
            > 0);
    EngineHost engine(test::engineConfig(t));
    Desk desk(t, {}, &engine);
    QVERIFY(test::addTask(t.store(), desk.chain.id, QStringLiteral("load"), TaskKind::Shell,
                          QStringLiteral("echo loading; exit 3"))
                .id
            > 0);
    engine.start();
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    RunsView *runs = desk.window->runsView();
    RunsModel *model = runs->runs();

    // A run of the other chain, then the failing one.
    desk.window->selectChain(quiet.id);
    QTest::keyClick(desk.window.get(), Qt::Key_R, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, RunsModel::StateColumn).data().toString(),
                              QStringLiteral("succeeded"), 15000);
    desk.window->selectChain(desk.chain.id);
    QTRY_COMPARE(model->rowCount(), 0); // the list follows the tree
    // ... and so does the detail below it: no attempts or log of a run no longer listed.
    QCOMPARE(runs->attempts()->rowCount(), 0);
    QCOMPARE(runs->log()->model()->rowCount(), 0);
    QTest::keyClick(desk.window.get(), Qt::Key_R, Qt::ControlModifier);
    QTRY_COMPARE(model->rowCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, RunsModel::StateColumn).data().toString(),
                              QStringLiteral("failed"), 15000);
    // Why, in its own column and standing out in the log.
    QTRY_VERIFY2(model->index(0, RunsModel::ReasonColumn).data().toString()
                     == QLatin1String("load: exit code 3"),
                 qPrintable(model->index(0, RunsModel::ReasonColumn).data().toString()));
    LogModel *log = runs->log()->model();
    QTRY_VERIFY_WITH_TIMEOUT(log->text().contains(QLatin1String("exit code 3")), 5000);
    bool standsOut = false;
    for (int row = 0; row < log->rowCount(); ++row) {
        const QModelIndex line = log->index(row, 0);
        if (line.data().toString().contains(QLatin1String("exit code 3")))
            standsOut = line.data(Qt::FontRole).value<QFont>().bold();
    }
    QVERIFY(standsOut);

    // Rerun: the new run is in the list and selected at once, before the engine reports.
    const qint64 failedRun = model->index(0, 0).data(RunsModel::RunIdRole).toLongLong();
    runs->selectRun(failedRun);
    engine.engine()->disconnect(runs); // no engine event may be what shows it
    QAction *rerun = nullptr;
    for (QAction *action : runs->findChildren<QAction *>()) {
        if (action->text() == QLatin1String("Rerun"))
            rerun = action;
    }
    QVERIFY(rerun && rerun->isEnabled());
    rerun->trigger();
    QCOMPARE(model->rowCount(), 2);
    const qint64 again = model->index(0, 0).data(RunsModel::RunIdRole).toLongLong();
    QVERIFY(again > failedRun);
    QCOMPARE(runs->table()->currentIndex().row(), 0);
    QVERIFY2(runs->message().contains(QStringLiteral("Run %1 queued").arg(again)),
             qPrintable(runs->message()));
    // Once the run moves on, "queued" is no longer said.
    connect(engine.engine(), &Engine::runChanged, runs, &RunsView::applyRun);
    QTRY_VERIFY_WITH_TIMEOUT(runs->message().isEmpty(), 15000);

    // Every chain's runs, on request.
    auto *onlyThis = runs->findChild<QCheckBox *>(QStringLiteral("runs.onlySelectedChain"));
    QVERIFY(onlyThis && onlyThis->isEnabled() && onlyThis->isChecked());
    onlyThis->setChecked(false);
    QTRY_COMPARE(model->rowCount(), 3);
}

void TestFirstTenMinutes::runs_runningRunCountsUp()
{
    HG_TEST_STORE(t);
    EngineHost engine(test::engineConfig(t));
    Desk desk(t, {}, &engine);
    QVERIFY(test::addTask(t.store(), desk.chain.id, QStringLiteral("slow"), TaskKind::Shell,
                          QStringLiteral("sleep 4"))
                .id
            > 0);
    engine.start();
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTest::keyClick(desk.window.get(), Qt::Key_R, Qt::ControlModifier);
    RunsModel *model = desk.window->runsView()->runs();
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, RunsModel::StateColumn).data().toString(),
                              QStringLiteral("running"), 10000);
    const QModelIndex duration = model->index(0, RunsModel::DurationColumn);
    QTRY_VERIFY(!duration.data().toString().isEmpty());
    const QString first = duration.data().toString();
    QVERIFY2(first != QLatin1String("running"), qPrintable(first));
    // It counts up while running: the view is told every second, with no event from the engine.
    engine.engine()->disconnect(desk.window->runsView());
    // (Other repaints may come first: a rename check repaints the chain column.)
    QSignalSpy repaint(model, &QAbstractItemModel::dataChanged);
    const auto ticked = [&repaint] {
        return std::any_of(repaint.cbegin(), repaint.cend(), [](const QList<QVariant> &changed) {
            return changed.at(0).value<QModelIndex>().column() == RunsModel::DurationColumn
                   && changed.at(1).value<QModelIndex>().column() == RunsModel::DurationColumn;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(ticked(), 30000);
}

void TestFirstTenMinutes::deleteTask_withDependents_asksFirst_andUndoBringsItBackInView()
{
    HG_TEST_STORE(t);
    Desk desk(t, {QStringLiteral("extract"), QStringLiteral("load")});
    const qint64 extract = desk.taskIds.at(0);
    const qint64 load = desk.taskIds.at(1);
    QVERIFY(DependencyRepository(t.store()).add(desk.chain.id, load, extract,
                                                DependencyCondition::Success));
    desk.editor()->showChain(0);
    desk.editor()->showChain(desk.chain.id);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTRY_VERIFY(desk.editor()->scene()->node(extract) != nullptr);
    desk.selectTask(extract);
    QGraphicsView *canvas = desk.editor()->canvas();
    canvas->setFocus();

    // Delete: asked first, naming who depends on it; Cancel keeps everything.
    QTest::keyClick(canvas->viewport(), Qt::Key_Delete);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = desk.window->findChild<QMessageBox *>(QStringLiteral("removeTaskPrompt"))));
    QVERIFY2(box->text().contains(QLatin1String("load")), qPrintable(box->text()));
    answer(desk.window.get(), QStringLiteral("removeTaskPrompt"), QMessageBox::Cancel);
    QCOMPARE(TaskRepository(t.store()).list(desk.chain.id)->size(), 2);

    QTRY_VERIFY(desk.editor()->scene()->node(extract) != nullptr);
    desk.selectTask(extract);
    QTest::keyClick(canvas->viewport(), Qt::Key_Delete);
    answer(desk.window.get(), QStringLiteral("removeTaskPrompt"), QMessageBox::Yes);
    QTRY_COMPARE(desk.editor()->tasks()->rowCount(), 1);
    QCOMPARE(desk.editor()->dependencies()->rowCount(), 0);

    // Undo: back where it was, with its dependency, selected and in view.
    desk.window->definitionEditor()->undoStack()->undo();
    QTRY_COMPARE(desk.editor()->tasks()->rowCount(), 2);
    QTRY_COMPARE(desk.editor()->dependencies()->rowCount(), 1);
    const Task back = desk.editor()->tasks()->tasks().at(
        desk.editor()->tasks()->tasks().at(0).name == QLatin1String("extract") ? 0 : 1);
    QCOMPARE(back.name, QStringLiteral("extract"));
    TaskNodeItem *node = nullptr;
    QTRY_VERIFY((node = desk.editor()->scene()->node(back.id)) != nullptr && node->isSelected());
    const QRect shown = canvas->mapFromScene(node->sceneBoundingRect()).boundingRect();
    QVERIFY(canvas->viewport()->rect().intersects(shown));
}

void TestFirstTenMinutes::tree_clickOnSelectedDoesNotRename_deleteKeyDeletesAfterConfirmation()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTreeView *tree = desk.window->projectTree();
    const QModelIndex chainIndex = desk.window->treeModel()->indexOf(true, desk.chain.id);
    QTRY_COMPARE(tree->currentIndex(), chainIndex);
    const QPoint at = tree->visualRect(chainIndex).center();
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
    QTest::qWait(QApplication::doubleClickInterval() + 100);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
    QTest::qWait(QApplication::doubleClickInterval() + 100);
    QVERIFY(tree->viewport()->findChild<QLineEdit *>() == nullptr);

    // Delete on the tree: the confirmation, then the chain is gone.
    tree->setFocus();
    bool asked = false;
    QTimer::singleShot(200, this, [&asked] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            asked = box->text().contains(QLatin1String("nightly"));
            box->button(QMessageBox::Yes)->click();
        }
    });
    QTest::keyClick(tree, Qt::Key_Delete);
    QVERIFY(asked);
    QTRY_VERIFY(!ChainRepository(t.store()).byId(desk.chain.id));
}

QTEST_MAIN(TestFirstTenMinutes)
#include "tst_firsttenminutes.moc"
