#include "base/epochtime.h"
#include "base/processinfo.h"
#include "executors/taskprocesses.h"
#include "scheduler/engine.h"
#include "scheduler/enginehost.h"
#include "sharedstoretest.h"
#include "store/chainrepository.h"
#include "store/commandrepository.h"
#include "store/enginesessionrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <optional>
#include <unistd.h>

using namespace hg;

// Several `hourglass serve` processes on one store: runs happen exactly once, nothing is lost
// across a server restart, a paused engine is fenced, limits hold across engines, SIGTERM works
// while the server is away, and a window sees other engines' runs live.
class TestSharedStore final : public SharedStoreTest
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUp(); }
    void cleanup() { tearDown(); }
    void threeEngines_runEveryOneShotExactlyOnce();
    void serverRestart_underTwoEngines_losesNothingAndResumes();
    void stoppedEngine_isFencedAndItsAttemptRetried();
    void maxInstancesAndExclusive_holdAcrossEngines();
    void sigterm_duringOutage_endsWithinGrace();
    void runWait_onAServedRun_outlivesAServerRestart();
    void killedEngine_itsTasksEscapedChildDiesAtTakeover();
    void window_showsAnotherEnginesAttemptsAndOutputLive();
    void runWaitEngine_heldBackByAnExclusiveRunElsewhere_startsWhenItEnds();
};

void TestSharedStore::threeEngines_runEveryOneShotExactlyOnce()
{
    constexpr int count = 300; // scripts/bench runs 10,000
    // Each run waits at the gate until every engine holds some: an engine takes at most twice
    // its slots of runs, so the first one up cannot take them all, however late the others.
    const qint64 chainId =
        chainWithTask(QStringLiteral("once"),
                      QStringLiteral("%1; echo $HOURGLASS_RUN_ID >> %2")
                          .arg(gate(QStringLiteral("go")), path(QStringLiteral("ledger"))));
    QVERIFY(chainId > 0);
    const QDateTime due = QDateTime::currentDateTimeUtc().addSecs(6);
    (void)m_store->transaction([&]() -> Status {
        for (int i = 0; i < count; ++i) {
            Schedule schedule;
            schedule.chainId = chainId;
            schedule.kind = ScheduleKind::Once;
            schedule.expression = due.toString(Qt::ISODateWithMs);
            if (const Result<Schedule> added = ScheduleRepository(*m_store).add(schedule); !added)
                return added.error();
        }
        return {};
    });
    for (const QString &name : {QStringLiteral("e1"), QStringLiteral("e2"), QStringLiteral("e3")})
        m_engines.push_back(serve(name));
    QTRY_COMPARE_WITH_TIMEOUT(runOwners().size(), 3, 60000);
    openGate(QStringLiteral("go"));

    QTRY_COMPARE_WITH_TIMEOUT(ledger().size(), count, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal(), 60000);
    for (auto &engine : m_engines) // stopped: nothing can add a duplicate after this
        stopEngine(*engine);
    const QStringList lines = ledger();
    QCOMPARE(lines.size(), count);
    QCOMPARE(QSet<QString>(lines.cbegin(), lines.cend()).size(), count);
    const QList<Run> all = runs();
    QCOMPARE(all.size(), count);
    QSet<QString> engines;
    for (const Run &run : all) {
        QCOMPARE(run.state, RunState::Succeeded);
        engines.insert(run.engineName);
    }
    QCOMPARE(engines.size(), 3); // the runs were spread over the engines
}

