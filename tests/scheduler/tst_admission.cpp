#include "scheduler/admission.h"

#include <QTest>

using namespace hg;

using ActiveRuns = QList<Admission::ActiveRun>;
using Candidates = QList<Admission::Candidate>;
using RunTasksList = QList<Admission::RunTasks>;
Q_DECLARE_METATYPE(Admission::Candidate)

// The admission policy alone: no store, no engine. Chains are numbered 1, 2, 3; chain 9 is
// exclusive wherever it appears.
class TestAdmission final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decide_data();
    void decide();
    void admit_countsEachAdmittedRunForTheNext_data();
    void admit_countsEachAdmittedRunForTheNext();
    void remove_freesWhatTheRunHeld_data();
    void remove_freesWhatTheRunHeld();
    void skipsFire_data();
    void skipsFire();
    void startTasks_data();
    void startTasks();
};

namespace {

Admission::ActiveRun active(qint64 runId, qint64 chainId, qint64 batchId = 0)
{
    return Admission::ActiveRun{runId, chainId, batchId, chainId == 9};
}

Admission::Candidate queued(qint64 runId, qint64 chainId, int maxInstances = 0)
{
    Admission::Candidate candidate;
    candidate.runId = runId;
    candidate.chainId = chainId;
    candidate.maxInstances = maxInstances;
    candidate.exclusive = chainId == 9;
    return candidate;
}

Admission::Candidate child(qint64 runId, qint64 chainId, qint64 parentRunId)
{
    Admission::Candidate candidate = queued(runId, chainId);
    candidate.parentRunId = parentRunId;
    return candidate;
}

Admission::Candidate batched(qint64 runId, qint64 batchId, int parallel)
{
    Admission::Candidate candidate = queued(runId, 1);
    candidate.batchId = batchId;
    candidate.batchParallel = parallel;
    return candidate;
}

Admission::ReadyTask task(qint64 id, bool takesSlot = true)
{
    return Admission::ReadyTask{id, takesSlot};
}

Admission::RunTasks run(qint64 runId, Priority priority, int slotsInUse,
                        QList<Admission::ReadyTask> ready, bool exclusive = false,
                        bool isChild = false)
{
    return Admission::RunTasks{runId, priority, exclusive, isChild, slotsInUse, ready};
}

} // namespace

void TestAdmission::decide_data()
{
    QTest::addColumn<ActiveRuns>("runs");
    QTest::addColumn<int>("maxActiveRuns");
    QTest::addColumn<Admission::Candidate>("candidate");
    QTest::addColumn<int>("verdict");
    using V = Admission::Verdict;
    QTest::newRow("nothing active") << ActiveRuns{} << 4 << queued(10, 1) << int(V::Admit);
    QTest::newRow("max active runs reached")
        << ActiveRuns{active(1, 1), active(2, 2)} << 2 << queued(10, 3) << int(V::Full);
    QTest::newRow("below max active runs")
        << ActiveRuns{active(1, 1)} << 2 << queued(10, 3) << int(V::Admit);
    QTest::newRow("an exclusive chain runs")
        << ActiveRuns{active(1, 9)} << 4 << queued(10, 1) << int(V::Exclusive);
    QTest::newRow("an exclusive chain runs: a child of it is admitted")
        << ActiveRuns{active(1, 9)} << 4 << child(10, 1, 1) << int(V::Admit);
    QTest::newRow("an exclusive chain runs: a child of another active run is admitted")
        << ActiveRuns{active(1, 9), active(2, 2)} << 4 << child(10, 1, 2) << int(V::Admit);
    QTest::newRow("an exclusive chain runs: a child of a run not active waits")
        << ActiveRuns{active(1, 9)} << 4 << child(10, 1, 7) << int(V::Exclusive);
    QTest::newRow("exclusive candidate while anything runs")
        << ActiveRuns{active(1, 1)} << 4 << queued(10, 9) << int(V::Exclusive);
    QTest::newRow("exclusive candidate alone")
        << ActiveRuns{} << 4 << queued(10, 9) << int(V::Admit);
    QTest::newRow("exclusive candidate, child of an active run")
        << ActiveRuns{active(1, 1)} << 4 << child(10, 9, 1) << int(V::Admit);
    QTest::newRow("max_instances reached")
        << ActiveRuns{active(1, 1), active(2, 2)} << 4 << queued(10, 1, 1) << int(V::MaxInstances);
    QTest::newRow("max_instances not reached")
        << ActiveRuns{active(1, 1), active(2, 2)} << 4 << queued(10, 1, 2) << int(V::Admit);
    QTest::newRow("max_instances counts this chain only")
        << ActiveRuns{active(1, 2), active(2, 2)} << 4 << queued(10, 1, 1) << int(V::Admit);
    QTest::newRow("max_instances 0 is no limit")
        << ActiveRuns{active(1, 1), active(2, 1), active(3, 1)} << 4 << queued(10, 1, 0)
        << int(V::Admit);
    QTest::newRow("batch at batch_parallel") << ActiveRuns{active(1, 1, 5), active(2, 1, 5)} << 4
                                             << batched(10, 5, 2) << int(V::BatchParallel);
    QTest::newRow("batch below batch_parallel, other batch ignored")
        << ActiveRuns{active(1, 1, 5), active(2, 1, 6)} << 4 << batched(10, 5, 2) << int(V::Admit);
    QTest::newRow("batch_parallel 0 is no limit")
        << ActiveRuns{active(1, 1, 5), active(2, 1, 5)} << 4 << batched(10, 5, 0) << int(V::Admit);
    QTest::newRow("full wins over every other reason")
        << ActiveRuns{active(1, 9)} << 1 << queued(10, 1, 1) << int(V::Full);
}

