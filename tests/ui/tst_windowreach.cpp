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
#include "projecttreemodel.h"
#include "runs/logview.h"
#include "runs/runsview.h"
#include "runsmodel.h"
#include "schedule/scheduledialog.h"
#include "scheduler/enginehost.h"
#include "schedulesmodel.h"
#include "settings/appsettings.h"
#include "settings/colorscheme.h"
#include "statepresentation.h"
#include "store/calendarrepository.h"
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
#include "upcoming/upcomingpage.h"
#include "window/mainwindow.h"
#include "window/treefilter.h"
#include "windowlint.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsView>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
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

using namespace hg;
using namespace hg::test;

// What a user sees and reaches in the window: icons and the tree's states, a name for every
// control a screen reader meets, the whole path from a new chain to its run by keyboard
// alone, the canvas told to assistive technology and the dark scheme (the overview and the
// tree's filter: tst_windowoverview). Each through the real widgets, typed key by key.
class TestWindowReach final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void toolbar_hasIconsAndTheTreeShowsStatus();
    void everyInteractiveWidget_hasAnAccessibleName();
    void schedulesTable_fitsAt1280_andUpcomingSaysWhenPaused();
    void keyboardOnly_createConnectScheduleAndRun();
    void canvas_showsTasksAndDependenciesToAssistiveTechnology();
    void darkScheme_keepsStateColoursReadable();
    void altKeys_eachLetterReachesOneThingOnEveryTab();
    void at1024x640_nothingIsCut();
    void logSave_onlyWithARunShown();
    void tabWalk_reachesEveryPartOnceAndComesBack();
};

