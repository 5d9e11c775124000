#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/fence.h"
#include "domain/taskrun.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <vector>

namespace hg {

class Store;

// The one writer of what happens to the runs an engine executes: attempts and run states.
// Every write checks the engine's claim on the run (its Fence), so after a takeover nothing
// a paused or cut-off engine still sends overwrites the new owner's record.
//
// While the store cannot be reached the recorder holds state changes in memory, in order,
// and writes them once the engine has its connection (and its claim) back; a state change
// is never dropped. New attempts need the store: while holding, insertTaskRun() refuses and
// the engine starts nothing new.
class RunRecorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunRecorder)

public:
    // A state change: an attempt's update (taskRun.id > 0), a run's new state, or (claim) this
    // engine's claim on a queued run.
    struct Held
    {
        TaskRun taskRun;
        qint64 runId = 0;
        RunState state = RunState::Queued;
        QDateTime at;
        QString engineName;
        bool claim = false;
        bool insert = false; // a new attempt kept back (never held: it needs the store)
    };
    QList<Held> held() const { return m_held; }
    // Writes changes an earlier engine could not (its HeldJournal), before this engine holds
    // a claim: no fence is checked, and the first refusal stops it.
    Status writeJournal(const QList<Held> &changes);

    explicit RunRecorder(Store &store, QObject *parent = nullptr);
    ~RunRecorder() override;

    void setFence(const Fence &fence)
    {
        m_fence = fence;
        m_checkedRuns.clear();
    }
    const Fence &fence() const { return m_fence; }

    // The store is unreachable: write nothing, keep state changes until flushHeld().
    void hold();
    // Another writer (the log) found the store gone: hold, and say so once.
    void reportUnavailable(const QString &why);
    bool isHolding() const { return m_holding; }
    qsizetype heldCount() const { return m_held.size(); }

    // Work done at the next turn of the event loop, all of it in one transaction: the ends of
    // many tasks that finished together (empty tasks, a burst) cost one commit, not one each.
    // Dropped when its owner is gone by then.
    void coalesce(QObject *owner, std::function<void()> work);

    // Unavailable while holding; Fenced when the run is another engine's now. An attempt whose
    // row a commit reported as failed may be stored all the same (the ambiguous commit): the
    // same attempt inserted again takes that row over, if it never started a process.
    Result<TaskRun> insertTaskRun(const TaskRun &row);
    // An attempt's row written before (a retry's waiting row) started as `row` says, if it never
    // started a process and no engine claimed it meanwhile. Claimed (an offer an engine took,
    // stored by a commit that reported failure), the row is returned as it is, its worker
    // named: the caller follows it as an offered attempt. The same goes for insertTaskRun()'s
    // row taken over. Unavailable while holding, Fenced as insertTaskRun().
    Result<TaskRun> reuseTaskRun(const TaskRun &row);
    // Runs this engine claimed inside the open transaction: claimed again should it not commit.
    void noteClaims(const QList<qint64> &runIds, const QString &engineName);
    // Whether writes in the open transaction are kept back to its end (PostgreSQL, with a
    // claim held): then claims are too, and a run admitted at once is claimed and started by
    // one row update.
    bool keepsBack() const;
    // Runs RunOwnership::lockQueued() locked: claimed at the transaction's end.
    void keepBackClaims(const QList<qint64> &runIds, const QString &engineName);
    // Whether the outermost transaction with this serial (Store::transactionSerial()) is
    // known to have committed; 0 (written outside any transaction) counts as committed.
    bool committed(quint64 transactionSerial) const
    {
        return !m_failedTransactions.contains(transactionSerial);
    }
    // An attempt insertTaskRun() gave an id whose row its transaction's end did not store
    // after all (its run was taken over, or the attempt was stored before): it must not start.
    bool isRefused(qint64 taskRunId) const { return m_refusedAttempts.contains(taskRunId); }
    // Written now or held (ok either way); an error only for a write refused outright.
    Status updateTaskRun(const TaskRun &row);
    Status setRunState(qint64 runId, RunState state, const QDateTime &at,
                       const QString &engineName);

    // Writes what was held, oldest first, and stops holding. Unavailable: the store went
    // away again (the rest is still held). A held write whose run was taken over meanwhile
    // is dropped (runFenced() says which).
    Status flushHeld();
    // The engine lost its claims (fenced): what it held belongs to runs that are not its own.
    void dropHeld();

Q_SIGNALS:
    // A write found the store gone: the engine starts reconnecting.
    void storeUnavailable(const QString &why);
    // What a failed commit left held is written again: new attempts may start.
    void writable();
    // A write about this run was refused: another engine owns it now.
    void runFenced(qint64 runId, const QString &why);

private:
    Status write(const Held &change);
    Status apply(const Held &change);
    // Held or refused: what a failed write means for the caller.
    Status settle(const Held &change, const Status &written);
    Result<TaskRun> takeOver(const TaskRun &row);
    // A direct write's end: a failure held, or told as a takeover.
    Result<TaskRun> settleAtOnce(qint64 runId, const Status &done, const Result<TaskRun> &written);
    // The claim on a run is checked once per transaction: its share lock holds to the end.
    Status checkClaim(qint64 runId);
    bool isClaimChecked(qint64 runId);
    // A write that carries the claim's check in its own statement.
    Status writeFenced(const Held &change);
    void transactionEnded(bool committed);
    // Kept back to the end of the transaction (or the next statement that is not one of
    // these): written then, many rows to a statement (RunWriteBatch).
    void keepBack(const Held &change);
    static QList<Held> claims(const QList<qint64> &runIds, const QString &engineName);
    Status writeKeptBack();
    Result<TaskRun> keepBackInsert(const TaskRun &row);
    // After the batch: what was not written is checked (taken over, or gone).
    void settleKeptBack(const Held &change, bool written);
    void runCoalesced();

    Store &m_store;
    Fence m_fence;
    QList<Held> m_held;
    QList<Held> m_unconfirmed;          // written inside a transaction that has not committed yet
    QList<Held> m_keptBack;             // to be written before anything else in the transaction
    QList<qint64> m_reservedIds;        // for attempts kept back
    QSet<qint64> m_refusedAttempts;     // kept back, then not stored (isRefused())
    QSet<qint64> m_insertNow;           // runs whose next attempt is inserted at once
    QSet<quint64> m_failedTransactions; // the latest outermost ones that did not commit
    quint64 m_checkedInTransaction = 0;
    QSet<qint64> m_checkedRuns; // claims checked in that transaction
    bool m_holding = false;
    struct Coalesced
    {
        QPointer<QObject> owner;
        std::function<void()> work;
    };
    std::vector<Coalesced> m_coalesced;
};

} // namespace hg
