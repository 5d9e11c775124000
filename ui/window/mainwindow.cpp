#include "mainwindow.h"

#include "chain/backfilldialog.h"
#include "chain/chaineditor.h"
#include "chain/chainoccurrencesbox.h"
#include "definitioneditor.h"
#include "displayformat.h"
#include "occurrencesmodel.h"
#include "overview/overviewpage.h"
#include "projecttreemodel.h"
#include "remote/connectionpage.h"
#include "remote/connectionscontroller.h"
#include "remote/dolphinschedulerworkflowpage.h"
#include "remote/pgagentjobpage.h"
#include "remote/pgtimetablechainpage.h"
#include "runs/logview.h"
#include "runs/runsview.h"
#include "runsmodel.h"
#include "scheduler/enginehost.h"
#include "scheduler/missedrunsinbox.h"
#include "scheduler/runcontrol.h"
#include "settings/colorscheme.h"
#include "settings/settingsdialog.h"
#include "settings/xdgautostart.h"
#include "store/chainrepository.h"
#include "store/store.h"
#include "storereader.h"
#include "tray/traycontroller.h"
#include "treefilter.h"
#include "upcoming/upcomingpage.h"
#include "window/helpdialogs.h"
#include "window/importdialog.h"
#include "window/keeprunningprompt.h"
#include "window/notificationbell.h"
#include "window/storebanner.h"
#include "window/storefileactions.h"
#include "window/treeediting.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDataStream>
#include <QDateTime>
#include <QGraphicsView>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace hg {

