#include "offerboard.h"

#include "clock.h"
#include "offeredtaskexecutor.h"
#include "store/store.h"
#include "store/taskrunoffers.h"
#include "store/taskrunrepository.h"

namespace hg {

OfferBoard::OfferBoard(Store &store, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
{
    m_soon.setSingleShot(true);
    m_soon.setInterval(100);
    connect(&m_soon, &QTimer::timeout, this, &OfferBoard::look);
}

void OfferBoard::watch(OfferedTaskExecutor *executor)
{
    m_watched.insert(executor->taskRunId(), executor);
    lookSoon(); // a worker may have claimed and even ended it before this engine listened
}

void OfferBoard::forget(qint64 taskRunId)
{
    m_watched.remove(taskRunId);
}

void OfferBoard::lookSoon()
{
    if (!m_watched.isEmpty() && !m_soon.isActive())
        m_soon.start();
}

void OfferBoard::look()
{
    m_soon.stop();
    if (m_watched.isEmpty())
        return;
    for (const QPointer<OfferedTaskExecutor> &executor : std::as_const(m_watched)) {
        if (executor && executor->unsentStop())
            stop(executor);
    }
    // Outside a transaction of the caller's: a read, and seen() may end a task at once.
    const Result<QList<TaskRun>> rows = TaskRunRepository(m_store).listByIds(m_watched.keys());
    if (!rows)
        return; // the store is away: the next heartbeat looks again
    for (const TaskRun &row : rows.value()) {
        if (const QPointer<OfferedTaskExecutor> executor = m_watched.value(row.id))
            executor->seen(row);
    }
}

void OfferBoard::stop(OfferedTaskExecutor *executor)
{
    const std::optional<RunState> reason = executor->unsentStop();
    if (!reason)
        return;
    TaskRunOffers offers(m_store);
    const QString why = QStringLiteral("stopped before any engine took it");
    const Result<bool> withdrawn =
        offers.withdraw(executor->taskRunId(), *reason, m_clock.nowMs(), why);
    if (!withdrawn)
        return; // the store is away: asked again at the next look
    if (!withdrawn.value() && !offers.requestStop(executor->taskRunId(), *reason))
        return;
    executor->stopSent();
    lookSoon();
}

} // namespace hg
