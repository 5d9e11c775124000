#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/task.h"
#include "domain/taskrun.h"
#include "tablemodel.h"

#include <QHash>

namespace hg {

class Store;

// The tasks of one chain with the state each had in the chain's latest run: the rows of the
// task list and the nodes of the DAG canvas. Engine events recolour them as a run goes on.
class TasksModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TasksModel)

public:
    enum Column { NameColumn, KindColumn, CommandColumn, StateColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role { TaskIdRole = Qt::UserRole + 1, LastStateRole, PositionRole };
    Q_ENUM(Role)

    explicit TasksModel(Store &store, QObject *parent = nullptr);

    // What show() reads, as a value: read on any thread with that thread's store, shown here.
    struct Read
    {
        qint64 chainId = 0;
        QList<Task> tasks;
        QHash<qint64, RunState> lastStates;
        QHash<qint64, qint64> lastAttemptIds;
    };
    static Result<Read> read(Store &store, qint64 chainId);
    void show(Read read);
    Status show(qint64 chainId);
    Status reload() { return show(m_chainId); }
    qint64 chainId() const { return m_chainId; }
    const QList<Task> &tasks() const { return m_tasks; }
    int rowOf(qint64 taskId) const;
    // The state of the task's latest attempt; nullopt when it never ran.
    std::optional<RunState> lastState(qint64 taskId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

public Q_SLOTS:
    // From Engine::taskRunChanged: attempts of tasks of other chains are ignored.
    void applyTaskRun(const hg::TaskRun &taskRun);

private:
    Store &m_store;
    qint64 m_chainId = 0;
    QList<Task> m_tasks;
    QHash<qint64, RunState> m_lastStates;
    QHash<qint64, qint64> m_lastAttemptIds; // task id -> the attempt its state came from
};

} // namespace hg
