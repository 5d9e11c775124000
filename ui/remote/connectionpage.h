#pragma once

#include <QPersistentModelIndex>
#include <QWidget>

class QLabel;
class QPushButton;

namespace hg {

class ConnectionsController;
class ProjectTreeModel;

// What the right-hand side shows for the Connections node (what connections are for, and Add)
// and for one connection (its kind, URL and state, with Edit, Test and Remove). It follows
// the tree's answers as checks come back.
class ConnectionPage final : public QWidget
{
    Q_OBJECT

public:
    ConnectionPage(ConnectionsController *controller, QWidget *parent = nullptr);

    // The Connections node or a connection of the project tree.
    void showNode(const QModelIndex &index);
    QString stateText() const;

private:
    void refresh();
    const ProjectTreeModel *model() const;

    ConnectionsController *m_controller = nullptr;
    QPersistentModelIndex m_index;
    QLabel *m_title = nullptr;
    QLabel *m_state = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_test = nullptr;
    QPushButton *m_remove = nullptr;
};

} // namespace hg
