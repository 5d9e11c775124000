// Engine: run events from other engines on a shared PostgreSQL store (migrations 009, 010).

#include "elsewherewatch.h"
#include "engine.h"
#include "store/runrepository.h"
#include "store/store.h"

#include <QTimer>

namespace hg {

void Engine::tellRunsFromElsewhere(const QString &ids)
{
    // One notification per run (migration 010): those that come together are read together.
    const bool first = m_runsToTell.isEmpty();
    for (const QString &text : ids.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 id = text.toLongLong(&ok);
        if (ok && !m_executions.contains(id))
            m_runsToTell.insert(id);
    }
    constexpr int gatherMs = 50;
    if (first && !m_runsToTell.isEmpty())
        QTimer::singleShot(gatherMs, this, &Engine::tellGatheredRuns);
}

void Engine::tellGatheredRuns()
{
    // Many at once (a bulk update, a takeover): the window reads its lists again instead.
    constexpr qsizetype manyRuns = 500;
    const QSet<qint64> gathered = std::exchange(m_runsToTell, {});
    if (gathered.size() > manyRuns) {
        Q_EMIT runsChangedElsewhere();
        return;
    }
    if (gathered.isEmpty() || !m_store || !m_store->isReachable())
        return;
    // Read now, so a state that changed again since is told as it is; a run already removed
    // (retention) is simply absent.
    const Result<QList<Run>> runs = RunRepository(*m_store).byIds(gathered.values());
    if (!runs)
        return; // a window misses a live update; its next reload shows the state
    for (const Run &run : runs.value()) {
        if (m_executions.contains(run.id))
            continue; // this engine's own since (a run now): its execution tells it
        const auto told = m_toldStates.constFind(run.id);
        if (told == m_toldStates.constEnd() || told.value() != run.state) {
            Q_EMIT runChanged(run);
            if (m_elsewhere && isTerminal(run.state))
                m_elsewhere->runEnded(run.id);
        }
    }
}

void Engine::watchElsewhere(const QString &payload)
{
    if (!m_elsewhere)
        return;
    if (payload == QLatin1String("logs"))
        m_elsewhere->linesWritten();
    else
        m_elsewhere->attemptsChanged();
}

} // namespace hg
