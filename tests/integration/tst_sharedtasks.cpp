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
#include <QFileInfo>
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
    // Engines a and b of one slot each (lease 2 s) and a run of two tasks: t1 holds the run's
    // engine's slot until the test opens gate t1, so t2 waits, is offered, and the other engine
    // claims it; t2's first attempt waits at gate t2, then each attempt writes t2.ATTEMPT to
    // the ledger (t1 writes t1). False when t2 did not start on the other engine.
    bool offerSecondTask(const QString &chainName, Run *run);
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

bool TestSharedTasks::offerSecondTask(const QString &chainName, Run *run)
{
    const QString ledgerPath = path(QStringLiteral("ledger"));
    const qint64 chainId = chainWithTasks(
        chainName,
        {QStringLiteral("%1; echo t1 >> %2").arg(gate(QStringLiteral("t1")), ledgerPath),
         QStringLiteral("if [ \"$HOURGLASS_ATTEMPT\" = 1 ]; then %1; fi; "
                        "echo t2.$HOURGLASS_ATTEMPT >> %2")
             .arg(gate(QStringLiteral("t2")), ledgerPath)},
        1);
    if (chainId == 0)
        return false;
    m_engines.push_back(serve(QStringLiteral("a"), 2, 1));
    m_engines.push_back(serve(QStringLiteral("b"), 2, 1));
    if (!QTest::qWaitFor(
            [&] {
                return serving({QStringLiteral("a"), QStringLiteral("b")});
            },
            30000))
        return false;
    *run = startRun(chainId);
    return run->id > 0
           && QTest::qWaitFor(
               [&] { return attemptElsewhere(*run, QStringLiteral("t2")).has_value(); }, 30000);
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
    // two and offers the four that wait for a slot; the other engine, idle, runs some. All
    // wait at the gate until the other engine runs one: its slots free up only then.
    const QString ledgerPath = path(QStringLiteral("ledger"));
    QStringList commands;
    for (int i = 0; i < 6; ++i)
        commands << QStringLiteral("echo $HOURGLASS_TASK.$HOURGLASS_ATTEMPT >> %1; %2")
                        .arg(ledgerPath, gate(QStringLiteral("go")));
    const qint64 chainId = chainWithTasks(QStringLiteral("wide"), commands);
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 30, 2));
    m_engines.push_back(serve(QStringLiteral("b"), 30, 2));
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a"), QStringLiteral("b")}), 30000);
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    const auto elsewhere = [&] {
        const QString owner = RunRepository(*m_store).byId(run.id)->engineName;
        const QList<TaskRun> attempts = TaskRunRepository(*m_store).listForRun(run.id).value();
        return std::count_if(attempts.cbegin(), attempts.cend(), [&](const TaskRun &attempt) {
            return !attempt.workerName.isEmpty() && attempt.workerName != owner;
        });
    };
    QTRY_VERIFY2_WITH_TIMEOUT(
        elsewhere() >= 1, "tasks of one run ran on the engine that did not claim the run", 30000);
    openGate(QStringLiteral("go"));
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              60000);
    for (auto &engine : m_engines) // stopped: nothing can add a duplicate after this
        stopEngine(*engine);
    const QList<TaskRun> attempts = TaskRunRepository(*m_store).listForRun(run.id).value();
    QCOMPARE(attempts.size(), 6);
    for (const TaskRun &attempt : attempts) {
        QCOMPARE(attempt.state, RunState::Succeeded);
        QCOMPARE(attempt.attempt, 1);
    }
    QVERIFY(elsewhere() >= 1);
    QStringList lines = ledger();
    lines.sort();
    QCOMPARE(lines,
             (QStringList{QStringLiteral("t1.1"), QStringLiteral("t2.1"), QStringLiteral("t3.1"),
                          QStringLiteral("t4.1"), QStringLiteral("t5.1"), QStringLiteral("t6.1")}));
}

