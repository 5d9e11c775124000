#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/occurrence.h"
#include "domain/run.h"
#include "domain/schedule.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QTimeZone>

#include <optional>

namespace hg {

class Store;

// The missed-runs inbox (misfire policy ask): what waits, per chain, and the user's decision
// on a chain's waiting fire times — run them all (oldest first, N at once) as a backfill
// batch, run the latest only, or dismiss them — optionally kept as the schedules' misfire
// policy from then on. The command line and the GUI decide through this one place.
class MissedRunsInbox final
{
    Q_DECLARE_TR_FUNCTIONS(hg::MissedRunsInbox)

public:
    struct Waiting
    {
        qint64 chainId = 0;
        qint64 count = 0; // fire times, not rows
        qint64 firstMs = 0;
        qint64 lastMs = 0;
        OccurrenceCause cause = OccurrenceCause::None; // of the latest row
    };
    enum class Choice { RunAll, RunLatest, Dismiss };
    struct Decision
    {
        Choice choice = Choice::RunAll;
        int parallel = 1; // RunAll: runs at once; 1 is one after another
        bool keep = false;
    };
    struct Decided
    {
        QList<Run> runs; // in the order they start
        std::optional<MisfirePolicy> kept;
    };

    explicit MissedRunsInbox(Store &store, const QTimeZone &zone = QTimeZone::systemTimeZone())
        : m_store(store)
        , m_zone(zone)
    {}

    // Every chain with fire times waiting, by chain id.
    Result<QList<Waiting>> waiting() const;
    Result<Waiting> waiting(qint64 chainId) const;
    // In one transaction: the runs queued, the rows marked, the policy kept. An error names
    // why nothing was done (nothing waits; more than Backfill::maxRuns to run at once).
    Result<Decided> decide(const Chain &chain, const Decision &decision);

    // The fire times an inbox row stands for, as its schedule computes them now (at most
    // Backfill::maxRuns + 1, so a caller can tell there are too many).
    QList<qint64> fireTimesOf(const Occurrence &row,
                              const QHash<qint64, Schedule> &schedules) const;
    // The policy a kept decision becomes.
    static MisfirePolicy policyOf(Choice choice);

private:
    Store &m_store;
    QTimeZone m_zone;
};

} // namespace hg
