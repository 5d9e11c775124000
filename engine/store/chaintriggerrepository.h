#pragma once

#include "base/result.h"
#include "domain/chaintrigger.h"

#include <QCoreApplication>
#include <QList>

#include <optional>

namespace hg {

class Store;

// The chain triggers (ChainTrigger). Adding one that would close a cycle of triggers
// (A starts B starts A) is refused, naming the cycle: each end would start the next for good.
class ChainTriggerRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ChainTriggerRepository)

public:
    explicit ChainTriggerRepository(Store &store)
        : m_store(store)
    {}

    // Checked: upstreams named, none the chain itself, none twice, at most 50; the window
    // only with several upstreams, from 1 s to 30 days; none alike the chain has already.
    Result<ChainTrigger> add(const ChainTrigger &trigger);
    // Every trigger, or those that start the chain.
    Result<QList<ChainTrigger>> list(std::optional<qint64> chainId = std::nullopt) const;
    Result<ChainTrigger> byId(qint64 id) const;
    // Other chains' triggers that wait for runs of this chain (removed with it).
    Result<QList<ChainTrigger>> waitingFor(qint64 chainId) const;
    Status remove(qint64 id);
    Status setPaused(qint64 id, bool paused);
    // A file or desktop trigger's settings (JSON, as its spec writes them) replaced.
    Status setSettings(qint64 id, const QString &settings);
    // What the watching engine says of a file trigger ("" all is well); written when it
    // changes only.
    Status setWatchNote(qint64 id, const QString &note);

private:
    // Refused: a trigger of the chain with the same settings (paused or not).
    Status refuseTwin(const ChainTrigger &trigger) const;
    // A file or desktop trigger: its settings checked; on a shared store its chain must name
    // the engine that watches it.
    Result<ChainTrigger> addWatched(const ChainTrigger &trigger);
    // Webhook: its settings checked; any engine's API answers it.
    Result<ChainTrigger> addWebhook(const ChainTrigger &trigger);
    // The chains `from` starts, through triggers, as far as they go: the path back to
    // `target` when one is reached.
    Result<QStringList> pathOfTriggers(qint64 from, qint64 target) const;

    Store &m_store;
};

} // namespace hg
