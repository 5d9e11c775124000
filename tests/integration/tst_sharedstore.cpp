#include "base/epochtime.h"
#include "base/processinfo.h"
#include "privatepostgres.h"
#include "scheduler/engine.h"
#include "scheduler/enginehost.h"
#include "store/chainrepository.h"
#include "store/commandrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace hg;

// Several `hourglass serve` processes on one PostgreSQL of the test's own, which the tests
// restart and stop: runs happen exactly once (a ledger file the tasks append to proves it),
// nothing is lost across a server restart, a paused engine is fenced, limits hold across
// engines, and SIGTERM works while the server is away.
class TestSharedStore final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void threeEngines_runEveryOneShotExactlyOnce();
    void serverRestart_underTwoEngines_losesNothingAndResumes();
    void stoppedEngine_isFencedAndItsAttemptRetried();
    void maxInstancesAndExclusive_holdAcrossEngines();
    void sigterm_duringOutage_endsWithinGrace();
    void window_showsAnotherEnginesAttemptsAndOutputLive();
    void readyTasks_spreadOverEngines_eachRunOnce();
    void offeredAttempt_workerKilled_isInterruptedAndRetried();
    void stoppedRun_stopsItsAttemptOnAnotherEngine();
    void offeredAttempt_workerPaused_isFencedAndRetried();
    void window_showsItsRunsTaskRunningElsewhereLive();
    void threeBusyEngines_runEveryTaskExactlyOnce();
    void serverRestart_whileAnotherEngineRunsATask_endsItOnce();
    void window_countsTheTasksItRunsForOtherEngines();

private:
    std::unique_ptr<QProcess> serve(const QString &name, double leaseSeconds = 30, int slots = 0);
    // A chain of tasks side by side (no edges), named t1, t2, … after their commands.
    qint64 chainWithTasks(const QString &name, const QStringList &commands, int maxRetries = 0);
    Run startRun(qint64 chainId);
    // The attempt of task `taskName` that another engine than the run's claimed and started.
    std::optional<TaskRun> attemptElsewhere(const Run &run, const QString &taskName) const;
    QProcess *engineNamed(const QString &name) const;
    // Engines a and b of one slot each (lease 2 s) and a run of two tasks: t1 (4 s) runs on the
    // run's engine, t2 is offered and the other engine claims it; t2's first attempt sleeps
    // `seconds`, then each attempt writes t2.ATTEMPT to the ledger. False when t2 did not start
    // on the other engine within 15 s.
    bool offerSecondTask(const QString &chainName, int seconds, Run *run);
    QList<TaskRun> attemptsOf(const Run &run, const QString &taskName) const;
    qint64 chainWithTask(const QString &name, const QString &command, int maxRetries = 0,
                         int maxInstances = 0, bool exclusive = false);
    QStringList ledger() const;
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QList<Run> runs() const;
    bool allTerminal() const;
    static void stopEngine(QProcess &engine);

    std::unique_ptr<test::PrivatePostgres> m_server;
    std::unique_ptr<Store> m_store;
    QTemporaryDir m_dir;
    qint64 m_projectId = 0;
    std::vector<std::unique_ptr<QProcess>> m_engines;
};

void TestSharedStore::init()
{
    if (!test::PrivatePostgres::isInstalled()) {
        if (test::requireServers())
            QFAIL("PostgreSQL 15 is not installed (scripts/test installs it)");
        QSKIP("PostgreSQL 15 is not installed");
    }
    m_server = std::make_unique<test::PrivatePostgres>();
    const QString failed = m_server->start();
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    Result<std::unique_ptr<Store>> store = Store::open(
        StoreLocation::parse(m_server->url().toString()).value(), QStringLiteral("test"));
    QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    m_store = std::move(store.value());
    const Result<Project> project = ProjectRepository(*m_store).add(QStringLiteral("p"));
    QVERIFY(project);
    m_projectId = project->id;
    QFile::remove(path(QStringLiteral("ledger")));
}

void TestSharedStore::cleanup()
{
    for (auto &engine : m_engines) {
        if (engine->state() != QProcess::NotRunning) {
            ::kill(pid_t(engine->processId()), SIGCONT);
            engine->kill();
            engine->waitForFinished(5000);
        }
    }
    m_engines.clear();
    m_store.reset();
    m_server.reset();
}

