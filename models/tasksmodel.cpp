#include "tasksmodel.h"

#include "statepresentation.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

namespace hg {

TasksModel::TasksModel(Store &store, QObject *parent)
    : TableModel({tr("Task"), tr("Kind"), tr("Command"), tr("Last state")}, parent)
    , m_store(store)
{}

Result<TasksModel::Read> TasksModel::read(Store &store, qint64 chainId)
{
    Read read;
    read.chainId = chainId;
    if (chainId <= 0)
        return read;
    Result<QList<Task>> tasks = TaskRepository(store).list(chainId);
    if (!tasks)
        return tasks.error();
    read.tasks = std::move(tasks.value());
    // The chain's latest run, through the (chain_id, id) index: cheap with any history.
    // Its states only decorate the tasks: a history that cannot be read (a damaged store,
    // open read-only) leaves them blank rather than the canvas empty.
    RunFilter latest;
    latest.chainId = chainId;
    latest.limit = 1;
    const Result<QList<Run>> runs = RunRepository(store).list(latest);
    const Result<QList<TaskRun>> taskRuns =
        runs && !runs->isEmpty() ? TaskRunRepository(store).listForRun(runs->constFirst().id)
                                 : Result<QList<TaskRun>>(QList<TaskRun>());
    if ((!runs || !taskRuns) && !store.isReadOnly())
        return runs ? taskRuns.error() : runs.error();
    if (taskRuns) {
        for (const TaskRun &taskRun : taskRuns.value()) {
            if (taskRun.id >= read.lastAttemptIds.value(taskRun.taskId)) {
                read.lastStates.insert(taskRun.taskId, taskRun.state);
                read.lastAttemptIds.insert(taskRun.taskId, taskRun.id);
            }
        }
    }
    return read;
}

void TasksModel::show(Read read)
{
    beginResetModel();
    m_chainId = read.chainId;
    m_tasks = std::move(read.tasks);
    m_lastStates = std::move(read.lastStates);
    m_lastAttemptIds = std::move(read.lastAttemptIds);
    endResetModel();
}

Status TasksModel::show(qint64 chainId)
{
    Result<Read> read = TasksModel::read(m_store, chainId);
    if (!read)
        return read.error();
    show(std::move(read.value()));
    return {};
}

int TasksModel::rowOf(qint64 taskId) const
{
    for (int row = 0; row < m_tasks.size(); ++row) {
        if (m_tasks.at(row).id == taskId)
            return row;
    }
    return -1;
}

std::optional<RunState> TasksModel::lastState(qint64 taskId) const
{
    const auto found = m_lastStates.constFind(taskId);
    if (found == m_lastStates.constEnd())
        return std::nullopt;
    return found.value();
}

void TasksModel::applyTaskRun(const TaskRun &taskRun)
{
    const int row = rowOf(taskRun.taskId);
    // Attempts arrive in order per task; an older one (a late queued signal) never wins.
    if (row < 0 || taskRun.id < m_lastAttemptIds.value(taskRun.taskId))
        return;
    m_lastAttemptIds.insert(taskRun.taskId, taskRun.id);
    m_lastStates.insert(taskRun.taskId, taskRun.state);
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1),
                       {Qt::DisplayRole, Qt::DecorationRole, LastStateRole});
}

int TasksModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tasks.size());
}

QVariant TasksModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Task &task = m_tasks.at(index.row());
    const std::optional<RunState> state = lastState(task.id);
    switch (role) {
    case TaskIdRole:
        return task.id;
    case LastStateRole:
        return state ? QVariant(int(*state)) : QVariant();
    case PositionRole:
        return task.position ? QVariant(*task.position) : QVariant();
    case Qt::DecorationRole:
        return index.column() == NameColumn ? QVariant(StatePresentation::fill(state)) : QVariant();
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case NameColumn:
            return task.name;
        case KindColumn:
            return enumName(task.kind);
        case CommandColumn:
            return (QStringList{task.command} + task.arguments).join(QLatin1Char(' '));
        case StateColumn:
            return StatePresentation::label(state);
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