void TestWindowReach::toolbar_hasIconsAndTheTreeShowsStatus()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    auto *toolbar = desk.window->findChild<QToolBar *>(QStringLiteral("mainToolbar"));
    QVERIFY(toolbar);
    QStringList texts;
    for (QAction *action : toolbar->actions()) {
        if (action->isSeparator())
            continue;
        texts << action->text().remove(QLatin1Char('&'));
        // Drawn: from the theme, or the bundled SVG through Qt's SVG icon engine.
        QVERIFY2(!action->icon().pixmap(24).isNull(), qPrintable(action->text()));
    }
    QVERIFY(QFile::exists(QStringLiteral(":/icons/run.svg")));
    QCOMPARE(texts,
             (QStringList{QStringLiteral("New chain"), QStringLiteral("Add task"),
                          QStringLiteral("Run now"), QStringLiteral("Stop"),
                          QStringLiteral("Pause all schedules"), QStringLiteral("Import…")}));
    // Ctrl+T adds a task from the tree too.
    desk.window->projectTree()->setFocus();
    QTest::keyClick(desk.window.get(), Qt::Key_T, Qt::ControlModifier);
    QTRY_COMPARE(desk.editor()->tasks()->rowCount(), 2);

    // The chain's icon follows its newest run; a failure badges its project.
    ProjectTreeModel *tree = desk.window->treeModel();
    const QModelIndex chain = tree->indexOf(true, desk.chain.id);
    QVERIFY(!chain.data(Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(!chain.data(ProjectTreeModel::LastStateRole).isValid());
    Run failed = test::queueRun(t.store(), desk.chain.id);
    failed.state = RunState::Failed;
    tree->applyRun(failed);
    QCOMPARE(chain.data(ProjectTreeModel::LastStateRole).toInt(), int(RunState::Failed));
    QCOMPARE(chain.parent().data(ProjectTreeModel::FailedChainsRole).toInt(), 1);
    QVERIFY(chain.data(Qt::ToolTipRole).toString().contains(QLatin1String("failed")));

    // Switched off: the banner says so and Enable switches it on.
    Chain off = desk.chain;
    off.enabled = false;
    QVERIFY(desk.window->definitionEditor()->updateChain(off));
    auto *banner = desk.editor()->findChild<QWidget *>(QStringLiteral("chain.disabledBanner"));
    QTRY_VERIFY(banner->isVisible());
    QTest::mouseClick(banner->findChild<QPushButton *>(QStringLiteral("chain.enable")),
                      Qt::LeftButton);
    QTRY_VERIFY(ChainRepository(t.store()).byId(desk.chain.id)->enabled);
    QTRY_VERIFY(!banner->isVisible());
}

void TestWindowReach::everyInteractiveWidget_hasAnAccessibleName()
{
    HG_TEST_STORE(t);
    EngineHost engine(test::engineConfig(t));
    Desk desk(t, {QStringLiteral("first")}, &engine);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTRY_COMPARE(desk.form()->taskId(), desk.taskIds.at(0));
    QStringList nameless;
    QStringList undescribed;
    for (int tab = 0; tab < desk.window->tabs()->count(); ++tab) {
        desk.window->tabs()->setCurrentIndex(tab);
        for (QWidget *widget : desk.window->findChildren<QWidget *>()) {
            // An empty label has nothing to say; a label with text is named by it.
            if (auto *label = qobject_cast<QLabel *>(widget); label && label->text().isEmpty())
                continue;
            if (!widget->isVisible() || widget->focusPolicy() == Qt::NoFocus
                || qobject_cast<QAbstractScrollArea *>(widget->parentWidget())
                || qobject_cast<QAbstractSpinBox *>(widget->parentWidget()))
                continue;
            QAccessibleInterface *accessible = QAccessible::queryAccessibleInterface(widget);
            if (!accessible)
                continue;
            const QString what =
                QStringLiteral("%1 \"%2\" (%3)")
                    .arg(QLatin1String(widget->metaObject()->className()), widget->objectName(),
                         accessible->text(QAccessible::Name));
            if (accessible->text(QAccessible::Name).trimmed().isEmpty())
                nameless << what;
            // A description says what it does beyond its name (Qt takes the tooltip). A tab
            // bar is described by its tabs, one each.
            if (qobject_cast<QTabBar *>(widget)) {
                for (int button = 0; button < accessible->childCount(); ++button) {
                    if (accessible->child(button)->role() == QAccessible::PageTab
                        && accessible->child(button)->text(QAccessible::Description).isEmpty())
                        undescribed << what + QLatin1Char('/')
                                           + accessible->child(button)->text(QAccessible::Name);
                }
            } else if (accessible->text(QAccessible::Description).trimmed().isEmpty()) {
                undescribed << what;
            }
        }
    }
    nameless.removeDuplicates();
    undescribed.removeDuplicates();
    QVERIFY2(nameless.isEmpty(), qPrintable(nameless.join(QLatin1String(", "))));
    QVERIFY2(undescribed.isEmpty(), qPrintable(undescribed.join(QLatin1String(", "))));
}

void TestWindowReach::schedulesTable_fitsAt1280_andUpcomingSaysWhenPaused()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    Schedule schedule;
    schedule.chainId = desk.chain.id;
    schedule.expression = QStringLiteral("30 7 * * *");
    QVERIFY(desk.window->definitionEditor()->addSchedule(schedule));
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    auto *table = desk.editor()->findChild<QTableView *>(QStringLiteral("schedules"));
    QTRY_COMPARE(table->model()->rowCount(), 1);
    // Every column inside the table's width, the meaning elided with the whole in a tooltip.
    const QHeaderView *header = table->horizontalHeader();
    QVERIFY2(header->length() <= table->viewport()->width(),
             qPrintable(
                 QStringLiteral("%1 > %2").arg(header->length()).arg(table->viewport()->width())));
    const QModelIndex meaning = table->model()->index(0, SchedulesModel::MeaningColumn);
    QCOMPARE(meaning.data(Qt::ToolTipRole).toString(), meaning.data().toString());

    auto *note = desk.window->findChild<QLabel *>(QStringLiteral("upcoming.note"));
    QVERIFY(note);
    QVERIFY(!note->text().contains(QLatin1String("paused")));
    desk.window->setSchedulesPaused(true);
    QVERIFY(note->text().contains(QLatin1String("paused")));
    QVERIFY(note->text().contains(QLatin1String("hatched band")));

    // An every-minute schedule has more fires this week than the table lists: said so, not
    // left for the user to notice (Ctrl+5 goes to Upcoming).
    schedule.expression = QStringLiteral("* * * * *");
    QVERIFY(desk.window->definitionEditor()->addSchedule(schedule));
    // Thirty more chains: more timeline rows than half the page holds.
    for (int n = 0; n < 30; ++n) {
        Schedule daily;
        daily.chainId =
            test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("c%1").arg(n)).id;
        daily.expression = QStringLiteral("45 7 * * *"); // after the chain's 07:30
        QVERIFY(ScheduleRepository(t.store()).add(daily));
    }
    desk.window->projectTree()->setFocus();
    QTest::keyClick(desk.window.get(), Qt::Key_5, Qt::ControlModifier);
    auto *upcoming = desk.window->findChild<UpcomingPage *>();
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), upcoming);
    QTRY_VERIFY(!upcoming->isReading() && upcoming->fires()->rowCount() > 0);
    auto *status = desk.window->findChild<QLabel *>(QStringLiteral("upcoming.status"));
    QTRY_VERIFY(status->isVisible());
    QVERIFY2(status->text().contains(QLatin1String("at most 500 fire times")),
             qPrintable(status->text()));
    // The timeline has half the page, not the three rows it had above a long table.
    auto *split = desk.window->findChild<QSplitter *>(QStringLiteral("upcoming.timelineAndTable"));
    QVERIFY(split);
    QVERIFY2(split->sizes().at(0) * 10 >= split->height() * 4,
             qPrintable(QStringLiteral("%1 of %2").arg(split->sizes().at(0)).arg(split->height())));

    // The Overview's next fires say so too (helper-9 found them listed as if they would fire).
    QTest::keyClick(desk.window.get(), Qt::Key_6, Qt::ControlModifier);
    auto *overview = desk.window->findChild<OverviewPage *>();
    QTRY_COMPARE(desk.window->tabs()->currentWidget(), overview);
    QTRY_VERIFY(!overview->isReading() && overview->nextFires()->count() > 1);
    QVERIFY2(
        overview->nextFires()->item(0)->text().startsWith(QLatin1String("Schedules are paused")),
        qPrintable(overview->nextFires()->item(0)->text()));
    desk.window->setSchedulesPaused(false);
    QVERIFY2(overview->nextFires()->item(0)->text().contains(QLatin1String("ops/")),
             qPrintable(overview->nextFires()->item(0)->text()));
    // One row per chain, its soonest fire: the chain's two schedules that fire within two days
    // were two rows, and every-second chains filled the list so that a nightly one never showed.
    int rowsOfTheChain = 0;
    for (int row = 0; row < overview->nextFires()->count(); ++row)
        rowsOfTheChain +=
            overview->nextFires()->item(row)->text().endsWith(QLatin1String("ops/nightly")) ? 1 : 0;
    QCOMPARE(rowsOfTheChain, 1);
}

