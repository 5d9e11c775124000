#pragma once

#include "base/result.h"
#include "domain/fence.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>

#include <optional>

namespace hg {

class Store;

struct RunFilter
{
    std::optional<qint64> chainId;
    std::optional<RunState> state;
    qint64 beforeId = 0; // keyset paging: only runs with a smaller id; 0 = from the newest
    std::optional<qint64> createdSinceMs; // only runs created at or after this
    int limit = 100;
};

// One page of the runs table for a view: filtered and sorted in SQL, continued by keyset
// (the sort value and id of the last row shown), so a store with millions of runs answers any
// page at once and never counts them.
struct RunPageQuery
{
    enum class SortKey { Id, ScheduledFor, StartedAt, Duration };
    std::optional<qint64> chainId;
    std::optional<RunState> state;
    std::optional<RunTrigger> trigger;
    SortKey sort = SortKey::Id;
    bool ascending = false;
    // Continue after this row (its sort value and id); nullopt: the first page.
    std::optional<std::pair<qint64, qint64>> after;
    int limit = 200;
};

// A run with what a list shows beside it, and the key to continue a page after it.
struct RunListing
{
    Run run;
    QString chainPath; // PROJECT/CHAIN
    qint64 sortValue = 0;
    // For a failed, timed out or interrupted run: its first failed attempt's task and error
    // ("load: exit code 3"); empty otherwise.
    QString failureReason;
};

// A run reduced to what a sparkline or a trend draws.
struct RunSummary
{
    qint64 id = 0;
    qint64 chainId = 0;
    RunState state = RunState::Queued;
    qint64 durationMs = -1; // -1: not finished (or never started)

    friend bool operator==(const RunSummary &, const RunSummary &) = default;
};

class RunRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunRepository)

public:
    explicit RunRepository(Store &store)
        : m_store(store)
    {}

    struct Inserted
    {
        Run run;
        bool created = false; // false: the fire already had its run
    };
    // One run per (schedule, fire time), however many engines try at once.
    // With an owner the new run is that engine session's at once (shared store: the engine
    // that made the fire's run runs it); without one any engine may claim it.
    Result<Inserted> insertScheduled(qint64 chainId, qint64 scheduleId, const QDateTime &fireTime,
                                     const Fence &owner = {}, const QString &engineName = {});
    // Manual, rerun, backfill and subchain runs (run.chainId, trigger, scheduledFor set).
    Result<Run> insert(const Run &run);
    Result<Run> byId(qint64 id) const;
    Result<QList<Run>> byIds(const QList<qint64> &ids) const; // those that exist, by id
    // Each chain's newest run (id and state), for status at a glance; chains never run are
    // absent. One indexed look-up per chain, however many runs there are.
    Result<QHash<qint64, std::pair<qint64, RunState>>> latestPerChain() const;
    // The newest `perChain` runs of every chain, oldest first within a chain: an indexed range
    // per chain (from its perChain-th newest id), never a walk over all runs. `onlyChains`:
    // those chains alone (a refresh after some runs ended), in one statement.
    Result<QHash<qint64, QList<RunSummary>>>
    recentPerChain(int perChain, const std::optional<QList<qint64>> &onlyChains = {}) const;
    // One chain's newest `count` runs, oldest first.
    Result<QList<RunSummary>> recentOfChain(qint64 chainId, int count) const;
    // RunListing::failureReason of one run, for a run that just ended.
    Result<QString> failureReason(qint64 runId) const;
    Status setBatch(qint64 runId, qint64 batchId);
    Result<QList<Run>> list(const RunFilter &filter) const;
    Result<QList<RunListing>> page(const RunPageQuery &query) const;
    // Persists a transition; started/finished times are set when the state implies them.
    Status setState(qint64 runId, RunState state, const QDateTime &at,
                    const QString &engineName = {});
    // The same, only while the run names this claim: false (nothing written) when it does not
    // or is gone, which RunOwnership::check() then tells apart. Saves that check's statement.
    Result<bool> setStateFenced(qint64 runId, RunState state, const QDateTime &at,
                                const QString &engineName, const Fence &fence);
    Result<int> countActive(qint64 chainId) const;

    struct ScheduleHistory
    {
        qint64 lastFireMs = -1;   // scheduled_for of the schedule's latest run
        qint64 lastFinishMs = -1; // when that run ended (for @after)
        bool unfinished = false;  // that run has not ended yet
    };
    Result<QHash<qint64, ScheduleHistory>>
    scheduleHistory(std::optional<qint64> chainId = std::nullopt) const;
    Result<QList<qint64>> idsInStates(const QList<RunState> &states) const;

private:
    Result<bool> writeState(qint64 runId, RunState state, const QDateTime &at,
                            const QString &engineName, const Fence *fence);

    Store &m_store;
};

} // namespace hg
