#include "base/epochtime.h"
#include "base/processinfo.h"
#include "scheduler/engine.h"
#include "scheduler/enginehost.h"
#include "sharedstoretest.h"
#include "store/chainrepository.h"
#include "store/commandrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <optional>

using namespace hg;

// Tasks spread over the engines of one store (TaskRunOffers): a task that waits for a slot on
// its run's engine is offered, and another engine runs it. Each runs exactly once; the engine
// that runs it can die, be paused past its lease, or see the server restart; a stop reaches it;
// a window sees it live and counts what its own engine runs for others.
class TestSharedTasks final : public SharedStoreTest
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUp(); }
    void cleanup() { tearDown(); }
    void readyTasks_spreadOverEngines_eachRunOnce();
    void offeredAttempt_workerKilled_isInterruptedAndRetried();
    void stoppedRun_stopsItsAttemptOnAnotherEngine();
    void offeredAttempt_workerPaused_isFencedAndRetried();
    void window_showsItsRunsTaskRunningElsewhereLive();
    void threeBusyEngines_runEveryTaskExactlyOnce();
    void serverRestart_whileAnotherEngineRunsATask_endsItOnce();
    void window_countsTheTasksItRunsForOtherEngines();

private:
    // The attempt of task `taskName` that another engine than the run's claimed and started.
    std::optional<TaskRun> attemptElsewhere(const Run &run, const QString &taskName) const;
    QProcess *engineNamed(const QString &name) const;
    // Engines a and b of one slot each (lease 2 s) and a run of two tasks: t1 (4 s) runs on the
    // run's engine, t2 is offered and the other engine claims it; t2's first attempt sleeps
    // `seconds`, then each attempt writes t2.ATTEMPT to the ledger. False when t2 did not start
    // on the other engine within 15 s.
    bool offerSecondTask(const QString &chainName, int seconds, Run *run);
    QList<TaskRun> attemptsOf(const Run &run, const QString &taskName) const;
};

std::optional<TaskRun> TestSharedTasks::attemptElsewhere(const Run &run,
                                                         const QString &taskName) const
{
    const Result<Run> now = RunRepository(*m_store).byId(run.id);
    const Result<Task> task = TaskRepository(*m_store).byName(run.chainId, taskName);
    if (!now || !task)
        return std::nullopt;
    for (const TaskRun &attempt : TaskRunRepository(*m_store).listForRun(run.id).value()) {
        if (attempt.taskId == task->id && attempt.pid > 0 && !attempt.workerName.isEmpty()
            && attempt.workerName != now->engineName)
            return attempt;
    }
    return std::nullopt;
}

bool TestSharedTasks::offerSecondTask(const QString &chainName, int seconds, Run *run)
{
    const QString ledgerPath = path(QStringLiteral("ledger"));
    const qint64 chainId =
        chainWithTasks(chainName,
                       {QStringLiteral("sleep 4; echo t1 >> %1").arg(ledgerPath),
                        QStringLiteral("if [ \"$HOURGLASS_ATTEMPT\" = 1 ]; then sleep %2; fi; "
                                       "echo t2.$HOURGLASS_ATTEMPT >> %1")
                            .arg(ledgerPath)
                            .arg(seconds)},
                       1);
    if (chainId == 0)
        return false;
    m_engines.push_back(serve(QStringLiteral("a"), 2, 1));
    m_engines.push_back(serve(QStringLiteral("b"), 2, 1));
    QTest::qWait(1500);
    *run = startRun(chainId);
    return run->id > 0
           && QTest::qWaitFor(
               [&] { return attemptElsewhere(*run, QStringLiteral("t2")).has_value(); }, 15000);
}

QList<TaskRun> TestSharedTasks::attemptsOf(const Run &run, const QString &taskName) const
{
    const Result<Task> task = TaskRepository(*m_store).byName(run.chainId, taskName);
    QList<TaskRun> attempts;
    for (const TaskRun &attempt : TaskRunRepository(*m_store).listForRun(run.id).value()) {
        if (task && attempt.taskId == task->id)
            attempts << attempt;
    }
    return attempts;
}

QProcess *TestSharedTasks::engineNamed(const QString &name) const
{
    for (const auto &engine : m_engines) {
        if (engine->objectName() == name)
            return engine.get();
    }
    return nullptr;
}

