#include "runrecorder.h"

#include "store/runownership.h"
#include "store/runrepository.h"
#include "store/runwritebatch.h"
#include "store/store.h"
#include "store/taskrunrepository.h"

namespace hg {

RunRecorder::RunRecorder(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    m_store.setTransactionObserver([this](bool committed) { transactionEnded(committed); });
    m_store.setWriteBehind([this] { return writeKeptBack(); });
}

RunRecorder::~RunRecorder()
{
    m_store.setTransactionObserver({});
    m_store.setWriteBehind({});
}

void RunRecorder::transactionEnded(bool committed)
{
    // Never sent (the transaction failed before its end): written again with the rest, but
    // for new attempts, which never start (committed()).
    for (const Held &change : std::exchange(m_keptBack, {})) {
        if (!change.insert)
            m_unconfirmed << change;
    }
    if (!committed) {
        // Attempts inserted in it must not start (RunExecution asks committed()). Only the
        // latest serials matter: an attempt launches on the next turn of the event loop.
        constexpr quint64 remembered = 4096;
        const quint64 serial = m_store.transactionSerial();
        if (m_failedTransactions.size() >= qsizetype(remembered))
            m_failedTransactions.removeIf(
                [serial](quint64 failed) { return failed + remembered / 2 < serial; });
        m_failedTransactions.insert(serial);
    }
    // Aborted by a failed statement (a deadlock, say): written again at once, and attempts
    // it kept from starting are dispatched again (writable()).
    if (committed || (m_unconfirmed.isEmpty() && !m_store.isTransactionAborted())) {
        m_unconfirmed.clear();
        return;
    }
    // Rolled back, or the connection died before the commit: written again, in order, before
    // anything new (a claim first, then what happened to the run).
    m_held = std::exchange(m_unconfirmed, {}) + m_held;
    const bool wasHolding = std::exchange(m_holding, true);
    if (!m_store.isReachable()) {
        m_holding = wasHolding;
        reportUnavailable(tr("the store cannot be reached"));
        return;
    }
    if (wasHolding)
        return; // the engine's reconnect flushes it
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!m_holding)
                return; // flushed meanwhile
            // Still refused (a full disk, a busy file): the engine retries with backoff.
            if (const Status flushed = flushHeld();
                !flushed && flushed.error().kind == ErrorKind::Unavailable) {
                m_holding = false;
                reportUnavailable(flushed.error().message);
            } else {
                Q_EMIT writable();
            }
        },
        Qt::QueuedConnection);
}

void RunRecorder::coalesce(QObject *owner, std::function<void()> work)
{
    m_coalesced.push_back(Coalesced{owner, std::move(work)});
    if (m_coalesced.size() == 1)
        QMetaObject::invokeMethod(this, &RunRecorder::runCoalesced, Qt::QueuedConnection);
}

void RunRecorder::runCoalesced()
{
    // Work it posts in turn (a task end ends a run...) goes to the next turn, and batch.
    const std::vector<Coalesced> batch = std::exchange(m_coalesced, {});
    std::size_t done = 0;
    const auto runRest = [&] {
        for (; done < batch.size(); ++done) {
            if (batch[done].owner)
                batch[done].work();
        }
    };
    (void)m_store.transaction([&] {
        runRest();
        return Status{};
    });
    runRest(); // no transaction began (the store is away): the writes are held all the same
}

void RunRecorder::noteClaims(const QList<qint64> &runIds, const QString &engineName)
{
    if (m_store.inTransaction())
        m_unconfirmed << claims(runIds, engineName);
}

void RunRecorder::keepBackClaims(const QList<qint64> &runIds, const QString &engineName)
{
    m_keptBack << claims(runIds, engineName);
}

QList<RunRecorder::Held> RunRecorder::claims(const QList<qint64> &runIds, const QString &engineName)
{
    QList<Held> changes;
    changes.reserve(runIds.size());
    for (qint64 runId : runIds) {
        Held claim;
        claim.runId = runId;
        claim.engineName = engineName;
        claim.claim = true;
        changes << claim;
    }
    return changes;
}

void RunRecorder::hold()
{
    m_holding = true;
}

void RunRecorder::reportUnavailable(const QString &why)
{
    if (m_holding)
        return;
    m_holding = true;
    Q_EMIT storeUnavailable(why);
}

