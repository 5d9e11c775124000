#include "chain/chaintriggersbox.h"
#include "chain/triggerdialog.h"
#include "definitioneditor.h"
#include "desk.h"
#include "store/chaintriggerrepository.h"
#include "store/storequery.h"
#include "testservers.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

using namespace hg;

// The chain editor's triggers, as a person adds them: the dialog typed into key by key, a
// refusal shown in it with what was typed kept, every change undoable, the list saying each.
class TestChainTriggersBox final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void desktopIdle_addedUndoneAndRedone();
    void badGlob_isShownInTheDialog_andNothingIsSaved();
    void afterAnotherChain_pauseAndRemove_areUndoable();

private:
    static TriggerDialog *openDialog(test::Desk &desk, TriggerKind kind);
    static QList<ChainTrigger> triggersOf(test::TestStore &t, qint64 chainId);
    // A shared store gives file and desktop triggers to the engine the chain names.
    static bool nameTheEngine(test::TestStore &t, qint64 chainId);
};

bool TestChainTriggersBox::nameTheEngine(test::TestStore &t, qint64 chainId)
{
    StoreQuery q(t.store(), QStringLiteral("UPDATE chain SET client_name = 'here' WHERE id = ?"));
    q.bind(chainId);
    return bool(q.exec(QStringLiteral("test")));
}

TriggerDialog *TestChainTriggersBox::openDialog(test::Desk &desk, TriggerKind kind)
{
    auto *box = desk.window->findChild<ChainTriggersBox *>();
    if (!box)
        return nullptr;
    box->addTrigger(kind);
    TriggerDialog *dialog = nullptr;
    (void)QTest::qWaitFor(
        [&] {
            dialog = desk.window->findChild<TriggerDialog *>();
            return dialog && dialog->isVisible();
        },
        5000);
    return dialog;
}

QList<ChainTrigger> TestChainTriggersBox::triggersOf(test::TestStore &t, qint64 chainId)
{
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(t.store()).list(chainId);
    return triggers ? triggers.value() : QList<ChainTrigger>();
}

void TestChainTriggersBox::desktopIdle_addedUndoneAndRedone()
{
    HG_TEST_STORE(t);
    test::Desk desk(t);
    QVERIFY(nameTheEngine(t, desk.chain.id));
    TriggerDialog *dialog = openDialog(desk, TriggerKind::Desktop);
    QVERIFY(dialog);
    auto *event = dialog->findChild<QComboBox *>(QStringLiteral("trigger.desktopEvent"));
    auto *idle = dialog->findChild<QSpinBox *>(QStringLiteral("trigger.idle"));
    QVERIFY(event && idle);
    QVERIFY(!idle->isEnabled()); // an idle time belongs to idle only
    event->setFocus();
    for (int i = 0; i < 3; ++i) // unlock, resume, network, idle
        test::press(dialog, Qt::Key_Down);
    QCOMPARE(event->currentData().toString(), QStringLiteral("idle"));
    QVERIFY(idle->isEnabled());
    test::press(dialog, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(idle));
    test::press(dialog, Qt::Key_A, Qt::ControlModifier);
    test::type(dialog, QStringLiteral("15"));
    test::press(dialog, Qt::Key_Return);
    QTRY_VERIFY(!dialog->isVisible());

    QList<ChainTrigger> stored = triggersOf(t, desk.chain.id);
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.at(0).kind, TriggerKind::Desktop);
    QCOMPARE(stored.at(0).desktop.event, DesktopEvent::Idle);
    QCOMPARE(stored.at(0).desktop.idleMs, 15 * 60'000);
    auto *list = desk.window->findChild<QListWidget *>(QStringLiteral("triggers"));
    QVERIFY(list);
    QTRY_COMPARE(list->count(), 1);
    QCOMPARE(list->item(0)->text(), QStringLiteral("idle for 15 min"));

    QUndoStack *stack = desk.window->definitionEditor()->undoStack();
    QCOMPARE(stack->undoText(), QStringLiteral("New trigger idle for 15 min"));
    stack->undo();
    QCOMPARE(triggersOf(t, desk.chain.id).size(), 0);
    QTRY_COMPARE(list->count(), 0);
    stack->redo();
    stored = triggersOf(t, desk.chain.id);
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.at(0).desktop.idleMs, 15 * 60'000);
    QTRY_COMPARE(list->count(), 1);
}

