#pragma once

#include "base/result.h"
#include "domain/alert.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>

namespace hg {

class Store;

// Lateness and duration alerts: each chain's rules, the alerts raised, and the facts the
// engine judges by (recent durations, a success before a deadline).
class AlertRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::AlertRepository)

public:
    explicit AlertRepository(Store &store)
        : m_store(store)
    {}

    // No rules: all off (AlertRules{}).
    Result<AlertRules> rules(qint64 chainId) const;
    // Every chain that has rules: chain id -> its rules (a small table: one row per chain).
    Result<QHash<qint64, AlertRules>> all() const;
    // Rules that are all off remove the chain's row.
    Status setRules(qint64 chainId, const AlertRules &rules);

    Result<qint64> record(const Alert &alert);
    // The chain's alerts at [fromMs, toMs], oldest first.
    Result<QList<Alert>> list(qint64 chainId, qint64 fromMs, qint64 toMs) const;
    // The alerts of these runs: run id -> its alerts (the runs view marks them).
    Result<QHash<qint64, QList<Alert>>> forRuns(const QList<qint64> &runIds) const;

    // The durations of the chain's newest `count` succeeded runs before beforeRunId, newest
    // first.
    Result<QList<qint64>> recentDurations(qint64 chainId, qint64 beforeRunId, int count = 20) const;
    // Whether a run of the chain succeeded with its end in (fromMs, toMs].
    Result<bool> succeededBetween(qint64 chainId, qint64 fromMs, qint64 toMs) const;

private:
    Store &m_store;
};

} // namespace hg