void TestWindowReach::keyboardOnly_createConnectScheduleAndRun()
{
    HG_TEST_STORE(t);
    Calendar holidays;
    holidays.name = QStringLiteral("holidays");
    holidays.ranges << Calendar::Range{QDate(2026, 12, 24), QDate(2026, 12, 26), {}};
    QVERIFY(CalendarRepository(t.store()).add(holidays));
    EngineHost engine(test::engineConfig(t));
    MainWindow window(t.store(), &engine);
    engine.start();
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    ChainEditor *editor = window.chainEditor();

    // A chain (and its project), named in place.
    press(&window, Qt::Key_N, Qt::ControlModifier);
    QLineEdit *rename = nullptr;
    QTRY_VERIFY((rename = window.projectTree()->viewport()->findChild<QLineEdit *>()));
    QTRY_COMPARE(QApplication::focusWidget(), rename);
    press(&window, Qt::Key_A, Qt::ControlModifier);
    type(&window, QStringLiteral("nightly"));
    press(&window, Qt::Key_Return);
    QTRY_COMPARE(ChainRepository(t.store()).byId(editor->chainId())->name,
                 QStringLiteral("nightly"));

    // Two tasks: Ctrl+T puts the focus in the name field; type, Enter applies.
    for (const QString &name : {QStringLiteral("extract"), QStringLiteral("load")}) {
        press(&window, Qt::Key_T, Qt::ControlModifier);
        QTRY_COMPARE(QApplication::focusWidget(), nameField(editor->taskForm()));
        press(&window, Qt::Key_A, Qt::ControlModifier);
        type(&window, name);
        press(&window, Qt::Key_Return);
        QTRY_VERIFY(std::any_of(editor->tasks()->tasks().cbegin(), editor->tasks()->tasks().cend(),
                                [&](const Task &task) { return task.name == name; }));
    }

    // Esc to the canvas, Left to "extract", Ctrl+K, "load" is offered, Enter connects.
    press(&window, Qt::Key_Escape);
    QTRY_COMPARE(QApplication::focusWidget(), editor->canvas());
    press(&window, Qt::Key_Left);
    QTRY_COMPARE(editor->taskForm()->originalName(), QStringLiteral("extract"));
    press(&window, Qt::Key_K, Qt::ControlModifier);
    QDialog *connectDialog = nullptr;
    QTRY_VERIFY((connectDialog = window.findChild<QDialog *>(QStringLiteral("connectTaskDialog"))));
    QTRY_VERIFY(connectDialog->isActiveWindow());
    QCOMPARE(
        connectDialog->findChild<QComboBox *>(QStringLiteral("connect.downstream"))->currentText(),
        QStringLiteral("load"));
    press(&window, Qt::Key_Return);
    QTRY_COMPARE(editor->dependencies()->rowCount(), 1);
    QCOMPARE(editor->dependencies()->dependencies().at(0).upstreamName, QStringLiteral("extract"));

    // A schedule: Ctrl+Shift+S, type, Enter. (Offscreen, nothing hands activation back to
    // the window when a dialog closes, as a window manager does.)
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());
    press(&window, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QDialog *scheduleDialog = nullptr;
    QTRY_VERIFY((scheduleDialog = window.findChild<ScheduleDialog *>()));
    QTRY_VERIFY(scheduleDialog->isActiveWindow());
    // The store's calendars, read off the GUI thread, arrive in the dialog's calendar box.
    auto *calendars = scheduleDialog->findChild<QComboBox *>(QStringLiteral("schedule.calendar"));
    QTRY_VERIFY(calendars->findText(QStringLiteral("Not on the days of holidays")) >= 0);
    type(&window, QStringLiteral("30 6 * * 1-5"));
    press(&window, Qt::Key_Return);
    QTRY_COMPARE(editor->schedules()->rowCount(), 1);

    // Run it: Ctrl+R, and it succeeds.
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());
    press(&window, Qt::Key_R, Qt::ControlModifier);
    RunsModel *runs = window.runsView()->runs();
    QTRY_COMPARE_WITH_TIMEOUT(runs->rowCount(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(runs->index(0, RunsModel::StateColumn).data().toString(),
                              QStringLiteral("succeeded"), 15000);
}

void TestWindowReach::canvas_showsTasksAndDependenciesToAssistiveTechnology()
{
    HG_TEST_STORE(t);
    Desk desk(t, {QStringLiteral("extract"), QStringLiteral("load")});
    QVERIFY(DependencyRepository(t.store()).add(
        desk.chain.id, desk.taskIds.at(1), desk.taskIds.at(0), DependencyCondition::Completion));
    desk.editor()->showChain(0);
    desk.editor()->showChain(desk.chain.id);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QTRY_VERIFY(desk.editor()->scene()->edge(desk.taskIds.at(1), desk.taskIds.at(0)));
    QAccessibleInterface *canvas = QAccessible::queryAccessibleInterface(desk.editor()->canvas());
    QVERIFY(canvas);
    QCOMPARE(canvas->childCount(), 3);
    QStringList names;
    for (int i = 0; i < canvas->childCount(); ++i) {
        QAccessibleInterface *child = canvas->child(i);
        QVERIFY(child && child->isValid());
        QCOMPARE(canvas->indexOfChild(child), i);
        QCOMPARE(child->parent(), canvas);
        QVERIFY(!child->rect().isEmpty());
        names << child->text(QAccessible::Name) + QLatin1String(" | ")
                     + child->text(QAccessible::Description);
    }
    QCOMPARE(
        names,
        (QStringList{QStringLiteral("extract | shell task, never ran"),
                     QStringLiteral("load | shell task, never ran"),
                     QStringLiteral("extract → load | load runs after extract, on completion")}));
    // Selection shows in the state; a redraw leaves the children valid.
    desk.selectTask(desk.taskIds.at(1));
    QVERIFY(canvas->child(1)->state().selected);
    QVERIFY(!canvas->child(0)->state().selected);
    desk.editor()->autoLayoutAction()->trigger();
    QTRY_VERIFY(canvas->child(0)->isValid());
    QCOMPARE(canvas->child(0)->text(QAccessible::Name), QStringLiteral("extract"));
}

void TestWindowReach::darkScheme_keepsStateColoursReadable()
{
    HG_TEST_STORE(t);
    const QColor lightError = StatePresentation::errorText();
    ColorScheme::apply(ColorScheme::dark());
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QVERIFY(StatePresentation::darkPalette());
    const QColor window = desk.window->palette().color(QPalette::Window);
    QVERIFY(window.lightness() < 80);
    // Every state's text and the error colour stand out from the dark window (a lightness
    // gap a reader can see), and they are not the light scheme's dark tones.
    for (RunState state :
         {RunState::Succeeded, RunState::Failed, RunState::Running, RunState::Cancelled}) {
        const QColor text = StatePresentation::text(state);
        QVERIFY2(text.lightness() - window.lightness() > 90,
                 qPrintable(StatePresentation::label(state) + QLatin1Char(' ') + text.name()));
    }
    QVERIFY(StatePresentation::errorText() != lightError);
    QCOMPARE(desk.editor()->scene()->backgroundBrush().color(),
             desk.window->palette().color(QPalette::Base));
    ColorScheme::apply(ColorScheme::system());
    QVERIFY(!StatePresentation::darkPalette());
}

// Helper-9 found Alt+C claimed by the Chain menu, the Chain tab and the log's Copy button:
// Alt+C then cycled between them, and the menu was never reached at the first press. On every
// tab, each Alt letter names one thing: a menu, a tab, or a visible button, box or label.
void TestWindowReach::altKeys_eachLetterReachesOneThingOnEveryTab()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    const QStringList clashes = altKeyClashes(*desk.window);
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    // And each label's letter takes the focus to its field (Alt+N reached nothing; helper-13).
    QApplication::setActiveWindow(desk.window.get());
    QVERIFY(QTest::qWaitForWindowActive(desk.window.get()));
    const QStringList dead = deadLabelMnemonics(*desk.window);
    QVERIFY2(dead.isEmpty(), qPrintable(dead.join(QLatin1Char('\n'))));
}

