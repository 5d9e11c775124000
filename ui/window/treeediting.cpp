#include "treeediting.h"

#include "definitioneditor.h"
#include "projecttreemodel.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QTreeView>

namespace hg {

TreeEditing::TreeEditing(Store &store, DefinitionEditor *editor, ProjectTreeModel *model,
                         QTreeView *tree, QWidget *window)
    : QObject(window)
    , m_store(store)
    , m_editor(editor)
    , m_model(model)
    , m_tree(tree)
    , m_window(window)
{
    const auto action = [this](const QString &text, const QKeySequence &key, auto slot) {
        auto *a = new QAction(text, m_window);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_newProject = action(tr("New &project"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N),
                          &TreeEditing::newProject);
    m_newChain = action(tr("&New chain"), QKeySequence::New, &TreeEditing::newChain);
    m_rename = action(tr("Re&name"), QKeySequence(Qt::Key_F2), &TreeEditing::renameSelected);
    m_duplicate = action(tr("D&uplicate"), QKeySequence(Qt::CTRL | Qt::Key_D),
                         &TreeEditing::duplicateSelected);
    m_delete = action(tr("&Delete…"), QKeySequence::Delete, &TreeEditing::deleteSelected);
    // Delete belongs to whatever has focus: the tree here, the canvas in the chain editor.
    m_delete->setShortcutContext(Qt::WidgetShortcut);
    m_tree->addAction(m_delete);
    m_toggleEnabled = action(tr("&Enable / disable"), QKeySequence(Qt::CTRL | Qt::Key_E),
                             &TreeEditing::toggleSelectedEnabled);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
}

void TreeEditing::report(const Status &status)
{
    if (!status)
        Q_EMIT failed(status);
}

void TreeEditing::selectChain(qint64 chainId)
{
    const QModelIndex index = m_model->indexOf(true, chainId);
    if (index.isValid())
        m_tree->setCurrentIndex(index);
}

void TreeEditing::updateActions()
{
    const bool onChain = selectedChainId() > 0;
    m_duplicate->setEnabled(onChain);
    m_toggleEnabled->setEnabled(onChain);
}

void TreeEditing::showMenu(const QPoint &at, const QList<QAction *> &chainActions)
{
    QMenu menu;
    const bool onChain = selectedChainId() > 0;
    if (onChain) {
        menu.addActions(chainActions);
        menu.addSeparator();
    }
    menu.addAction(m_newChain);
    menu.addAction(m_newProject);
    if (m_tree->currentIndex().isValid()) {
        menu.addSeparator();
        menu.addAction(m_rename);
        if (onChain) {
            menu.addAction(m_duplicate);
            menu.addAction(m_toggleEnabled);
        }
        menu.addAction(m_delete);
    }
    menu.exec(m_tree->viewport()->mapToGlobal(at));
}

qint64 TreeEditing::selectedChainId() const
{
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid() || !current.data(ProjectTreeModel::IsChainRole).toBool())
        return 0;
    return current.data(ProjectTreeModel::IdRole).toLongLong();
}

qint64 TreeEditing::selectedProjectId() const
{
    QModelIndex current = m_tree->currentIndex();
    if (current.isValid() && current.data(ProjectTreeModel::IsChainRole).toBool())
        current = current.parent();
    return current.isValid() ? current.data(ProjectTreeModel::IdRole).toLongLong() : 0;
}

void TreeEditing::newProject()
{
    QString name = tr("project");
    for (int n = 2; ProjectRepository(m_store).byName(name); ++n)
        name = tr("project %1").arg(n);
    const Result<Project> project = m_editor->addProject(name);
    if (!project)
        return report(project.error());
    const QModelIndex index = m_model->indexOf(false, project->id);
    m_tree->setCurrentIndex(index);
    m_tree->edit(index);
}

void TreeEditing::newChain()
{
    qint64 projectId = selectedProjectId();
    if (projectId <= 0 && m_model->rowCount() > 0
        && ProjectTreeModel::kindOf(m_model->index(0, 0)) == ProjectTreeModel::NodeKind::Project)
        projectId =
            m_model->index(0, 0).data(ProjectTreeModel::IdRole).toLongLong(); // from a connection
    if (projectId <= 0) {
        // No project yet: make one, so New chain always works.
        const Result<Project> project = m_editor->addProject(tr("project"));
        if (!project)
            return report(project.error());
        projectId = project->id;
    }
    const Result<Project> project = ProjectRepository(m_store).byId(projectId);
    if (!project)
        return report(project.error());
    QString name = tr("chain");
    for (int n = 2; ChainRepository(m_store).byPath({project->name, name}); ++n)
        name = tr("chain %1").arg(n);
    const Result<Chain> chain = m_editor->addChain(projectId, name);
    if (!chain)
        return report(chain.error());
    const QModelIndex index = m_model->indexOf(true, chain->id);
    m_tree->setCurrentIndex(index);
    Q_EMIT chainCreated(chain->id);
    m_tree->edit(index);
}

void TreeEditing::renameSelected()
{
    if (m_tree->currentIndex().isValid())
        m_tree->edit(m_tree->currentIndex());
}

void TreeEditing::duplicateSelected()
{
    const qint64 chainId = selectedChainId();
    if (chainId <= 0)
        return;
    const Result<Chain> copy = m_editor->duplicateChain(chainId);
    if (!copy)
        return report(copy.error());
    selectChain(copy->id);
}

void TreeEditing::toggleSelectedEnabled()
{
    const std::optional<Chain> chain = m_model->chainAt(m_tree->currentIndex());
    if (!chain)
        return;
    Chain toggled = *chain;
    toggled.enabled = !chain->enabled;
    report(m_editor->updateChain(toggled));
}

void TreeEditing::deleteSelected()
{
    const QModelIndex current = m_tree->currentIndex();
    const auto kind = ProjectTreeModel::kindOf(current);
    if (!current.isValid()
        || (kind != ProjectTreeModel::NodeKind::Project
            && kind != ProjectTreeModel::NodeKind::Chain))
        return; // connections are removed through their own menu
    const QString name = current.data().toString();
    const qint64 id = current.data(ProjectTreeModel::IdRole).toLongLong();
    if (const std::optional<Chain> chain = m_model->chainAt(current)) {
        const Result<QList<Task>> taskList = TaskRepository(m_store).list(id);
        const Result<QList<Schedule>> scheduleList = ScheduleRepository(m_store).list(id);
        const qsizetype tasks = taskList ? taskList->size() : 0;
        const qsizetype schedules = scheduleList ? scheduleList->size() : 0;
        if (QMessageBox::question(
                m_window, tr("Delete chain"),
                tr("Delete the chain “%1” with its %2 task(s) and %3 schedule(s)?\n\nIts run "
                   "history and logs are deleted too. Undo brings the definition back, not "
                   "the history.")
                    .arg(name)
                    .arg(tasks)
                    .arg(schedules))
            != QMessageBox::Yes)
            return;
        report(m_editor->removeChain(id));
        return;
    }
    const qsizetype chains = m_model->rowCount(current);
    if (QMessageBox::question(m_window, tr("Delete project"),
                              tr("Delete the project “%1” and its %2 chain(s)?\n\nTheir run "
                                 "history is deleted too. Undo brings the definitions back.")
                                  .arg(name)
                                  .arg(chains))
        != QMessageBox::Yes)
        return;
    report(m_editor->removeProject(id));
}

} // namespace hg