Result<TaskRun> RunRecorder::insertTaskRun(const TaskRun &row)
{
    if (m_holding)
        return Error::unavailable(tr("the store cannot be reached"));
    if (keepsBack() && !m_insertNow.contains(row.runId)) {
        if (Result<TaskRun> kept = keepBackInsert(row); kept || m_store.isTransactionAborted())
            return kept;
    }
    m_insertNow.remove(row.runId);
    Result<TaskRun> inserted = Error::runtime(QString());
    const Status done = m_store.transaction([&]() -> Status {
        // The insert checks the claim itself; only when it wrote nothing is it checked apart.
        const bool fenced = m_fence.isHeld() && !isClaimChecked(row.runId);
        TaskRunRepository repository(m_store);
        inserted = fenced ? repository.insertFenced(row, m_fence) : repository.insert(row);
        if (inserted && fenced)
            m_checkedRuns.insert(row.runId);
        if (!inserted && inserted.error().kind == ErrorKind::AlreadyExists && fenced) {
            if (const Status claim = checkClaim(row.runId); !claim)
                return claim;
        }
        if (!inserted && inserted.error().kind == ErrorKind::AlreadyExists) {
            // Stored by a commit that reported failure, so never started here: taken over.
            const Result<TaskRun> earlier =
                repository.byAttempt(row.runId, row.taskId, row.attempt);
            if (!earlier) {
                inserted = earlier.error(); // not readable now: tried again, as the insert
            } else {
                TaskRun reused = row;
                reused.id = earlier->id;
                inserted = takeOver(reused);
            }
        }
        return inserted ? Status{} : Status(inserted.error());
    });
    return settleAtOnce(row.runId, done, inserted);
}

Result<TaskRun> RunRecorder::reuseTaskRun(const TaskRun &row)
{
    if (m_holding)
        return Error::unavailable(tr("the store cannot be reached"));
    Result<TaskRun> reused = Error::runtime(QString());
    const Status done = m_store.transaction([&]() -> Status {
        reused = takeOver(row);
        return reused ? Status{} : Status(reused.error());
    });
    return settleAtOnce(row.runId, done, reused);
}

Result<TaskRun> RunRecorder::takeOver(const TaskRun &row)
{
    const bool fenced = m_fence.isHeld() && !isClaimChecked(row.runId);
    TaskRunRepository repository(m_store);
    const Result<bool> written = repository.takeOver(row, fenced ? &m_fence : nullptr);
    if (!written)
        return written.error();
    if (written.value()) {
        if (fenced)
            m_checkedRuns.insert(row.runId); // the write checked it, and locked the run
        return row;
    }
    if (const Status claim = checkClaim(row.runId); !claim)
        return claim.error(); // taken over by another engine
    const Result<TaskRun> stored = repository.byId(row.id);
    if (!stored)
        return stored.error();
    // An engine claimed it (the commit that offered it did happen): it runs there, and the
    // caller follows it as it follows any offered attempt.
    if (!stored->workerName.isEmpty())
        return stored;
    // One that started a process, or ended, is a real conflict.
    return Error::exists(tr("attempt %1 of task %2 in run %3 started already")
                             .arg(row.attempt)
                             .arg(row.taskId)
                             .arg(row.runId));
}

Result<TaskRun> RunRecorder::settleAtOnce(qint64 runId, const Status &done,
                                          const Result<TaskRun> &written)
{
    if (done)
        return written;
    if (m_store.inTransaction() && m_store.isTransactionAborted())
        return Error::unavailable(done.error().message); // not started; ready again after it
    if (done.error().kind == ErrorKind::Unavailable) {
        reportUnavailable(done.error().message);
    } else if (done.error().kind == ErrorKind::Fenced) {
        Q_EMIT runFenced(runId, done.error().message);
    }
    return done.error();
}

bool RunRecorder::isClaimChecked(qint64 runId)
{
    if (m_checkedInTransaction != m_store.transactionSerial()) {
        m_checkedInTransaction = m_store.transactionSerial();
        m_checkedRuns.clear();
    }
    return m_checkedRuns.contains(runId);
}

Status RunRecorder::checkClaim(qint64 runId)
{
    if (!m_fence.isHeld() || isClaimChecked(runId))
        return {};
    const Status claim = RunOwnership(m_store).check(runId, m_fence);
    if (claim)
        m_checkedRuns.insert(runId);
    return claim;
}

Status RunRecorder::writeFenced(const Held &change)
{
    // The write checks the claim itself (one statement where check and write were two); only
    // when it wrote nothing does the check say whether the run was taken over or is gone.
    const bool attempt = change.taskRun.id > 0;
    const Result<bool> written =
        attempt ? TaskRunRepository(m_store).updateFenced(change.taskRun, m_fence)
                : RunRepository(m_store).setStateFenced(change.runId, change.state, change.at,
                                                        change.engineName, m_fence);
    if (!written)
        return written.error();
    if (!written.value()) {
        if (const Status claim = checkClaim(change.runId); !claim)
            return claim;
        return Error::notFound(attempt ? tr("unknown task run %1").arg(change.taskRun.id)
                                       : tr("unknown run %1").arg(change.runId));
    }
    m_checkedRuns.insert(change.runId); // its row stays locked to the end of the transaction
    return {};
}

