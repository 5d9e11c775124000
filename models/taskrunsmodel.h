#pragma once

#include "base/result.h"
#include "domain/taskrun.h"
#include "tablemodel.h"

#include <QHash>

namespace hg {

class Store;
class StoreReader;

// The attempts of one run's tasks, in the order they were made: the run detail table and
// the rows of its Gantt chart (StartRole/EndRole give each bar). Engine events update it.
// With a reader, a run's attempts are read on its thread and shown when they arrive (a reset).
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
    void setReader(StoreReader *reader) { m_reader = reader; }

    // At once without a reader; with one, a modelReset says the run's attempts are shown
    // (the run shown before stays until then).
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
    struct Attempts
    {
        QHash<qint64, QString> taskNames;
        QList<TaskRun> attempts;
    };
    static Result<Attempts> read(Store &store, qint64 runId);
    void showAttempts(qint64 runId, const Attempts &read);

    Store &m_store;
    StoreReader *m_reader = nullptr;
    qint64 m_asked = 0;             // the run being read for show()
    QList<TaskRun> m_toldMeanwhile; // its attempts told while it was read
    qint64 m_runId = 0;
    QList<TaskRun> m_attempts;
    QHash<qint64, QString> m_taskNames;
};

} // namespace hg
