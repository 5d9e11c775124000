#pragma once

#include "domain/task.h"
#include "remote/dolphinschedulertypes.h"
#include "remote/pgtimetabletypes.h"

#include <QColor>
#include <QHash>
#include <QTemporaryDir>
#include <QWidget>

#include <memory>

namespace hg {

class DagScene;
class DagView;
class DependenciesModel;
class Store;
class TaskNodeItem;
class TasksModel;

// A remote chain or workflow drawn on the same DAG canvas as local chains, read-only. The canvas
// draws from the store-backed task and dependency models, so the chain is written to a scratch
// SQLite store of this widget's own (a temporary file, never the user's store) and shown
// from there.
class RemoteChainCanvas final : public QWidget
{
    Q_OBJECT

public:
    explicit RemoteChainCanvas(QWidget *parent = nullptr);
    ~RemoteChainCanvas() override;

    // pg_timetable's linear chain: each task after the one before, on success, or on
    // completion after a task that ignores errors.
    void showChain(const PgtChain &chain);
    // A DolphinScheduler DAG: its tasks (drawn by type) and the edges of its relations.
    void showWorkflow(const DsWorkflow &workflow);
    int nodeCount() const;
    // What the canvas shows of a task (its box's second line and tooltip) and of an edge (its
    // label), by task name; empty when there is none. For tests and accessibility checks.
    QString nodeDetail(const QString &taskName) const;
    QString nodeToolTip(const QString &taskName) const;
    QString edgeLabel(const QString &fromTask, const QString &toTask) const;

private:
    bool ensureStore();
    qint64 newChain(); // the scratch store's only chain, emptied; 0 when it cannot be made
    qint64 addTask(qint64 chainId, Task task);
    // Puts the remote's own attributes on the scene's items; again after each rebuild.
    void annotate();
    TaskNodeItem *nodeNamed(const QString &taskName) const;

    struct NodeNote
    {
        QString detail;
        QString toolTip;
    };
    struct EdgeNote
    {
        QString label;
        QColor color;
        QString toolTip;
    };

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    TasksModel *m_tasks = nullptr;
    DependenciesModel *m_dependencies = nullptr;
    DagScene *m_scene = nullptr;
    DagView *m_view = nullptr;
    QHash<qint64, NodeNote> m_nodeNotes;                // by the scratch task's id
    QHash<QPair<qint64, qint64>, EdgeNote> m_edgeNotes; // by (upstream, task) ids
};

} // namespace hg