void TestSharedTasks::readyTasks_spreadOverEngines_eachRunOnce()
{
    // Six tasks side by side in one run, on engines of two slots each: the run's engine runs
    // two and offers the four that waited for a slot; the other engine, idle, runs some.
    const QString ledgerPath = path(QStringLiteral("ledger"));
    QStringList commands;
    for (int i = 0; i < 6; ++i)
        commands << QStringLiteral("echo $HOURGLASS_TASK.$HOURGLASS_ATTEMPT >> %1; sleep 2")
                        .arg(ledgerPath);
    const qint64 chainId = chainWithTasks(QStringLiteral("wide"), commands);
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 30, 2));
    m_engines.push_back(serve(QStringLiteral("b"), 30, 2));
    QTest::qWait(1500); // both registered
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              30000);
    const QString owner = RunRepository(*m_store).byId(run.id)->engineName;
    const QList<TaskRun> attempts = TaskRunRepository(*m_store).listForRun(run.id).value();
    QCOMPARE(attempts.size(), 6);
    int elsewhere = 0;
    for (const TaskRun &attempt : attempts) {
        QCOMPARE(attempt.state, RunState::Succeeded);
        QCOMPARE(attempt.attempt, 1);
        if (!attempt.workerName.isEmpty() && attempt.workerName != owner)
            ++elsewhere;
    }
    QVERIFY2(elsewhere >= 1, "tasks of one run ran on the engine that did not claim the run");
    QTest::qWait(500); // a second chance for a duplicate to show
    QStringList lines = ledger();
    lines.sort();
    QCOMPARE(lines,
             (QStringList{QStringLiteral("t1.1"), QStringLiteral("t2.1"), QStringLiteral("t3.1"),
                          QStringLiteral("t4.1"), QStringLiteral("t5.1"), QStringLiteral("t6.1")}));
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedTasks::offeredAttempt_workerKilled_isInterruptedAndRetried()
{
    // The engine running t2 for the run's engine is killed mid-attempt; once its lease ran out,
    // recovery interrupts the attempt (killing its process) and the run's engine retries t2.
    Run run;
    QVERIFY(offerSecondTask(QStringLiteral("retried"), 30, &run));
    const TaskRun first = *attemptElsewhere(run, QStringLiteral("t2"));
    QProcess *worker = engineNamed(first.workerName);
    QVERIFY(worker);
    worker->kill();
    worker->waitForFinished(5000);

    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              30000);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(first.pid), 5000);
    const QList<TaskRun> attempts = attemptsOf(run, QStringLiteral("t2"));
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).state, RunState::Interrupted);
    QCOMPARE(attempts.at(0).workerName, first.workerName);
    QCOMPARE(attempts.at(1).state, RunState::Succeeded);
    QStringList lines = ledger();
    lines.sort();
    QCOMPARE(lines, (QStringList{QStringLiteral("t1"), QStringLiteral("t2.2")}));
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedTasks::stoppedRun_stopsItsAttemptOnAnotherEngine()
{
    const qint64 chainId = chainWithTasks(QStringLiteral("stopped"),
                                          {QStringLiteral("sleep 30"), QStringLiteral("sleep 30")});
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 30, 1));
    m_engines.push_back(serve(QStringLiteral("b"), 30, 1));
    QTest::qWait(1500);
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    QTRY_VERIFY_WITH_TIMEOUT(attemptElsewhere(run, QStringLiteral("t2")).has_value(), 15000);
    const TaskRun hosted = *attemptElsewhere(run, QStringLiteral("t2"));
    Command stop;
    stop.kind = CommandKind::Stop;
    stop.runId = run.id;
    stop.targetEngine = RunRepository(*m_store).byId(run.id)->engineName;
    QVERIFY(CommandRepository(*m_store).enqueue(stop));

    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Cancelled,
                              15000);
    QVERIFY(!processinfo::isAlive(hosted.pid));
    for (const TaskRun &attempt : TaskRunRepository(*m_store).listForRun(run.id).value()) {
        QCOMPARE(attempt.state, RunState::Cancelled);
        QVERIFY(!processinfo::isAlive(attempt.pid));
    }
    for (auto &engine : m_engines) {
        stopEngine(*engine);
        QCOMPARE(engine->exitCode(), 0);
    }
}

