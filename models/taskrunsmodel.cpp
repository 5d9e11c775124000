#include "taskrunsmodel.h"

#include "displayformat.h"
#include "statepresentation.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"
#include "storereader.h"

#include <algorithm>
#include <utility>

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
    m_asked = 0;
    m_toldMeanwhile.clear();
    m_runId = 0;
    m_taskNames.clear();
    m_attempts.clear();
    endResetModel();
}

Result<TaskRunsModel::Attempts> TaskRunsModel::read(Store &store, qint64 runId)
{
    const Result<Run> run = RunRepository(store).byId(runId);
    if (!run)
        return run.error();
    const Result<QList<Task>> tasks = TaskRepository(store).list(run->chainId);
    if (!tasks)
        return tasks.error();
    const Result<QList<TaskRun>> attempts = TaskRunRepository(store).listForRun(runId);
    if (!attempts)
        return attempts.error();
    Attempts read{{}, attempts.value()};
    for (const Task &task : tasks.value())
        read.taskNames.insert(task.id, task.name);
    return read;
}

Status TaskRunsModel::show(qint64 runId)
{
    if (!m_reader) {
        const Result<Attempts> attempts = read(m_store, runId);
        if (!attempts)
            return attempts.error();
        showAttempts(runId, attempts.value());
        return {};
    }
    m_asked = runId;
    m_toldMeanwhile.clear();
    m_reader->read<Attempts>(
        this, [runId](Store &store) { return read(store, runId); },
        [this, runId](const Result<Attempts> &attempts) {
            if (runId != m_asked)
                return; // another run was asked for since
            const QList<TaskRun> told = std::exchange(m_toldMeanwhile, {});
            m_asked = 0;
            if (!attempts)
                return;
            showAttempts(runId, attempts.value());
            for (const TaskRun &taskRun : told)
                applyTaskRun(taskRun);
        });
    return {};
}

void TaskRunsModel::showAttempts(qint64 runId, const Attempts &read)
{
    beginResetModel();
    m_runId = runId;
    m_taskNames = read.taskNames;
    m_attempts = read.attempts;
    endResetModel();
}

void TaskRunsModel::applyTaskRun(const TaskRun &taskRun)
{
    if (m_asked != 0 && taskRun.runId == m_asked)
        m_toldMeanwhile << taskRun; // and to the shown rows below, if it is the same run
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
