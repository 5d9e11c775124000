#include "backendtests.h"
#include "fixtures.h"
#include "statementrecorder.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace hg;

class TestRunRepository final : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("sqliteOnly", "recentPerChain_readsChainByChainThroughTheIndex")

private Q_SLOTS:
    void insertScheduled_oneRunPerFireTime();
    void insertScheduled_idempotentAcrossConnections();
    void insert_manualRunsNeverCollide();
    void list_pagesByKeysetAndFilters();
    void setState_setsStartAndFinishTimes();
    void countActive_countsRunningWaitingPaused();
    void recent_perChainAndOfOneChain_oldestFirstWithDurations();
    void recentPerChain_readsChainByChainThroughTheIndex();
};

namespace {

qint64 makeSchedule(Store &store, qint64 chainId)
{
    Schedule s;
    s.chainId = chainId;
    s.expression = QStringLiteral("* * * * *");
    const Result<Schedule> added = ScheduleRepository(store).add(s);
    return added ? added->id : 0;
}

const QDateTime fire(QDate(2026, 3, 29), QTime(1, 0), Qt::UTC);

} // namespace

void TestRunRepository::insertScheduled_oneRunPerFireTime()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const qint64 schedule = makeSchedule(t.store(), chain.id);
    RunRepository runs(t.store());
    const Result<RunRepository::Inserted> first = runs.insertScheduled(chain.id, schedule, fire);
    QVERIFY2(first, first ? "" : qPrintable(first.error().message));
    QVERIFY(first->created);
    QCOMPARE(first->run.trigger, RunTrigger::Schedule);
    QCOMPARE(first->run.scheduledFor, fire);
    const Result<RunRepository::Inserted> second = runs.insertScheduled(chain.id, schedule, fire);
    QVERIFY(second);
    QVERIFY(!second->created);
    QCOMPARE(second->run.id, first->run.id);
    const Result<RunRepository::Inserted> next =
        runs.insertScheduled(chain.id, schedule, fire.addSecs(60));
    QVERIFY(next->created);
    QVERIFY(next->run.id != first->run.id);
}

void TestRunRepository::insertScheduled_idempotentAcrossConnections()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const qint64 schedule = makeSchedule(t.store(), chain.id);
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("engine-2"));
    QVERIFY(other);
    int created = 0;
    qint64 runId = 0;
    for (Store *store : {&t.store(), other.get(), &t.store(), other.get()}) {
        const Result<RunRepository::Inserted> inserted =
            RunRepository(*store).insertScheduled(chain.id, schedule, fire);
        QVERIFY(inserted);
        created += inserted->created ? 1 : 0;
        QVERIFY(runId == 0 || runId == inserted->run.id);
        runId = inserted->run.id;
    }
    QCOMPARE(created, 1);
}

void TestRunRepository::insert_manualRunsNeverCollide()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Run run;
    run.chainId = chain.id;
    run.trigger = RunTrigger::Manual;
    run.scheduledFor = fire;
    run.parameters = QJsonObject{{QStringLiteral("day"), 3}};
    RunRepository runs(t.store());
    const Result<Run> a = runs.insert(run);
    const Result<Run> b = runs.insert(run);
    QVERIFY(a && b);
    QVERIFY(a->id != b->id);
    QCOMPARE(runs.byId(a->id)->parameters, run.parameters);
    QCOMPARE(runs.byId(a->id)->scheduleId, 0);
}

void TestRunRepository::list_pagesByKeysetAndFilters()
{
    HG_TEST_STORE(t);
    const Chain one = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("one"));
    const Chain two = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("two"));
    RunRepository runs(t.store());
    for (int i = 0; i < 25; ++i) {
        Run run;
        run.chainId = i % 2 ? one.id : two.id;
        run.state = i % 5 == 0 ? RunState::Failed : RunState::Succeeded;
        QVERIFY(runs.insert(run));
    }
    RunFilter filter;
    filter.limit = 10;
    QList<qint64> seen;
    for (;;) {
        const Result<QList<Run>> page = runs.list(filter);
        QVERIFY(page);
        if (page->isEmpty())
            break;
        for (const Run &run : page.value()) {
            QVERIFY(seen.isEmpty() || run.id < seen.last()); // newest first, no repeats
            seen << run.id;
        }
        filter.beforeId = page->last().id;
    }
    QCOMPARE(seen.size(), 25);

    RunFilter failedOfTwo;
    failedOfTwo.chainId = two.id;
    failedOfTwo.state = RunState::Failed;
    const Result<QList<Run>> failed = runs.list(failedOfTwo);
    QVERIFY(failed);
    QCOMPARE(failed->size(), 3); // i = 0, 10, 20
}

