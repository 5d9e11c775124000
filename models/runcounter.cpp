#include "runcounter.h"

#include "scheduler/enginehost.h"

namespace hg {

RunCounter::RunCounter(QObject *parent)
    : QObject(parent)
{}

void RunCounter::follow(const EngineHost *host)
{
    connect(host->engine(), &Engine::runChanged, this, &RunCounter::applyRun);
}

void RunCounter::applyRun(const Run &run)
{
    m_active.remove(run.id);
    m_queued.remove(run.id);
    RunCounts next = m_counts;
    if (run.state == RunState::Running || run.state == RunState::Paused) {
        m_active.insert(run.id);
    } else if (run.state == RunState::Queued || run.state == RunState::Waiting) {
        m_queued.insert(run.id);
    } else if (isTerminal(run.state) && run.trigger != RunTrigger::Subchain) {
        // A subchain's outcome shows in its parent's; counting both would count one failure
        // twice.
        next.lastFailed = run.state == RunState::Failed || run.state == RunState::TimedOut;
        if (next.lastFailed)
            ++next.failed;
    }
    next.active = int(m_active.size());
    next.queued = int(m_queued.size());
    if (next == m_counts)
        return;
    m_counts = next;
    Q_EMIT countsChanged(m_counts);
}

} // namespace hg
