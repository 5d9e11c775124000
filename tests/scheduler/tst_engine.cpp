#include "backendtests.h"
#include "base/processinfo.h"
#include "fixtures.h"
#include "scheduler/clock.h"
#include "scheduler/engine.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QProcess>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace hg;
using hg::test::addTask;

// The engine end to end on a real store: schedules become runs, runs execute their DAG with
// real processes, and a dead engine's leftovers are recovered.
class TestEngine final : public QObject
{
    Q_OBJECT
    // Functions for one backend only: not run (nor skipped) on the other.
    Q_CLASSINFO("postgresqlOnly", "otherEnginesRuns_areToldOncePerState")
    Q_CLASSINFO("sqliteOnly", "secondEngine_isRefusedOnSqlite")

private Q_SLOTS:
    void schedule_fireBecomesOneRunThatSucceeds();
    void clockJumps_sleepCostIsSaidOnceAndAStepBackFiresNothingTwice();
    void startup_missedFiresFollowThePolicy_data();
    void startup_missedFiresFollowThePolicy();
    void pause_holdsFiresAndResumeAppliesThePolicy();
    void dag_continueRunsWhatIsNotBlocked();
    void dag_endStopsWhatRuns();
    void dag_ignoreErrorCountsAsSuccess();
    void retries_eachAttemptIsANewRow();
    void chainTimeout_endsTheRun();
    void parameters_substituteIntoCommands();
    void slots_startTasksByPriority();
    void maxInstances_queuesTheSecondRun();
    void exclusive_nothingRunsBesideIt();
    void selfDestruct_removesTheChainAfterSuccess();
    void clientName_otherEnginesChainIsNotScheduled();
    void otherEnginesRuns_areToldOncePerState();
    void shutdown_waitLetsTasksFinishStopCancelsThem_data();
    void shutdown_waitLetsTasksFinishStopCancelsThem();
    void shutdownStop_queuesAgainARunThatWaitedForASlot();
    void recovery_killsLeftoverProcessAndRetries();
    void recovery_leavesAReusedPidAlone();
    void secondEngine_isRefusedOnSqlite();
    void dst_springForwardFiresOnceAfterTheGap();
    void dst_fallBackRunsFixedTimesOnceAndHourlyTwice();

private:
    struct Harness
    {
        std::shared_ptr<ManualClock> clock;
        std::unique_ptr<Engine> engine;
    };
    Harness startEngine(test::TestStore &store, qint64 nowMs, int slotCount = 4,
                        bool tellRunsElsewhere = false);
    Run runToEnd(test::TestStore &store, Engine &engine, qint64 chainId, QJsonObject params = {});
    QList<TaskRun> attemptsOf(Store &store, qint64 runId, qint64 taskId);
    QStringList logOf(Store &store, qint64 runId);
    static void startLeftover(QProcess &process);
    // A run a dead engine left in progress, its task's attempt recorded with pid and ticks.
    static Run insertLeftRun(Store &store, qint64 chainId, qint64 taskId, qint64 pid, qint64 ticks);
    // A chain with a NoOp task and one Europe/Berlin schedule; its id.
    qint64 berlinChain(Store &store, const QString &name, const QString &expression);
    // Moves the clock in 30-second steps from..to, letting the engine look each time.
    static void walkClock(Harness &h, qint64 fromMs, qint64 toMs);
    static QStringList scheduledTimes(Store &store, qint64 chainId);
    // A chain p/c with one NoOp task and one UTC schedule; the stored schedule.
    static Schedule noopChainSchedule(Store &store, const QString &expression,
                                      MisfirePolicy misfire);
};

Run TestEngine::insertLeftRun(Store &store, qint64 chainId, qint64 taskId, qint64 pid, qint64 ticks)
{
    Run run;
    run.chainId = chainId;
    run.state = RunState::Running;
    const Run left = RunRepository(store).insert(run).value();
    TaskRun attempt;
    attempt.runId = left.id;
    attempt.taskId = taskId;
    attempt.state = RunState::Running;
    attempt.pid = pid;
    attempt.processStartTicks = ticks;
    (void)TaskRunRepository(store).insert(attempt).value();
    return left;
}

void TestEngine::startLeftover(QProcess &process)
{
    // Its own session and group, like an engine's task; no pipe back to the test runner.
    process.setChildProcessModifier([] { ::setsid(); });
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    process.start(QStringLiteral("sleep"), {QStringLiteral("1000")});
    process.waitForStarted();
}