// At 1024x640 the chain's settings, header and schedules, the Runs table and the cadence
// line were cut or ran off the edge (issue 34): nothing on the Chain or Runs tab is.
void TestWindowReach::at1024x640_nothingIsCut()
{
    HG_TEST_STORE(t);
    const QStringList cut = cutAt1024x640(t);
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
}

// Save in the log bar with no run shown offered to save "run-0.log" (helper-13).
void TestWindowReach::logSave_onlyWithARunShown()
{
    HG_TEST_STORE(t);
    Desk desk(t);
    auto *runs = desk.window->findChild<RunsView *>();
    QPushButton *save = nullptr;
    for (QPushButton *button : runs->log()->findChildren<QPushButton *>())
        if (button->text() == QStringLiteral("Sa&ve…"))
            save = button;
    QVERIFY(save);
    QVERIFY(!save->isEnabled());
    const Run run = queueRun(t.store(), desk.chain.id);
    runs->log()->follow(run.id, 0);
    QVERIFY(save->isEnabled());
}

// Tab, key by key, through the whole window on the Chain and the Runs tab: every part is one
// stop (a table or the canvas never traps it), each is reached once, and Tab comes back to
// where it started; Shift+Tab walks the same way back (issue 34).
void TestWindowReach::tabWalk_reachesEveryPartOnceAndComesBack()
{
    HG_TEST_STORE(t);
    Desk desk(t, {QStringLiteral("extract"), QStringLiteral("load")});
    Schedule schedule;
    schedule.chainId = desk.chain.id;
    schedule.expression = QStringLiteral("30 7 * * *");
    QVERIFY(desk.window->definitionEditor()->addSchedule(schedule));
    const Run run = queueRun(t.store(), desk.chain.id);
    QVERIFY(RunRepository(t.store()).setState(run.id, RunState::Failed,
                                              QDateTime::currentDateTimeUtc()));
    QApplication::setActiveWindow(desk.window.get());
    QVERIFY(QTest::qWaitForWindowActive(desk.window.get()));
    const auto describe = [](const QWidget *widget) {
        if (widget == nullptr)
            return QStringLiteral("(nothing)");
        QString name = widget->objectName();
        if (name.isEmpty())
            name = widget->accessibleName();
        return QStringLiteral("%1 '%2'").arg(QString::fromLatin1(widget->metaObject()->className()),
                                             name);
    };
    for (const int tab : {0, 1, 2}) {
        desk.window->tabs()->setCurrentIndex(tab);
        desk.selectTask(desk.taskIds.first());
        QTest::keyClick(desk.window.get(), Qt::Key_1, Qt::ControlModifier); // the tree
        QTRY_VERIFY(desk.window->projectTree()->hasFocus());
        QWidget *start = QApplication::focusWidget();
        QList<QWidget *> walk{start};
        for (int stop = 0; stop < 60; ++stop) {
            press(desk.window.get(), Qt::Key_Tab);
            QWidget *now = QApplication::focusWidget();
            QVERIFY2(now != nullptr, "Tab left the window");
            if (now == start)
                break;
            QVERIFY2(
                !walk.contains(now),
                qPrintable(QStringLiteral("tab %1: %2 reached twice").arg(tab).arg(describe(now))));
            walk << now;
        }
        QStringList names;
        for (const QWidget *widget : std::as_const(walk))
            names << describe(widget);
        QVERIFY2(
            QApplication::focusWidget() == start,
            qPrintable(QStringLiteral("Tab never came back: ") + names.join(QLatin1String(" → "))));
        const auto reached = [&walk](const QWidget *part) {
            for (const QWidget *widget : walk) {
                if (widget == part || part->isAncestorOf(widget))
                    return true;
            }
            return false;
        };
        const QString path = names.join(QLatin1String(" → "));
        QVERIFY2(reached(desk.window->findChild<TreeFilter *>()), qPrintable(path));
        // As the eye reads: top to bottom, left to right.
        const auto before = [&walk](const QWidget *first, const QWidget *second) {
            const auto at = [&walk](const QWidget *part) {
                for (qsizetype n = 0; n < walk.size(); ++n) {
                    if (walk.at(n) == part || part->isAncestorOf(walk.at(n)))
                        return n;
                }
                return qsizetype(-1);
            };
            return at(first) >= 0 && at(first) < at(second);
        };
        if (tab == 0) {
            QVERIFY2(reached(desk.editor()->canvas()), qPrintable(path));
            QVERIFY2(reached(nameField(desk.form())), qPrintable(path));
            QVERIFY2(reached(desk.editor()->findChild<QTableView *>(QStringLiteral("schedules"))),
                     qPrintable(path));
            QVERIFY2(before(desk.editor()->findChild<QWidget *>(QStringLiteral("chain.notify")),
                            desk.editor()->canvas()),
                     qPrintable(path));
            QVERIFY2(before(desk.editor()->canvas(), nameField(desk.form())), qPrintable(path));
            QVERIFY2(before(nameField(desk.form()),
                            desk.editor()->findChild<QTableView *>(QStringLiteral("schedules"))),
                     qPrintable(path));
        } else if (tab == 2) {
            auto *upcoming = desk.window->findChild<UpcomingPage *>();
            QVERIFY2(
                before(upcoming->findChild<QWidget *>(QStringLiteral("upcoming.timelineScroll")),
                       upcoming->table()),
                qPrintable(path));
        } else {
            auto *runs = desk.window->findChild<RunsView *>();
            QVERIFY2(reached(runs->table()), qPrintable(path));
            QVERIFY2(reached(runs->log()), qPrintable(path));
            QVERIFY2(
                before(desk.window->findChild<QWidget *>(QStringLiteral("runs.onlySelectedChain")),
                       runs->table()),
                qPrintable(path));
            QVERIFY2(before(runs->table(), runs->log()), qPrintable(path));
        }
        // Shift+Tab: the same stops, the other way round.
        QList<QWidget *> back;
        for (qsizetype n = 0; n < walk.size(); ++n) {
            press(desk.window.get(), Qt::Key_Backtab, Qt::ShiftModifier);
            back.prepend(QApplication::focusWidget());
        }
        QCOMPARE(back.first(), start);
        QCOMPARE(back.mid(1), walk.mid(1));
    }
}

QTEST_MAIN(TestWindowReach)
#include "tst_windowreach.moc"
