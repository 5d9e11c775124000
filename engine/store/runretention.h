#pragma once

#include "base/result.h"
#include "domain/enums.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>

#include <optional>

namespace hg {

class Store;

// Which finished runs the chains' retention limits (Chain::retention) let go, and their
// removal: a run's attempts and log lines go with it (ON DELETE CASCADE). Work comes in
// batches, each its own short transaction, so a large backlog never holds up the engines'
// claims. On PostgreSQL one engine at a time applies it (an advisory lock it only tries).
class RunRetention final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunRetention)

public:
    explicit RunRetention(Store &store)
        : m_store(store)
    {}

    struct Expired
    {
        qint64 runId = 0;
        qint64 chainId = 0;
        RunState state = RunState::Succeeded;
        QDateTime finishedAt;
    };
    // The oldest runs due to go now, at most `limit`; of one chain, or of all.
    Result<QList<Expired>> due(qint64 nowMs, std::optional<qint64> chainId, int limit) const;
    // Removes one batch of what is due; how many runs went. 0 also when another engine holds
    // the retention lock right now.
    Result<int> applyBatch(qint64 nowMs, std::optional<qint64> chainId, int limit);
    // Removes these runs, found due by due() (the engine reads once and removes in batches).
    Result<int> remove(const QList<qint64> &runIds);

private:
    Result<QList<Expired>> dueOfChain(qint64 nowMs, qint64 chainId, int limit) const;

    Store &m_store;
};

} // namespace hg
