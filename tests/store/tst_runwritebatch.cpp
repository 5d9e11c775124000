#include "fixtures.h"
#include "scheduler/runrecorder.h"
#include "store/chainrepository.h"
#include "store/runownership.h"
#include "store/runrepository.h"
#include "store/runwritebatch.h"
#include "store/taskrunoffers.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSignalSpy>
#include <QSqlQuery>
#include <QTest>

using namespace hg;

// Registered for PostgreSQL alone (tests/store/CMakeLists.txt): SQLite writes a row a statement.
#define REQUIRE_POSTGRESQL(t)                                                                      \
    QVERIFY2((t).store().backend() == StoreBackend::PostgreSql,                                    \
             "run with HOURGLASS_TEST_BACKEND=postgresql: the batch is PostgreSQL's alone")

// Many runs' writes in one statement each (PostgreSQL), fenced as the single-row writes are:
// a run another engine took over is left alone, and says so. The recorder keeps an engine's
// writes back to the end of their transaction, and anything else read in it first sees them.
class TestRunWriteBatch final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writeRuns_claimsAndStatesOnlyWhereAllowed();
    void lockQueued_locksWithoutWritingAndNeverTwice();
    void taskRuns_insertedAndUpdatedOnlyForOwnRunsAndNewAttempts();
    void recorder_keptBackWritesAreSeenByTheNextStatement();
    void recorder_keptBackWriteOnATakenOverRunIsRefusedAndTold();
    void recorder_attemptStoredBeforeIsRefusedThenTakenOver();
    void recorder_attemptAWorkerClaimedIsFollowedNeverWrittenOver();

private:
    struct Claimed
    {
        QList<qint64> mine;
        qint64 theirs = 0;
        qint64 taskId = 0;
        qint64 chainId = 0;
    };
    // Three runs claimed by session 1, one by session 2.
    static Claimed claimRuns(Store &store);
    static TaskRun attempt(qint64 runId, qint64 taskId, int number);
    static const Fence mine;
};

const Fence TestRunWriteBatch::mine{1, 1};

TestRunWriteBatch::Claimed TestRunWriteBatch::claimRuns(Store &store)
{
    Claimed claimed;
    const Chain chain = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c"));
    claimed.taskId = test::makeTask(store, chain.id, QStringLiteral("t")).id;
    claimed.chainId = chain.id;
    for (int i = 0; i < 3; ++i)
        claimed.mine << test::queueRun(store, chain.id).id;
    claimed.theirs = test::queueRun(store, chain.id).id;
    RunOwnership ownership(store);
    for (qint64 id : claimed.mine)
        (void)ownership.claim(id, mine, QStringLiteral("me"));
    (void)ownership.claim(claimed.theirs, {2, 1}, QStringLiteral("them"));
    return claimed;
}

TaskRun TestRunWriteBatch::attempt(qint64 runId, qint64 taskId, int number)
{
    TaskRun row;
    row.runId = runId;
    row.taskId = taskId;
    row.attempt = number;
    row.state = RunState::Running;
    row.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    return row;
}

void TestRunWriteBatch::writeRuns_claimsAndStatesOnlyWhereAllowed()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Claimed runs = claimRuns(t.store());
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    const Chain chain = ChainRepository(t.store()).byId(runs.chainId).value();
    const qint64 unowned = test::queueRun(t.store(), chain.id).id;
    const qint64 alsoUnowned = test::queueRun(t.store(), chain.id).id;
    const Result<QSet<qint64>> written = RunWriteBatch(t.store()).writeRuns(
        {{runs.mine[0], false, RunState::Running, at, QStringLiteral("me")},
         {runs.mine[1], false, RunState::Failed, at.addSecs(5), QString()},
         {runs.theirs, false, RunState::Running, at, QStringLiteral("me")},
         {unowned, true, RunState::Running, at, QStringLiteral("me")},
         {alsoUnowned, true, std::nullopt, {}, QStringLiteral("me")},
         {runs.theirs, true, std::nullopt, {}, QStringLiteral("me")}},
        mine);
    QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
    QCOMPARE(written.value(), (QSet<qint64>{runs.mine[0], runs.mine[1], unowned, alsoUnowned}));
    RunRepository repository(t.store());
    const Run started = repository.byId(runs.mine[0]).value();
    QCOMPARE(started.state, RunState::Running);
    QCOMPARE(started.startedAt, at);
    QVERIFY(!started.finishedAt.isValid());
    const Run ended = repository.byId(runs.mine[1]).value();
    QCOMPARE(ended.state, RunState::Failed);
    QCOMPARE(ended.finishedAt, at.addSecs(5));
    QCOMPARE(ended.engineName, QStringLiteral("me")); // an empty name keeps the claimant's
    QCOMPARE(repository.byId(runs.theirs)->state, RunState::Queued);
    // Claimed and started by one row update; claimed only, it stays queued.
    const Run claimedAndStarted = repository.byId(unowned).value();
    QCOMPARE(claimedAndStarted.state, RunState::Running);
    QCOMPARE(claimedAndStarted.startedAt, at);
    QCOMPARE(claimedAndStarted.engineName, QStringLiteral("me"));
    QVERIFY(RunOwnership(t.store()).check(unowned, mine));
    QCOMPARE(repository.byId(alsoUnowned)->state, RunState::Queued);
    QVERIFY(RunOwnership(t.store()).check(alsoUnowned, mine));
    QVERIFY(!RunOwnership(t.store()).check(runs.theirs, mine));
}