void TestSharedStore::serverRestart_underTwoEngines_losesNothingAndResumes()
{
    // Each run says it started; one that starts while the hold file exists waits until the
    // test removes it, so a run is in flight across the restart for certain.
    const QString hold = path(QStringLiteral("hold"));
    const qint64 chainId = chainWithTask(
        QStringLiteral("tick"),
        QStringLiteral("echo $HOURGLASS_RUN_ID >> %1; while [ -e %2 ]; do sleep 0.1; done; "
                       "sleep 1.5; echo $HOURGLASS_RUN_ID >> %3")
            .arg(path(QStringLiteral("started")), hold, path(QStringLiteral("ledger"))));
    QVERIFY(chainId > 0);
    Schedule schedule;
    schedule.chainId = chainId;
    schedule.expression = QStringLiteral("*/2 * * * * *");
    schedule.dialect = CronDialect::Seconds;
    QVERIFY(ScheduleRepository(*m_store).add(schedule));
    m_store.reset(); // the test's own connection would only be cut too
    m_engines.push_back(serve(QStringLiteral("a")));
    m_engines.push_back(serve(QStringLiteral("b")));
    QTRY_VERIFY_WITH_TIMEOUT(ledger().size() >= 2, 60000);
    QFile holding(hold);
    QVERIFY(holding.open(QIODevice::WriteOnly));
    holding.close();
    const qsizetype startedBefore = linesOf(QStringLiteral("started")).size();
    // A run that started after the hold was made waits at it: in flight through the restart.
    QTRY_VERIFY_WITH_TIMEOUT(linesOf(QStringLiteral("started")).size() > startedBefore, 30000);
    const QDateTime restartedAt = QDateTime::currentDateTimeUtc();
    QVERIFY(m_server->restartImmediately());
    QVERIFY(QFile::remove(hold));
    // Fires resume without anyone acting: runs scheduled after the restart run to their end.
    QTRY_VERIFY_WITH_TIMEOUT(ledger().size() >= 6, 60000);
    for (auto &engine : m_engines)
        stopEngine(*engine);
    for (auto &engine : m_engines) {
        QCOMPARE(engine->exitStatus(), QProcess::NormalExit);
        QCOMPARE(engine->exitCode(), 0);
    }

    Result<std::unique_ptr<Store>> store = Store::open(
        StoreLocation::parse(m_server->url().toString()).value(), QStringLiteral("test"));
    QVERIFY(store);
    m_store = std::move(store.value());
    const QStringList lines = ledger();
    QCOMPARE(QSet<QString>(lines.cbegin(), lines.cend()).size(), lines.size()); // none twice
    bool firedAfterRestart = false;
    for (const Run &run : runs()) {
        QVERIFY2(isTerminal(run.state),
                 qPrintable(QStringLiteral("run %1 is %2").arg(run.id).arg(enumName(run.state))));
        firedAfterRestart = firedAfterRestart || run.scheduledFor > restartedAt.addSecs(2);
        if (run.state == RunState::Succeeded)
            QVERIFY(lines.contains(QString::number(run.id)));
    }
    QVERIFY(firedAfterRestart);
}

void TestSharedStore::stoppedEngine_isFencedAndItsAttemptRetried()
{
    // Attempt 1 waits at a gate the test opens only once it was taken over: it can never end
    // first. Attempt 2 finishes at once.
    const qint64 chainId =
        chainWithTask(QStringLiteral("slow"),
                      QStringLiteral("if [ \"$HOURGLASS_ATTEMPT\" = 1 ]; then %1; fi; "
                                     "echo $HOURGLASS_RUN_ID.$HOURGLASS_ATTEMPT >> %2")
                          .arg(gate(QStringLiteral("first")), path(QStringLiteral("ledger"))),
                      1);
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 2));
    QProcess &a = *m_engines.back();
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a")}), 30000); // the run will be a's
    const qint64 firstEpoch = liveSession(QStringLiteral("a"))->epoch;
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    const Result<Run> inserted = RunRepository(*m_store).insert(run);
    QVERIFY(inserted);
    QTRY_VERIFY_WITH_TIMEOUT(
        TaskRunRepository(*m_store).listForRun(inserted->id)->size() == 1
            && TaskRunRepository(*m_store).listForRun(inserted->id)->first().pid > 0,
        30000);
    const qint64 firstPid = TaskRunRepository(*m_store).listForRun(inserted->id)->first().pid;
    ::kill(pid_t(a.processId()), SIGSTOP);
    m_engines.push_back(serve(QStringLiteral("b"), 2));
    // b takes a's session over once its lease ran out, kills attempt 1 (same host) and
    // runs attempt 2.
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(inserted->id)->state,
                              RunState::Succeeded, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(firstPid), 30000);
    ::kill(pid_t(a.processId()), SIGCONT);
    // a wakes up, finds its session gone (fenced out: what it held is dropped) and registers
    // anew; it must not have written anything.
    QTRY_VERIFY_WITH_TIMEOUT(liveSession(QStringLiteral("a"))
                                 && liveSession(QStringLiteral("a"))->epoch > firstEpoch,
                             30000);
    const auto firstRunAsTakenOver = [&] {
        const QList<TaskRun> attempts =
            TaskRunRepository(*m_store).listForRun(inserted->id).value();
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts.at(0).state, RunState::Interrupted);
        QCOMPARE(attempts.at(1).state, RunState::Succeeded);
        QCOMPARE(RunRepository(*m_store).byId(inserted->id)->state, RunState::Succeeded);
    };
    firstRunAsTakenOver();
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(ledger(), QStringList{QStringLiteral("%1.2").arg(inserted->id)});
    QVERIFY(a.state() == QProcess::Running); // a registered anew and serves on
    // ...for real: with b gone, a run queued now runs on a. Before, a's abandoned run (ended
    // as interrupted, no terminal state) kept its place in a for good: the run stayed queued,
    // and a ignored SIGTERM.
    stopEngine(*m_engines.back());
    openGate(QStringLiteral("first")); // attempt 1 of the next run goes straight through
    const Result<Run> again = RunRepository(*m_store).insert(run);
    QVERIFY(again);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(again->id)->state, RunState::Succeeded,
                              60000);
    QCOMPARE(RunRepository(*m_store).byId(again->id)->engineName, QStringLiteral("a"));
    firstRunAsTakenOver(); // still, now that a has run a whole run since it woke
    if (QTest::currentTestFailed())
        return;
    a.terminate();
    QVERIFY2(a.waitForFinished(30000), "a fenced engine did not stop on SIGTERM");
    QCOMPARE(a.exitStatus(), QProcess::NormalExit);
}

