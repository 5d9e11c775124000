#include "recovery.h"

#include "base/epochtime.h"
#include "base/processinfo.h"
#include "executors/taskprocesses.h"
#include "store/logrepository.h"
#include "store/runownership.h"
#include "store/store.h"
#include "store/taskrunoffers.h"
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

Result<QList<qint64>> Recovery::recover(const Fence &self, qint64 nowMs)
{
    QList<qint64> recovered;
    int expiredSessions = 0;
    const Status done = m_store.transaction([&]() -> Status {
        RunOwnership ownership(m_store);
        const Result<int> expired = ownership.expireSessions(self, nowMs);
        if (!expired)
            return expired.error();
        expiredSessions = expired.value();
        // Attempts that a gone engine ran for a live one's run: that run's engine retries them.
        if (m_store.backend() == StoreBackend::PostgreSql) {
            const Result<QList<TaskRunOffers::Process>> interrupted =
                TaskRunOffers(m_store).interruptOrphaned(nowMs);
            if (!interrupted)
                return interrupted.error();
            for (const TaskRunOffers::Process &process : interrupted.value()) {
                if (process.pid > 0)
                    m_killGroup(process.pid, process.startTicks);
            }
        }
        const Result<QList<qint64>> orphans = ownership.lockOrphans();
        if (!orphans)
            return orphans.error();
        TaskRunRepository taskRuns(m_store);
        QList<LogLine> notes; // `logs` shows why an attempt ended without output of its own
        for (qint64 runId : orphans.value()) {
            const Result<QList<TaskRun>> attempts = taskRuns.listForRun(runId);
            if (!attempts)
                return attempts.error();
            for (TaskRun attempt : attempts.value()) {
                if (attempt.state != RunState::Running && attempt.state != RunState::Waiting
                    && attempt.state != RunState::Queued)
                    continue;
                if (attempt.pid > 0)
                    m_killGroup(attempt.pid, attempt.processStartTicks);
                attempt.state = RunState::Interrupted;
                attempt.finishedAt = utcFromMs(nowMs);
                attempt.error = QStringLiteral("the engine stopped while this attempt ran");
                if (const Status s = taskRuns.updateInRecovery(attempt); !s)
                    return s;
                notes << LogLine{0,
                                 runId,
                                 attempt.id,
                                 LogStream::System,
                                 attempt.finishedAt,
                                 QStringLiteral("interrupted: %1").arg(attempt.error)};
            }
            if (const Status s = ownership.release(runId); !s)
                return s;
        }
        if (!notes.isEmpty()) {
            if (const Status s = LogRepository(m_store).append(notes); !s)
                return s;
        }
        recovered = orphans.value();
        return {};
    });
    if (!done)
        return done.error();
    // The attempts' process groups are killed above; what left them sits in the dead
    // engine's task cgroups (when this host has them).
    if (expiredSessions > 0 || !recovered.isEmpty())
        TaskProcesses::reapDeadEngines();
    return recovered;
}

Recovery::Fate Recovery::fateOf(const TaskRun &last, int maxRetries)
{
    // An attempt interrupted before it started (an offer no engine took, a retry that waited)
    // ran nothing: retried whatever its number.
    if (last.state == RunState::Interrupted
        && (last.attempt <= maxRetries || !last.startedAt.isValid()))
        return Fate{true, RunState::Queued};
    return Fate{false, last.state == RunState::Interrupted ? RunState::Failed : last.state};
}

} // namespace hg