TestEngine::Harness TestEngine::startEngine(test::TestStore &store, qint64 nowMs, int slotCount,
                                            bool tellRunsElsewhere)
{
    Harness h;
    h.clock = std::make_shared<ManualClock>(nowMs);
    EngineConfig config;
    config.storeLocation = store.location().backend() == StoreBackend::Sqlite
                               ? store.location().sqlitePath()
                               : store.location().url().toString();
    config.name = QStringLiteral("test-engine");
    config.slotCount = slotCount;
    config.graceMs = 500;
    config.commandPollMs = 50;
    config.tellRunsElsewhere = tellRunsElsewhere;
    h.engine = std::make_unique<Engine>(config, h.clock);
    QSignalSpy started(h.engine.get(), &Engine::started);
    QSignalSpy failed(h.engine.get(), &Engine::startFailed);
    h.engine->start();
    if (!failed.isEmpty())
        qWarning() << "engine failed to start:" << failed.first().first().toString();
    return h;
}

Run TestEngine::runToEnd(test::TestStore &store, Engine &engine, qint64 chainId, QJsonObject params)
{
    Run run;
    run.chainId = chainId;
    run.parameters = params;
    const Run created = RunRepository(store.store()).insert(run).value();
    QSignalSpy changes(&engine, &Engine::runChanged);
    engine.admitRun(created.id);
    for (int i = 0; i < 300; ++i) {
        const Run now = RunRepository(store.store()).byId(created.id).value();
        if (isTerminal(now.state))
            return now;
        changes.wait(100);
    }
    return RunRepository(store.store()).byId(created.id).value();
}

QList<TaskRun> TestEngine::attemptsOf(Store &store, qint64 runId, qint64 taskId)
{
    QList<TaskRun> attempts;
    for (const TaskRun &attempt : TaskRunRepository(store).listForRun(runId).value()) {
        if (attempt.taskId == taskId)
            attempts << attempt;
    }
    return attempts;
}

QStringList TestEngine::logOf(Store &store, qint64 runId)
{
    QStringList lines;
    for (const LogLine &line : LogRepository(store).read(runId).value())
        lines << line.text;
    return lines;
}

Schedule TestEngine::noopChainSchedule(Store &store, const QString &expression,
                                       MisfirePolicy misfire)
{
    const Chain chain = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c"));
    addTask(store, chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = expression;
    schedule.timeZone = QStringLiteral("UTC");
    schedule.misfire = misfire;
    const Result<Schedule> stored = ScheduleRepository(store).add(schedule);
    if (!stored)
        qWarning() << stored.error().message;
    return stored ? stored.value() : Schedule();
}

void TestEngine::clockJumps_sleepCostIsSaidOnceAndAStepBackFiresNothingTwice()
{
    HG_TEST_STORE(t);
    const Schedule everyMinute =
        noopChainSchedule(t.store(), QStringLiteral("* * * * *"), MisfirePolicy::Once);
    const Chain skips = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("skips"));
    addTask(t.store(), skips.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    Schedule fiveMinutes;
    fiveMinutes.chainId = skips.id;
    fiveMinutes.expression = QStringLiteral("*/5 * * * *");
    fiveMinutes.timeZone = QStringLiteral("UTC");
    fiveMinutes.misfire = MisfirePolicy::Skip;
    QVERIFY(ScheduleRepository(t.store()).add(fiveMinutes));
    // Half a minute past a full hour, two hours after the schedules were made.
    const qint64 start =
        (everyMinute.createdAt.toMSecsSinceEpoch() / 3600000 + 2) * 3600000 + 30000;
    Harness h = startEngine(t, start);
    QVERIFY(h.engine->isRunning());
    const qsizetype before = scheduledTimes(t.store(), everyMinute.chainId).size();
    QSignalSpy jumped(h.engine.get(), &Engine::clockJumped);

    // Asleep 7 h 12 min: every minute missed 432 fires, every five minutes 86; the first runs
    // one now (policy once), the second none (skip). Noticed within about a second.
    h.clock->sleepMs((7 * 60 + 12) * 60000);
    QVERIFY(jumped.wait(30000));
    QCOMPARE(jumped.first().first().toString(),
             QStringLiteral("Asleep 7 h 12 min: 518 runs of 2 chains missed; 1 run now (policy "
                            "once), 517 skipped"));
    const QStringList afterSleep = scheduledTimes(t.store(), everyMinute.chainId);
    QCOMPARE(afterSleep.size(), before + 1);
    QCOMPARE(afterSleep.last(),
             QDateTime::fromMSecsSinceEpoch(start + (7 * 60 + 12) * 60000 - 30000, Qt::UTC)
                 .toString(Qt::ISODate));
    QVERIFY(scheduledTimes(t.store(), skips.id).isEmpty());
    QVERIFY(!jumped.wait(1500)); // said once

    // The wall clock steps back an hour: said, and nothing fires again while the clock walks
    // through the hour it has seen; then the schedules go on.
    jumped.clear();
    const qint64 woke = h.clock->nowMs();
    h.clock->stepWallMs(-3600000);
    QVERIFY(jumped.wait(30000));
    QVERIFY2(jumped.first().first().toString().startsWith(QLatin1String("The clock went back 1 h")),
             qPrintable(jumped.first().first().toString()));
    walkClock(h, woke - 3600000, woke - 30000);
    QCOMPARE(scheduledTimes(t.store(), everyMinute.chainId), afterSleep);
    walkClock(h, woke, woke + 5 * 60000);
    const QStringList resumed = scheduledTimes(t.store(), everyMinute.chainId);
    QCOMPARE(resumed.size(), afterSleep.size() + 5);
    QCOMPARE(QSet<QString>(resumed.cbegin(), resumed.cend()).size(), resumed.size());
    QCOMPARE(scheduledTimes(t.store(), skips.id).size(), 1);
}

void TestEngine::schedule_fireBecomesOneRunThatSucceeds()
{
    HG_TEST_STORE(t);
    const Schedule stored =
        noopChainSchedule(t.store(), QStringLiteral("*/5 * * * *"), MisfirePolicy::Skip);
    // One second before the first five-minute mark after the schedule was made.
    const qint64 mark = (stored.createdAt.toMSecsSinceEpoch() / 300000 + 2) * 300000;
    Harness h = startEngine(t, mark - 1000);
    QVERIFY(h.engine->isRunning());
    RunFilter all;
    QVERIFY(RunRepository(t.store()).list(all)->isEmpty());

    h.clock->setMs(mark + 3);
    h.engine->checkDue();
    h.engine->checkDue(); // a second look at the same instant makes no second run
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).list(all)->size(), 1, 5000);
    const Run run = RunRepository(t.store()).list(all)->first();
    QCOMPARE(run.scheduledFor.toMSecsSinceEpoch(), mark);
    QCOMPARE(run.trigger, RunTrigger::Schedule);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).byId(run.id)->state, RunState::Succeeded,
                              5000);
}