MainWindow::MainWindow(Store &store, EngineHost *engine, QWidget *parent)
    : QMainWindow(parent)
    , m_store(store)
    , m_model(new ProjectTreeModel(store, this))
    , m_tree(new QTreeView(this))
    , m_tabs(new QTabWidget(this))
    , m_runsView(new RunsView(store, this))
    , m_reader(new StoreReader(store.location(), !store.isReadOnly(), this))
    , m_upcoming(new UpcomingPage(*m_reader, store, this))
    , m_editor(new DefinitionEditor(store, this))
    , m_engineState(new QLabel(this))
    , m_bell(new NotificationBell(this))
    , m_overview(new OverviewPage(*m_reader, this))
    , m_overviewRefresh(new QTimer(this))
    , m_occurrencesRefresh(new QTimer(this))
{
    m_engine = engine;
    setWindowTitle(QStringLiteral("Hourglass"));
    m_chainEditor = new ChainEditor(store, m_editor, this);
    m_tree->setObjectName(QStringLiteral("projectTree"));
    m_tree->setAccessibleName(tr("Projects and chains"));
    m_tree->setMinimumWidth(160); // the editor's longest row never squeezes the tree away
    m_tree->setAccessibleDescription(tr("Select a chain to edit it; F2 renames, Delete deletes"));
    m_tabs->setAccessibleName(tr("Views"));
    m_tabs->setAccessibleDescription(
        tr("The selected chain, its runs, the coming fires, an overview"));
    m_tabs->tabBar()->setAccessibleDescription(m_tabs->accessibleDescription());
    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    // F2 and a double click rename; a click on the selected item only selects.
    m_tree->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);

    m_tabs->addTab(m_chainEditor, tr("&Chain"));
    m_tabs->addTab(m_runsView, tr("&Runs"));
    m_tabs->addTab(m_upcoming, tr("&Upcoming"));
    // The pages that read on the reader's thread say here what failed.
    const auto readFailed = [this](const QString &message) {
        report(Error::runtime(message));
    };
    connect(m_upcoming, &UpcomingPage::failed, this, readFailed);
    connect(m_overview, &OverviewPage::failed, this, readFailed);
    m_tabs->addTab(m_overview, tr("&Overview"));
    // A tab's tooltip is also what a screen reader says about it.
    m_tabs->setTabToolTip(0, tr("The selected chain: its tasks, dependencies and schedules"));
    m_tabs->setTabToolTip(1, tr("The runs, their attempts and logs"));
    m_tabs->setTabToolTip(2, tr("Every fire time of the coming week"));
    m_tabs->setTabToolTip(3,
                          tr("Running now, recent failures, next fires, every chain's last runs"));
    connect(m_overview, &OverviewPage::runActivated, this, &MainWindow::showRun);
    connect(m_overview, &OverviewPage::chainActivated, this, [this](qint64 chainId) {
        selectChain(chainId);
        m_tabs->setCurrentWidget(m_chainEditor);
    });
    // Engine events come in bursts: the overview reloads at most once a second, when shown.
    m_overviewRefresh->setSingleShot(true);
    m_overviewRefresh->setInterval(1000);
    connect(m_overviewRefresh, &QTimer::timeout, this, [this] {
        if (m_overview->isVisible())
            m_overview->reload();
    });
    m_occurrencesRefresh->setSingleShot(true);
    m_occurrencesRefresh->setInterval(1000);
    connect(m_occurrencesRefresh, &QTimer::timeout, m_chainEditor->occurrences(),
            &ChainOccurrencesBox::refresh);
    connect(m_chainEditor->occurrences(), &ChainOccurrencesBox::runActivated, this,
            &MainWindow::showRun);
    connect(m_chainEditor->occurrences(), &ChainOccurrencesBox::missedRunsDecided, this, [this] {
        refreshMissedRuns();
        wakeEngine();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_tabs->widget(tab) == m_upcoming)
            m_upcoming->reload();
        if (m_tabs->widget(tab) == m_overview)
            m_overview->reload();
    });

    m_splitter = new QSplitter(this);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    // Above the tree, a field to find a chain among thousands.
    auto *treeSide = new QWidget(this);
    auto *treeLayout = new QVBoxLayout(treeSide);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    m_treeFilter = new TreeFilter(m_tree, treeSide);
    treeLayout->addWidget(m_treeFilter);
    treeLayout->addWidget(m_tree, 1);
    m_splitter->addWidget(treeSide);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_tabs);
    m_splitter->addWidget(m_pages);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setSizes({240, 1040});
    m_banner = new StoreBanner(this);
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    setMinimumSize(1024, 640);
    resize(1280, 800);
    createActions();
    m_remoteChainPage = new PgTimetableChainPage(m_pages);
    m_workflowPage = new DolphinSchedulerWorkflowPage(m_pages);
    m_jobPage = new PgAgentJobPage(m_pages);
    m_connectionPage = new ConnectionPage(m_connections, m_pages);
    m_pages->addWidget(m_remoteChainPage);
    m_pages->addWidget(m_workflowPage);
    m_pages->addWidget(m_jobPage);
    m_pages->addWidget(m_connectionPage);
    connect(m_remoteChainPage, &PgTimetableChainPage::importRequested, m_connections,
            &ConnectionsController::importChain);
    connect(m_jobPage, &PgAgentJobPage::importRequested, m_connections,
            &ConnectionsController::importChain);
    connect(m_remoteChainPage, &PgTimetableChainPage::chainDeleted, this,
            [this](const QString &remoteName) {
                if (const std::optional<ConnectionProfile> profile =
                        m_model->connection(remoteName))
                    m_connections->check(*profile);
            });

    // Queued: the tree's editor is still committing when the rename arrives.
    connect(
        m_model, &ProjectTreeModel::renameRequested, this,
        [this](bool isChain, qint64 id, const QString &name) {
            if (isChain) {
                const Result<Chain> chain = ChainRepository(m_store).byId(id);
                if (!chain)
                    return report(chain.error());
                Chain renamed = chain.value();
                renamed.name = name;
                report(m_editor->updateChain(renamed));
            } else {
                report(m_editor->renameProject(id, name));
            }
        },
        Qt::QueuedConnection);
    connect(m_editor, &DefinitionEditor::treeChanged, this, &MainWindow::reloadTree);
    connect(m_editor, &DefinitionEditor::stepFailed, this,
            [this](const QString &message) { report(Error::invalid(message)); });

    statusBar()->addPermanentWidget(m_bell);
    statusBar()->addPermanentWidget(m_engineState);
    connect(m_bell, &NotificationBell::runRequested, this, &MainWindow::showRun);
    connect(m_bell, &NotificationBell::missedRunsRequested, this, &MainWindow::decideMissedRuns);
    m_engineState->setText(engine ? tr("Engine: starting") : tr("Engine: not running here"));
    if (store.isReadOnly())
        showReadOnly();
    if (const Status loaded = m_model->reload(); !loaded)
        statusBar()->showMessage(loaded.error().message);
    else
        statusBar()->showMessage(tr("Store: %1").arg(store.location().displayName()));
    m_connections->checkConnections(false);
    if (engine)
        connectEngine(engine);
    m_tree->expandAll();
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::treeCurrentChanged);
    // Assistive technology selects rows without moving the current item: one selected row
    // becomes the current one, so the editor and Run now follow it.
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndexList rows = m_tree->selectionModel()->selectedRows();
        if (rows.size() == 1 && rows.constFirst() != m_tree->currentIndex())
            m_tree->selectionModel()->setCurrentIndex(rows.constFirst(),
                                                      QItemSelectionModel::NoUpdate);
    });
    // Open on the first chain, so the window shows something useful straight away.
    const QModelIndex firstProject = m_model->index(0, 0);
    if (m_model->rowCount(firstProject) > 0)
        m_tree->setCurrentIndex(m_model->index(0, 0, firstProject));
    showSelection();
}

