// The Engine's share of task runs spread over engines (a shared PostgreSQL store): what its
// runs offer when its slots are taken, and what it claims of others' offers when a slot is
// free. TaskRunOffers says how the store keeps them; engine.cpp holds the rest.
#include "clock.h"
#include "engine.h"
#include "enginelease.h"
#include "logbatcher.h"
#include "offerboard.h"
#include "runexecution.h"
#include "runrecorder.h"
#include "store/store.h"
#include "taskhost.h"

namespace hg {

void Engine::setUpOffers()
{
    // SQLite has one engine; an engine that only runs what it is asked to (run --wait) neither
    // offers nor takes.
    if (m_store->backend() != StoreBackend::PostgreSql || !m_config.runSchedules || m_board)
        return;
    m_board = std::make_unique<OfferBoard>(*m_store, *m_clock);
    m_host = std::make_unique<TaskHost>(*m_store, *m_recorder, *m_logs, *m_clock, m_config,
                                        [this] { return m_lease->fence(); });
    m_logs->setHosted([this](qint64 taskRunId) { return m_host->hosts(taskRunId); });
    connect(m_host.get(), &TaskHost::storeUnavailable, this, &Engine::storeLost);
    connect(m_host.get(), &TaskHost::countChanged, this, &Engine::hostedTasksChanged);
    connect(m_host.get(), &TaskHost::slotFreed, this, [this] {
        if (m_shuttingDown && nothingRuns())
            QMetaObject::invokeMethod(this, &Engine::finishShutdown, Qt::QueuedConnection);
        else
            scheduleDispatch();
    });
    m_offerTimer.setSingleShot(true);
    connect(&m_offerTimer, &QTimer::timeout, this, &Engine::scheduleDispatch);
}

bool Engine::nothingRuns() const
{
    return m_executions.isEmpty() && (!m_host || m_host->count() == 0);
}

int Engine::freeSlots() const
{
    int inUse = m_host ? m_host->count() : 0;
    for (const RunExecution *execution : std::as_const(m_executions))
        inUse += execution->slotsInUse();
    return std::max(0, m_config.slotCount - inUse);
}

void Engine::claimOffers()
{
    if (!m_host || !m_offersWaiting || !m_lease->isHeld())
        return;
    // Before this engine's own ready tasks: an offer waited a while already.
    const int room = freeSlots();
    if (room <= 0)
        return;
    m_offersWaiting = m_host->claim(room) == room;
}

void Engine::offerWaitingTasks()
{
    if (!m_board || !m_lease->isHeld() || m_storeLostSinceMs >= 0 || freeSlots() > 0)
        return; // with a slot free here, what is ready has started (or waits for a limit)
    const qint64 now = m_clock->nowMs();
    qint64 nextMs = -1;
    for (RunExecution *execution : std::as_const(m_executions)) {
        for (qint64 taskId : execution->offerableTasks()) {
            const qint64 dueMs = execution->readySinceMs(taskId) + m_config.offerAfterMs;
            if (dueMs <= now)
                execution->offerTask(taskId);
            else
                nextMs = nextMs < 0 ? dueMs : std::min(nextMs, dueMs);
        }
    }
    if (nextMs >= 0 && (!m_offerTimer.isActive() || m_offerTimer.remainingTime() > nextMs - now))
        m_offerTimer.start(int(nextMs - now));
}

} // namespace hg