void TestSharedTasks::offeredAttempt_workerPaused_isFencedAndRetried()
{
    // As above, but the worker is paused (SIGSTOP) past its lease and then resumed: the attempt
    // was interrupted and retried meanwhile, and the worker's late end must not land.
    Run run;
    QVERIFY(offerSecondTask(QStringLiteral("paused"), 6, &run));
    const TaskRun first = *attemptElsewhere(run, QStringLiteral("t2"));
    QProcess *worker = engineNamed(first.workerName);
    QVERIFY(worker);
    ::kill(pid_t(worker->processId()), SIGSTOP);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              30000);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(first.pid), 5000); // recovery killed it
    ::kill(pid_t(worker->processId()), SIGCONT);
    QTest::qWait(3000); // the worker wakes, finds its session gone, and writes nothing

    const QList<TaskRun> attempts = attemptsOf(run, QStringLiteral("t2"));
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).state, RunState::Interrupted);
    QCOMPARE(attempts.at(1).state, RunState::Succeeded);
    QCOMPARE(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded);
    QStringList lines = ledger();
    lines.sort();
    QCOMPARE(lines, (QStringList{QStringLiteral("t1"), QStringLiteral("t2.2")}));
    QVERIFY(worker->state() == QProcess::Running); // registered anew and serves on
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedTasks::window_showsItsRunsTaskRunningElsewhereLive()
{
    // A window's engine of one slot (in its own thread, as the desktop application runs it)
    // owns the run; its second task waits, is offered and runs on a `serve`: the window shows
    // that attempt (which engine runs it) and its output live.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("another thread")));
    const qint64 chainId = chainWithTasks(
        QStringLiteral("offered"),
        {QStringLiteral("sleep 4"), QStringLiteral("echo hosted line; sleep 2; echo last line")});
    QVERIFY(chainId > 0);
    EngineConfig config;
    config.storeLocation = m_server->url().toString();
    config.name = QStringLiteral("window");
    config.graceMs = 500;
    config.slotCount = 1;
    config.tellRunsElsewhere = true;
    EngineHost window(config);
    QList<TaskRun> attempts;
    QStringList shown;
    qint64 runId = 0;
    connect(window.engine(), &Engine::taskRunChanged, this,
            [&](const TaskRun &attempt) { attempts << attempt; });
    connect(window.engine(), &Engine::logLinesWritten, this, [&](const QList<LogLine> &lines) {
        for (const LogLine &line : lines) {
            if (line.runId == runId)
                shown << line.text;
        }
    });
    QSignalSpy started(&window, &EngineHost::started);
    window.start();
    QVERIFY(started.wait(10000));
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    runId = run.id;
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->engineName,
                              QStringLiteral("window"), 10000);
    m_engines.push_back(serve(QStringLiteral("b"), 30, 1));
    const auto toldRunningOn = [&](const QString &engine) {
        return std::any_of(attempts.cbegin(), attempts.cend(), [&](const TaskRun &attempt) {
            return attempt.runId == run.id && attempt.state == RunState::Running
                   && attempt.workerName == engine;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(toldRunningOn(QStringLiteral("b")), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains(QStringLiteral("hosted line")), 10000);
    QVERIFY(!shown.contains(QStringLiteral("last line"))); // live, not when reread at the end
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              20000);
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains(QStringLiteral("last line")), 5000);
    QTest::qWait(500);
    QCOMPARE(shown.count(QStringLiteral("hosted line")), 1);
    window.shutdown(Engine::ExitPolicy::Stop);
    QVERIFY(window.waitForStopped(10000));
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedTasks::threeBusyEngines_runEveryTaskExactlyOnce()
{
    // Three engines of two slots, 40 runs of four tasks: every engine is busy with runs of its
    // own, tasks wait, are offered, and are claimed wherever a slot frees, in contention.
    constexpr int runCount = 40;
    const QString ledgerPath = path(QStringLiteral("ledger"));
    const QString command =
        QStringLiteral("echo $HOURGLASS_RUN_ID.$HOURGLASS_TASK.$HOURGLASS_ATTEMPT >> %1; sleep 0.3")
            .arg(ledgerPath);
    const qint64 chainId =
        chainWithTasks(QStringLiteral("busy"), {command, command, command, command});
    QVERIFY(chainId > 0);
    for (const QString &name : {QStringLiteral("e1"), QStringLiteral("e2"), QStringLiteral("e3")})
        m_engines.push_back(serve(name, 30, 2));
    QTest::qWait(1500);
    (void)m_store->transaction([&]() -> Status {
        for (int i = 0; i < runCount; ++i)
            startRun(chainId);
        return {};
    });
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal(), 90000);
    QTest::qWait(1000); // a second chance for a duplicate to show
    const QStringList lines = ledger();
    QCOMPARE(lines.size(), runCount * 4);
    QCOMPARE(QSet<QString>(lines.cbegin(), lines.cend()).size(), runCount * 4);
    QHash<qint64, QString> taskNames;
    for (const Task &task : TaskRepository(*m_store).list(chainId).value())
        taskNames.insert(task.id, task.name);
    int elsewhere = 0;
    for (const Run &run : runs()) {
        QCOMPARE(run.state, RunState::Succeeded);
        const QList<TaskRun> attempts = TaskRunRepository(*m_store).listForRun(run.id).value();
        QCOMPARE(attempts.size(), 4);
        for (const TaskRun &attempt : attempts) {
            QCOMPARE(attempt.attempt, 1);
            QVERIFY(lines.contains(
                QStringLiteral("%1.%2.1").arg(run.id).arg(taskNames.value(attempt.taskId))));
            if (!attempt.workerName.isEmpty() && attempt.workerName != run.engineName)
                ++elsewhere;
        }
    }
    QVERIFY2(elsewhere > 0, "some tasks ran on another engine than their run's");
    qInfo("%d of %d tasks ran on another engine than their run's", elsewhere, runCount * 4);
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedTasks::serverRestart_whileAnotherEngineRunsATask_endsItOnce()
{
    // t2 runs on the engine that did not claim the run when the server restarts: its end is
    // held there and written once the server is back, and the run's engine reads it.
    Run run;
    QVERIFY(offerSecondTask(QStringLiteral("restarted"), 3, &run));
    m_store.reset(); // the test's own connection would only be cut too
    QVERIFY(m_server->restartImmediately());
    Result<std::unique_ptr<Store>> store = Store::open(
        StoreLocation::parse(m_server->url().toString()).value(), QStringLiteral("test"));
    QVERIFY(store);
    m_store = std::move(store.value());
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              40000);
    const QList<TaskRun> attempts = attemptsOf(run, QStringLiteral("t2"));
    QCOMPARE(attempts.size(), 1);
    QCOMPARE(attempts.first().state, RunState::Succeeded);
    QVERIFY(!attempts.first().workerName.isEmpty());
    QStringList lines = ledger();
    lines.sort();
    QCOMPARE(lines, (QStringList{QStringLiteral("t1"), QStringLiteral("t2.1")}));
    for (auto &engine : m_engines) {
        stopEngine(*engine);
        QCOMPARE(engine->exitCode(), 0);
    }
}