void TestEngine::startup_missedFiresFollowThePolicy_data()
{
    QTest::addColumn<int>("policy");
    QTest::addColumn<int>("runs");
    QTest::newRow("skip") << int(MisfirePolicy::Skip) << 1; // only the run before the outage
    QTest::newRow("once") << int(MisfirePolicy::Once) << 2;
    QTest::newRow("all") << int(MisfirePolicy::All) << 5; // four hours missed
}

void TestEngine::startup_missedFiresFollowThePolicy()
{
    QFETCH(int, policy);
    QFETCH(int, runs);
    HG_TEST_STORE(t);
    const Schedule stored =
        noopChainSchedule(t.store(), QStringLiteral("0 * * * *"), MisfirePolicy(policy));
    // The last run the engine made was at hour H; it comes back at H+4h10m.
    const qint64 lastFire = (stored.createdAt.toMSecsSinceEpoch() / 3600000 + 1) * 3600000;
    const auto inserted = RunRepository(t.store()).insertScheduled(
        stored.chainId, stored.id, QDateTime::fromMSecsSinceEpoch(lastFire, Qt::UTC));
    QVERIFY(inserted);
    QVERIFY(RunRepository(t.store()).setState(inserted->run.id, RunState::Succeeded,
                                              QDateTime::fromMSecsSinceEpoch(lastFire, Qt::UTC)));
    Harness h = startEngine(t, lastFire + 4 * 3600000 + 600000);
    RunFilter all;
    all.limit = 100;
    QCOMPARE(RunRepository(t.store()).list(all)->size(), runs);
}

void TestEngine::pause_holdsFiresAndResumeAppliesThePolicy()
{
    HG_TEST_STORE(t);
    const Schedule stored =
        noopChainSchedule(t.store(), QStringLiteral("* * * * *"), MisfirePolicy::Once);
    const qint64 mark = (stored.createdAt.toMSecsSinceEpoch() / 60000 + 2) * 60000;
    Harness h = startEngine(t, mark - 1000);
    h.engine->setSchedulesPaused(true);
    RunFilter all;
    all.limit = 100;
    // The minute between creating the schedule and starting may have fired already.
    const qsizetype before = RunRepository(t.store()).list(all)->size();
    h.clock->setMs(mark + 5 * 60000 + 3000); // five minutes and more pass while paused
    h.engine->checkDue();
    h.engine->reloadSchedules(); // an edit meanwhile fires nothing either
    QTest::qWait(100);
    QCOMPARE(RunRepository(t.store()).list(all)->size(), before);

    h.engine->setSchedulesPaused(false); // "once": the latest missed minute, one run
    const QList<Run> runs = RunRepository(t.store()).list(all).value(); // newest first
    QCOMPARE(runs.size(), before + 1);
    QCOMPARE(runs.first().scheduledFor.toMSecsSinceEpoch(), mark + 5 * 60000);
}