void TestSharedStore::maxInstancesAndExclusive_holdAcrossEngines()
{
    QDir(m_dir.path()).mkpath(QStringLiteral("running"));
    const QString running = path(QStringLiteral("running"));
    const QString bad = path(QStringLiteral("ledger")); // anything written here is an overlap
    // Every task first waits at the gate until both engines hold runs: an engine takes at most
    // twice its slots of runs, so the first one up cannot run them all before the other starts.
    const QString waits = gate(QStringLiteral("go"));
    // One at a time: two at once would find the other's mark.
    const qint64 limited =
        chainWithTask(QStringLiteral("limited"),
                      QStringLiteral("%3; ls %1 | grep -q limited && echo limited-overlap >> %2; "
                                     "touch %1/limited; sleep 0.4; rm %1/limited")
                          .arg(running, bad, waits),
                      0, 1);
    // Nothing beside it: it finds nothing running and nothing starts while it runs.
    const qint64 exclusive =
        chainWithTask(QStringLiteral("exclusive"),
                      QStringLiteral("%3; [ -z \"$(ls %1)\" ] || echo exclusive-overlap >> %2; "
                                     "touch %1/exclusive; sleep 0.4; rm %1/exclusive")
                          .arg(running, bad, waits),
                      0, 0, true);
    const qint64 plain = chainWithTask(
        QStringLiteral("plain"),
        QStringLiteral("%3; [ -e %1/exclusive ] && echo plain-overlap >> %2; touch %1/plain.$$; "
                       "sleep 0.2; rm %1/plain.$$")
            .arg(running, bad, waits));
    QVERIFY(limited > 0 && exclusive > 0 && plain > 0);
    (void)m_store->transaction([&]() -> Status {
        for (int i = 0; i < 6; ++i) {
            for (qint64 chainId : {limited, exclusive, plain, plain}) {
                Run run;
                run.chainId = chainId;
                run.trigger = RunTrigger::Manual;
                if (const Result<Run> added = RunRepository(*m_store).insert(run); !added)
                    return added.error();
            }
        }
        return {};
    });
    m_engines.push_back(serve(QStringLiteral("a")));
    m_engines.push_back(serve(QStringLiteral("b")));
    QTRY_COMPARE_WITH_TIMEOUT(runOwners().size(), 2, 60000);
    openGate(QStringLiteral("go"));
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal(), 120000);
    QCOMPARE(ledger(), QStringList());
    QSet<QString> engines;
    for (const Run &run : runs()) {
        QVERIFY2(run.state == RunState::Succeeded,
                 qPrintable(QStringLiteral("run %1 of chain %2 is %3 (engine '%4')")
                                .arg(run.id)
                                .arg(run.chainId)
                                .arg(enumName(run.state), run.engineName)));
        engines.insert(run.engineName);
    }
    QCOMPARE(engines.size(), 2); // both engines took part
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedStore::sigterm_duringOutage_endsWithinGrace()
{
    const QString pidFile = path(QStringLiteral("pid"));
    const qint64 chainId = chainWithTask(
        QStringLiteral("long"), QStringLiteral("echo $$ > %1; exec sleep 300").arg(pidFile));
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a")));
    QProcess &a = *m_engines.back();
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a")}), 30000);
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    QVERIFY(RunRepository(*m_store).insert(run));
    const auto taskPid = [&pidFile] {
        QFile file(pidFile);
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(taskPid() > 0, 30000);
    m_store.reset();
    QVERIFY(m_server->stop());
    // The engine noticed (its own words) and holds its writes.
    QTRY_VERIFY_WITH_TIMEOUT(said(a).contains("the store cannot be used"), 60000);
    QElapsedTimer clock;
    clock.start();
    a.terminate();
    QVERIFY(a.waitForFinished(60000));
    // The engine's own bound is its grace then its slack; the ceiling leaves a loaded machine
    // room on top. An engine that waited for the store would not end at all.
    const qint64 bound = EngineConfig().graceMs + Engine::shutdownSlackMs;
    qInfo("serve ended %lld ms after SIGTERM with the server away (its own bound: %lld ms)",
          clock.elapsed(), bound);
    QVERIFY2(clock.elapsed() < bound + 10000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(a.exitStatus(), QProcess::NormalExit);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(taskPid()), 30000);
    QVERIFY(m_server->startAgain());
}

void TestSharedStore::runWait_onAServedRun_outlivesAServerRestart()
{
    // The task waits for the test's word, so the restart falls inside the run for sure.
    const QString go = path(QStringLiteral("go"));
    const qint64 chainId =
        chainWithTask(QStringLiteral("gate"),
                      QStringLiteral("echo started >> %1; while [ ! -e %2 ]; do sleep 0.1; done; "
                                     "echo through the gate")
                          .arg(path(QStringLiteral("ledger")), go));
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a")));
    const auto engines = [this] {
        const Result<QList<EngineSession>> live =
            EngineSessionRepository(*m_store).live(QDateTime::currentDateTimeUtc());
        return live ? live->size() : -1;
    };
    QTRY_COMPARE_WITH_TIMEOUT(engines(), 1, 20000); // a serves: the run will be its
    QProcess waiter;
    waiter.start(QStringLiteral(HOURGLASS_BINARY),
                 {QStringLiteral("--db"), m_server->url().toString(), QStringLiteral("run"),
                  QStringLiteral("p/gate"), QStringLiteral("--wait")});
    QVERIFY(waiter.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(ledger(), QStringList{QStringLiteral("started")}, 20000);
    m_store.reset();
    QVERIFY(m_server->restartImmediately());
    QFile gate(go);
    QVERIFY(gate.open(QIODevice::WriteOnly));
    gate.close();
    // Before, the waiter took the store's outage for its engine's death, ran the run itself,
    // could not reach the store either, and exited 1 while the run succeeded.
    QVERIFY(waiter.waitForFinished(60000));
    const QString out = QString::fromUtf8(waiter.readAllStandardOutput());
    const QString err = QString::fromUtf8(waiter.readAllStandardError());
    QVERIFY2(waiter.exitStatus() == QProcess::NormalExit && waiter.exitCode() == 0,
             qPrintable(QStringLiteral("exit %1\n%2%3").arg(waiter.exitCode()).arg(out, err)));
    QVERIFY2(out.contains(QLatin1String("through the gate")), qPrintable(out));
    QVERIFY2(err.contains(QLatin1String("waiting for the store to come back")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("the store is back")), qPrintable(err));
    QVERIFY2(!err.contains(QLatin1String("runs it now")), qPrintable(err));
    // libpq's own notice of the shutdown is not printed beside Hourglass's line.
    QVERIFY2(!err.contains(QLatin1String("terminating connection")), qPrintable(err));
    QCOMPARE(ledger(), QStringList{QStringLiteral("started")}); // it ran once
}

void TestSharedStore::killedEngine_itsTasksEscapedChildDiesAtTakeover()
{
    HG_REQUIRE_PART(TaskProcesses::mechanism().startsWith(QLatin1String("cgroup")),
                    "no task cgroups here (no writable cgroup v2): a dead engine's escaped "
                    "children cannot be found");
    // The engines in a cgroup of this test's own: any other engine of this host (another
    // test's) would reap a's cgroup too once a is dead, and the test would prove nothing.
    const test::PrivateCgroup group(QStringLiteral("tst-sharedstore"));
    QVERIFY(group.isValid());
    const QString pidFile = path(QStringLiteral("escaped"));
    const qint64 chainId = chainWithTask(
        QStringLiteral("escaper"),
        QStringLiteral("setsid -f sh -c 'echo $$ > %1.part; mv %1.part %1; exec sleep 300'; "
                       "exec sleep 300")
            .arg(pidFile));
    QVERIFY(chainId > 0);
    // Only a may run it: b's first task of its own would sweep dead engines' cgroups anyway.
    Chain chain = ChainRepository(*m_store).byId(chainId).value();
    chain.clientName = QStringLiteral("a");
    QVERIFY(ChainRepository(*m_store).update(chain));
    m_engines.push_back(serve(QStringLiteral("a"), 2, 0, &group));
    QProcess &a = *m_engines.back();
    const auto engines = [this] {
        const Result<QList<EngineSession>> live =
            EngineSessionRepository(*m_store).live(QDateTime::currentDateTimeUtc());
        return live ? live->size() : -1;
    };
    QTRY_COMPARE_WITH_TIMEOUT(engines(), 1, 20000);
    startRun(chainId);
    const auto escapedPid = [&pidFile] {
        QFile file(pidFile);
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(escapedPid() > 0, 20000);
    // b starts while a lives: its start sweeps nothing of a's. Only the takeover can.
    m_engines.push_back(serve(QStringLiteral("b"), 2, 0, &group));
    QTRY_COMPARE_WITH_TIMEOUT(engines(), 2, 20000);
    // It left the task's session (setsid): killing a's process group would not reach it.
    QVERIFY(::getsid(pid_t(escapedPid())) != ::getsid(pid_t(a.processId())));
    a.kill();
    QVERIFY(a.waitForFinished(5000));
    // b takes a's runs over at its next heartbeat, a's process being gone (queues them again
    // for a), and kills what a's task left. (It may already have: the check that the child
    // outlived a raced that takeover and once lost.)
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(escapedPid()), 20000);
    QCOMPARE(m_engines.back()->state(), QProcess::Running); // b did it, still serving
    tearDown(); // the engines out of the cgroup before it is removed
}

void TestSharedStore::window_showsAnotherEnginesAttemptsAndOutputLive()
{
    // A window's engine (told of other engines' runs) beside a `serve` that alone may run the
    // chain: the window shows the attempt and its output as they happen, not when reread. The
    // task waits at the gate after its first line, so "while it runs" is certain.
    const qint64 chainId = chainWithTask(
        QStringLiteral("elsewhere"),
        QStringLiteral("echo first line; %1; echo second line").arg(gate(QStringLiteral("go"))));
    QVERIFY(chainId > 0);
    Chain chain = ChainRepository(*m_store).byId(chainId).value();
    chain.clientName = QStringLiteral("server-a");
    QVERIFY(ChainRepository(*m_store).update(chain));
    EngineConfig config;
    config.storeLocation = m_server->url().toString();
    config.name = QStringLiteral("window");
    config.graceMs = 500;
    config.tellRunsElsewhere = true;
    Engine window(config);
    QSignalSpy attempts(&window, &Engine::taskRunChanged);
    QSignalSpy lines(&window, &Engine::logLinesWritten);
    QSignalSpy runsTold(&window, &Engine::runChanged);
    window.start();
    QVERIFY(window.isRunning());
    m_engines.push_back(serve(QStringLiteral("server-a")));

    Run queued;
    queued.chainId = chainId;
    const Run run = RunRepository(*m_store).insert(queued).value();
    const auto told = [&](RunState state) {
        for (const QList<QVariant> &args : std::as_const(attempts)) {
            const TaskRun attempt = args.first().value<TaskRun>();
            if (attempt.runId == run.id && attempt.state == state)
                return true;
        }
        return false;
    };
    const auto shownOf = [&](qint64 runId) {
        QStringList texts;
        for (const QList<QVariant> &args : std::as_const(lines)) {
            for (const LogLine &line : args.first().value<QList<LogLine>>()) {
                if (line.runId == runId)
                    texts << line.text;
            }
        }
        return texts;
    };
    const auto shown = [&] {
        return shownOf(run.id);
    };
    // The first line and the running attempt while the task waits at the gate: live.
    QTRY_VERIFY_WITH_TIMEOUT(told(RunState::Running), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(shown().contains(QStringLiteral("first line")), 30000);
    QVERIFY(!told(RunState::Succeeded));
    QVERIFY(!shown().contains(QStringLiteral("second line")));
    openGate(QStringLiteral("go"));
    QTRY_VERIFY_WITH_TIMEOUT(told(RunState::Succeeded), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(shown().contains(QStringLiteral("second line")), 30000);
    // Each line once, though the window reads the last ids again (commits may fill them in)
    // and, once told the run ended, its lines once more. A later run's line shown proves
    // that it has looked since.
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(runsTold.cbegin(), runsTold.cend(),
                                         [&](const QList<QVariant> &args) {
                                             const Run changed = args.first().value<Run>();
                                             return changed.id == run.id
                                                    && isTerminal(changed.state);
                                         }),
                             30000);
    const Run later = RunRepository(*m_store).insert(queued).value();
    QTRY_VERIFY_WITH_TIMEOUT(shownOf(later.id).contains(QStringLiteral("second line")), 30000);
    QCOMPARE(shown().count(QStringLiteral("first line")), 1);
    QCOMPARE(shown().count(QStringLiteral("second line")), 1);
    // The window ran nothing itself: the attempt is the server's.
    QCOMPARE(RunRepository(*m_store).byId(run.id)->engineName, QStringLiteral("server-a"));
    window.shutdown(Engine::ExitPolicy::Stop);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), 30000);
}

// The engine of a `run --wait` (it takes only the run it is handed, and schedules nothing)
// claimed its run of an exclusive chain while another engine ran that chain: held back, as it
// must be, but never looked at again once the other run ended, so the wait never ended (the
// torture test, inprocess-stuck). Two such engines here, as two waiters that found no `serve`.
void TestSharedStore::runWaitEngine_heldBackByAnExclusiveRunElsewhere_startsWhenItEnds()
{
    const qint64 chainId =
        chainWithTask(QStringLiteral("alone"),
                      QStringLiteral("echo \"start $HOURGLASS_RUN_ID\" >> %1; %2")
                          .arg(path(QStringLiteral("ledger")), gate(QStringLiteral("go"))),
                      0, 0, true);
    QVERIFY(chainId > 0);
    const auto waiterEngine = [this](const QString &name) {
        EngineConfig config;
        config.storeLocation = m_server->url().toString();
        config.name = name;
        config.graceMs = 500;
        config.runSchedules = false;
        config.onlyHandedRuns = true;
        config.tellRunsElsewhere = true;
        return std::make_unique<Engine>(config);
    };
    const std::unique_ptr<Engine> first = waiterEngine(QStringLiteral("hourglass-run-1"));
    const std::unique_ptr<Engine> second = waiterEngine(QStringLiteral("hourglass-run-2"));
    const Run firstRun = startRun(chainId);
    const Run secondRun = startRun(chainId);
    first->start();
    QVERIFY(first->isRunning());
    first->admitRun(firstRun.id);
    QTRY_COMPARE_WITH_TIMEOUT(ledger().size(), 1, 30000); // the first waits at the gate
    second->start();
    QVERIFY(second->isRunning());
    second->admitRun(secondRun.id);
    // Claimed by the second engine, and held back: the chain runs alone.
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(secondRun.id)->engineName,
                              QStringLiteral("hourglass-run-2"), 30000);
    QCOMPARE(RunRepository(*m_store).byId(secondRun.id)->state, RunState::Queued);
    QCOMPARE(ledger().size(), 1);
    openGate(QStringLiteral("go"));
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(secondRun.id)->state,
                              RunState::Succeeded, 30000);
    QCOMPARE(RunRepository(*m_store).byId(firstRun.id)->state, RunState::Succeeded);
    QCOMPARE(ledger(), (QStringList{QStringLiteral("start %1").arg(firstRun.id),
                                    QStringLiteral("start %1").arg(secondRun.id)}));
    for (Engine *engine : {first.get(), second.get()}) {
        engine->shutdown(Engine::ExitPolicy::Stop);
        QTRY_VERIFY_WITH_TIMEOUT(!engine->isRunning(), 30000);
    }
}

QTEST_GUILESS_MAIN(TestSharedStore)
#include "tst_sharedstore.moc"
