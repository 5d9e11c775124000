#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/fence.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

namespace hg {

class Store;

// Task runs spread over the engines of a shared PostgreSQL store. The engine that owns a run
// decides what is ready; when its slots are all taken it offers a ready attempt (a row in state
// queued with offered_at), and any engine with a free slot claims it with FOR UPDATE SKIP
// LOCKED, in priority order, and runs it as the attempt's worker. Every write a worker makes
// about the attempt checks its claim (worker_session, worker_epoch) and that the attempt still
// runs: once the owner withdrew it, recovery interrupted it or the worker's session was taken
// over, nothing it sends lands. The owner hears of the attempt's end from the row.
class TaskRunOffers final
{
    Q_DECLARE_TR_FUNCTIONS(hg::TaskRunOffers)

public:
    explicit TaskRunOffers(Store &store)
        : m_store(store)
    {}

    // The owner's side.
    // The attempt (inserted queued by the run's owner, in this transaction) is anyone's to run.
    Status offer(qint64 taskRunId, qint64 nowMs);
    // Ends an attempt no worker has claimed yet (a stop, a timeout): false when one has.
    Result<bool> withdraw(qint64 taskRunId, RunState state, qint64 nowMs, const QString &error);
    // Asks the attempt's worker to stop it (Cancelled or TimedOut); it writes the end.
    Status requestStop(qint64 taskRunId, RunState reason);

    // The worker's side.
    struct Claimed
    {
        qint64 taskRunId = 0;
        qint64 runId = 0;
        qint64 taskId = 0;
        int attempt = 1;
    };
    // Offered attempts of running runs, best chain priority, then task priority, then the
    // oldest offer; chains with a client_name go only to the engine of that name. They are
    // running from now on, by this worker.
    Result<QList<Claimed>> claim(const Fence &worker, const QString &engineName, qint64 nowMs,
                                 int limit);
    // Fenced writes: false, with nothing written, when the attempt is no longer this claim's.
    Result<bool> recordProcess(qint64 taskRunId, const Fence &worker, qint64 pid,
                               qint64 processStartTicks);
    Result<bool> finish(qint64 taskRunId, const Fence &worker, RunState state,
                        std::optional<int> exitCode, const QString &error, qint64 nowMs);
    // What became of attempts this worker runs: still its own, and whether a stop was asked.
    struct Look
    {
        qint64 taskRunId = 0;
        bool stillClaimed = false;
        std::optional<RunState> stopRequest;
    };
    Result<QList<Look>> look(const QList<qint64> &taskRunIds, const Fence &worker) const;
    // An attempt claimed but not started (the worker is stopping): offered again.
    Status giveBack(qint64 taskRunId, const Fence &worker);
    // Attempts claimed under this claim that the worker does not run (a claim whose commit was
    // reported failed although it happened): offered again. Returns how many.
    Result<int> reofferUnknown(const Fence &worker, const QList<qint64> &known);

    // Recovery: running attempts whose worker is no live session any more are interrupted (the
    // owner retries them as the task's retries allow). Returns their processes.
    struct Process
    {
        qint64 pid = 0;
        qint64 startTicks = 0;
    };
    Result<QList<Process>> interruptOrphaned(qint64 nowMs);

private:
    Store &m_store;
};

} // namespace hg
