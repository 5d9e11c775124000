#pragma once

#include "base/result.h"
#include "domain/enginesession.h"
#include "domain/fence.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

class Store;

// The engine's session row: taken at start, renewed by every heartbeat, given up at the end.
// On SQLite one engine serves a file: any other engine's live lease refuses the start. On
// PostgreSQL engines of other names share the store; one of the same name is refused while
// its lease holds. A heartbeat that finds its session gone has lost the lease (another
// engine took over): the engine lets go of its runs and registers anew. Leases are judged by
// the database's clock on PostgreSQL, so the engines' own clocks need not agree.
//
// Every registration has a new epoch; with the session id it is the Fence of the runs the
// engine claims.
class EngineLease final
{
    Q_DECLARE_TR_FUNCTIONS(hg::EngineLease)

public:
    struct Options
    {
        QString name;
        int capacity = 0; // the engine's slots, shown to other engines
        int leaseMs = 0;
    };

    EngineLease(Store &store, Options options)
        : m_store(store)
        , m_options(std::move(options))
    {}
    ~EngineLease();
    Q_DISABLE_COPY_MOVE(EngineLease)

    Status acquire(qint64 nowMs);
    // Renews the lease and reports the load: Fenced when the lease is lost (the session was
    // taken over), Unavailable when the store cannot be reached.
    Status heartbeat(qint64 nowMs, int load);
    void release();
    // Lets go of the session without telling the store (it is gone, or cannot be reached).
    void forget() { m_fence = {}; }

    bool isHeld() const { return m_fence.isHeld(); }
    qint64 sessionId() const { return m_fence.sessionId; }
    const Fence &fence() const { return m_fence; }

private:
    Result<EngineSession> registerSession(qint64 nowMs);

    Store &m_store;
    Options m_options;
    Fence m_fence;
};

} // namespace hg
