#include "taskrunsmodel.h"

#include "displayformat.h"
#include "statepresentation.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <algorithm>

namespace hg {

TaskRunsModel::TaskRunsModel(Store &store, QObject *parent)
    : TableModel({tr("Task"), tr("Attempt"), tr("State"), tr("Ran on"), tr("Started"),
                  tr("Duration"), tr("Exit"), tr("Error")},
                 parent)
    , m_store(store)
{}

void TaskRunsModel::clear()
{
    beginResetModel();
    m_runId = 0;
    m_taskNames.clear();
    m_attempts.clear();
    endResetModel();
}

Status TaskRunsModel::show(qint64 runId)
{
    const Result<Run> run = RunRepository(m_store).byId(runId);
    if (!run)
        return run.error();
    const Result<QList<Task>> tasks = TaskRepository(m_store).list(run->chainId);
    const Result<QList<TaskRun>> attempts = TaskRunRepository(m_store).listForRun(runId);
    if (!tasks)
        return tasks.error();
    if (!attempts)
        return attempts.error();
    beginResetModel();
    m_runId = runId;
    m_taskNames.clear();
    for (const Task &task : tasks.value())
        m_taskNames.insert(task.id, task.name);
    m_attempts = attempts.value();
    endResetModel();
    return {};
}

void TaskRunsModel::applyTaskRun(const TaskRun &taskRun)
{
    if (taskRun.runId != m_runId || m_runId == 0)
        return;
    for (qsizetype row = 0; row < m_attempts.size(); ++row) {
        if (m_attempts.at(row).id == taskRun.id) {
            m_attempts[row] = taskRun;
            Q_EMIT dataChanged(index(int(row), 0), index(int(row), ColumnCount - 1));
            return;
        }
    }
    const int row = int(m_attempts.size());
    beginInsertRows({}, row, row);
    m_attempts << taskRun;
    endInsertRows();
}

bool TaskRunsModel::anyRanElsewhere() const
{
    return std::any_of(m_attempts.cbegin(), m_attempts.cend(),
                       [](const TaskRun &attempt) { return !attempt.workerName.isEmpty(); });
}

int TaskRunsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_attempts.size());
}

QVariant TaskRunsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TaskRun &attempt = m_attempts.at(index.row());
    switch (role) {
    case TaskRunIdRole:
        return attempt.id;
    case TaskIdRole:
        return attempt.taskId;
    case StateRole:
        return int(attempt.state);
    case StartRole:
        return attempt.startedAt;
    case EndRole:
        return attempt.finishedAt;
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case TaskColumn:
            return m_taskNames.value(attempt.taskId, QString::number(attempt.taskId));
        case AttemptColumn:
            return attempt.attempt;
        case StateColumn:
            return StatePresentation::label(attempt.state);
        case StartedColumn:
            return DisplayFormat::preciseTimeOfDay(attempt.startedAt);
        case DurationColumn:
            if (!attempt.startedAt.isValid() || !attempt.finishedAt.isValid())
                return {};
            return DisplayFormat::duration(attempt.startedAt.msecsTo(attempt.finishedAt));
        case ExitColumn:
            return attempt.exitCode ? QVariant(*attempt.exitCode) : QVariant();
        case RanOnColumn:
            return attempt.workerName;
        case ErrorColumn:
            return attempt.error;
        case ColumnCount:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

} // namespace hg
