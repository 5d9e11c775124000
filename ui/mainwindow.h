#pragma once

#include <QMainWindow>
#include <QSet>

class QLabel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace hg {

class EngineHost;
class ProjectTreeModel;
class RunsView;
class Store;
class UpcomingModel;

// The main window: the project/chain tree beside tabs for the selected chain, the runs (with
// their attempts and live log) and the coming week's fire times. With an EngineHost the
// engine's events keep the views current. Still to come (GUI issue): the DAG canvas, the
// task and schedule editors, tray and settings.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(Store &store, EngineHost *engine = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    QTreeView *projectTree() const { return m_tree; }
    RunsView *runsView() const { return m_runsView; }
    QTabWidget *tabs() const { return m_tabs; }
    // Queues a manual run of the chain selected in the tree and shows it.
    void runSelectedChain();

private:
    void showSelection();
    void connectEngine(EngineHost *engine);
    qint64 selectedChainId() const;

    Store &m_store;
    ProjectTreeModel *m_model = nullptr;
    QTreeView *m_tree = nullptr;
    QLabel *m_details = nullptr;
    QTabWidget *m_tabs = nullptr;
    RunsView *m_runsView = nullptr;
    UpcomingModel *m_upcoming = nullptr;
    QTableView *m_upcomingTable = nullptr;
    QLabel *m_engineState = nullptr;
    QSet<qint64> m_activeRuns;
};

} // namespace hg
