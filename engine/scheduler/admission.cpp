#include "admission.h"

#include <algorithm>

namespace hg {

Admission::ActiveRun Admission::activeRun(const Run &run, const Chain &chain)
{
    return ActiveRun{run.id, chain.id, run.batchId, chain.exclusive};
}

Admission::Candidate Admission::candidate(const Run &run, const Chain &chain)
{
    return Candidate{run.id,         chain.id,          run.parentRunId,
                     run.batchId,    run.batchParallel, chain.maxInstances,
                     chain.exclusive};
}

void Admission::add(const ActiveRun &run)
{
    if (m_active.contains(run.runId))
        return;
    m_active.insert(run.runId, run);
    ++m_instances[run.chainId];
    if (run.batchId > 0)
        ++m_batches[run.batchId];
    m_exclusiveActive += run.exclusive ? 1 : 0;
}

void Admission::remove(qint64 runId)
{
    const auto found = m_active.constFind(runId);
    if (found == m_active.constEnd())
        return;
    const ActiveRun run = found.value();
    m_active.erase(found);
    if (--m_instances[run.chainId] <= 0)
        m_instances.remove(run.chainId);
    if (run.batchId > 0 && --m_batches[run.batchId] <= 0)
        m_batches.remove(run.batchId);
    m_exclusiveActive -= run.exclusive ? 1 : 0;
}

void Admission::setElsewhere(const QList<Elsewhere> &runs)
{
    m_instancesElsewhere.clear();
    m_batchesElsewhere.clear();
    m_exclusiveElsewhere = 0;
    m_activeElsewhere = 0;
    for (const Elsewhere &run : runs) {
        m_instancesElsewhere[run.chainId] += run.count;
        if (run.batchId > 0)
            m_batchesElsewhere[run.batchId] += run.count;
        m_exclusiveElsewhere += run.exclusive ? run.count : 0;
        m_activeElsewhere += run.count;
    }
}

int Admission::instancesOf(qint64 chainId) const
{
    return m_instances.value(chainId) + m_instancesElsewhere.value(chainId);
}

Admission::Verdict Admission::decide(const Candidate &candidate) const
{
    if (isFull())
        return Verdict::Full;
    const bool childOfActive =
        candidate.parentRunId > 0 && m_active.contains(candidate.parentRunId);
    const bool anythingActive = !m_active.isEmpty() || m_activeElsewhere > 0;
    if (!childOfActive
        && (m_exclusiveActive + m_exclusiveElsewhere > 0
            || (candidate.exclusive && anythingActive)))
        return Verdict::Exclusive;
    if (candidate.maxInstances > 0 && instancesOf(candidate.chainId) >= candidate.maxInstances)
        return Verdict::MaxInstances;
    // A backfill batch starts in the order it was asked for, at most batch_parallel at once.
    if (candidate.batchId > 0 && candidate.batchParallel > 0
        && m_batches.value(candidate.batchId) + m_batchesElsewhere.value(candidate.batchId)
               >= candidate.batchParallel)
        return Verdict::BatchParallel;
    return Verdict::Admit;
}

bool Admission::skipsFire(const Chain &chain) const
{
    return chain.maxInstances > 0 && chain.overlap == OverlapPolicy::Skip
           && instancesOf(chain.id) >= chain.maxInstances;
}

QList<qint64> Admission::admit(const QList<Candidate> &queue)
{
    QList<qint64> admitted;
    for (const Candidate &candidate : queue) {
        if (isFull())
            break;
        if (decide(candidate) != Verdict::Admit)
            continue;
        add(ActiveRun{candidate.runId, candidate.chainId, candidate.batchId, candidate.exclusive});
        admitted << candidate.runId;
    }
    return admitted;
}

QList<Admission::TaskStart> Admission::startTasks(QList<RunTasks> runs, int slotCount)
{
    int running = 0;
    bool exclusive = false;
    for (const RunTasks &run : std::as_const(runs)) {
        running += run.slotsInUse;
        exclusive = exclusive || run.exclusive;
    }
    std::sort(runs.begin(), runs.end(), [](const RunTasks &a, const RunTasks &b) {
        if (a.priority != b.priority)
            return int(a.priority) < int(b.priority); // Highest = 0 ... Lowest = 4
        return a.runId < b.runId;
    });
    QList<TaskStart> starts;
    for (const RunTasks &run : std::as_const(runs)) {
        if (exclusive && !run.exclusive && !run.child)
            continue;
        for (const ReadyTask &task : run.ready) {
            // Checked before any task, a SUBCHAIN one too: a full engine starts nothing.
            if (running >= slotCount)
                return starts;
            starts << TaskStart{run.runId, task.taskId};
            running += task.takesSlot ? 1 : 0;
        }
    }
    return starts;
}

} // namespace hg