void TestEngine::dag_continueRunsWhatIsNotBlocked()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    chain.onFailure = FailureStrategy::Continue;
    QVERIFY(ChainRepository(t.store()).update(chain));
    const Task a = addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell,
                           QStringLiteral("exit 1"));
    const Task onSuccess =
        addTask(t.store(), chain.id, QStringLiteral("b"), TaskKind::Shell, QStringLiteral("true"));
    const Task onFailure =
        addTask(t.store(), chain.id, QStringLiteral("c"), TaskKind::Shell, QStringLiteral("true"));
    const Task onCompletion =
        addTask(t.store(), chain.id, QStringLiteral("d"), TaskKind::Shell, QStringLiteral("true"));
    const Task afterBlocked =
        addTask(t.store(), chain.id, QStringLiteral("e"), TaskKind::Shell, QStringLiteral("true"));
    DependencyRepository deps(t.store());
    QVERIFY(deps.add(chain.id, onSuccess.id, a.id, DependencyCondition::Success));
    QVERIFY(deps.add(chain.id, onFailure.id, a.id, DependencyCondition::Failure));
    QVERIFY(deps.add(chain.id, onCompletion.id, a.id, DependencyCondition::Completion));
    QVERIFY(deps.add(chain.id, afterBlocked.id, onSuccess.id, DependencyCondition::Completion));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    const Run run = runToEnd(t, *h.engine, chain.id);
    QCOMPARE(run.state, RunState::Failed);
    QCOMPARE(attemptsOf(t.store(), run.id, a.id).size(), 1);
    QVERIFY(attemptsOf(t.store(), run.id, onSuccess.id).isEmpty());
    QCOMPARE(attemptsOf(t.store(), run.id, onFailure.id).first().state, RunState::Succeeded);
    QCOMPARE(attemptsOf(t.store(), run.id, onCompletion.id).first().state, RunState::Succeeded);
    QVERIFY(attemptsOf(t.store(), run.id, afterBlocked.id).isEmpty());
}

void TestEngine::dag_endStopsWhatRuns()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task failing = addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell,
                                 QStringLiteral("sleep 0.3; exit 1"));
    const Task slow = addTask(t.store(), chain.id, QStringLiteral("b"), TaskKind::Shell,
                              QStringLiteral("sleep 30"));
    const Task later =
        addTask(t.store(), chain.id, QStringLiteral("c"), TaskKind::Shell, QStringLiteral("true"));
    QVERIFY(DependencyRepository(t.store()).add(chain.id, later.id, failing.id,
                                                DependencyCondition::Completion));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    QElapsedTimer timer;
    timer.start();
    const Run run = runToEnd(t, *h.engine, chain.id);
    QCOMPARE(run.state, RunState::Failed);
    QVERIFY(timer.elapsed() < 10000);
    QCOMPARE(attemptsOf(t.store(), run.id, slow.id).first().state, RunState::Cancelled);
    QVERIFY(attemptsOf(t.store(), run.id, later.id).isEmpty()); // "end" starts nothing more
}

void TestEngine::dag_ignoreErrorCountsAsSuccess()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task a = addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell,
                     QStringLiteral("exit 4"));
    a.ignoreError = true;
    QVERIFY(TaskRepository(t.store()).update(a));
    const Task b =
        addTask(t.store(), chain.id, QStringLiteral("b"), TaskKind::Shell, QStringLiteral("true"));
    QVERIFY(
        DependencyRepository(t.store()).add(chain.id, b.id, a.id, DependencyCondition::Success));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    const Run run = runToEnd(t, *h.engine, chain.id);
    QCOMPARE(run.state, RunState::Succeeded);
    QCOMPARE(attemptsOf(t.store(), run.id, a.id).first().exitCode, std::optional<int>(4));
    QCOMPARE(attemptsOf(t.store(), run.id, b.id).first().state, RunState::Succeeded);
}

void TestEngine::retries_eachAttemptIsANewRow()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task a = addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell,
                     QStringLiteral("echo attempt $HOURGLASS_ATTEMPT; exit 2"));
    a.maxRetries = 2;
    QVERIFY(TaskRepository(t.store()).update(a));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    const Run run = runToEnd(t, *h.engine, chain.id);
    QCOMPARE(run.state, RunState::Failed);
    const QList<TaskRun> attempts = attemptsOf(t.store(), run.id, a.id);
    QCOMPARE(attempts.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(attempts.at(i).attempt, i + 1);
        QCOMPARE(attempts.at(i).state, RunState::Failed);
    }
    QVERIFY(logOf(t.store(), run.id).contains(QStringLiteral("attempt 3")));
}