void TestChainTriggersBox::badGlob_isShownInTheDialog_andNothingIsSaved()
{
    HG_TEST_STORE(t);
    test::Desk desk(t);
    TriggerDialog *dialog = openDialog(desk, TriggerKind::File);
    QVERIFY(dialog);
    auto *glob = dialog->findChild<QLineEdit *>(QStringLiteral("trigger.glob"));
    auto *problem = dialog->findChild<QLabel *>(QStringLiteral("trigger.problem"));
    QVERIFY(glob && problem);
    glob->setFocus();
    test::type(dialog, QStringLiteral("in/*.csv"));
    test::press(dialog, Qt::Key_Return);
    QTRY_VERIFY(problem->isVisible());
    QVERIFY2(problem->text().contains(QLatin1String("is not an absolute path")),
             qPrintable(problem->text()));
    QVERIFY(dialog->isVisible());
    QCOMPARE(glob->text(), QStringLiteral("in/*.csv")); // what was typed stays
    QCOMPARE(triggersOf(t, desk.chain.id).size(), 0);
    QVERIFY(!desk.window->definitionEditor()->undoStack()->canUndo());
    if (test::TestStore::backend() == StoreBackend::PostgreSql) {
        // A shared store wants the chain's client name: said in the dialog, nothing saved.
        glob->setFocus();
        test::press(dialog, Qt::Key_A, Qt::ControlModifier);
        test::type(dialog, QStringLiteral("/srv/in/*.csv"));
        test::press(dialog, Qt::Key_Return);
        QTRY_VERIFY(problem->text().contains(QLatin1String("has no client name")));
        QCOMPARE(triggersOf(t, desk.chain.id).size(), 0);
        QVERIFY(nameTheEngine(t, desk.chain.id));
    }

    glob->setFocus();
    test::press(dialog, Qt::Key_A, Qt::ControlModifier);
    test::type(dialog, QStringLiteral("/srv/in/*.csv"));
    test::press(dialog, Qt::Key_Return);
    QTRY_VERIFY(!dialog->isVisible());
    const QList<ChainTrigger> stored = triggersOf(t, desk.chain.id);
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.at(0).file.glob, QStringLiteral("/srv/in/*.csv"));
    QCOMPARE(stored.at(0).file.events, (QList<FileEvent>{FileEvent::Created, FileEvent::Moved}));
    QCOMPARE(stored.at(0).file.settleMs, FileTriggerSpec::defaultSettleMs);
}

void TestChainTriggersBox::afterAnotherChain_pauseAndRemove_areUndoable()
{
    HG_TEST_STORE(t);
    const Chain load = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("load"));
    test::Desk desk(t);
    TriggerDialog *dialog = openDialog(desk, TriggerKind::After);
    QVERIFY(dialog);
    auto *after = dialog->findChild<QLineEdit *>(QStringLiteral("trigger.after"));
    QVERIFY(after);
    after->setFocus();
    test::type(dialog, QStringLiteral("ops/load"));
    test::press(dialog, Qt::Key_Return);
    QTRY_VERIFY(!dialog->isVisible());
    QList<ChainTrigger> stored = triggersOf(t, desk.chain.id);
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.at(0).upstreams.size(), 1);
    QCOMPARE(stored.at(0).upstreams.at(0).chainId, load.id);

    auto *list = desk.window->findChild<QListWidget *>(QStringLiteral("triggers"));
    auto *pause = desk.window->findChild<QPushButton *>(QStringLiteral("triggers.pause"));
    auto *remove = desk.window->findChild<QPushButton *>(QStringLiteral("triggers.remove"));
    QVERIFY(list && pause && remove);
    QTRY_COMPARE(list->count(), 1);
    QCOMPARE(list->item(0)->text(), QStringLiteral("after a run of ops/load succeeded"));
    QVERIFY(!pause->isEnabled()); // nothing selected
    // The dialog closed: the window is active again, and the list takes the keys.
    desk.window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(desk.window.get()));
    list->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(list));
    test::press(desk.window.get(), Qt::Key_Down);
    QTRY_VERIFY(pause->isEnabled());
    QTest::mouseClick(pause, Qt::LeftButton);
    QVERIFY(triggersOf(t, desk.chain.id).at(0).paused);
    QTRY_COMPARE(list->item(0)->text(),
                 QStringLiteral("after a run of ops/load succeeded (paused)"));
    QCOMPARE(pause->text(), QStringLiteral("&Resume"));
    QUndoStack *stack = desk.window->definitionEditor()->undoStack();
    stack->undo();
    QVERIFY(!triggersOf(t, desk.chain.id).at(0).paused);

    list->setCurrentRow(0);
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(triggersOf(t, desk.chain.id).size(), 0);
    stack->undo(); // back, under a new id, with its upstream
    stored = triggersOf(t, desk.chain.id);
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.at(0).upstreams.at(0).path, QStringLiteral("ops/load"));
    stack->redo();
    QCOMPARE(triggersOf(t, desk.chain.id).size(), 0);
}

QTEST_MAIN(TestChainTriggersBox)
#include "tst_chaintriggersbox.moc"
