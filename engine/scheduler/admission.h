#pragma once

#include "domain/chain.h"
#include "domain/enums.h"
#include "domain/run.h"

#include <QHash>
#include <QList>

namespace hg {

// Which queued runs may start now, and which ready tasks get the engine's slots. A decision
// only: the caller says what is active and what waits, nothing here reads a store or starts
// anything, so every engine of a shared store can decide from the same facts.
//
// A run is admitted unless: the engine already has maxActiveRuns active; an exclusive chain
// runs (nothing runs beside it but the child runs its SUBCHAIN tasks wait for) or the run's
// own chain is exclusive and anything runs; its chain has max_instances runs active; or it
// belongs to a backfill batch that has batch_parallel runs active.
class Admission final
{
public:
    // A run the engine has admitted and not yet seen end.
    struct ActiveRun
    {
        qint64 runId = 0;
        qint64 chainId = 0;
        qint64 batchId = 0;
        bool exclusive = false; // its chain's exclusive_execution
    };
    // A queued run with the limits of its chain.
    struct Candidate
    {
        qint64 runId = 0;
        qint64 chainId = 0;
        qint64 parentRunId = 0;
        qint64 batchId = 0;
        int batchParallel = 0;
        int maxInstances = 0; // 0: no limit
        bool exclusive = false;
    };
    enum class Verdict { Admit, Full, Exclusive, MaxInstances, BatchParallel };

    static ActiveRun activeRun(const Run &run, const Chain &chain);
    static Candidate candidate(const Run &run, const Chain &chain);

    explicit Admission(int maxActiveRuns)
        : m_maxActiveRuns(maxActiveRuns)
    {}

    // Counts a run as active (one the engine has, or one just admitted).
    void add(const ActiveRun &run);
    // Forgets a run that ended (a run it does not count is ignored).
    void remove(qint64 runId);
    // Runs that other engines of a shared store have admitted, as counted in the store just
    // now: they count against max_instances, exclusive execution and backfill batches, never
    // against this engine's maxActiveRuns. Replaces what the last call said.
    struct Elsewhere
    {
        qint64 chainId = 0;
        qint64 batchId = 0;
        bool exclusive = false;
        int count = 0;
    };
    void setElsewhere(const QList<Elsewhere> &runs);
    qsizetype activeCount() const { return m_active.size(); }
    bool isFull() const { return m_active.size() >= m_maxActiveRuns; }
    int instancesOf(qint64 chainId) const;

    Verdict decide(const Candidate &candidate) const;
    // A schedule's fire of a chain whose overlap policy is skip is dropped, not queued, while
    // the chain has max_instances runs active.
    bool skipsFire(const Chain &chain) const;
    // The queue in its order: the runs to admit now, each counted as active for the next.
    QList<qint64> admit(const QList<Candidate> &queue);

    // Task slots. A run's ready tasks come best first; a SUBCHAIN task takes no slot (it only
    // waits for its child run, and holding a slot could starve that child).
    struct ReadyTask
    {
        qint64 taskId = 0;
        bool takesSlot = true;
    };
    struct RunTasks
    {
        qint64 runId = 0;
        Priority priority = Priority::Medium; // the chain's
        bool exclusive = false;
        bool child = false; // a SUBCHAIN task's run
        int slotsInUse = 0;
        QList<ReadyTask> ready;
    };
    struct TaskStart
    {
        qint64 runId = 0;
        qint64 taskId = 0;
        friend bool operator==(const TaskStart &, const TaskStart &) = default;
    };
    // The tasks to start while slots last: runs by chain priority, then oldest run first;
    // while an exclusive chain runs, only it and child runs get slots.
    static QList<TaskStart> startTasks(QList<RunTasks> runs, int slotCount);

private:
    int m_maxActiveRuns = 0;
    QHash<qint64, ActiveRun> m_active; // by run id
    QHash<qint64, int> m_instances;    // chain id -> active runs
    QHash<qint64, int> m_batches;      // batch id -> active runs
    int m_exclusiveActive = 0;
    QHash<qint64, int> m_instancesElsewhere; // chain id -> runs other engines have admitted
    QHash<qint64, int> m_batchesElsewhere;
    int m_exclusiveElsewhere = 0;
    int m_activeElsewhere = 0;
};

} // namespace hg