void TestRunWriteBatch::lockQueued_locksWithoutWritingAndNeverTwice()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    QList<qint64> queued;
    for (int i = 0; i < 6; ++i)
        queued << test::queueRun(t.store(), chain.id).id;
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("other-engine"));
    QList<qint64> locked;
    QList<qint64> theirs;
    QVERIFY(t.store().transaction([&]() -> Status {
        // Fewer than asked for: the full sort after the quick statement must pass over what
        // that locked, as it still looks unowned.
        const Result<QList<qint64>> first =
            RunOwnership(t.store()).lockQueued(mine, QStringLiteral("me"), 10);
        if (!first)
            return first.error();
        locked = first.value();
        if (RunOwnership(t.store()).check(locked.first(), mine))
            return Error::runtime(QStringLiteral("claim written, not only locked"));
        const Result<QList<qint64>> beside =
            RunOwnership(*other).claimQueued({2, 1}, QStringLiteral("them"), 10);
        if (!beside)
            return beside.error();
        theirs = beside.value();
        return Status{};
    }));
    QCOMPARE(locked, queued);  // each once
    QVERIFY(theirs.isEmpty()); // never a run locked by the other transaction
    // Nothing was written: the locked runs are claimable again.
    const Result<QList<qint64>> again =
        RunOwnership(t.store()).claimQueued(mine, QStringLiteral("me"), 10);
    QVERIFY(again);
    QCOMPARE(again.value(), queued);
}

void TestRunWriteBatch::taskRuns_insertedAndUpdatedOnlyForOwnRunsAndNewAttempts()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Claimed runs = claimRuns(t.store());
    RunWriteBatch batch(t.store());
    const Result<QList<qint64>> ids = batch.reserveTaskRunIds(3);
    QVERIFY(ids);
    QCOMPARE(QSet<qint64>(ids->cbegin(), ids->cend()).size(), 3);
    const Result<TaskRun> before = TaskRunRepository(t.store()).insert(
        attempt(runs.mine[1], runs.taskId, 1)); // stored by an earlier, ambiguous commit
    QVERIFY(before);
    QList<TaskRun> rows{attempt(runs.mine[0], runs.taskId, 1),
                        attempt(runs.mine[1], runs.taskId, 1),
                        attempt(runs.theirs, runs.taskId, 1)};
    for (int i = 0; i < rows.size(); ++i)
        rows[i].id = ids->at(i);
    const Result<QSet<qint64>> inserted = batch.insertTaskRuns(rows, mine);
    QVERIFY2(inserted, qPrintable(inserted ? QString() : inserted.error().message));
    QCOMPARE(inserted.value(), QSet<qint64>{rows[0].id});
    QVERIFY(!TaskRunRepository(t.store()).byId(rows[2].id));

    rows[0].state = RunState::Failed;
    rows[0].exitCode = 3;
    rows[0].error = QStringLiteral("it's \"quoted\" \\ and ünïcode");
    rows[0].finishedAt = rows[0].startedAt.addSecs(1);
    TaskRun storedBefore = before.value();
    storedBefore.state = RunState::Succeeded;
    TaskRun theirs = storedBefore;
    theirs.id = rows[2].id; // not stored: nothing to update
    const Result<QSet<qint64>> updated =
        batch.updateTaskRuns({rows[0], storedBefore, theirs}, mine);
    QVERIFY(updated);
    QCOMPARE(updated.value(), (QSet<qint64>{rows[0].id, storedBefore.id}));
    const TaskRun readBack = TaskRunRepository(t.store()).byId(rows[0].id).value();
    QCOMPARE(readBack.state, RunState::Failed);
    QCOMPARE(readBack.exitCode, std::optional<int>(3));
    QCOMPARE(readBack.error, rows[0].error);
    QCOMPARE(readBack.finishedAt, rows[0].finishedAt);
    QVERIFY(readBack.queuedAt.isValid());
}

