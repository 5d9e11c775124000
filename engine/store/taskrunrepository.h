#pragma once

#include "base/result.h"
#include "domain/fence.h"
#include "domain/taskrun.h"

#include <QCoreApplication>
#include <QList>
#include <QVariant>

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
    // The same, only while its run names this claim (share-locked as updateFenced() does);
    // AlreadyExists when it does not, as for an attempt stored already: the caller checks.
    Result<TaskRun> insertFenced(const TaskRun &taskRun, const Fence &fence);
    // Writes state, pid, exit code, error and times of an existing attempt for its run's
    // engine: not once an engine claimed it to run it (an offer: the worker writes it then).
    Status update(const TaskRun &taskRun);
    // The same whoever claimed it: recovery ends the attempts of an engine that is gone.
    Status updateInRecovery(const TaskRun &taskRun);
    // The same as update(), only while its run names this claim (the run's row
    // share-locked on PostgreSQL until the transaction ends, as RunOwnership::check() does)
    // and no engine claimed the attempt to run it (an offer: the worker writes it then):
    // false, with nothing written, when either does not hold or a row is gone.
    Result<bool> updateFenced(const TaskRun &taskRun, const Fence &fence);
    // An attempt's row written before (a retry's waiting row, or one stored by a commit that
    // reported failure) written anew by its run's engine, fenced when a fence is given: false,
    // with nothing written, once it started a process, ended, or an engine claimed it.
    Result<bool> takeOver(const TaskRun &taskRun, const Fence *fence);
    Result<TaskRun> byId(qint64 id) const;
    Result<TaskRun> byAttempt(qint64 runId, qint64 taskId, int attempt) const;
    Result<QList<TaskRun>> listForRun(qint64 runId) const;
    Result<QList<TaskRun>> listByIds(const QList<qint64> &ids) const;
    // Attempts of the runs other engines execute, and of alsoRuns (RunsElsewhere).
    Result<QList<TaskRun>> listElsewhere(qint64 sessionId, const QList<qint64> &alsoRuns) const;
    // Attempts some engine left running or waiting (crash recovery).
    Result<QList<TaskRun>> listInState(RunState state) const;

private:
    Result<TaskRun> add(const TaskRun &taskRun, const Fence *fence);
    // Attempts matching a condition with one placeholder, oldest first.
    Result<QList<TaskRun>> listWhere(const QString &condition, const QVariant &value) const;
    enum class Writer { Recovery, RunOwner, TakeOver };
    Result<bool> write(const TaskRun &taskRun, const Fence *fence, Writer writer);

    Store &m_store;
};

} // namespace hg