void TestRunRepository::setState_setsStartAndFinishTimes()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Run run;
    run.chainId = chain.id;
    RunRepository runs(t.store());
    const qint64 id = runs.insert(run)->id;
    const QDateTime started = fire;
    const QDateTime finished = fire.addSecs(90);
    const Status running =
        runs.setState(id, RunState::Running, started, QStringLiteral("engine-a"));
    QVERIFY2(running, running ? "" : qPrintable(running.error().message));
    QCOMPARE(runs.byId(id)->startedAt, started);
    QVERIFY(!runs.byId(id)->finishedAt.isValid());
    QCOMPARE(runs.byId(id)->engineName, QStringLiteral("engine-a"));
    QVERIFY(runs.setState(id, RunState::Paused, fire.addSecs(10)));
    QVERIFY(runs.setState(id, RunState::Running, fire.addSecs(20)));
    QCOMPARE(runs.byId(id)->startedAt, started); // the first start is kept
    QVERIFY(runs.setState(id, RunState::Succeeded, finished));
    QCOMPARE(runs.byId(id)->state, RunState::Succeeded);
    QCOMPARE(runs.byId(id)->finishedAt, finished);
    QCOMPARE(runs.byId(id)->engineName, QStringLiteral("engine-a"));
    QCOMPARE(runs.setState(999999, RunState::Failed, finished).error().kind, ErrorKind::NotFound);
}

void TestRunRepository::countActive_countsRunningWaitingPaused()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    RunRepository runs(t.store());
    for (RunState state : {RunState::Queued, RunState::Running, RunState::Waiting, RunState::Paused,
                           RunState::Succeeded, RunState::Failed}) {
        Run run;
        run.chainId = chain.id;
        run.state = state;
        QVERIFY(runs.insert(run));
    }
    QCOMPARE(runs.countActive(chain.id).value(), 3);
}

void TestRunRepository::recent_perChainAndOfOneChain_oldestFirstWithDurations()
{
    HG_TEST_STORE(t);
    const Chain busy = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("busy"));
    const Chain few = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("few"));
    const Chain idle = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("idle"));
    RunRepository runs(t.store());
    QList<qint64> busyIds;
    for (int n = 0; n < 30; ++n) {
        Run run;
        run.chainId = n % 10 == 9 ? few.id : busy.id; // interleaved with the other chain's
        const qint64 id = runs.insert(run)->id;
        QVERIFY(runs.setState(id, RunState::Running, fire));
        // Durations of n seconds; the last busy one is still running.
        if (n != 28)
            QVERIFY(runs.setState(id, n % 7 == 0 ? RunState::Failed : RunState::Succeeded,
                                  fire.addSecs(n)));
        if (run.chainId == busy.id)
            busyIds << id;
    }
    const Result<QHash<qint64, QList<RunSummary>>> recent = runs.recentPerChain(20);
    QVERIFY2(recent, recent ? "" : qPrintable(recent.error().message));
    QCOMPARE(recent->value(busy.id).size(), 20);
    QCOMPARE(recent->value(few.id).size(), 3);
    QVERIFY(!recent->contains(idle.id));
    QList<qint64> ids;
    for (const RunSummary &summary : recent->value(busy.id))
        ids << summary.id;
    QCOMPARE(ids, busyIds.mid(busyIds.size() - 20)); // the newest 20, oldest first
    QCOMPARE(recent->value(busy.id).constLast().durationMs, qint64(-1)); // still running
    QCOMPARE(recent->value(few.id).constFirst().durationMs, qint64(9000));

    const Result<QList<RunSummary>> one = runs.recentOfChain(busy.id, 5);
    QVERIFY(one);
    QCOMPARE(one->size(), 5);
    QCOMPARE(one->constLast().id, busyIds.constLast());
    QCOMPARE(one->constFirst().id, busyIds.at(busyIds.size() - 5));
}

// The Overview's read of every chain's last runs, as SQLite plans it: chain by chain through
// the (chain_id, id) index. A plain join once let it walk all 10 M runs of a big store and
// run the subquery for each (27 s where this takes 0.3 s); the plan says so without a timer.
void TestRunRepository::recentPerChain_readsChainByChainThroughTheIndex()
{
    HG_TEST_STORE(t);
    QStringList sent;
    {
        const test::StatementRecorder recorder(t.store());
        QVERIFY(RunRepository(t.store()).recentPerChain(20));
        sent = recorder.statements();
    }
    QCOMPARE(sent.size(), 1);
    QSqlQuery plan(t.store().database());
    QVERIFY(plan.prepare(QStringLiteral("EXPLAIN QUERY PLAN ") + sent.first()));
    for (qsizetype i = 0; i < sent.first().count(QLatin1Char('?')); ++i)
        plan.addBindValue(19);
    QVERIFY2(plan.exec(), qPrintable(plan.lastError().text()));
    QStringList steps;
    while (plan.next())
        steps << plan.value(3).toString();
    QVERIFY2(steps.value(0).startsWith(QLatin1String("SCAN c")),
             qPrintable(steps.join(QLatin1Char('\n'))));
    QVERIFY2(steps.value(1).contains(QLatin1String("USING INDEX run_chain (chain_id=? AND id>?)")),
             qPrintable(steps.join(QLatin1Char('\n'))));
}

HG_BACKEND_TEST_GUILESS_MAIN(TestRunRepository)
#include "tst_runrepository.moc"