void TestAdmission::decide()
{
    QFETCH(ActiveRuns, runs);
    QFETCH(int, maxActiveRuns);
    QFETCH(Admission::Candidate, candidate);
    Admission admission(maxActiveRuns);
    for (const Admission::ActiveRun &r : runs)
        admission.add(r);
    QTEST(int(admission.decide(candidate)), "verdict");
}

void TestAdmission::admit_countsEachAdmittedRunForTheNext_data()
{
    QTest::addColumn<ActiveRuns>("runs");
    QTest::addColumn<int>("maxActiveRuns");
    QTest::addColumn<Candidates>("queue");
    QTest::addColumn<QList<qint64>>("admitted");
    QTest::newRow("max_instances 1: the second run of the chain waits, others pass it")
        << ActiveRuns{} << 8 << Candidates{queued(10, 1, 1), queued(11, 1, 1), queued(12, 2)}
        << QList<qint64>{10, 12};
    QTest::newRow("an exclusive chain behind others waits; the one after it still starts")
        << ActiveRuns{} << 8 << Candidates{queued(10, 1), queued(11, 9), queued(12, 2)}
        << QList<qint64>{10, 12};
    QTest::newRow("an exclusive chain first: nothing after it")
        << ActiveRuns{} << 8 << Candidates{queued(10, 9), queued(11, 1), child(12, 2, 10)}
        << QList<qint64>{10, 12};
    QTest::newRow("max active runs stops the pass")
        << ActiveRuns{active(1, 3)} << 3 << Candidates{queued(10, 1), queued(11, 2), queued(12, 2)}
        << QList<qint64>{10, 11};
    QTest::newRow("a batch in its order, two at a time")
        << ActiveRuns{} << 8
        << Candidates{batched(10, 10, 2), batched(11, 10, 2), batched(12, 10, 2)}
        << QList<qint64>{10, 11};
    QTest::newRow("already full") << ActiveRuns{active(1, 1)} << 1 << Candidates{queued(10, 2)}
                                  << QList<qint64>{};
}

void TestAdmission::admit_countsEachAdmittedRunForTheNext()
{
    QFETCH(ActiveRuns, runs);
    QFETCH(int, maxActiveRuns);
    QFETCH(Candidates, queue);
    Admission admission(maxActiveRuns);
    for (const Admission::ActiveRun &r : runs)
        admission.add(r);
    QTEST(admission.admit(queue), "admitted");
}

// The engine keeps one Admission as runs start and end: after a run ends, the limits it held
// are free again, exactly as if it had never been counted.
void TestAdmission::remove_freesWhatTheRunHeld_data()
{
    QTest::addColumn<ActiveRuns>("runs");
    QTest::addColumn<qint64>("ended");
    QTest::addColumn<Admission::Candidate>("candidate");
    QTest::addColumn<int>("before");
    QTest::addColumn<int>("after");
    const int admit = int(Admission::Verdict::Admit);
    QTest::newRow("max_instances")
        << ActiveRuns{active(1, 1), active(2, 2)} << qint64(1) << queued(3, 1, 1)
        << int(Admission::Verdict::MaxInstances) << admit;
    QTest::newRow("exclusive") << ActiveRuns{active(1, 9)} << qint64(1) << queued(2, 1)
                               << int(Admission::Verdict::Exclusive) << admit;
    QTest::newRow("batch") << ActiveRuns{active(1, 1, 7)} << qint64(1) << batched(2, 7, 1)
                           << int(Admission::Verdict::BatchParallel) << admit;
    QTest::newRow("full") << ActiveRuns{active(1, 1), active(2, 2), active(4, 4)} << qint64(2)
                          << queued(3, 3) << int(Admission::Verdict::Full) << admit;
    QTest::newRow("another run ended")
        << ActiveRuns{active(1, 1), active(2, 2)} << qint64(2) << queued(3, 1, 1)
        << int(Admission::Verdict::MaxInstances) << int(Admission::Verdict::MaxInstances);
    QTest::newRow("unknown run") << ActiveRuns{active(1, 9)} << qint64(5) << queued(2, 1)
                                 << int(Admission::Verdict::Exclusive)
                                 << int(Admission::Verdict::Exclusive);
}

