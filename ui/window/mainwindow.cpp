#include "mainwindow.h"

#include "chain/backfilldialog.h"
#include "chain/chaineditor.h"
#include "chain/chainoccurrencesbox.h"
#include "common/taborder.h"
#include "definitioneditor.h"
#include "overview/overviewpage.h"
#include "projecttreemodel.h"
#include "remote/connectionpage.h"
#include "remote/connectionscontroller.h"
#include "remote/dolphinschedulerworkflowpage.h"
#include "remote/pgagentjobpage.h"
#include "remote/pgtimetablechainpage.h"
#include "runs/runsview.h"
#include "runsmodel.h"
#include "scheduler/enginehost.h"
#include "scheduler/runcontrol.h"
#include "store/chainrepository.h"
#include "store/definitionchangerepository.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "storereader.h"
#include "tray/traycontroller.h"
#include "treefilter.h"
#include "upcoming/upcomingpage.h"
#include "window/notificationbell.h"
#include "window/storebanner.h"
#include "window/treeediting.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <utility>

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
    , m_outsideChanges(new QTimer(this))
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

    m_tabs->addTab(m_chainEditor, tr("Cha&in"));
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
        if (m_overview->isVisible()) {
            m_looksSinceOverview = 0;
            m_overview->reload();
        }
    });
    m_outsideChanges->setInterval(3000);
    connect(m_outsideChanges, &QTimer::timeout, this, &MainWindow::lookForOutsideChanges);
    // "1 s ago" and a next fire already past go stale on a page left open (helper-9): the
    // Overview reads again every half minute while shown, if no engine event did meanwhile.
    connect(m_outsideChanges, &QTimer::timeout, this, [this] {
        if (++m_looksSinceOverview >= 10 && m_overview->isVisible()
            && !m_overviewRefresh->isActive()) {
            m_looksSinceOverview = 0;
            // Whole now and then: what no run event told (runs removed by retention or by
            // hand) shows within half a minute. The refreshes between read what changed.
            m_overview->noteEveryRunChanged();
            m_overview->reload();
        }
    });
    // Upcoming likewise: a fire time gone by stayed listed as upcoming (helper-13).
    connect(m_outsideChanges, &QTimer::timeout, this, [this] {
        if (++m_looksSinceUpcoming >= 10 && m_upcoming->isVisible()) {
            m_looksSinceUpcoming = 0;
            m_upcoming->reload();
        }
    });
    m_outsideChanges->start();
    lookForOutsideChanges(); // what the tree was read at
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
    m_treeFilter->setReader(m_reader);
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

    // The Overview and Upcoming show the chains the tree's filter shows.
    connect(m_treeFilter, &TreeFilter::shownChainsChanged, this, [this] {
        m_overview->setShownChains(m_treeFilter->shownChainIds());
        m_upcoming->setShownChains(m_treeFilter->shownChainIds());
    });
    m_chainEditor->setStoreReader(m_reader);
    m_runsView->setReader(m_reader); // every read of the Runs view off the GUI thread
    statusBar()->addPermanentWidget(m_bell);
    statusBar()->addPermanentWidget(m_engineState);
    // Tab from the chain finder down the tree, into the views, and last to the status bar.
    setTabOrderOf({m_treeFilter, m_tree, m_pages, m_bell});
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

void MainWindow::report(const Status &status)
{
    if (!status)
        statusBar()->showMessage(status.error().message, 10000);
}

void MainWindow::reloadTree()
{
    const Result<ProjectTreeModel::Contents> contents = ProjectTreeModel::read(m_store);
    if (!contents)
        return report(contents.error());
    showTree(contents.value());
}

void MainWindow::showTree(const ProjectTreeModel::Contents &contents)
{
    ++m_treesShown;
    const QModelIndex current = m_tree->currentIndex();
    const auto kind = ProjectTreeModel::kindOf(current);
    const bool wasChain = current.isValid() && current.data(ProjectTreeModel::IsChainRole).toBool();
    const qint64 id = current.isValid() ? current.data(ProjectTreeModel::IdRole).toLongLong() : 0;
    const QString connection = current.data(ProjectTreeModel::ConnectionNameRole).toString();
    const QString remoteChain =
        kind == ProjectTreeModel::NodeKind::RemoteChain ? current.data().toString() : QString();
    m_model->show(contents);
    m_runsView->runs()->refreshChainPaths(); // a rename shows in the runs at once
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

void MainWindow::lookForOutsideChanges()
{
    if (m_reader->pending() > 0)
        return; // the pages' reads first; the next look comes soon
    m_reader->read<QString>(
        this,
        [](Store &store) -> Result<QString> {
            // The change feed's revision covers chains, tasks, dependencies and schedules;
            // projects are few, so their names are compared whole.
            const Result<qint64> revision = DefinitionChangeRepository(store).revision();
            const Result<QList<Project>> projects = ProjectRepository(store).list();
            if (!revision)
                return revision.error();
            if (!projects)
                return projects.error();
            QString seen = QString::number(revision.value());
            for (const Project &project : projects.value())
                seen += QLatin1Char('/') + project.name;
            return seen;
        },
        [this](const Result<QString> &seen) {
            if (!seen || seen.value() == m_definitionsSeen)
                return;
            if (m_definitionsSeen.isEmpty()) { // the first look: what the tree was read at
                m_definitionsSeen = seen.value();
                return;
            }
            if (treeIsBusy())
                return; // the next look tries again
            m_reader->read<ProjectTreeModel::Contents>(
                this, &ProjectTreeModel::read,
                [this, revision = seen.value(),
                 shown = m_treesShown](const Result<ProjectTreeModel::Contents> &read) {
                    if (!read)
                        return report(read.error());
                    // Busy since, or this window's own edit showed a newer tree meanwhile:
                    // the next look reads again.
                    if (treeIsBusy() || shown != m_treesShown)
                        return;
                    m_definitionsSeen = revision;
                    showTree(read.value());
                });
        });
}

bool MainWindow::treeIsBusy() const
{
    // A rename's editor is a child of the tree holding the focus.
    QWidget *focus = QApplication::focusWidget();
    const bool renaming = focus && focus != m_tree && m_tree->isAncestorOf(focus);
    return renaming || m_chainEditor->hasUnappliedEdits();
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
    tray->setReader(m_reader); // its notifications' reads off the GUI thread
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
    // Only when the selection changed: the tree read again after an edit elsewhere selects the
    // same chain again, and an Overview the user opened stayed no longer (helper-14).
    m_overview->setProject(chainId > 0 ? 0 : selectedProjectId());
    const bool another = std::exchange(m_shownChainId, chainId) != chainId;
    if (another && chainId <= 0 && m_tabs->currentWidget() == m_chainEditor)
        m_tabs->setCurrentWidget(m_overview);
    else if (another && chainId > 0 && m_tabs->currentWidget() == m_overview)
        m_tabs->setCurrentWidget(m_chainEditor);
    if (m_overview->isVisible())
        m_overview->reload();
    m_runNow->setEnabled(chainId > 0 && !m_store.isReadOnly());
    m_backfill->setEnabled(chainId > 0 && !m_store.isReadOnly());
    m_treeEditing->updateActions();
}

} // namespace hg