void TestRunWriteBatch::recorder_keptBackWritesAreSeenByTheNextStatement()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Claimed runs = claimRuns(t.store());
    RunRecorder recorder(t.store());
    recorder.setFence(mine);
    const QDateTime at = QDateTime::currentDateTimeUtc();
    Result<TaskRun> started = Error::runtime(QString());
    RunState seenInside = RunState::Queued;
    QVERIFY(t.store().transaction([&]() -> Status {
        if (Status s = recorder.setRunState(runs.mine[0], RunState::Running, at, {}); !s)
            return s;
        started = recorder.insertTaskRun(attempt(runs.mine[0], runs.taskId, 1));
        if (!started)
            return started.error();
        TaskRun ended = started.value();
        ended.state = RunState::Succeeded;
        ended.finishedAt = at;
        if (Status s = recorder.updateTaskRun(ended); !s)
            return s;
        // Read on the same connection: the kept-back writes go first.
        seenInside = RunRepository(t.store()).byId(runs.mine[0])->state;
        return recorder.setRunState(runs.mine[0], RunState::Succeeded, at, {});
    }));
    QCOMPARE(seenInside, RunState::Running);
    QVERIFY(started->id > 0);
    QVERIFY(!recorder.isRefused(started->id));
    QCOMPARE(TaskRunRepository(t.store()).byId(started->id)->state, RunState::Succeeded);
    const Run run = RunRepository(t.store()).byId(runs.mine[0]).value();
    QCOMPARE(run.state, RunState::Succeeded);
    QVERIFY(run.startedAt.isValid()); // the first "running" kept its start
}

void TestRunWriteBatch::recorder_keptBackWriteOnATakenOverRunIsRefusedAndTold()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Claimed runs = claimRuns(t.store());
    RunRecorder recorder(t.store());
    recorder.setFence(mine);
    QSignalSpy fenced(&recorder, &RunRecorder::runFenced);
    Result<TaskRun> started = Error::runtime(QString());
    QVERIFY(t.store().transaction([&]() -> Status {
        started = recorder.insertTaskRun(attempt(runs.theirs, runs.taskId, 1));
        return recorder.setRunState(runs.theirs, RunState::Running, QDateTime::currentDateTimeUtc(),
                                    {});
    }));
    QVERIFY(started); // an id at once; its row is refused at the transaction's end
    QVERIFY(recorder.isRefused(started->id));
    QVERIFY(fenced.wait(30000) || !fenced.isEmpty());
    QCOMPARE(fenced.first().at(0).toLongLong(), runs.theirs);
    QCOMPARE(RunRepository(t.store()).byId(runs.theirs)->state, RunState::Queued);
    QVERIFY(!TaskRunRepository(t.store()).byId(started->id));
}

void TestRunWriteBatch::recorder_attemptStoredBeforeIsRefusedThenTakenOver()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Claimed runs = claimRuns(t.store());
    // Stored by a commit that reported failure: never started.
    const Result<TaskRun> before =
        TaskRunRepository(t.store()).insert(attempt(runs.mine[2], runs.taskId, 1));
    QVERIFY(before);
    RunRecorder recorder(t.store());
    recorder.setFence(mine);
    Result<TaskRun> kept = Error::runtime(QString());
    QVERIFY(t.store().transaction([&]() -> Status {
        kept = recorder.insertTaskRun(attempt(runs.mine[2], runs.taskId, 1));
        return kept ? Status{} : Status(kept.error());
    }));
    QVERIFY(recorder.isRefused(kept->id));
    // Dispatched again: inserted at once, and the earlier row is taken over.
    Result<TaskRun> again = Error::runtime(QString());
    QVERIFY(t.store().transaction([&]() -> Status {
        again = recorder.insertTaskRun(attempt(runs.mine[2], runs.taskId, 1));
        return again ? Status{} : Status(again.error());
    }));
    QCOMPARE(again->id, before->id);
}