std::unique_ptr<QProcess> TestSharedStore::serve(const QString &name, double leaseSeconds,
                                                 int slots)
{
    auto process = std::make_unique<QProcess>();
    process->setProcessChannelMode(QProcess::ForwardedChannels);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOURGLASS_ENGINE_NAME"), name);
    process->setProcessEnvironment(environment);
    process->start(QStringLiteral(HOURGLASS_BINARY),
                   QStringList{QStringLiteral("--db"), m_server->url().toString(),
                               QStringLiteral("serve"), QStringLiteral("--lease"),
                               QString::number(leaseSeconds)}
                       + (slots > 0 ? QStringList{QStringLiteral("--slots"), QString::number(slots)}
                                    : QStringList{}));
    process->waitForStarted();
    process->setObjectName(name);
    return process;
}

qint64 TestSharedStore::chainWithTasks(const QString &name, const QStringList &commands,
                                       int maxRetries)
{
    Chain chain;
    chain.projectId = m_projectId;
    chain.name = name;
    const Result<Chain> added = ChainRepository(*m_store).add(chain);
    if (!added)
        return 0;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        Task task;
        task.chainId = added->id;
        task.name = QStringLiteral("t%1").arg(i + 1);
        task.kind = TaskKind::Shell;
        task.command = commands.at(i);
        task.maxRetries = maxRetries;
        if (!TaskRepository(*m_store).add(task))
            return 0;
    }
    return added->id;
}

Run TestSharedStore::startRun(qint64 chainId)
{
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    const Result<Run> inserted = RunRepository(*m_store).insert(run);
    return inserted ? inserted.value() : Run{};
}

