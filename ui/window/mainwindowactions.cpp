// MainWindow's menus, toolbar and the help dialogs they open. mainwindow.cpp holds the rest.
#include "chain/chaineditor.h"
#include "chain/chainsettingsbar.h"
#include "definitioneditor.h"
#include "mainwindow.h"
#include "overview/overviewpage.h"
#include "projecttreemodel.h"
#include "remote/connectionscontroller.h"
#include "runs/logview.h"
#include "runs/runsview.h"
#include "store/store.h"
#include "treefilter.h"
#include "upcoming/upcomingpage.h"
#include "window/helpdialogs.h"
#include "window/importdialog.h"
#include "window/storebanner.h"
#include "window/storefileactions.h"
#include "window/treeediting.h"

#include <QAction>
#include <QGraphicsView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>

namespace hg {

void MainWindow::createActions()
{
    const auto action = [this](const QString &text, const QKeySequence &key, auto slot) {
        auto *a = new QAction(text, this);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_runNow =
        action(tr("&Run now"), QKeySequence(Qt::CTRL | Qt::Key_R), &MainWindow::runSelectedChain);
    m_backfill = action(tr("&Backfill…"), QKeySequence(), &MainWindow::backfillSelectedChain);
    m_backfill->setStatusTip(
        tr("Queue runs of the selected chain for the fire times of a past range"));
    m_treeEditing = new TreeEditing(m_store, m_editor, m_model, m_tree, this);
    connect(m_treeEditing, &TreeEditing::failed, this, &MainWindow::report);
    connect(m_treeEditing, &TreeEditing::chainCreated, this,
            [this] { m_tabs->setCurrentWidget(m_chainEditor); });
    connect(m_tree, &QWidget::customContextMenuRequested, this, &MainWindow::showTreeMenu);
    m_connections = new ConnectionsController(m_store, m_model, this);
    connect(m_connections, &ConnectionsController::connectionsChanged, this,
            &MainWindow::reloadTree);
    connect(m_connections, &ConnectionsController::chainImported, this, [this] {
        reloadTree();
        wakeEngine();
    });
    connect(m_connections, &ConnectionsController::reported, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    QAction *newProjectAction = m_treeEditing->newProjectAction();
    QAction *newChainAction = m_treeEditing->newChainAction();
    // Quit always quits, also when closing the window only hides it to the tray.
    // The platform's Quit keys; Ctrl+Q where it names none (a bare X server, offscreen).
    auto *quit = action(
        tr("&Quit"),
        QKeySequence::keyBindings(QKeySequence::Quit).value(0, QKeySequence(Qt::CTRL | Qt::Key_Q)),
        &MainWindow::quit);
    m_openSettings = action(tr("&Settings…"), QKeySequence::Preferences, &MainWindow::openSettings);
    m_openSettings->setEnabled(false); // until setSettings()
    auto *notifications =
        action(tr("No&tifications…"), QKeySequence(), [this] { openNotifications(); });
    notifications->setObjectName(QStringLiteral("action.notifications"));
    notifications->setStatusTip(tr("E-mail and webhook channels, what goes to them, and what "
                                   "was sent"));
    connect(m_chainEditor->settingsBar(), &ChainSettingsBar::channelsRequested, this,
            [this](qint64 chainId) { openNotifications(chainId); });
    m_pauseSchedules = new QAction(tr("&Pause all schedules"), this);
    m_pauseSchedules->setCheckable(true);
    m_pauseSchedules->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    connect(m_pauseSchedules, &QAction::toggled, this, &MainWindow::setSchedulesPaused);

    QAction *undo = m_editor->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_editor->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});

    m_import =
        action(tr("&Import…"), QKeySequence(Qt::CTRL | Qt::Key_I), &MainWindow::importProject);
    m_import->setStatusTip(
        tr("Import a Hourglass export, a crontab, a Windows task or a systemd timer"));
    m_storeFile = new StoreFileActions(m_store, this);
    connect(m_storeFile, &StoreFileActions::restoreChosen, this, &MainWindow::restoreRequested);
    connect(m_storeFile, &StoreFileActions::reported, this,
            [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(m_banner, &StoreBanner::exportRequested, m_storeFile->exportAction(),
            &QAction::trigger);
    connect(m_banner, &StoreBanner::restoreRequested, m_storeFile->restoreAction(),
            &QAction::trigger);

    // Icons from the desktop's theme, with the bundled set where the theme has none.
    newChainAction->setIcon(themedIcon("document-new", "new-chain"));
    m_chainEditor->addTaskAction()->setIcon(themedIcon("list-add", "add-task"));
    m_runNow->setIcon(themedIcon("media-playback-start", "run"));
    m_runsView->stopAction()->setIcon(themedIcon("media-playback-stop", "stop"));
    m_pauseSchedules->setIcon(themedIcon("media-playback-pause", "pause"));
    m_import->setIcon(themedIcon("document-import", "import"));
    m_openSettings->setIcon(themedIcon("preferences-system", "settings"));
    // Shortcuts work wherever the focus is: the chain editor's actions live in the window too.
    for (QAction *windowWide : {m_chainEditor->addTaskAction(), m_chainEditor->addScheduleAction(),
                                m_runsView->stopAction()}) {
        windowWide->setShortcutContext(Qt::WindowShortcut);
        addAction(windowWide);
    }
    m_chainEditor->addTaskAction()->setToolTip(tr("Add a task to the chain (Ctrl+T)"));
    m_runNow->setToolTip(tr("Run the selected chain now (Ctrl+R)"));
    m_runsView->stopAction()->setToolTip(tr("Stop the selected run (Ctrl+.)"));
    newChainAction->setToolTip(tr("New chain in the selected project (Ctrl+N)"));
    m_pauseSchedules->setToolTip(tr("Pause every schedule; manual runs still run (Ctrl+Shift+P)"));

    auto *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    toolbar->addAction(newChainAction);
    toolbar->addAction(m_chainEditor->addTaskAction());
    toolbar->addSeparator();
    toolbar->addAction(m_runNow);
    toolbar->addAction(m_runsView->stopAction());
    toolbar->addAction(m_pauseSchedules);
    toolbar->addSeparator();
    toolbar->addAction(m_import);

    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(newProjectAction);
    fileMenu->addAction(newChainAction);
    fileMenu->addAction(m_import);
    fileMenu->addAction(m_storeFile->exportAction());
    fileMenu->addAction(m_storeFile->restoreAction());
    m_connections->addAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    fileMenu->addAction(m_connections->addAction());
    fileMenu->addSeparator();
    fileMenu->addAction(m_openSettings);
    fileMenu->addAction(notifications);
    fileMenu->addSeparator();
    fileMenu->addAction(quit);
    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->addAction(undo);
    editMenu->addAction(redo);
    editMenu->addSeparator();
    editMenu->addAction(m_treeEditing->renameAction());
    editMenu->addAction(m_treeEditing->duplicateAction());
    editMenu->addAction(m_treeEditing->deleteAction());
    QMenu *chainMenu = menuBar()->addMenu(tr("&Chain"));
    chainMenu->addAction(m_runNow);
    chainMenu->addAction(m_backfill);
    chainMenu->addAction(m_treeEditing->toggleEnabledAction());
    chainMenu->addAction(m_pauseSchedules);
    chainMenu->addSeparator();
    chainMenu->addAction(m_chainEditor->addTaskAction());
    chainMenu->addAction(m_chainEditor->addScheduleAction());
    chainMenu->addAction(m_chainEditor->connectAction());
    chainMenu->addAction(m_chainEditor->autoLayoutAction());
    // Each part of the window one key away: Tab moves between widgets, these jump.
    QMenu *goMenu = menuBar()->addMenu(tr("&Go to"));
    goMenu->addAction(action(tr("Project &tree"), QKeySequence(Qt::CTRL | Qt::Key_1),
                             [this] { m_tree->setFocus(Qt::ShortcutFocusReason); }));
    goMenu->addAction(
        action(tr("&Find a chain"), QKeySequence::Find, [this] { m_treeFilter->focusField(); }));
    goMenu->addAction(action(tr("Chain &canvas"), QKeySequence(Qt::CTRL | Qt::Key_2), [this] {
        m_tabs->setCurrentWidget(m_chainEditor);
        m_chainEditor->canvas()->setFocus(Qt::ShortcutFocusReason);
    }));
    goMenu->addAction(action(tr("&Runs"), QKeySequence(Qt::CTRL | Qt::Key_3), [this] {
        m_tabs->setCurrentWidget(m_runsView);
        m_runsView->table()->setFocus(Qt::ShortcutFocusReason);
    }));
    goMenu->addAction(action(tr("&Log"), QKeySequence(Qt::CTRL | Qt::Key_4), [this] {
        m_tabs->setCurrentWidget(m_runsView);
        m_runsView->log()->focusLines();
    }));
    goMenu->addAction(action(tr("&Upcoming"), QKeySequence(Qt::CTRL | Qt::Key_5), [this] {
        m_tabs->setCurrentWidget(m_upcoming);
        m_upcoming->setFocus(Qt::ShortcutFocusReason);
    }));
    goMenu->addAction(action(tr("&Overview"), QKeySequence(Qt::CTRL | Qt::Key_6), [this] {
        m_tabs->setCurrentWidget(m_overview);
        m_overview->setFocus(Qt::ShortcutFocusReason);
    }));
    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(action(tr("&Getting started"), QKeySequence(QKeySequence::HelpContents),
                               &MainWindow::showGettingStarted));
    helpMenu->addAction(action(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash),
                               &MainWindow::showShortcuts));
    helpMenu->addAction(action(tr("&Manual"), QKeySequence(), &MainWindow::showManual));
    helpMenu->addAction(action(tr("&About Hourglass"), QKeySequence(), &MainWindow::showAbout));
}

QIcon MainWindow::themedIcon(const char *themeName, const char *bundled)
{
    return QIcon::fromTheme(QString::fromLatin1(themeName),
                            QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(bundled))));
}