MainWindow::~MainWindow() = default;

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
    fileMenu->addSeparator();
    fileMenu->addAction(quit);
    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->addAction(undo);
    editMenu->addAction(redo);
    editMenu->addSeparator();
    editMenu->addAction(m_treeEditing->renameAction());
    editMenu->addAction(m_treeEditing->duplicateAction());
    editMenu->addAction(m_treeEditing->deleteAction());
    QMenu *chainMenu = menuBar()->addMenu(tr("C&hain"));
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
    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(action(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash),
                               &MainWindow::showShortcuts));
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
    ImportDialog dialog(m_store, this);
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

void MainWindow::report(const Status &status)
{
    if (!status)
        statusBar()->showMessage(status.error().message, 10000);
}

void MainWindow::reloadTree()
{
    const QModelIndex current = m_tree->currentIndex();
    const auto kind = ProjectTreeModel::kindOf(current);
    const bool wasChain = current.isValid() && current.data(ProjectTreeModel::IsChainRole).toBool();
    const qint64 id = current.isValid() ? current.data(ProjectTreeModel::IdRole).toLongLong() : 0;
    const QString connection = current.data(ProjectTreeModel::ConnectionNameRole).toString();
    const QString remoteChain =
        kind == ProjectTreeModel::NodeKind::RemoteChain ? current.data().toString() : QString();
    report(m_model->reload());
    if (m_tray)
        m_tray->setMissedRuns(m_model->missedRuns());
    m_connections->checkConnections(false);
    m_tree->expandAll();
    QModelIndex again = m_model->indexOf(wasChain, id);
    if (kind == ProjectTreeModel::NodeKind::Connections)
        again = m_model->connectionsIndex();
    else if (!connection.isEmpty())
        again = m_model->indexOfConnection(connection, remoteChain);
    if (again.isValid())
        m_tree->setCurrentIndex(again);
    else
        showSelection();
    if (m_upcoming->isVisible())
        m_upcoming->reload();
}

void MainWindow::selectChain(qint64 chainId)
{
    m_treeEditing->selectChain(chainId);
}

void MainWindow::newProject()
{
    m_treeEditing->newProject();
}

void MainWindow::newChain()
{
    m_treeEditing->newChain();
}

qint64 MainWindow::selectedChainId() const
{
    return m_treeEditing->selectedChainId();
}

qint64 MainWindow::selectedProjectId() const
{
    return m_treeEditing->selectedProjectId();
}