std::optional<TaskRun> TestSharedStore::attemptElsewhere(const Run &run,
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

bool TestSharedStore::offerSecondTask(const QString &chainName, int seconds, Run *run)
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

QList<TaskRun> TestSharedStore::attemptsOf(const Run &run, const QString &taskName) const
{
    const Result<Task> task = TaskRepository(*m_store).byName(run.chainId, taskName);
    QList<TaskRun> attempts;
    for (const TaskRun &attempt : TaskRunRepository(*m_store).listForRun(run.id).value()) {
        if (task && attempt.taskId == task->id)
            attempts << attempt;
    }
    return attempts;
}

QProcess *TestSharedStore::engineNamed(const QString &name) const
{
    for (const auto &engine : m_engines) {
        if (engine->objectName() == name)
            return engine.get();
    }
    return nullptr;
}

void TestSharedStore::stopEngine(QProcess &engine)
{
    engine.terminate();
    if (!engine.waitForFinished(15000))
        engine.kill();
}

qint64 TestSharedStore::chainWithTask(const QString &name, const QString &command, int maxRetries,
                                      int maxInstances, bool exclusive)
{
    Chain chain;
    chain.projectId = m_projectId;
    chain.name = name;
    chain.maxInstances = maxInstances;
    chain.exclusive = exclusive;
    const Result<Chain> added = ChainRepository(*m_store).add(chain);
    if (!added)
        return 0;
    Task task;
    task.chainId = added->id;
    task.name = QStringLiteral("t");
    task.kind = TaskKind::Shell;
    task.command = command;
    task.maxRetries = maxRetries;
    return TaskRepository(*m_store).add(task) ? added->id : 0;
}

QStringList TestSharedStore::ledger() const
{
    QFile file(path(QStringLiteral("ledger")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
}

QList<Run> TestSharedStore::runs() const
{
    RunFilter filter;
    filter.limit = 100000;
    const Result<QList<Run>> listed = RunRepository(*m_store).list(filter);
    return listed ? listed.value() : QList<Run>();
}

bool TestSharedStore::allTerminal() const
{
    const QList<Run> all = runs();
    return !all.isEmpty() && std::all_of(all.cbegin(), all.cend(), [](const Run &run) {
        return isTerminal(run.state);
    });
}

void TestSharedStore::threeEngines_runEveryOneShotExactlyOnce()
{
    constexpr int count = 300; // scripts/bench runs 10,000
    const qint64 chainId = chainWithTask(
        QStringLiteral("once"),
        QStringLiteral("echo $HOURGLASS_RUN_ID >> %1").arg(path(QStringLiteral("ledger"))));
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

    QTRY_COMPARE_WITH_TIMEOUT(ledger().size(), count, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal(), 20000);
    QTest::qWait(1000); // a second chance for a duplicate to show
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
    QVERIFY2(engines.size() >= 2, "the runs were spread over the engines");
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedStore::serverRestart_underTwoEngines_losesNothingAndResumes()
{
    const qint64 chainId = chainWithTask(QStringLiteral("tick"),
                                         QStringLiteral("sleep 1.5; echo $HOURGLASS_RUN_ID >> %1")
                                             .arg(path(QStringLiteral("ledger"))));
    QVERIFY(chainId > 0);
    Schedule schedule;
    schedule.chainId = chainId;
    schedule.expression = QStringLiteral("*/2 * * * * *");
    schedule.dialect = CronDialect::Seconds;
    QVERIFY(ScheduleRepository(*m_store).add(schedule));
    m_store.reset(); // the test's own connection would only be cut too
    m_engines.push_back(serve(QStringLiteral("a")));
    m_engines.push_back(serve(QStringLiteral("b")));
    QTRY_VERIFY_WITH_TIMEOUT(ledger().size() >= 2, 20000);
    QTest::qWait(700); // a run is in flight now (each takes 1.5 s, one every 2 s)
    const QDateTime restartedAt = QDateTime::currentDateTimeUtc();
    QVERIFY(m_server->restartImmediately());
    // Fires resume without anyone acting: runs scheduled after the restart run to their end.
    QTRY_VERIFY_WITH_TIMEOUT(ledger().size() >= 6, 40000);
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
    // Attempt 1 waits long enough to be taken over; attempt 2 finishes at once.
    const qint64 chainId =
        chainWithTask(QStringLiteral("slow"),
                      QStringLiteral("if [ \"$HOURGLASS_ATTEMPT\" = 1 ]; then sleep 6; fi; "
                                     "echo $HOURGLASS_RUN_ID.$HOURGLASS_ATTEMPT >> %1")
                          .arg(path(QStringLiteral("ledger"))),
                      1);
    QVERIFY(chainId > 0);
    m_engines.push_back(serve(QStringLiteral("a"), 2));
    QProcess &a = *m_engines.back();
    QTest::qWait(1500); // a is registered; the run will be its own
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    const Result<Run> inserted = RunRepository(*m_store).insert(run);
    QVERIFY(inserted);
    QTRY_VERIFY_WITH_TIMEOUT(
        TaskRunRepository(*m_store).listForRun(inserted->id)->size() == 1
            && TaskRunRepository(*m_store).listForRun(inserted->id)->first().pid > 0,
        15000);
    const qint64 firstPid = TaskRunRepository(*m_store).listForRun(inserted->id)->first().pid;
    ::kill(pid_t(a.processId()), SIGSTOP);
    m_engines.push_back(serve(QStringLiteral("b"), 2));
    // b takes a's session over once its lease ran out, kills attempt 1 (same host) and
    // runs attempt 2.
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(*m_store).byId(inserted->id)->state,
                              RunState::Succeeded, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(firstPid), 5000);
    ::kill(pid_t(a.processId()), SIGCONT);
    QTest::qWait(3000); // a wakes up, finds its session gone, and must not write anything

    const QList<TaskRun> attempts = TaskRunRepository(*m_store).listForRun(inserted->id).value();
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).state, RunState::Interrupted);
    QCOMPARE(attempts.at(1).state, RunState::Succeeded);
    QCOMPARE(RunRepository(*m_store).byId(inserted->id)->state, RunState::Succeeded);
    QCOMPARE(ledger(), QStringList{QStringLiteral("%1.2").arg(inserted->id)});
    QVERIFY(a.state() == QProcess::Running); // a registered anew and serves on
    for (auto &engine : m_engines)
        stopEngine(*engine);
}

void TestSharedStore::maxInstancesAndExclusive_holdAcrossEngines()
{
    QDir(m_dir.path()).mkpath(QStringLiteral("running"));
    const QString running = path(QStringLiteral("running"));
    const QString bad = path(QStringLiteral("ledger")); // anything written here is an overlap
    // One at a time: two at once would find the other's mark.
    const qint64 limited =
        chainWithTask(QStringLiteral("limited"),
                      QStringLiteral("ls %1 | grep -q limited && echo limited-overlap >> %2; "
                                     "touch %1/limited; sleep 0.4; rm %1/limited")
                          .arg(running, bad),
                      0, 1);
    // Nothing beside it: it finds nothing running and nothing starts while it runs.
    const qint64 exclusive = chainWithTask(
        QStringLiteral("exclusive"),
        QStringLiteral("[ -z \"$(ls %1)\" ] || echo exclusive-overlap >> %2; touch %1/exclusive; "
                       "sleep 0.4; rm %1/exclusive")
            .arg(running, bad),
        0, 0, true);
    const qint64 plain = chainWithTask(
        QStringLiteral("plain"),
        QStringLiteral("[ -e %1/exclusive ] && echo plain-overlap >> %2; touch %1/plain.$$; "
                       "sleep 0.2; rm %1/plain.$$")
            .arg(running, bad));
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
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal(), 60000);
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
    QTest::qWait(1000);
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    QVERIFY(RunRepository(*m_store).insert(run));
    const auto taskPid = [&pidFile] {
        QFile file(pidFile);
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(taskPid() > 0, 15000);
    m_store.reset();
    QVERIFY(m_server->stop());
    QTest::qWait(1500); // the engine notices and holds its writes
    QElapsedTimer clock;
    clock.start();
    a.terminate();
    QVERIFY(a.waitForFinished(15000));
    qInfo("serve ended %lld ms after SIGTERM with the server away", clock.elapsed());
    QVERIFY(clock.elapsed() < 5000 + 3000); // the grace period (5 s) and some slack
    QCOMPARE(a.exitStatus(), QProcess::NormalExit);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(taskPid()), 2000);
    QVERIFY(m_server->startAgain());
}

