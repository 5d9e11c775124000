#pragma once

#include "domain/task.h"
#include "remote/dolphinschedulertypes.h"
#include "remote/pgtimetabletypes.h"

#include <QTemporaryDir>
#include <QWidget>

#include <memory>

namespace hg {

class DagScene;
class DagView;
class DependenciesModel;
class Store;
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

private:
    bool ensureStore();
    qint64 newChain(); // the scratch store's only chain, emptied; 0 when it cannot be made
    qint64 addTask(qint64 chainId, Task task);

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    TasksModel *m_tasks = nullptr;
    DependenciesModel *m_dependencies = nullptr;
    DagScene *m_scene = nullptr;
    DagView *m_view = nullptr;
};

} // namespace hg
