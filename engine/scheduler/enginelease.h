#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

class Store;

// The engine's session row: taken at start, renewed by every heartbeat, given up at the end.
// On SQLite one engine serves a file: any other engine's live lease refuses the start. On
// PostgreSQL engines of other names share the store; one of the same name is refused while
// its lease holds. A heartbeat that finds its session gone has lost the lease (another
// engine took over): the engine must stop.
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
    // Renews the lease and reports the load; false when the lease is lost.
    bool heartbeat(qint64 nowMs, int load);
    void release();

    bool isHeld() const { return m_sessionId > 0; }
    qint64 sessionId() const { return m_sessionId; }

private:
    Store &m_store;
    Options m_options;
    qint64 m_sessionId = 0;
};

} // namespace hg
