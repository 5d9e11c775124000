#pragma once

#include "base/result.h"
#include "projecttreemodel.h"
#include "runcounts.h"
#include "settings/appsettings.h"

#include <QIcon>
#include <QMainWindow>
#include <QPointer>

class QAction;
class QLabel;
class QMessageBox;
class QModelIndex;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeView;

namespace hg {

class ChainEditor;
class ConnectionPage;
class ConnectionsController;
class DefinitionEditor;
class NotificationBell;
class EngineHost;
class OverviewPage;
class DolphinSchedulerWorkflowPage;
class PgAgentJobPage;
class PgTimetableChainPage;
class ProjectTreeModel;
class TrayController;
class TreeEditing;
class TreeFilter;
class RunsView;
class Store;
class StoreBanner;
class StoreFileActions;
class StoreReader;
class UpcomingPage;

// The main window: the project/chain tree beside tabs for the selected chain (its DAG canvas,
// task form and schedules), the runs (with their attempts, Gantt chart and live log) and the
// coming week's fire times. Every definition edit is undoable (Edit menu). With an EngineHost
// the engine's events keep the views current; the status bar's run counts come from the
// RunCounter the tray shares (applyCounts), and the preferences from AppSettings, followed
// as they change.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(Store &store, EngineHost *engine = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    QTreeView *projectTree() const { return m_tree; }
    TreeFilter *treeFilter() const { return m_treeFilter; }
    RunsView *runsView() const { return m_runsView; }
    QTabWidget *tabs() const { return m_tabs; }
    ChainEditor *chainEditor() const { return m_chainEditor; }
    DefinitionEditor *definitionEditor() const { return m_editor; }
    ProjectTreeModel *treeModel() const { return m_model; }
    StoreBanner *storeBanner() const { return m_banner; }
    StoreFileActions *storeFileActions() const { return m_storeFile; }
    ConnectionsController *connections() const { return m_connections; }
    PgTimetableChainPage *remoteChainPage() const { return m_remoteChainPage; }
    DolphinSchedulerWorkflowPage *workflowPage() const { return m_workflowPage; }
    PgAgentJobPage *jobPage() const { return m_jobPage; }
    ConnectionPage *connectionPage() const { return m_connectionPage; }
    // What the right-hand side shows: the views of local chains, a remote chain, a connection.
    QWidget *currentPage() const;
    QString engineStateText() const;
    // New project / new chain: created with a free name, selected, and opened for renaming.
    void newProject();
    void newChain();
    void selectChain(qint64 chainId);
    void showRun(qint64 runId);
    NotificationBell *notificationBell() const { return m_bell; }
    Store &store() const { return m_store; }         // the GUI thread's own connection
    StoreReader *reader() const { return m_reader; } // the window's reads off the GUI thread
    // The tray: its menu and notifications drive this window; closing may hide to it.
    void attachTray(TrayController *tray);
    // Applies the preferences now and whenever one changes; Settings… edits them. Without
    // settings the Settings action is disabled and pausing is not remembered.
    void setSettings(AppSettings *settings);
    void applyCounts(const hg::RunCounts &counts);
    void setSchedulesPaused(bool paused);
    bool schedulesPaused() const;
    void openSettings();
    // Settings → Notifications: channels, routes (a new one for `chainId` when given) and
    // deliveries.
    void openNotifications(qint64 chainId = 0);
    // Saves the layout, closes and quits the application (File → Quit, the tray's Quit).
    void quit();
    // Shows, raises and activates the window (the tray, a second start of Hourglass).
    void bringForward();
    // The missed-runs inbox changed: the tree's and the tray's counts and the chain's box.
    void refreshMissedRuns();
    // Opens the decision on a chain's missed runs: the selected chain's, else the first
    // chain with runs waiting (the tray's menu entry and notification).
    void decideMissedRuns();

Q_SIGNALS:
    // The user chose a backup to put in the store's place (File → Restore from backup…, the
    // damage banner) and confirmed: the application closes the store and restores it.
    void restoreRequested(const QString &backupFile);

protected:
    void closeEvent(QCloseEvent *event) override;
    // Queues a manual run of the chain selected in the tree and shows it.
    void runSelectedChain();
    void backfillSelectedChain();

private:
    void showSelection();
    void connectEngine(EngineHost *engine);
    // A write of this window that its engine should act on now, not at its next poll.
    void wakeEngine();
    void createActions();
    // After this window's own edit: read at once, so what it added can be selected next.
    void reloadTree();
    // Chains, tasks or projects changed by another program (the command line, another
    // engine's window): the tree follows within a few seconds, read off the GUI thread.
    void lookForOutsideChanges();
    // Whether the tree may be read again now: not under the user's hands (a rename being
    // typed, unapplied task edits).
    bool treeIsBusy() const;
    // The tree shown anew, the selection kept where it can be.
    void showTree(const ProjectTreeModel::Contents &contents);
    qint64 selectedChainId() const;
    qint64 selectedProjectId() const; // the project of the selected project or chain
    void report(const Status &status);
    void showEngineState();
    void applySetting(AppSettings::Key key);
    void treeCurrentChanged(const QModelIndex &current, const QModelIndex &previous);
    void askOnClose();
    void keepRunningInBackground();
    void restoreLayout();
    void importProject();
    void showTreeMenu(const QPoint &at);
    void showShortcuts();
    void showAbout();
    void showGettingStarted();
    void showManual();
    // A damaged store: the banner says so, and what would write is switched off.
    void showReadOnly();
    static QIcon themedIcon(const char *themeName, const char *bundled);
    void saveLayout();