void TestSharedTasks::offeredAttempt_workerKilled_isInterruptedAndRetried()
{
    // The engine running t2 for the run's engine is killed mid-attempt; once its lease ran out,
    // recovery interrupts the attempt (killing its process) and the run's engine retries t2.
    // Attempt 1 waits at its gate, never opened: only the kill can end it.
    Run run;
    QVERIFY(offerSecondTask(QStringLiteral("retried"), &run));
    const TaskRun first = *attemptElsewhere(run, QStringLiteral("t2"));
    QProcess *worker = engineNamed(first.workerName);
    QVERIFY(worker);
    worker->kill();
    QVERIFY(worker->waitForFinished(30000));
    openGate(QStringLiteral("t1"));

    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              60000);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(first.pid), 30000);
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
    // Both tasks far outlast any wait here: only the stop ends them.
    const qint64 chainId = chainWithTasks(
        QStringLiteral("stopped"), {QStringLiteral("sleep 600"), QStringLiteral("sleep 600")});
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 30, 1));
    m_engines.push_back(serve(QStringLiteral("b"), 30, 1));
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a"), QStringLiteral("b")}), 30000);
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    QTRY_VERIFY_WITH_TIMEOUT(attemptElsewhere(run, QStringLiteral("t2")).has_value(), 30000);
    const TaskRun hosted = *attemptElsewhere(run, QStringLiteral("t2"));
    Command stop;
    stop.kind = CommandKind::Stop;
    stop.runId = run.id;
    stop.targetEngine = RunRepository(*m_store).byId(run.id)->engineName;
    QVERIFY(CommandRepository(*m_store).enqueue(stop));

    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Cancelled,
                              30000);
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
    // was interrupted and retried meanwhile, and the worker's late end must not land. Attempt 1
    // waits at its gate, never opened: it cannot end before the takeover.
    Run run;
    QVERIFY(offerSecondTask(QStringLiteral("paused"), &run));
    const TaskRun first = *attemptElsewhere(run, QStringLiteral("t2"));
    QProcess *worker = engineNamed(first.workerName);
    QVERIFY(worker);
    const std::optional<EngineSession> paused = liveSession(first.workerName);
    QVERIFY(paused);
    ::kill(pid_t(worker->processId()), SIGSTOP);
    openGate(QStringLiteral("t1"));
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              60000);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(first.pid), 30000); // recovery killed it
    ::kill(pid_t(worker->processId()), SIGCONT);
    // The worker wakes, finds its session gone (fenced out: what it held is dropped), and
    // registers anew; only then is it sure to have written all it ever will.
    QTRY_VERIFY_WITH_TIMEOUT(liveSession(first.workerName)
                                 && liveSession(first.workerName)->epoch > paused->epoch,
                             30000);

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
    // that attempt (which engine runs it) and its output live. t1 holds the window's slot and
    // t2 waits after its first line until the test opens their gates: the order is certain.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("another thread")));
    const qint64 chainId =
        chainWithTasks(QStringLiteral("offered"),
                       {gate(QStringLiteral("t1")), QStringLiteral("echo hosted line; %1; echo "
                                                                   "last line")
                                                        .arg(gate(QStringLiteral("t2")))});
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
    // The context of the connections below goes before what they fill: no signal queued from
    // the engine's thread reaches them afterwards, whichever way this function returns.
    QObject receiver;
    connect(window.engine(), &Engine::taskRunChanged, &receiver,
            [&](const TaskRun &attempt) { attempts << attempt; });
    connect(window.engine(), &Engine::logLinesWritten, &receiver, [&](const QList<LogLine> &lines) {
        for (const LogLine &line : lines) {
            if (line.runId == runId)
                shown << line.text;
        }
    });
    QSignalSpy started(&window, &EngineHost::started);
    window.start();
    QVERIFY(started.wait(30000));
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    runId = run.id;
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->engineName,
                              QStringLiteral("window"), 30000);
    m_engines.push_back(serve(QStringLiteral("b"), 30, 1));
    const auto toldRunningOn = [&](const QString &engine) {
        return std::any_of(attempts.cbegin(), attempts.cend(), [&](const TaskRun &attempt) {
            return attempt.runId == run.id && attempt.state == RunState::Running
                   && attempt.workerName == engine;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(toldRunningOn(QStringLiteral("b")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains(QStringLiteral("hosted line")), 30000);
    QVERIFY(!shown.contains(QStringLiteral("last line"))); // live, not when reread at the end
    openGate(QStringLiteral("t2"));
    openGate(QStringLiteral("t1"));
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              60000);
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains(QStringLiteral("last line")), 30000);
    // The look that showed the last line read the last ids again (commits may fill them in):
    // the hosted line among them was not told twice.
    QCOMPARE(shown.count(QStringLiteral("hosted line")), 1);
    window.shutdown(Engine::ExitPolicy::Stop);
    QVERIFY(window.waitForStopped(30000));
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
    const QStringList names{QStringLiteral("e1"), QStringLiteral("e2"), QStringLiteral("e3")};
    for (const QString &name : names)
        m_engines.push_back(serve(name, 30, 2));
    QTRY_VERIFY_WITH_TIMEOUT(serving(names), 30000);
    (void)m_store->transaction([&]() -> Status {
        for (int i = 0; i < runCount; ++i)
            startRun(chainId);
        return {};
    });
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal(), 180000);
    for (auto &engine : m_engines) // stopped: nothing can add a duplicate after this
        stopEngine(*engine);
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
}