void TestEngine::chainTimeout_endsTheRun()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    chain.timeoutSeconds = 1;
    QVERIFY(ChainRepository(t.store()).update(chain));
    const Task slow = addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell,
                              QStringLiteral("sleep 30"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    const Run run = runToEnd(t, *h.engine, chain.id);
    QCOMPARE(run.state, RunState::TimedOut);
    QCOMPARE(attemptsOf(t.store(), run.id, slow.id).first().state, RunState::TimedOut);
}

void TestEngine::parameters_substituteIntoCommands()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("nightly"));
    chain.parameters = QJsonObject{{QStringLiteral("target"), QStringLiteral("default")},
                                   {QStringLiteral("region"), QStringLiteral("eu")}};
    QVERIFY(ChainRepository(t.store()).update(chain));
    addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Program,
            QStringLiteral("/bin/echo"),
            {QStringLiteral("${chain.name} run ${run.id} to ${target} in ${region}; ${unknown}")});
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    const Run run =
        runToEnd(t, *h.engine, chain.id, {{QStringLiteral("target"), QStringLiteral("prod")}});
    QCOMPARE(run.state, RunState::Succeeded);
    QCOMPARE(logOf(t.store(), run.id),
             QStringList{QStringLiteral("nightly run %1 to prod in eu; ${unknown}").arg(run.id)});
}

void TestEngine::slots_startTasksByPriority()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const QList<std::pair<const char *, Priority>> tasks{
        {"low", Priority::Low}, {"highest", Priority::Highest}, {"medium", Priority::Medium}};
    for (const auto &[name, priority] : tasks) {
        Task task = addTask(t.store(), chain.id, QLatin1String(name), TaskKind::Shell,
                            QStringLiteral("sleep 0.1"));
        task.priority = priority;
        QVERIFY(TaskRepository(t.store()).update(task));
    }
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch(), 1);
    const Run run = runToEnd(t, *h.engine, chain.id);
    QCOMPARE(run.state, RunState::Succeeded);
    QList<TaskRun> attempts = TaskRunRepository(t.store()).listForRun(run.id).value();
    QCOMPARE(attempts.size(), 3);
    // One slot: each starts after the one before finished, best priority first.
    const Task first = TaskRepository(t.store()).byId(attempts.at(0).taskId).value();
    const Task second = TaskRepository(t.store()).byId(attempts.at(1).taskId).value();
    QCOMPARE(first.name, QStringLiteral("highest"));
    QCOMPARE(second.name, QStringLiteral("medium"));
    QVERIFY(attempts.at(1).startedAt >= attempts.at(0).finishedAt);
}

void TestEngine::maxInstances_queuesTheSecondRun()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    chain.maxInstances = 1;
    QVERIFY(ChainRepository(t.store()).update(chain));
    addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell, QStringLiteral("sleep 0.3"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    Run run;
    run.chainId = chain.id;
    const Run first = RunRepository(t.store()).insert(run).value();
    const Run second = RunRepository(t.store()).insert(run).value();
    h.engine->admitRun(first.id);
    h.engine->admitRun(second.id);
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(second.id)->state), 10000);
    const Run a = RunRepository(t.store()).byId(first.id).value();
    const Run b = RunRepository(t.store()).byId(second.id).value();
    QCOMPARE(a.state, RunState::Succeeded);
    QCOMPARE(b.state, RunState::Succeeded);
    QVERIFY(b.startedAt >= a.finishedAt);
}

void TestEngine::exclusive_nothingRunsBesideIt()
{
    HG_TEST_STORE(t);
    Chain exclusive = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("exclusive"));
    exclusive.exclusive = true;
    QVERIFY(ChainRepository(t.store()).update(exclusive));
    addTask(t.store(), exclusive.id, QStringLiteral("a"), TaskKind::Shell,
            QStringLiteral("sleep 0.4"));
    const Chain other = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("other"));
    addTask(t.store(), other.id, QStringLiteral("b"), TaskKind::Shell, QStringLiteral("sleep 0.1"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    Run run;
    run.chainId = exclusive.id;
    const Run first = RunRepository(t.store()).insert(run).value();
    run.chainId = other.id;
    const Run second = RunRepository(t.store()).insert(run).value();
    h.engine->admitRun(first.id);
    h.engine->admitRun(second.id);
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(second.id)->state), 10000);
    const Run a = RunRepository(t.store()).byId(first.id).value();
    const Run b = RunRepository(t.store()).byId(second.id).value();
    QCOMPARE(a.state, RunState::Succeeded);
    QCOMPARE(b.state, RunState::Succeeded);
    QVERIFY(b.startedAt >= a.finishedAt); // the other chain waited for the exclusive one
}