void TestSharedTasks::window_countsTheTasksItRunsForOtherEngines()
{
    // A `serve` of one slot owns a run of three tasks; the window's engine (its own thread, two
    // slots) takes the two that wait, and says how many it runs for others (the status bar).
    const qint64 chainId = chainWithTasks(
        QStringLiteral("helped"),
        {QStringLiteral("sleep 3"), QStringLiteral("sleep 3"), QStringLiteral("sleep 3")});
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 30, 1));
    QTest::qWait(1500);
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->engineName, QStringLiteral("a"),
                              10000);
    EngineConfig config;
    config.storeLocation = m_server->url().toString();
    config.name = QStringLiteral("window");
    config.graceMs = 500;
    config.slotCount = 2;
    config.tellRunsElsewhere = true;
    EngineHost window(config);
    QList<int> counts;
    connect(window.engine(), &Engine::hostedTasksChanged, this,
            [&](int count) { counts << count; });
    QSignalSpy started(&window, &EngineHost::started);
    window.start();
    QVERIFY(started.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(counts.contains(2), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              20000);
    QTRY_COMPARE_WITH_TIMEOUT(counts.last(), 0, 5000);
    int byWindow = 0;
    for (const TaskRun &attempt : TaskRunRepository(*m_store).listForRun(run.id).value())
        byWindow += attempt.workerName == QStringLiteral("window") ? 1 : 0;
    QCOMPARE(byWindow, 2);
    window.shutdown(Engine::ExitPolicy::Stop);
    QVERIFY(window.waitForStopped(10000));
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

QTEST_GUILESS_MAIN(TestSharedTasks)
#include "tst_sharedtasks.moc"
