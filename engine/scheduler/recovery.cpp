#include "recovery.h"

#include "base/epochtime.h"
#include "base/processinfo.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrunrepository.h"

namespace hg {

Recovery::Recovery(Store &store, KillGroup killGroup)
    : m_store(store)
    , m_killGroup(std::move(killGroup))
{
    if (!m_killGroup) {
        m_killGroup = [](qint64 pid, qint64 startTicks) {
            processinfo::killGroupIfSameProcess(pid, startTicks);
        };
    }
}

Result<QList<qint64>> Recovery::recover(qint64 nowMs)
{
    TaskRunRepository taskRuns(m_store);
    for (RunState state : {RunState::Running, RunState::Waiting, RunState::Queued}) {
        const Result<QList<TaskRun>> left = taskRuns.listInState(state);
        if (!left)
            return left.error();
        for (TaskRun attempt : left.value()) {
            if (attempt.pid > 0)
                m_killGroup(attempt.pid, attempt.processStartTicks);
            attempt.state = RunState::Interrupted;
            attempt.finishedAt = utcFromMs(nowMs);
            attempt.error = QStringLiteral("the engine stopped while this attempt ran");
            if (const Status s = taskRuns.update(attempt); !s)
                return s.error();
        }
    }
    RunRepository runs(m_store);
    const Result<QList<qint64>> unfinished = runs.idsInStates(
        {RunState::Running, RunState::Paused, RunState::Waiting, RunState::Interrupted});
    if (!unfinished)
        return unfinished.error();
    for (qint64 runId : unfinished.value()) {
        if (const Status s = runs.setState(runId, RunState::Queued, utcFromMs(nowMs)); !s)
            return s.error();
    }
    return unfinished.value();
}

Recovery::Fate Recovery::fateOf(const TaskRun &last, int maxRetries)
{
    if (last.state == RunState::Interrupted && last.attempt <= maxRetries)
        return Fate{true, RunState::Queued};
    return Fate{false, last.state == RunState::Interrupted ? RunState::Failed : last.state};
}

} // namespace hg