void TestEngine::selfDestruct_removesTheChainAfterSuccess()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("once-only"));
    chain.selfDestruct = true;
    QVERIFY(ChainRepository(t.store()).update(chain));
    addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Builtin, QStringLiteral("NoOp"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    QSignalSpy changes(h.engine.get(), &Engine::runChanged);
    Run run;
    run.chainId = chain.id;
    h.engine->admitRun(RunRepository(t.store()).insert(run).value().id);
    // Disabled at once, so nothing of it fires again; its run's end stays readable a few
    // seconds for a `run --wait`, then the chain goes, and with it its runs (as in
    // pg_timetable, nothing of it stays).
    const auto disabled = [&] {
        const Result<Chain> now = ChainRepository(t.store()).byId(chain.id);
        return !now || !now->enabled;
    };
    QTRY_VERIFY_WITH_TIMEOUT(disabled(), 5000);
    QCOMPARE(changes.last().first().value<Run>().state, RunState::Succeeded);
    QTRY_VERIFY_WITH_TIMEOUT(!ChainRepository(t.store()).byId(chain.id).ok(),
                             Engine::selfDestructDelayMs + 10000);
}

void TestEngine::clientName_otherEnginesChainIsNotScheduled()
{
    HG_TEST_STORE(t);
    Chain mine = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("mine"));
    mine.clientName = QStringLiteral("test-engine");
    QVERIFY(ChainRepository(t.store()).update(mine));
    Chain theirs = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("theirs"));
    theirs.clientName = QStringLiteral("another-machine");
    QVERIFY(ChainRepository(t.store()).update(theirs));
    for (const Chain &chain : {mine, theirs}) {
        addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Builtin,
                QStringLiteral("NoOp"));
        Schedule schedule;
        schedule.chainId = chain.id;
        schedule.expression = QStringLiteral("@reboot");
        schedule.kind = ScheduleKind::Startup;
        QVERIFY(ScheduleRepository(t.store()).add(schedule));
    }
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    RunFilter filter;
    filter.chainId = mine.id;
    QTRY_COMPARE(RunRepository(t.store()).list(filter)->size(), 1);
    filter.chainId = theirs.id;
    QCOMPARE(RunRepository(t.store()).list(filter)->size(), 0);
}

void TestEngine::otherEnginesRuns_areToldOncePerState()
{
    HG_TEST_STORE(t);
    // A chain only another engine may run: this one sees its runs, never claims them.
    Chain theirs = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("theirs"));
    theirs.clientName = QStringLiteral("another-machine");
    QVERIFY(ChainRepository(t.store()).update(theirs));
    addTask(t.store(), theirs.id, QStringLiteral("a"), TaskKind::Builtin, QStringLiteral("NoOp"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch(), 4, true);
    QSignalSpy changes(h.engine.get(), &Engine::runChanged);
    QSignalSpy reread(h.engine.get(), &Engine::runsChangedElsewhere);
    const auto told = [&changes](qint64 runId, RunState state) {
        int count = 0;
        for (const QList<QVariant> &args : std::as_const(changes)) {
            const Run run = args.first().value<Run>();
            count += run.id == runId && run.state == state ? 1 : 0;
        }
        return count;
    };

    // The other engine's writes, on a connection of their own.
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("other-engine"));
    Run queued;
    queued.chainId = theirs.id;
    const Run run = RunRepository(*other).insert(queued).value();
    QVERIFY(
        RunRepository(*other).setState(run.id, RunState::Running, QDateTime::currentDateTimeUtc()));
    QTRY_COMPARE(told(run.id, RunState::Running), 1);
    QVERIFY(RunRepository(*other).setState(run.id, RunState::Succeeded,
                                           QDateTime::currentDateTimeUtc()));
    QTRY_COMPARE(told(run.id, RunState::Succeeded), 1);
    // An update that keeps the state (a claim, a heartbeat) says nothing; nothing came twice.
    QSqlQuery same(other->database());
    QVERIFY(same.exec(
        QStringLiteral("UPDATE run SET engine_name = 'elsewhere' WHERE id = %1").arg(run.id)));
    // A later run's change, told, proves the engine has read past that update (notifications
    // come in commit order).
    const Run later = RunRepository(*other).insert(queued).value();
    QVERIFY(RunRepository(*other).setState(later.id, RunState::Running,
                                           QDateTime::currentDateTimeUtc()));
    QTRY_COMPARE(told(later.id, RunState::Running), 1);
    QCOMPARE(told(run.id, RunState::Running), 1);
    QCOMPARE(told(run.id, RunState::Succeeded), 1);
    QCOMPARE(reread.size(), 0);

    // More than a notification can name: the window is told to read its lists again.
    QSqlQuery many(other->database());
    QVERIFY2(
        many.exec(QStringLiteral("INSERT INTO run (chain_id, trigger, scheduled_for, created_at) "
                                 "SELECT %1, 'manual', n, n FROM generate_series(1, 501) n")
                      .arg(theirs.id)),
        qPrintable(many.lastError().text()));
    QVERIFY(many.exec(QStringLiteral("UPDATE run SET state = 'cancelled' WHERE chain_id = %1 "
                                     "AND state = 'queued'")
                          .arg(theirs.id)));
    QTRY_COMPARE(reread.size(), 1);
}