void MainWindow::showTreeMenu(const QPoint &at)
{
    const QModelIndex index = m_tree->indexAt(at);
    const auto kind = ProjectTreeModel::kindOf(index);
    if (!index.isValid() || kind == ProjectTreeModel::NodeKind::Project
        || kind == ProjectTreeModel::NodeKind::Chain) {
        m_treeEditing->showMenu(at, {m_runNow, m_backfill});
        return;
    }
    QMenu menu;
    m_connections->fillMenu(menu, index);
    menu.exec(m_tree->viewport()->mapToGlobal(at));
}

QWidget *MainWindow::currentPage() const
{
    return m_pages->currentWidget();
}

void MainWindow::importProject()
{
    ImportDialog dialog(m_store, *m_reader, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    reloadTree();
    statusBar()->showMessage(
        tr("Imported %n chain(s) with their tasks and schedules", nullptr, dialog.importedChains()),
        8000);
}

void MainWindow::showShortcuts()
{
    // Every menu's actions, in menu order, and the Runs view's: the list is what the keys do.
    QList<QAction *> actions;
    for (QAction *menu : menuBar()->actions()) {
        if (menu->menu())
            actions += menu->menu()->actions();
    }
    actions += m_runsView->runActions();
    HelpDialogs::showShortcuts(this, actions);
}

void MainWindow::showGettingStarted()
{
    HelpDialogs::showGettingStarted(this);
}

void MainWindow::showManual()
{
    HelpDialogs::showManual(this);
}

void MainWindow::showAbout()
{
    HelpDialogs::showAbout(this, m_store.location().displayName());
}

void MainWindow::showReadOnly()
{
    m_banner->showDamage(m_store.location().displayName(), m_store.damage());
    m_engineState->setText(tr("Engine: off, the store is read-only"));
    m_engineState->setToolTip(m_store.damage());
    // Every write would be refused by the store anyway; these are the ones offered up front.
    for (QAction *writes :
         {m_runNow, m_import, m_treeEditing->newProjectAction(), m_treeEditing->newChainAction(),
          m_treeEditing->renameAction(), m_treeEditing->duplicateAction(),
          m_treeEditing->deleteAction(), m_treeEditing->toggleEnabledAction(),
          m_chainEditor->addTaskAction(), m_chainEditor->addScheduleAction(),
          m_chainEditor->connectAction(), m_connections->addAction()})
        writes->setEnabled(false);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
}

} // namespace hg