void MainWindow::backfillSelectedChain()
{
    const Result<Chain> chain = ChainRepository(m_store).byId(selectedChainId());
    if (!chain)
        return;
    BackfillDialog dialog(m_store, chain.value(), m_chainEditor->defaultZone(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    wakeEngine();
    for (const Run &run : dialog.queued())
        m_runsView->applyRun(run);
    statusBar()->showMessage(
        tr("Queued %n backfill run(s) of %1", nullptr, int(dialog.queued().size()))
            .arg(chain->name),
        10000);
}

void MainWindow::runSelectedChain()
{
    const qint64 chainId = selectedChainId();
    if (chainId <= 0)
        return;
    const Result<Run> run = RunControl(m_store).start(chainId);
    if (!run) {
        QMessageBox::warning(this, tr("Run now"), run.error().message);
        return;
    }
    wakeEngine();
    m_runsView->applyRun(run.value());
    showRun(run->id);
    m_queuedRun = run->id;
    statusBar()->showMessage(tr("Run %1 queued").arg(run->id), 10000);
}

void MainWindow::showRun(qint64 runId)
{
    m_runsView->selectRun(runId);
    m_pages->setCurrentWidget(m_tabs);
    m_tabs->setCurrentWidget(m_runsView);
}

void MainWindow::attachTray(TrayController *tray)
{
    m_tray = tray;
    connect(tray, &TrayController::showRequested, this, &MainWindow::bringForward);
    connect(tray, &TrayController::quitRequested, this, &MainWindow::quit);
    connect(tray, &TrayController::openRunRequested, this, [this](qint64 runId) {
        bringForward();
        showRun(runId);
    });
    connect(tray, &TrayController::pauseSchedulesRequested, m_pauseSchedules, &QAction::setChecked);
    // Kept in the window too: a desktop notification may never show, or pass unseen.
    connect(tray, &TrayController::notified, m_bell, &NotificationBell::add);
    connect(tray, &TrayController::missedRunsRequested, this, [this] {
        bringForward();
        decideMissedRuns();
    });
    tray->setSchedulesPaused(schedulesPaused());
    tray->setMissedRuns(m_model->missedRuns());
    if (m_settings) {
        applySetting(AppSettings::Key::CloseToTray);
        applySetting(AppSettings::Key::Notifications);
    }
}

void MainWindow::setSettings(AppSettings *settings)
{
    m_settings = settings;
    m_openSettings->setEnabled(settings != nullptr);
    if (!settings)
        return;
    connect(settings, &AppSettings::changed, this, &MainWindow::applySetting);
    for (const AppSettings::Key key : {AppSettings::Key::CloseToTray, AppSettings::Key::DefaultZone,
                                       AppSettings::Key::Notifications})
        applySetting(key);
    // The engine started paused already (EngineConfig): only the action follows.
    const QSignalBlocker quiet(m_pauseSchedules);
    m_pauseSchedules->setChecked(settings->schedulesPaused());
    m_upcoming->setSchedulesPaused(settings->schedulesPaused());
    restoreLayout();
}

void MainWindow::restoreLayout()
{
    if (!m_settings->windowGeometry().isEmpty())
        restoreGeometry(m_settings->windowGeometry());
    // Every named splitter's state, by name (a splitter added later is simply not in it).
    QMap<QString, QByteArray> splitters;
    QDataStream in(m_settings->windowState());
    in >> splitters;
    for (QSplitter *splitter : findChildren<QSplitter *>()) {
        if (const QByteArray state = splitters.value(splitter->objectName()); !state.isEmpty())
            splitter->restoreState(state);
    }
    if (const qint64 chainId = m_settings->selectedChain(); chainId > 0)
        selectChain(chainId); // a chain deleted since is simply not found
}

void MainWindow::saveLayout()
{
    if (!m_settings)
        return;
    m_settings->setWindowGeometry(saveGeometry());
    QMap<QString, QByteArray> splitters;
    for (const QSplitter *splitter : findChildren<QSplitter *>()) {
        if (!splitter->objectName().isEmpty())
            splitters.insert(splitter->objectName(), splitter->saveState());
    }
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << splitters;
    m_settings->setWindowState(state);
    m_settings->setSelectedChain(selectedChainId());
}

void MainWindow::quit()
{
    m_quitting = true;
    saveLayout();
    close();
    QApplication::quit();
}

void MainWindow::treeCurrentChanged(const QModelIndex &current, const QModelIndex &previous)
{
    if (m_restoringSelection)
        return;
    const bool toChain = current.data(ProjectTreeModel::IsChainRole).toBool();
    const qint64 toId = current.data(ProjectTreeModel::IdRole).toLongLong();
    const qint64 shownChain = m_chainEditor->chainId();
    if (m_chainEditor->hasUnappliedEdits() && !(toChain && toId == shownChain)) {
        // Back to the chain being edited while the user decides; the answer moves on.
        {
            const QScopedValueRollback restoring(m_restoringSelection, true);
            m_tree->setCurrentIndex(previous.isValid() ? previous
                                                       : m_model->indexOf(true, shownChain));
        }
        const QPersistentModelIndex target(current);
        m_chainEditor->settleUnappliedEdits([this, target] {
            if (target.isValid())
                m_tree->setCurrentIndex(target);
        });
        return;
    }
    showSelection();
}

void MainWindow::applySetting(AppSettings::Key key)
{
    switch (key) {
    case AppSettings::Key::CloseToTray:
        m_closeToTray = m_settings->closeToTray();
        // Hidden in the tray is still running: the application ends on Quit, not on a close.
        if (m_tray && m_tray->hasTray())
            QApplication::setQuitOnLastWindowClosed(!m_closeToTray);
        break;
    case AppSettings::Key::Notifications:
        if (m_tray)
            m_tray->setNotificationsEnabled(m_settings->notifications());
        break;
    case AppSettings::Key::DefaultZone:
        m_chainEditor->setDefaultZone(m_settings->defaultTimeZone());
        break;
    case AppSettings::Key::SchedulesPaused:
        // Pausing here writes the setting, which comes back: act only on a real difference.
        if (m_pauseSchedules->isChecked() != m_settings->schedulesPaused())
            m_pauseSchedules->setChecked(m_settings->schedulesPaused());
        break;
    case AppSettings::Key::StoreLocation:
    case AppSettings::Key::SlotCount:
    case AppSettings::Key::StartAtLogin:
    case AppSettings::Key::ExampleInstalled:
    case AppSettings::Key::AskOnClose:
    case AppSettings::Key::WindowGeometry:
    case AppSettings::Key::WindowState:
    case AppSettings::Key::ColorScheme:
        ColorScheme::apply(m_settings->colorScheme());
        break;
    case AppSettings::Key::SelectedChain:
    case AppSettings::Key::DailyBackups: // the application's backup keeper follows it
        break;                           // at the next start or close, or nothing to show
    }
}

void MainWindow::openSettings()
{
    if (!m_settings)
        return;
    auto *dialog = new SettingsDialog(*m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        dialog->applyTo(*m_settings); // what changed applies through AppSettings::changed
        report(XdgAutostart::setEnabled(m_settings->startAtLogin(),
                                        QCoreApplication::applicationFilePath()));
    });
    dialog->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    if (m_quitting) {
        QMainWindow::closeEvent(event);
        return;
    }
    // Unapplied edits first: asked about, never dropped in silence.
    if (m_chainEditor->hasUnappliedEdits()) {
        event->ignore();
        m_chainEditor->settleUnappliedEdits([this] { close(); });
        return;
    }
    const bool hasTray = m_tray && m_tray->hasTray();
    // To the tray, when there is one to come back from.
    if (m_closeToTray && hasTray) {
        hide();
        event->ignore();
        return;
    }
    // No tray: closing the last window would end the engine and every schedule with it.
    if (m_engine && !hasTray) {
        event->ignore();
        if (m_settings && !m_settings->askOnClose())
            return m_closeToTray ? keepRunningInBackground() : quit();
        askOnClose();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::askOnClose()
{
    if (m_closePrompt)
        return;
    using Choice = KeepRunningPrompt::Choice;
    m_closePrompt = KeepRunningPrompt::open(this, [this](Choice choice, bool remember) {
        if (m_settings && remember) {
            m_settings->setAskOnClose(false);
            m_settings->setCloseToTray(choice == Choice::KeepRunning);
        }
        if (choice == Choice::KeepRunning)
            keepRunningInBackground();
        else
            quit();
    });
}

void MainWindow::keepRunningInBackground()
{
    QApplication::setQuitOnLastWindowClosed(false);
    hide();
    if (m_tray)
        m_tray->showMessage(Run(), tr("Hourglass keeps running"),
                            tr("Schedules go on. Start Hourglass again to bring the window back."));
}

void MainWindow::bringForward()
{
    showNormal();
    raise();
    activateWindow();
}

void MainWindow::showSelection()
{
    const QModelIndex current = m_tree->currentIndex();
    switch (ProjectTreeModel::kindOf(current)) {
    case ProjectTreeModel::NodeKind::RemoteChain: {
        const std::optional<ConnectionProfile> profile =
            m_model->connection(current.data(ProjectTreeModel::ConnectionNameRole).toString());
        if (profile && profile->kind == ConnectionKind::DolphinScheduler) {
            m_workflowPage->showWorkflow(*profile, current.data().toString());
            m_pages->setCurrentWidget(m_workflowPage);
            break;
        }
        if (profile && profile->kind == ConnectionKind::PgAgent) {
            m_jobPage->showJob(*profile, current.data().toString());
            m_pages->setCurrentWidget(m_jobPage);
            break;
        }
        if (profile)
            m_remoteChainPage->showChain(*profile, current.data().toString());
        m_pages->setCurrentWidget(m_remoteChainPage);
        break;
    }
    case ProjectTreeModel::NodeKind::Connections:
    case ProjectTreeModel::NodeKind::Connection:
        m_connectionPage->showNode(current);
        m_pages->setCurrentWidget(m_connectionPage);
        break;
    case ProjectTreeModel::NodeKind::Project:
    case ProjectTreeModel::NodeKind::Chain:
        m_pages->setCurrentWidget(m_tabs);
        break;
    }
    const qint64 chainId = selectedChainId();
    m_chainEditor->showChain(chainId);
    m_runsView->followChain(chainId);
    // No chain: the overview (of the selected project, or of all) in place of an empty editor.
    m_overview->setProject(chainId > 0 ? 0 : selectedProjectId());
    if (chainId <= 0 && m_tabs->currentWidget() == m_chainEditor)
        m_tabs->setCurrentWidget(m_overview);
    else if (chainId > 0 && m_tabs->currentWidget() == m_overview)
        m_tabs->setCurrentWidget(m_chainEditor);
    if (m_overview->isVisible())
        m_overview->reload();
    m_runNow->setEnabled(chainId > 0 && !m_store.isReadOnly());
    m_backfill->setEnabled(chainId > 0 && !m_store.isReadOnly());
    m_treeEditing->updateActions();
}

} // namespace hg
