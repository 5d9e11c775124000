#pragma once

#include <QMainWindow>

class QLabel;
class QTreeView;

namespace hg {

class ProjectTreeModel;
class Store;

// The main window. For now: the project/chain tree and a summary of the selected chain;
// the editors, runs and logs arrive with the GUI issue.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(Store &store, QWidget *parent = nullptr);
    ~MainWindow() override;

    QTreeView *projectTree() const { return m_tree; }

private:
    void showSelection();

    Store &m_store;
    ProjectTreeModel *m_model = nullptr;
    QTreeView *m_tree = nullptr;
    QLabel *m_details = nullptr;
};

} // namespace hg
