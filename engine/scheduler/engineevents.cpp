// Engine: run events from other engines on a shared PostgreSQL store (migration 009).

#include "elsewherewatch.h"
#include "engine.h"
#include "store/runrepository.h"
#include "store/store.h"

namespace hg {

void Engine::tellRunsFromElsewhere(const QString &ids)
{
    if (ids == QLatin1String("*")) {
        Q_EMIT runsChangedElsewhere();
        return;
    }
    QList<qint64> wanted;
    for (const QString &text : ids.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 id = text.toLongLong(&ok);
        if (ok && !m_executions.contains(id))
            wanted << id;
    }
    if (wanted.isEmpty() || !m_store->isReachable())
        return;
    // Read now, so a state that changed again since is told as it is; a run already removed
    // (retention) is simply absent.
    const Result<QList<Run>> runs = RunRepository(*m_store).byIds(wanted);
    if (!runs)
        return; // a window misses a live update; its next reload shows the state
    for (const Run &run : runs.value()) {
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