void TestEngine::shutdown_waitLetsTasksFinishStopCancelsThem_data()
{
    QTest::addColumn<bool>("wait");
    QTest::addColumn<int>("state");
    QTest::newRow("wait") << true << int(RunState::Succeeded);
    QTest::newRow("stop") << false << int(RunState::Cancelled);
}

void TestEngine::shutdown_waitLetsTasksFinishStopCancelsThem()
{
    QFETCH(bool, wait);
    QFETCH(int, state);
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell, QStringLiteral("sleep 0.5"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    Run run;
    run.chainId = chain.id;
    const Run created = RunRepository(t.store()).insert(run).value();
    h.engine->admitRun(created.id);
    QTRY_COMPARE(RunRepository(t.store()).byId(created.id)->state, RunState::Running);
    const auto launched = [&] {
        const QList<TaskRun> attempts = TaskRunRepository(t.store()).listForRun(created.id).value();
        return !attempts.isEmpty() && attempts.first().pid > 0;
    };
    QTRY_VERIFY(launched());
    QSignalSpy stopped(h.engine.get(), &Engine::stopped);
    h.engine->shutdown(wait ? Engine::ExitPolicy::Wait : Engine::ExitPolicy::Stop);
    QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, 10000);
    QCOMPARE(int(RunRepository(t.store()).byId(created.id)->state), state);
    if (!wait) // its reason says the engine stopped it
        QCOMPARE(RunRepository(t.store()).failureReason(created.id).value(),
                 QStringLiteral("a: stopped: the engine shut down"));
    QVERIFY(!h.engine->isRunning());
}

// A run admitted but waiting for a slot has started nothing: a stop queues it again whole
// (a crash would have let the next engine run it; a clean stop must lose no more).
void TestEngine::shutdownStop_queuesAgainARunThatWaitedForASlot()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell, QStringLiteral("sleep 30"));
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch(), 1);
    Run run;
    run.chainId = chain.id;
    const Run first = RunRepository(t.store()).insert(run).value();
    const Run second = RunRepository(t.store()).insert(run).value();
    h.engine->admitRun(first.id);
    QTRY_VERIFY(!TaskRunRepository(t.store()).listForRun(first.id).value().isEmpty());
    h.engine->admitRun(second.id);
    QTRY_COMPARE(h.engine->activeRunCount(), 2); // the second holds no slot: none is free
    QVERIFY(TaskRunRepository(t.store()).listForRun(second.id).value().isEmpty());
    QSignalSpy stopped(h.engine.get(), &Engine::stopped);
    h.engine->shutdown(Engine::ExitPolicy::Stop);
    QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, 10000);
    QCOMPARE(RunRepository(t.store()).byId(first.id)->state, RunState::Cancelled);
    QCOMPARE(RunRepository(t.store()).byId(second.id)->state, RunState::Queued);
    QVERIFY(TaskRunRepository(t.store()).listForRun(second.id).value().isEmpty());
}

void TestEngine::recovery_killsLeftoverProcessAndRetries()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task task = addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell,
                        QStringLiteral("echo again"));
    task.maxRetries = 1;
    QVERIFY(TaskRepository(t.store()).update(task));
    // What a dead engine left: a run in progress and the process group of its task.
    QProcess leftover; // stands for the task a dead engine left running
    startLeftover(leftover);
    const qint64 pid = leftover.processId();
    QVERIFY(processinfo::isAlive(pid));
    const Run left = insertLeftRun(t.store(), chain.id, task.id, pid, processinfo::startTicks(pid));

    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(left.id)->state), 10000);
    QCOMPARE(RunRepository(t.store()).byId(left.id)->state, RunState::Succeeded);
    const QList<TaskRun> attempts = attemptsOf(t.store(), left.id, task.id);
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).state, RunState::Interrupted);
    QCOMPARE(attempts.at(1).attempt, 2);
    QCOMPARE(attempts.at(1).state, RunState::Succeeded);
    // Killed by the engine's recovery (it may be reaped already, so no waitForFinished()).
    QTRY_COMPARE_WITH_TIMEOUT(leftover.state(), QProcess::NotRunning, 5000);
    QCOMPARE(leftover.exitStatus(), QProcess::CrashExit);
    QVERIFY(!processinfo::isAlive(pid));
}