// A commit reported as failed that was made all the same stored an offered attempt, and an
// engine claimed it before the run's engine dispatched the attempt again. Taking the row over
// then wrote "queued" over the worker's claim: never claimed again, its run never ended
// (tst_storefaultinjection, "all three", seed 14: "attempt 1 queued pid 0 offered worker 1").
void TestRunWriteBatch::recorder_attemptAWorkerClaimedIsFollowedNeverWrittenOver()
{
    HG_TEST_STORE(t);
    REQUIRE_POSTGRESQL(t);
    const Claimed runs = claimRuns(t.store());
    const qint64 runId = runs.mine[2];
    QSqlQuery running(t.store().database());
    QVERIFY(
        running.exec(QStringLiteral("UPDATE run SET state = 'running' WHERE id = %1").arg(runId)));
    TaskRun queued = attempt(runId, runs.taskId, 1);
    queued.state = RunState::Queued;
    queued.startedAt = {};
    TaskRun retry = queued;
    retry.attempt = 2;
    TaskRun waiting = queued;
    waiting.attempt = 3;
    waiting.state = RunState::Waiting;
    TaskRunRepository repository(t.store());
    const Result<TaskRun> first = repository.insert(queued);
    const Result<TaskRun> second = repository.insert(retry);
    const Result<TaskRun> third = repository.insert(waiting);
    QVERIFY(first && second && third);
    TaskRunOffers offers(t.store());
    QVERIFY(offers.offer(first->id, 1000) && offers.offer(second->id, 1000));
    const Result<QList<TaskRunOffers::Claimed>> claimed =
        offers.claim(mine, QStringLiteral("worker"), 2000, 8);
    QVERIFY(claimed);
    QCOMPARE(claimed->size(), 2);

    RunRecorder recorder(t.store());
    recorder.setFence(mine);
    const auto inTransaction = [&](const std::function<Result<TaskRun>()> &write) {
        Result<TaskRun> written = Error::runtime(QString());
        (void)t.store().transaction([&]() -> Status {
            written = write();
            return written ? Status{} : Status(written.error());
        });
        return written;
    };
    // Attempt 1, dispatched again to run here: kept back and refused, then inserted at once,
    // where the claimed row is returned as its worker left it.
    const Result<TaskRun> kept = inTransaction([&] { return recorder.insertTaskRun(queued); });
    QVERIFY(kept);
    QVERIFY(recorder.isRefused(kept->id));
    TaskRun here = queued;
    here.state = RunState::Running;
    here.startedAt = QDateTime::currentDateTimeUtc();
    const Result<TaskRun> followed = inTransaction([&] { return recorder.insertTaskRun(here); });
    QVERIFY2(followed, qPrintable(followed ? QString() : followed.error().message));
    QCOMPARE(followed->id, first->id);
    QCOMPARE(followed->workerName, QStringLiteral("worker"));
    // Attempt 2, a retry's row: the same.
    TaskRun retryHere = *second;
    retryHere.state = RunState::Running;
    const Result<TaskRun> followedRetry =
        inTransaction([&] { return recorder.reuseTaskRun(retryHere); });
    QVERIFY(followedRetry);
    QCOMPARE(followedRetry->workerName, QStringLiteral("worker"));
    // Neither row was written over: both run on their worker, which still holds its claim.
    for (qint64 id : {first->id, second->id}) {
        const Result<TaskRun> row = repository.byId(id);
        QVERIFY(row);
        QCOMPARE(row->state, RunState::Running);
        QCOMPARE(row->workerName, QStringLiteral("worker"));
    }
    const Result<QList<TaskRunOffers::Look>> looks = offers.look({first->id, second->id}, mine);
    QVERIFY(looks);
    QCOMPARE(looks->size(), 2);
    QVERIFY(looks->at(0).stillClaimed && looks->at(1).stillClaimed);
    // Nor is a stale write of the run's engine (a state held while the store was away).
    TaskRun stale = *first;
    stale.state = RunState::Queued;
    QVERIFY(t.store().transaction([&] { return recorder.updateTaskRun(stale); }));
    QCOMPARE(repository.byId(first->id)->state, RunState::Running);
    // A retry's waiting row nobody claimed is started as it says.
    TaskRun waitingHere = *third;
    waitingHere.state = RunState::Running;
    const Result<TaskRun> started =
        inTransaction([&] { return recorder.reuseTaskRun(waitingHere); });
    QVERIFY(started);
    QVERIFY(started->workerName.isEmpty());
    QCOMPARE(repository.byId(third->id)->state, RunState::Running);
}

QTEST_GUILESS_MAIN(TestRunWriteBatch)
#include "tst_runwritebatch.moc"
