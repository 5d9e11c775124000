#pragma once

#include "domain/command.h"

#include <QSet>
#include <QString>

#include <functional>
#include <optional>

namespace hg {

class Store;

// The command table as an engine reads it: claims the oldest commands this engine may run,
// applies each through the handlers the engine fills in, and marks it done, with the reason
// when it was refused (a stop for a run that is not active, a pause for one not running).
class CommandPump final
{
public:
    // At most this many commands per pump: a flood of commands cannot starve the rest of
    // the engine's event loop.
    static constexpr int batchLimit = 100;

    struct Handlers
    {
        // Queue the run (start, rerun, backfill); onlyTasks: rerun-failed's tasks to run.
        std::function<void(qint64 runId, const std::optional<QSet<qint64>> &onlyTasks)> admit;
        // False when the run is neither running nor queued.
        std::function<bool(qint64 runId)> stop;
        // False when the run is not running.
        std::function<bool(qint64 runId)> pause;
        std::function<bool(qint64 runId)> resume;
    };

    CommandPump(Store &store, QString engineName, Handlers handlers)
        : m_store(store)
        , m_engineName(std::move(engineName))
        , m_handlers(std::move(handlers))
    {}

    // The engine's session: a command about a run another session owns is left for that one.
    void setSessionId(qint64 sessionId) { m_sessionId = sessionId; }
    // Only commands about the runs this engine owns (the engine of one `run --wait`).
    void setOwnRunsOnly(bool only) { m_ownRunsOnly = only; }
    // Claims and applies what is waiting; how many commands it applied.
    int pump();
    // Applies one command; the error to record, empty when it was done.
    QString apply(const Command &command) const;

private:
    Store &m_store;
    QString m_engineName;
    qint64 m_sessionId = 0;
    bool m_ownRunsOnly = false;
    Handlers m_handlers;
};

} // namespace hg
