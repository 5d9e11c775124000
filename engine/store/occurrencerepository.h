#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/occurrence.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>

#include <optional>

namespace hg {

class Store;

// The occurrence ledger's rows (every outcome of a fire time but a run) and the runs that
// are the ledger's "ran" entries, read side by side.
class OccurrenceRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::OccurrenceRepository)

public:
    explicit OccurrenceRepository(Store &store)
        : m_store(store)
    {}

    // A new row; its id.
    Result<qint64> insert(const Occurrence &occurrence);
    // Consecutive fire times of the same outcome join the row (collapsing).
    Status extend(qint64 id, qint64 lastFireMs, qint64 addCount);

    // The chain's ledger rows and scheduled runs whose fire times reach into [fromMs, toMs],
    // oldest first; runs are Ran entries of one fire time each. limit > 0: only the latest
    // that many entries (an every-second schedule has 86,400 runs a day; a strip shows 60).
    Result<QList<Occurrence>> list(qint64 chainId, qint64 fromMs, qint64 toMs, int limit = 0) const;
    // The same for every chain in two statements (not two per chain: 10,000 chains on a
    // server 20 ms away), the limit applied to each chain; oldest first.
    Result<QList<Occurrence>> listEveryChain(qint64 fromMs, qint64 toMs, int perChain = 0) const;

    // The latest fire time each schedule's ledger rows account for: a fire skipped or
    // missed is not missed again when the engine loads the schedule anew.
    Result<QHash<qint64, qint64>> lastAccounted(std::optional<qint64> chainId = {}) const;

    // The missed-runs inbox: rows waiting for a decision, of one chain or of all, oldest first.
    Result<QList<Occurrence>> pending(std::optional<qint64> chainId = {}) const;
    Result<qint64> pendingCount() const;
    // Decides the rows still pending: how many were (fewer than asked when another decision
    // took some first; the caller rolls back). The first statement of the deciding
    // transaction, so two decisions at once are one after the other.
    Result<int> decide(const QList<qint64> &ids, InboxState decision);
    Status setRun(const QList<qint64> &ids, qint64 runId); // the decision's first run

    // Retention: the chain's rows whose last fire time is before beforeMs go, and its alerts
    // from before it; how many.
    Result<int> removeBefore(qint64 chainId, qint64 beforeMs);
    // The chain's retention applied to its rows as to its runs: rows older than its days
    // (the longer of its two), and with a run count, older than its oldest run kept.
    Result<int> applyRetention(const Chain &chain, qint64 nowMs);

private:
    Result<QList<Occurrence>> read(std::optional<qint64> chainId, qint64 fromMs, qint64 toMs,
                                   int limit) const;

    Store &m_store;
};

} // namespace hg