void TestSharedTasks::serverRestart_whileAnotherEngineRunsATask_endsItOnce()
{
    // t2 runs on the engine that did not claim the run when the server goes away, and ends
    // while it is away (the test opens its gate then, and waits until its engine has reaped
    // it): its end is held there and written once the server is back, and the run's engine
    // reads it.
    Run run;
    QVERIFY(offerSecondTask(QStringLiteral("restarted"), &run));
    const TaskRun hosted = *attemptElsewhere(run, QStringLiteral("t2"));
    openGate(QStringLiteral("t1"));
    m_store.reset();           // the test's own connection would only be cut too
    QVERIFY(m_server->stop()); // immediate: every connection dropped at once, as in a crash
    openGate(QStringLiteral("t2"));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(QStringLiteral("/proc/%1").arg(hosted.pid)), 30000);
    QVERIFY(m_server->startAgain());
    Result<std::unique_ptr<Store>> store = Store::open(
        StoreLocation::parse(m_server->url().toString()).value(), QStringLiteral("test"));
    QVERIFY(store);
    m_store = std::move(store.value());
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              60000);
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
    // All three wait at the gate: t1 holds a's slot however slowly the window starts.
    const QString waits = gate(QStringLiteral("go"));
    const qint64 chainId = chainWithTasks(QStringLiteral("helped"), {waits, waits, waits});
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 30, 1));
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a")}), 30000);
    const Run run = startRun(chainId);
    QVERIFY(run.id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->engineName, QStringLiteral("a"),
                              30000);
    EngineConfig config;
    config.storeLocation = m_server->url().toString();
    config.name = QStringLiteral("window");
    config.graceMs = 500;
    config.slotCount = 2;
    config.tellRunsElsewhere = true;
    EngineHost window(config);
    QList<int> counts;
    QObject receiver; // goes before counts, and with it what the engine's thread still queued
    connect(window.engine(), &Engine::hostedTasksChanged, &receiver,
            [&](int count) { counts << count; });
    QSignalSpy started(&window, &EngineHost::started);
    window.start();
    QVERIFY(started.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(counts.contains(2), 30000);
    openGate(QStringLiteral("go"));
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(run.id)->state, RunState::Succeeded,
                              60000);
    QTRY_COMPARE_WITH_TIMEOUT(counts.last(), 0, 30000);
    int byWindow = 0;
    for (const TaskRun &attempt : TaskRunRepository(*m_store).listForRun(run.id).value())
        byWindow += attempt.workerName == QStringLiteral("window") ? 1 : 0;
    QCOMPARE(byWindow, 2);
    window.shutdown(Engine::ExitPolicy::Stop);
    QVERIFY(window.waitForStopped(30000));
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

QTEST_GUILESS_MAIN(TestSharedTasks)
#include "tst_sharedtasks.moc"