Status RunRecorder::updateTaskRun(const TaskRun &row)
{
    Held change;
    change.taskRun = row;
    change.runId = row.runId;
    return write(change);
}

Status RunRecorder::setRunState(qint64 runId, RunState state, const QDateTime &at,
                                const QString &engineName)
{
    if (isTerminal(state))
        m_insertNow.remove(runId); // it inserts no attempt any more
    return write(Held{TaskRun{}, runId, state, at, engineName});
}

Status RunRecorder::write(const Held &change)
{
    if (m_holding) {
        // The latest state of an attempt supersedes an earlier one still held; run states
        // are all kept (the first "running" sets the run's start time).
        if (change.taskRun.id > 0) {
            for (Held &held : m_held) {
                if (held.taskRun.id == change.taskRun.id) {
                    held = change;
                    return {};
                }
            }
        }
        m_held << change;
        return {};
    }
    if (keepsBack()) {
        keepBack(change);
        return {};
    }
    return settle(change, apply(change));
}

bool RunRecorder::keepsBack() const
{
    // SQLite runs a statement in-process: one per row costs it next to nothing.
    return m_store.backend() == StoreBackend::PostgreSql && m_store.inTransaction()
           && !m_store.isTransactionAborted() && m_fence.isHeld();
}

Result<TaskRun> RunRecorder::keepBackInsert(const TaskRun &row)
{
    if (m_reservedIds.isEmpty()) {
        constexpr int reserved = 64; // an engine's dispatch pass starts about as many
        const Result<QList<qint64>> ids = RunWriteBatch(m_store).reserveTaskRunIds(reserved);
        if (!ids)
            return ids.error();
        m_reservedIds = ids.value();
    }
    Held change;
    change.taskRun = row;
    change.taskRun.id = m_reservedIds.takeFirst();
    change.runId = row.runId;
    change.insert = true;
    m_keptBack << change;
    return change.taskRun;
}

void RunRecorder::keepBack(const Held &change)
{
    const bool attempt = change.taskRun.id > 0;
    for (Held &kept : m_keptBack) {
        if (attempt && kept.taskRun.id == change.taskRun.id) {
            // An update writes the whole attempt: the latest supersedes, and an attempt not
            // inserted yet is inserted as it is now.
            kept.taskRun = change.taskRun;
            return;
        }
        if (!attempt && kept.taskRun.id == 0 && !kept.claim && kept.runId == change.runId) {
            // Both states are written, in order (the first "running" sets the start time).
            (void)m_store.flushWriteBehind();
            break;
        }
    }
    m_keptBack << change;
}

Status RunRecorder::writeKeptBack()
{
    if (m_keptBack.isEmpty())
        return {};
    const QList<Held> batch = std::exchange(m_keptBack, {});
    QList<TaskRun> inserts;
    QList<TaskRun> updates;
    QList<RunWriteBatch::RunChange> runs; // a run's claim and its new state make one row
    QHash<qint64, qsizetype> rowOfRun;
    for (const Held &change : batch) {
        if (change.insert) {
            inserts << change.taskRun;
        } else if (change.taskRun.id > 0) {
            updates << change.taskRun;
        } else {
            const auto row = rowOfRun.constFind(change.runId);
            if (row == rowOfRun.constEnd()) {
                rowOfRun.insert(change.runId, runs.size());
                runs << RunWriteBatch::RunChange{change.runId, false, {}, {}, {}};
            }
            RunWriteBatch::RunChange &run = runs[rowOfRun.value(change.runId)];
            if (change.claim) {
                run.claim = true;
            } else {
                run.state = change.state;
                run.at = change.at;
            }
            if (!change.engineName.isEmpty())
                run.engineName = change.engineName;
        }
    }
    // Runs first (a claim fences the attempts' writes), then new attempts (an update in the
    // same batch may be of one of them).
    RunWriteBatch writes(m_store);
    Result<QSet<qint64>> stated = writes.writeRuns(runs, m_fence);
    Result<QSet<qint64>> inserted = stated ? writes.insertTaskRuns(inserts, m_fence) : stated;
    Result<QSet<qint64>> updated = inserted ? writes.updateTaskRuns(updates, m_fence) : inserted;
    if (!updated) {
        // The transaction is lost with them (a statement without savepoint failed, or the
        // server is gone): written again after its rollback, as a refused commit's writes
        // are. Its new attempts do not start (committed() says so) and are dispatched again.
        for (const Held &change : batch) {
            if (!change.insert)
                m_unconfirmed << change;
        }
        // Refused before it was sent (a fault test's refusal) the transaction could still
        // commit, and new attempts without their rows would start: it must not.
        m_store.abortTransaction(updated.error().message);
        return updated.error();
    }
    for (const Held &change : batch) {
        if (change.insert)
            settleKeptBack(change, inserted->contains(change.taskRun.id));
        else if (change.taskRun.id > 0)
            settleKeptBack(change, updated->contains(change.taskRun.id));
        else
            settleKeptBack(change, stated->contains(change.runId));
    }
    return {};
}

