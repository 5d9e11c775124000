#pragma once

#include "base/result.h"

#include <QObject>

class QAction;
class QPoint;
class QTreeView;
class QWidget;

namespace hg {

class DefinitionEditor;
class ProjectTreeModel;
class Store;

// What the project tree does to its items: New project and New chain (with a free name,
// opened for renaming in place), Rename, Duplicate, Enable/disable, Delete (after a question
// naming what goes), and its context menu. Every change goes through the DefinitionEditor,
// so it is undoable.
class TreeEditing final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TreeEditing)

public:
    // `window` parents the questions and holds the window-wide shortcuts.
    TreeEditing(Store &store, DefinitionEditor *editor, ProjectTreeModel *model, QTreeView *tree,
                QWidget *window);

    QAction *newProjectAction() const { return m_newProject; }
    QAction *newChainAction() const { return m_newChain; }
    QAction *renameAction() const { return m_rename; }
    QAction *duplicateAction() const { return m_duplicate; }
    QAction *deleteAction() const { return m_delete; }
    QAction *toggleEnabledAction() const { return m_toggleEnabled; }

    qint64 selectedChainId() const;
    qint64 selectedProjectId() const; // the project of the selected project or chain
    void selectChain(qint64 chainId);
    void newProject();
    void newChain();
    // The chain-only actions follow the selection.
    void updateActions();
    // The tree's context menu; `chainActions` (run now, backfill) lead it on a chain.
    void showMenu(const QPoint &at, const QList<QAction *> &chainActions);

Q_SIGNALS:
    void chainCreated(qint64 chainId);
    void failed(const hg::Status &status);

private:
    void renameSelected();
    void duplicateSelected();
    void toggleSelectedEnabled();
    void deleteSelected();
    void report(const Status &status);

    Store &m_store;
    DefinitionEditor *m_editor;
    ProjectTreeModel *m_model;
    QTreeView *m_tree;
    QWidget *m_window;
    QAction *m_newProject;
    QAction *m_newChain;
    QAction *m_rename;
    QAction *m_duplicate;
    QAction *m_delete;
    QAction *m_toggleEnabled;
};

} // namespace hg