void TestEngine::recovery_leavesAReusedPidAlone()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task task =
        addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Shell, QStringLiteral("true"));
    QProcess leftover; // stands for the task a dead engine left running
    startLeftover(leftover);
    const qint64 pid = leftover.processId();
    QVERIFY(processinfo::isAlive(pid));
    // Recorded with another start time: another process had this pid then.
    const Run left =
        insertLeftRun(t.store(), chain.id, task.id, pid, processinfo::startTicks(pid) - 1);
    Harness h = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(left.id)->state), 10000);
    QCOMPARE(RunRepository(t.store()).byId(left.id)->state, RunState::Failed); // no retries left
    QVERIFY(processinfo::isAlive(pid)); // still alive: not ours to kill
    leftover.kill();
    leftover.waitForFinished();
}

void TestEngine::secondEngine_isRefusedOnSqlite()
{
    HG_TEST_STORE(t);
    Harness first = startEngine(t, QDateTime::currentMSecsSinceEpoch());
    QVERIFY(first.engine->isRunning());
    EngineConfig config;
    config.storeLocation = t.location().sqlitePath();
    config.name = QStringLiteral("second");
    Engine second(config);
    QSignalSpy failed(&second, &Engine::startFailed);
    second.start();
    QCOMPARE(failed.size(), 1);
    QVERIFY2(failed.first().first().toString().contains(QLatin1String("already serves")),
             qPrintable(failed.first().first().toString()));
}

qint64 TestEngine::berlinChain(Store &store, const QString &name, const QString &expression)
{
    const Chain chain = test::makeChain(store, QStringLiteral("p"), name);
    addTask(store, chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = expression;
    schedule.timeZone = QStringLiteral("Europe/Berlin");
    schedule.misfire = MisfirePolicy::Skip; // every fire must come from the timer path
    if (!ScheduleRepository(store).add(schedule))
        return 0;
    return chain.id;
}

void TestEngine::walkClock(Harness &h, qint64 fromMs, qint64 toMs)
{
    for (qint64 ms = fromMs; ms <= toMs; ms += 30000) {
        h.clock->setMs(ms);
        h.engine->checkDue();
    }
}

QStringList TestEngine::scheduledTimes(Store &store, qint64 chainId)
{
    RunFilter filter;
    filter.chainId = chainId;
    QStringList times;
    for (const Run &run : RunRepository(store).list(filter).value())
        times.prepend(run.scheduledFor.toUTC().toString(Qt::ISODate));
    return times;
}

void TestEngine::dst_springForwardFiresOnceAfterTheGap()
{
    HG_TEST_STORE(t);
    // Europe/Berlin skips 02:00-03:00 on 28 March 2027: 02:30 does not exist that night.
    const qint64 chain = berlinChain(t.store(), QStringLiteral("c"), QStringLiteral("30 2 * * *"));
    QVERIFY(chain > 0);
    const qint64 start = QDateTime(QDate(2027, 3, 27), QTime(22, 0), Qt::UTC).toMSecsSinceEpoch();
    Harness h = startEngine(t, start);
    QVERIFY(h.engine->isRunning());
    walkClock(h, start, start + 30 * 3600000); // to 29 March 04:00 UTC
    QCOMPARE(scheduledTimes(t.store(), chain),
             QStringList({QStringLiteral("2027-03-28T01:00:00Z"),    // 03:00 CEST, after the gap
                          QStringLiteral("2027-03-29T00:30:00Z")})); // 02:30 CEST
}

void TestEngine::dst_fallBackRunsFixedTimesOnceAndHourlyTwice()
{
    HG_TEST_STORE(t);
    // Europe/Berlin repeats 02:00-03:00 on 31 October 2027 (first CEST, then CET).
    const qint64 fixed =
        berlinChain(t.store(), QStringLiteral("fixed"), QStringLiteral("30 2 * * *"));
    const qint64 hourly =
        berlinChain(t.store(), QStringLiteral("hourly"), QStringLiteral("30 * * * *"));
    QVERIFY(fixed > 0 && hourly > 0);
    const qint64 start = QDateTime(QDate(2027, 10, 30), QTime(23, 0), Qt::UTC).toMSecsSinceEpoch();
    Harness h = startEngine(t, start);
    walkClock(h, start, start + 3 * 3600000); // to 31 October 02:00 UTC (03:00 CET)
    QCOMPARE(scheduledTimes(t.store(), fixed),
             QStringList{QStringLiteral("2027-10-31T00:30:00Z")}); // the first 02:30 only
    QCOMPARE(scheduledTimes(t.store(), hourly),
             QStringList({QStringLiteral("2027-10-30T23:30:00Z"),    // 01:30 CEST
                          QStringLiteral("2027-10-31T00:30:00Z"),    // 02:30 CEST
                          QStringLiteral("2027-10-31T01:30:00Z")})); // 02:30 CET
}

HG_BACKEND_TEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
