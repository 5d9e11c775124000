#pragma once

#include "base/result.h"
#include "domain/taskrun.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class TaskRunRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::TaskRunRepository)

public:
    explicit TaskRunRepository(Store &store)
        : m_store(store)
    {}

    Result<TaskRun> insert(const TaskRun &taskRun);
    // Writes state, pid, exit code, error and times of an existing attempt.
    Status update(const TaskRun &taskRun);
    Result<TaskRun> byId(qint64 id) const;
    Result<TaskRun> byAttempt(qint64 runId, qint64 taskId, int attempt) const;
    Result<QList<TaskRun>> listForRun(qint64 runId) const;
    // Attempts some engine left running or waiting (crash recovery).
    Result<QList<TaskRun>> listInState(RunState state) const;

private:
    Store &m_store;
};

} // namespace hg