void RunRecorder::settleKeptBack(const Held &change, bool written)
{
    if (written) {
        // An insert is not written again should the commit fail: its attempt never starts.
        if (!change.insert)
            m_unconfirmed << change;
        return;
    }
    // Taken over or gone (nothing left to record), or for an attempt, stored before.
    const Status claim = RunOwnership(m_store).check(change.runId, m_fence);
    if (!claim && claim.error().kind == ErrorKind::Unavailable) {
        // Not known whether it is ours: the transaction fails, and this is written (and
        // checked) again after it, or for an attempt, dispatched again.
        if (!change.insert)
            m_unconfirmed << change;
        m_store.abortTransaction(claim.error().message);
        return;
    }
    if (change.insert) {
        // It does not start; dispatched again, its insert goes at once, where a row stored
        // by an ambiguous commit is taken over (insertTaskRun()).
        if (m_refusedAttempts.size() >= 4096)
            m_refusedAttempts.clear(); // asked on the next turn of the event loop only
        m_refusedAttempts.insert(change.taskRun.id);
        m_insertNow.insert(change.runId);
    }
    if (!claim && claim.error().kind == ErrorKind::Fenced) {
        // Told after this statement, not inside it: the engine lets go of the run.
        QMetaObject::invokeMethod(
            this,
            [this, runId = change.runId, why = claim.error().message] {
                Q_EMIT runFenced(runId, why);
            },
            Qt::QueuedConnection);
    }
}

Status RunRecorder::apply(const Held &change)
{
    const bool inOuterTransaction = m_store.inTransaction();
    const auto once = [&] {
        return m_store.transaction([&]() -> Status {
            if (change.claim) {
                // False when it is no longer queued: it went on (the claim did commit after all).
                const Result<bool> claimed =
                    RunOwnership(m_store).claim(change.runId, m_fence, change.engineName);
                return claimed ? Status{} : Status(claimed.error());
            }
            if (m_fence.isHeld() && !isClaimChecked(change.runId))
                return writeFenced(change);
            if (change.taskRun.id > 0)
                return TaskRunRepository(m_store).update(change.taskRun);
            return RunRepository(m_store).setState(change.runId, change.state, change.at,
                                                   change.engineName);
        });
    };
    Status written = once();
    // Refused by a server that answered (a deadlock) in a transaction of its own: the server
    // asks for it again, so it is, at once and a few times, before the engine holds it.
    for (int again = 0;
         again < 3 && !written && !inOuterTransaction && m_store.isTransactionAborted()
         && written.error().kind == ErrorKind::Unavailable;
         ++again)
        written = once();
    // Rolled back with the whole transaction (a statement in it failed): written again after
    // it, as a refused commit's writes are.
    if (written || (inOuterTransaction && m_store.isTransactionAborted())) {
        if (inOuterTransaction)
            m_unconfirmed << change;
        return {};
    }
    return written;
}

Status RunRecorder::settle(const Held &change, const Status &written)
{
    if (written)
        return {};
    if (written.error().kind == ErrorKind::Unavailable) {
        m_held << change;
        reportUnavailable(written.error().message);
        return {};
    }
    if (written.error().kind == ErrorKind::Fenced)
        Q_EMIT runFenced(change.runId, written.error().message);
    return written;
}

Status RunRecorder::flushHeld()
{
    m_holding = false;
    while (!m_held.isEmpty()) {
        const Held change = m_held.takeFirst();
        const Status written = apply(change);
        if (!written && written.error().kind == ErrorKind::Unavailable) {
            m_held.prepend(change);
            m_holding = true;
            return written;
        }
        if (!written && written.error().kind == ErrorKind::Fenced)
            Q_EMIT runFenced(change.runId, written.error().message);
    }
    return {};
}

void RunRecorder::dropHeld()
{
    m_held.clear();
    // Nothing held is nothing to wait for: an engine fenced out while the store was away
    // and registered again must write again. Before, it went on holding every write for
    // good, its runs "running" with no task started (found by the torture test).
    m_holding = false;
}

Status RunRecorder::writeJournal(const QList<Held> &changes)
{
    return m_store.transaction([&]() -> Status {
        for (const Held &change : changes) {
            // A run removed since (retention, a deleted chain) needs no record.
            if (const Status written = apply(change);
                !written && written.error().kind != ErrorKind::NotFound)
                return written;
        }
        return Status{};
    });
}

} // namespace hg