void TestAdmission::remove_freesWhatTheRunHeld()
{
    QFETCH(ActiveRuns, runs);
    QFETCH(qint64, ended);
    QFETCH(Admission::Candidate, candidate);
    Admission admission(3);
    for (const Admission::ActiveRun &r : runs)
        admission.add(r);
    QTEST(int(admission.decide(candidate)), "before");
    admission.remove(ended);
    QTEST(int(admission.decide(candidate)), "after");
}

void TestAdmission::skipsFire_data()
{
    QTest::addColumn<int>("overlap");
    QTest::addColumn<int>("maxInstances");
    QTest::addColumn<int>("activeOfChain");
    QTest::addColumn<bool>("skipped");
    QTest::newRow("skip at the limit") << int(OverlapPolicy::Skip) << 1 << 1 << true;
    QTest::newRow("skip above the limit") << int(OverlapPolicy::Skip) << 1 << 2 << true;
    QTest::newRow("skip below the limit") << int(OverlapPolicy::Skip) << 2 << 1 << false;
    QTest::newRow("skip without a limit") << int(OverlapPolicy::Skip) << 0 << 3 << false;
    QTest::newRow("queue at the limit: queued, not skipped")
        << int(OverlapPolicy::Queue) << 1 << 1 << false;
}

void TestAdmission::skipsFire()
{
    QFETCH(int, overlap);
    QFETCH(int, maxInstances);
    QFETCH(int, activeOfChain);
    Chain chain;
    chain.id = 1;
    chain.overlap = OverlapPolicy(overlap);
    chain.maxInstances = maxInstances;
    Admission admission(100);
    admission.add(active(100, 2)); // another chain's run never counts
    for (int i = 0; i < activeOfChain; ++i)
        admission.add(active(i + 1, 1));
    QTEST(admission.skipsFire(chain), "skipped");
}

void TestAdmission::startTasks_data()
{
    QTest::addColumn<RunTasksList>("runs");
    QTest::addColumn<int>("slotCount");
    QTest::addColumn<QStringList>("starts"); // "run:task" in start order
    QTest::newRow("free slots: everything ready, in the run's order")
        << RunTasksList{run(1, Priority::Medium, 0, {task(3), task(1), task(2)})} << 4
        << QStringList{QStringLiteral("1:3"), QStringLiteral("1:1"), QStringLiteral("1:2")};
    QTest::newRow("chain priority first, then the older run")
        << RunTasksList{run(3, Priority::Medium, 0, {task(30)}),
                        run(2, Priority::Low, 0, {task(20)}),
                        run(5, Priority::Highest, 0, {task(50)}),
                        run(1, Priority::Medium, 0, {task(10)})}
        << 3 << QStringList{QStringLiteral("5:50"), QStringLiteral("1:10"), QStringLiteral("3:30")};
    QTest::newRow("slots in use count, in every run")
        << RunTasksList{run(1, Priority::Medium, 1, {task(10)}),
                        run(2, Priority::Medium, 1, {task(20), task(21)})}
        << 3 << QStringList{QStringLiteral("1:10")};
    QTest::newRow("all slots in use: nothing starts")
        << RunTasksList{run(1, Priority::Medium, 2, {task(10)})} << 2 << QStringList{};
    QTest::newRow("a SUBCHAIN task takes no slot")
        << RunTasksList{run(1, Priority::Medium, 0, {task(10, false), task(11), task(12)})} << 1
        << QStringList{QStringLiteral("1:10"), QStringLiteral("1:11")};
    QTest::newRow("a full engine starts no SUBCHAIN task either")
        << RunTasksList{run(1, Priority::Medium, 1, {task(10, false)})} << 1 << QStringList{};
    QTest::newRow("an exclusive run: only it and child runs get slots")
        << RunTasksList{run(1, Priority::Highest, 0, {task(10)}),
                        run(2, Priority::Low, 0, {task(20)}, true),
                        run(3, Priority::Lowest, 0, {task(30)}, false, true)}
        << 4 << QStringList{QStringLiteral("2:20"), QStringLiteral("3:30")};
    QTest::newRow("no slots at all")
        << RunTasksList{run(1, Priority::Medium, 0, {task(10)})} << 0 << QStringList{};
}

void TestAdmission::startTasks()
{
    QFETCH(RunTasksList, runs);
    QFETCH(int, slotCount);
    QStringList starts;
    for (const Admission::TaskStart &start : Admission::startTasks(runs, slotCount))
        starts << QStringLiteral("%1:%2").arg(start.runId).arg(start.taskId);
    QTEST(starts, "starts");
}

QTEST_GUILESS_MAIN(TestAdmission)
#include "tst_admission.moc"
