#pragma once

#include "base/result.h"
#include "domain/fence.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace hg {

class Store;

// Which engine session owns which run, on a store that several engines share. A run is
// claimed by one session (FOR UPDATE SKIP LOCKED on PostgreSQL, so engines never wait for
// each other's candidates), every write about it is checked against the claim (fencing), and
// the runs of a session that is gone are given back to the queue.
//
// On SQLite one engine serves a file; the same statements run there without the row locks
// (its single writer already makes each transaction atomic).
class RunOwnership final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunOwnership)

public:
    explicit RunOwnership(Store &store)
        : m_store(store)
    {}

    // Queued runs nobody owns become this session's, best chain priority first, then oldest;
    // chains with a client_name go only to the engine of that name.
    Result<QList<qint64>> claimQueued(const Fence &fence, const QString &engineName, int limit);
    // The same runs locked for this transaction only (PostgreSQL), not written: the caller
    // writes the claim before the transaction ends (RunWriteBatch::writeRuns(), with the
    // run's start when it is admitted at once, one row update where there were two).
    Result<QList<qint64>> lockQueued(const Fence &fence, const QString &engineName, int limit);
    // One run, when it is queued and unowned (a "run now" this engine was asked for). False:
    // another engine has it, or it is no longer queued.
    Result<bool> claim(qint64 runId, const Fence &fence, const QString &engineName);
    // A run this session just made (a schedule's fire, a child run) is its own at once.
    Status own(qint64 runId, const Fence &fence, const QString &engineName);
    // Fenced when the run no longer names this claim. In a PostgreSQL transaction the run's
    // row stays share-locked until commit, so a takeover cannot slip in between the check
    // and the write it guards.
    Status check(qint64 runId, const Fence &fence);

    // Admitted runs of other sessions, for admission limits that hold across engines.
    struct ActiveElsewhere
    {
        qint64 chainId = 0;
        qint64 batchId = 0;
        bool exclusive = false;
        int count = 0;
    };
    Result<QList<ActiveElsewhere>> activeElsewhere(const Fence &fence) const;
    // Serializes admission across engines until the transaction ends (PostgreSQL advisory
    // lock; nothing on SQLite). Admitting a run of a limited chain (max_instances, exclusive,
    // a backfill batch) takes it exclusively; any other admission shares it, so those run
    // side by side and still see every limited admission that committed before them.
    Status lockAdmission(bool exclusive);

    // Deletes the sessions whose lease ran out (by the database's clock on PostgreSQL),
    // except this one; each is taken by exactly one engine. Returns how many.
    Result<int> expireSessions(const Fence &self, qint64 engineNowMs);
    // Unfinished runs whose owner is no live session (a crash, an expired lease, a run from
    // before owners were recorded), locked for the caller's transaction. Queued ones among
    // them only lose their owner; the caller recovers the others.
    Result<QList<qint64>> lockOrphans();
    // The run is nobody's and queued again (after its interrupted attempts were recorded).
    Status release(qint64 runId);

private:
    // PostgreSQL's quick claim: among the oldest claimable runs of each chain.
    Result<QList<qint64>> claimAmongOldest(const Fence &fence, const QString &engineName, int limit,
                                           bool lockOnly);
    Result<QList<qint64>> claimOrLock(const Fence &fence, const QString &engineName, int limit,
                                      bool lockOnly);

    Store &m_store;
};

} // namespace hg