void TestSharedStore::window_showsAnotherEnginesAttemptsAndOutputLive()
{
    // A window's engine (told of other engines' runs) beside a `serve` that alone may run the
    // chain: the window shows the attempt and its output as they happen, not when reread.
    const qint64 chainId =
        chainWithTask(QStringLiteral("elsewhere"),
                      QStringLiteral("echo first line; sleep 2; echo second line; sleep 1"));
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
    const auto shown = [&] {
        QStringList texts;
        for (const QList<QVariant> &args : std::as_const(lines)) {
            for (const LogLine &line : args.first().value<QList<LogLine>>()) {
                if (line.runId == run.id)
                    texts << line.text;
            }
        }
        return texts;
    };
    // The first line and the running attempt while the task still sleeps: live.
    QTRY_VERIFY_WITH_TIMEOUT(told(RunState::Running), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(shown().contains(QStringLiteral("first line")), 10000);
    QVERIFY(!told(RunState::Succeeded));
    QVERIFY(!shown().contains(QStringLiteral("second line")));
    QTRY_VERIFY_WITH_TIMEOUT(told(RunState::Succeeded), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(shown().contains(QStringLiteral("second line")), 5000);
    // Each line once, though the window reads the last ids again (commits may fill them in).
    QTest::qWait(500);
    QCOMPARE(shown().count(QStringLiteral("first line")), 1);
    QCOMPARE(shown().count(QStringLiteral("second line")), 1);
    // The window ran nothing itself: the attempt is the server's.
    QCOMPARE(RunRepository(*m_store).byId(run.id)->engineName, QStringLiteral("server-a"));
    window.shutdown(Engine::ExitPolicy::Stop);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), 10000);
}

void TestSharedStore::readyTasks_spreadOverEngines_eachRunOnce()
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

void TestSharedStore::offeredAttempt_workerKilled_isInterruptedAndRetried()
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

void TestSharedStore::stoppedRun_stopsItsAttemptOnAnotherEngine()
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

void TestSharedStore::offeredAttempt_workerPaused_isFencedAndRetried()
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

void TestSharedStore::window_showsItsRunsTaskRunningElsewhereLive()
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

void TestSharedStore::threeBusyEngines_runEveryTaskExactlyOnce()
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

void TestSharedStore::serverRestart_whileAnotherEngineRunsATask_endsItOnce()
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

void TestSharedStore::window_countsTheTasksItRunsForOtherEngines()
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

QTEST_GUILESS_MAIN(TestSharedStore)
#include "tst_sharedstore.moc"