    Store &m_store;
    ProjectTreeModel *m_model = nullptr;
    QTreeView *m_tree = nullptr;
    TreeFilter *m_treeFilter = nullptr;
    ChainEditor *m_chainEditor = nullptr;
    QAction *m_runNow = nullptr;
    QAction *m_backfill = nullptr;
    TreeEditing *m_treeEditing = nullptr;
    QAction *m_pauseSchedules = nullptr;
    EngineHost *m_engine = nullptr;
    TrayController *m_tray = nullptr;
    AppSettings *m_settings = nullptr;
    QAction *m_openSettings = nullptr;
    QAction *m_import = nullptr;
    ConnectionsController *m_connections = nullptr;
    QStackedWidget *m_pages = nullptr; // the tabs, a remote chain's page, a connection's page
    PgTimetableChainPage *m_remoteChainPage = nullptr;
    DolphinSchedulerWorkflowPage *m_workflowPage = nullptr;
    PgAgentJobPage *m_jobPage = nullptr;
    ConnectionPage *m_connectionPage = nullptr;
    bool m_closeToTray = false;
    bool m_quitting = false;
    QTabWidget *m_tabs = nullptr;
    RunsView *m_runsView = nullptr;
    StoreReader *m_reader = nullptr; // reads off the GUI thread, for the pages that read much
    UpcomingPage *m_upcoming = nullptr;
    DefinitionEditor *m_editor = nullptr;
    QLabel *m_engineState = nullptr;
    NotificationBell *m_bell = nullptr;
    OverviewPage *m_overview = nullptr;
    QTimer *m_overviewRefresh = nullptr;
    QTimer *m_occurrencesRefresh = nullptr; // the chain's strip follows its runs, once a second
    QTimer *m_outsideChanges = nullptr;
    int m_looksSinceOverview = 0; // of m_outsideChanges, since the Overview last read
    int m_looksSinceUpcoming = 0; // likewise for Upcoming: fires already past leave it
    qint64 m_shownChainId = -1;   // the selection showSelection() last showed (0: no chain)
    quint64 m_treesShown = 0;     // showTree() calls, so a read overtaken by another is dropped
    QString m_definitionsSeen;    // the store's definition revision and projects, last looked at
    RunCounts m_counts;
    qint64 m_nextFireMs = -1;
    int m_hostedTasks = 0;          // tasks of other engines' runs that this window's engine runs
    qint64 m_storeLostSinceMs = -1; // the engine cannot reach its store since then
    bool m_engineRunning = false;
    QSplitter *m_splitter = nullptr;
    StoreBanner *m_banner = nullptr;
    StoreFileActions *m_storeFile = nullptr;
    QPointer<QMessageBox> m_closePrompt;
    bool m_restoringSelection = false; // the tree goes back while unapplied edits are asked about
    qint64 m_queuedRun = 0;            // the run "Run N queued" is about
};

} // namespace hg
