#pragma once

#include "base/result.h"
#include "domain/taskrun.h"
#include "tablemodel.h"

#include <QHash>

namespace hg {

class Store;

// The attempts of one run's tasks, in the order they were made: the run detail table and
// the rows of its Gantt chart (StartRole/EndRole give each bar). Engine events update it.
class TaskRunsModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskRunsModel)

public:
    enum Column {
        TaskColumn,
        AttemptColumn,
        StateColumn,
        // Shared store: the engine that ran an attempt for the run's engine; empty when the
        // run's own engine did. The runs view shows the column only when one is filled.
        RanOnColumn,
        StartedColumn,
        DurationColumn,
        ExitColumn,
        ErrorColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role { TaskRunIdRole = Qt::UserRole + 1, TaskIdRole, StateRole, StartRole, EndRole };
    Q_ENUM(Role)

    explicit TaskRunsModel(Store &store, QObject *parent = nullptr);

    Status show(qint64 runId);
    // No run: empty.
    void clear();
    qint64 runId() const { return m_runId; }
    QString taskName(qint64 taskId) const { return m_taskNames.value(taskId); }
    bool anyRanElsewhere() const; // an attempt names the engine that ran it (RanOnColumn)

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

public Q_SLOTS:
    // From Engine::taskRunChanged; attempts of other runs are ignored.
    void applyTaskRun(const hg::TaskRun &taskRun);

private:
    Store &m_store;
    qint64 m_runId = 0;
    QList<TaskRun> m_attempts;
    QHash<qint64, QString> m_taskNames;
};

} // namespace hg
