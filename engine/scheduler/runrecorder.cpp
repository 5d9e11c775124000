#include "runrecorder.h"

#include "store/runownership.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrunrepository.h"

namespace hg {

RunRecorder::RunRecorder(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    m_store.setTransactionObserver([this](bool committed) { transactionEnded(committed); });
}

RunRecorder::~RunRecorder()
{
    m_store.setTransactionObserver({});
}

void RunRecorder::transactionEnded(bool committed)
{
    if (committed || m_unconfirmed.isEmpty()) {
        m_unconfirmed.clear();
        return;
    }
    // Rolled back, or the connection died before the commit: written again later, in order.
    m_held = std::exchange(m_unconfirmed, {}) + m_held;
    if (!m_store.isReachable())
        reportUnavailable(tr("the store cannot be reached"));
    else
        QMetaObject::invokeMethod(
            this,
            [this] {
                // Still refused (a full disk, a busy file): the engine retries with backoff.
                if (const Status flushed = flushHeld();
                    !flushed && flushed.error().kind == ErrorKind::Unavailable) {
                    m_holding = false;
                    reportUnavailable(flushed.error().message);
                }
            },
            Qt::QueuedConnection);
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
    Result<TaskRun> inserted = Error::runtime(QString());
    const Status done = m_store.transaction([&]() -> Status {
        if (const Status claim = checkClaim(row.runId); !claim)
            return claim;
        inserted = TaskRunRepository(m_store).insert(row);
        return inserted ? Status{} : Status(inserted.error());
    });
    if (done)
        return inserted;
    if (done.error().kind == ErrorKind::Unavailable) {
        reportUnavailable(done.error().message);
    } else if (done.error().kind == ErrorKind::Fenced) {
        Q_EMIT runFenced(row.runId, done.error().message);
    }
    return done.error();
}

Status RunRecorder::checkClaim(qint64 runId)
{
    if (!m_fence.isHeld())
        return {};
    if (m_checkedInTransaction != m_store.transactionSerial()) {
        m_checkedInTransaction = m_store.transactionSerial();
        m_checkedRuns.clear();
    }
    if (m_checkedRuns.contains(runId))
        return {};
    const Status claim = RunOwnership(m_store).check(runId, m_fence);
    if (claim)
        m_checkedRuns.insert(runId);
    return claim;
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
    return settle(change, apply(change));
}

Status RunRecorder::apply(const Held &change)
{
    const bool inOuterTransaction = m_store.inTransaction();
    const Status written = m_store.transaction([&]() -> Status {
        if (const Status claim = checkClaim(change.runId); !claim)
            return claim;
        if (change.taskRun.id > 0)
            return TaskRunRepository(m_store).update(change.taskRun);
        return RunRepository(m_store).setState(change.runId, change.state, change.at,
                                               change.engineName);
    });
    if (written && inOuterTransaction)
        m_unconfirmed << change;
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
