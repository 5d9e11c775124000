#include "backendtests.h"
#include "fixtures.h"
#include "scheduler/backfill.h"
#include "scheduler/engine.h"
#include "store/chainrepository.h"
#include "store/commandrepository.h"
#include "store/dependencyrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;
using hg::test::addTask;

// Task kinds that need the engine itself: SUBCHAIN child runs, Notify, SQL on the store.
class TestEngineTasks final : public QObject
{
    Q_OBJECT
    // Functions for one backend only: not run (nor skipped) on the other.
    Q_CLASSINFO("sqliteOnly", "storeWriteFailure_holdsTheEndStartsNothingAndRecordsItOnce")

private Q_SLOTS:
    void subchain_runsTheChildAndWaitsForIt();
    void subchain_childFailureFailsTheTask();
    void subchain_cycleIsRefusedAndNamed();
    void subchain_stoppingTheParentStopsTheChild();
    void notify_reachesTheEngineSignal();
    void sql_onTheStoreGetsRunParametersBound();
    void backfill_runsTheBatchInOrderAtMostNAtATime();
    void definitions_editedElsewhereTakeEffectWithoutRestart();
    void storeWriteFailure_holdsTheEndStartsNothingAndRecordsItOnce();

private:
    std::unique_ptr<Engine> startEngine(test::TestStore &store, int slotCount = 1);
    static Run waitForEnd(Store &store, qint64 runId);
    static QStringList logOf(Store &store, qint64 runId);
    static void dependsOn(Store &store, const Chain &chain, const Task &task, const Task &upstream);
};

std::unique_ptr<Engine> TestEngineTasks::startEngine(test::TestStore &store, int slotCount)
{
    EngineConfig config = test::engineConfig(store);
    config.slotCount = slotCount; // one slot: a waiting SUBCHAIN task must not hold it
    config.runSchedules = false;
    auto engine = std::make_unique<Engine>(config);
    engine->start();
    return engine;
}

void TestEngineTasks::dependsOn(Store &store, const Chain &chain, const Task &task,
                                const Task &upstream)
{
    QVERIFY(DependencyRepository(store).add(chain.id, task.id, upstream.id,
                                            DependencyCondition::Success));
}

Run TestEngineTasks::waitForEnd(Store &store, qint64 runId)
{
    // A ceiling only a fault reaches: a loaded machine only makes the end come later.
    (void)QTest::qWaitFor([&] { return isTerminal(RunRepository(store).byId(runId)->state); },
                          60000);
    return RunRepository(store).byId(runId).value();
}

QStringList TestEngineTasks::logOf(Store &store, qint64 runId)
{
    QStringList lines;
    for (const LogLine &line : LogRepository(store).read(runId).value())
        lines << line.text;
    return lines;
}

void TestEngineTasks::subchain_runsTheChildAndWaitsForIt()
{
    HG_TEST_STORE(t);
    const Chain child = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("child"));
    addTask(t.store(), child.id, QStringLiteral("say"), TaskKind::Builtin, QStringLiteral("Log"),
            {QStringLiteral(R"({"message": "child of ${chain.name} says ${greeting}"})")});
    const Chain parent = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("parent"));
    const Task sub = addTask(t.store(), parent.id, QStringLiteral("sub"), TaskKind::Subchain,
                             QStringLiteral("p/child"));
    const Task after = addTask(t.store(), parent.id, QStringLiteral("after"), TaskKind::Builtin,
                               QStringLiteral("NoOp"));
    dependsOn(t.store(), parent, after, sub);
    auto engine = startEngine(t);
    QVERIFY(engine->isRunning());

    const Run run = test::queueRun(t.store(), parent.id,
                                   QJsonObject{{QStringLiteral("greeting"), QStringLiteral("hi")}});
    engine->admitRun(run.id);
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Succeeded);

    RunFilter filter;
    filter.chainId = child.id;
    const QList<Run> children = RunRepository(t.store()).list(filter).value();
    QCOMPARE(children.size(), 1);
    QCOMPARE(children.first().parentRunId, run.id);
    QCOMPARE(children.first().trigger, RunTrigger::Subchain);
    QCOMPARE(children.first().state, RunState::Succeeded);
    QVERIFY(
        logOf(t.store(), children.first().id).contains(QStringLiteral("child of child says hi")));
    // "after" started only once the child run had ended.
    const QList<TaskRun> attempts = TaskRunRepository(t.store()).listForRun(run.id).value();
    QDateTime subEnd, afterStart;
    for (const TaskRun &attempt : attempts) {
        if (attempt.taskId == sub.id)
            subEnd = attempt.finishedAt;
        if (attempt.taskId == after.id)
            afterStart = attempt.startedAt;
    }
    QVERIFY(subEnd.isValid() && afterStart.isValid());
    QVERIFY(afterStart >= subEnd);
    QVERIFY(children.first().finishedAt <= subEnd);
}

void TestEngineTasks::subchain_childFailureFailsTheTask()
{
    HG_TEST_STORE(t);
    const Chain child = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("child"));
    addTask(t.store(), child.id, QStringLiteral("fail"), TaskKind::Program,
            QStringLiteral("/bin/false"));
    const Chain parent = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("parent"));
    addTask(t.store(), parent.id, QStringLiteral("sub"), TaskKind::Subchain,
            QStringLiteral("p/child"));
    auto engine = startEngine(t);
    const Run run = test::queueRun(t.store(), parent.id);
    engine->admitRun(run.id);
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Failed);
    const QString log = logOf(t.store(), run.id).join(QLatin1Char('\n'));
    QVERIFY2(log.contains(QLatin1String("of p/child ended failed")), qPrintable(log));
}

void TestEngineTasks::subchain_cycleIsRefusedAndNamed()
{
    HG_TEST_STORE(t);
    const Chain a = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("b"));
    addTask(t.store(), a.id, QStringLiteral("to-b"), TaskKind::Subchain, QStringLiteral("p/b"));
    addTask(t.store(), b.id, QStringLiteral("to-a"), TaskKind::Subchain, QStringLiteral("p/a"));
    auto engine = startEngine(t);
    const Run run = test::queueRun(t.store(), a.id);
    engine->admitRun(run.id);
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Failed);
    RunFilter filter;
    filter.chainId = b.id;
    const QList<Run> children = RunRepository(t.store()).list(filter).value();
    QCOMPARE(children.size(), 1);
    const QString log = logOf(t.store(), children.first().id).join(QLatin1Char('\n'));
    QVERIFY2(log.contains(QStringLiteral("subchain cycle: p/a → p/b → p/a")), qPrintable(log));
}

void TestEngineTasks::subchain_stoppingTheParentStopsTheChild()
{
    HG_TEST_STORE(t);
    const Chain child = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("child"));
    addTask(t.store(), child.id, QStringLiteral("wait"), TaskKind::Program, QStringLiteral("sleep"),
            {QStringLiteral("1000")});
    const Chain parent = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("parent"));
    addTask(t.store(), parent.id, QStringLiteral("sub"), TaskKind::Subchain,
            QStringLiteral("p/child"));
    auto engine = startEngine(t);
    QSignalSpy attempts(engine.get(), &Engine::taskRunChanged);
    const Run run = test::queueRun(t.store(), parent.id);
    engine->admitRun(run.id);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(attempts.cbegin(), attempts.cend(),
                                         [](const QList<QVariant> &args) {
                                             return args.first().value<TaskRun>().pid > 0;
                                         }),
                             10000);
    Command stop;
    stop.kind = CommandKind::Stop;
    stop.runId = run.id;
    QVERIFY(CommandRepository(t.store()).enqueue(stop));
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Cancelled);
    // Its reason says what stopped it (a cancelled run had none; issue 34).
    QCOMPARE(RunRepository(t.store()).failureReason(run.id).value(),
             QStringLiteral("sub: stopped on request"));
    RunFilter filter;
    filter.chainId = child.id;
    QCOMPARE(waitForEnd(t.store(), RunRepository(t.store()).list(filter)->first().id).state,
             RunState::Cancelled);
}

void TestEngineTasks::notify_reachesTheEngineSignal()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    addTask(t.store(), chain.id, QStringLiteral("tell"), TaskKind::Builtin,
            QStringLiteral("Notify"),
            {QStringLiteral(R"({"title": "Backup", "message": "run ${run.id} done"})")});
    auto engine = startEngine(t);
    QSignalSpy notifications(engine.get(), &Engine::notificationRequested);
    const Run run = test::queueRun(t.store(), chain.id);
    engine->admitRun(run.id);
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Succeeded);
    QCOMPARE(notifications.size(), 1);
    QCOMPARE(notifications.first().at(0).value<Run>().id, run.id);
    QCOMPARE(notifications.first().at(1).toString(), QStringLiteral("Backup"));
    QCOMPARE(notifications.first().at(2).toString(), QStringLiteral("run %1 done").arg(run.id));
}

void TestEngineTasks::sql_onTheStoreGetsRunParametersBound()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    // The SQL text is never substituted: ${run.id} reaches it only as a bound value.
    addTask(t.store(), chain.id, QStringLiteral("count"), TaskKind::Sql,
            QStringLiteral("SELECT count(*) AS runs, ? AS this_run FROM run WHERE chain_id = ?"),
            {QStringLiteral("${run.id}"), QString::number(chain.id)});
    auto engine = startEngine(t);
    const Run run = test::queueRun(t.store(), chain.id);
    engine->admitRun(run.id);
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Succeeded);
    const QStringList log = logOf(t.store(), run.id);
    QVERIFY2(log.contains(QStringLiteral("1\t%1").arg(run.id)),
             qPrintable(log.join(QLatin1Char('\n'))));
}

void TestEngineTasks::backfill_runsTheBatchInOrderAtMostNAtATime()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task nap = addTask(t.store(), chain.id, QStringLiteral("nap"), TaskKind::Builtin,
                             QStringLiteral("Sleep"), {QStringLiteral(R"({"seconds": 0.2})")});
    Schedule hourly;
    hourly.chainId = chain.id;
    hourly.expression = QStringLiteral("0 * * * *");
    hourly.timeZone = QStringLiteral("UTC");
    QVERIFY(ScheduleRepository(t.store()).add(hourly));
    const QDateTime from(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
    const Result<QList<QDateTime>> times =
        Backfill::fireTimes(t.store(), chain, from, from.addSecs(5 * 3600), QTimeZone::utc());
    QVERIFY(times);
    QCOMPARE(times->size(), 6);
    const Result<QList<Run>> runs =
        Backfill::enqueue(t.store(), chain, times.value(), 2, Backfill::Order::OldestFirst);
    QVERIFY(runs);

    auto engine = startEngine(t, 4); // slots for more: the batch itself must limit to two
    for (const Run &run : runs.value())
        QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Succeeded);

    struct Span
    {
        QDateTime scheduledFor, start, end;
    };
    QList<Span> spans;
    for (const Run &run : runs.value()) {
        const TaskRun attempt = TaskRunRepository(t.store()).listForRun(run.id)->first();
        QCOMPARE(attempt.taskId, nap.id);
        spans << Span{run.scheduledFor, attempt.startedAt, attempt.finishedAt};
    }
    for (qsizetype i = 1; i < spans.size(); ++i)
        QVERIFY2(spans.at(i - 1).start <= spans.at(i).start, "started out of order");
    for (const Span &span : spans) {
        int overlapping = 0;
        for (const Span &other : spans)
            overlapping += other.start <= span.start && span.start < other.end ? 1 : 0;
        QVERIFY2(overlapping <= 2, "more than two runs of the batch at once");
    }
}

void TestEngineTasks::definitions_editedElsewhereTakeEffectWithoutRestart()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    addTask(t.store(), chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    EngineConfig config = test::engineConfig(t);
    Engine engine(config);
    engine.start();
    QVERIFY(engine.isRunning());
    // Another connection (as `hourglass schedule add` would) adds a schedule.
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("cli"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("@every 1 second");
    QVERIFY(ScheduleRepository(*other).add(schedule));
    RunFilter filter;
    filter.chainId = chain.id;
    QTRY_VERIFY_WITH_TIMEOUT(!RunRepository(t.store()).list(filter)->isEmpty(), 30000);
    QCOMPARE(RunRepository(t.store()).list(filter)->first().trigger, RunTrigger::Schedule);

    // A second chain fires beside it; disabling the first (the change feed names it alone)
    // stops the first and leaves the second firing.
    const Chain second = test::makeChain(*other, QStringLiteral("p"), QStringLiteral("second"));
    addTask(*other, second.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    schedule.chainId = second.id;
    QVERIFY(ScheduleRepository(*other).add(schedule));
    RunFilter ofSecond;
    ofSecond.chainId = second.id;
    QTRY_VERIFY_WITH_TIMEOUT(!RunRepository(t.store()).list(ofSecond)->isEmpty(), 30000);
    Chain disabled = ChainRepository(*other).byId(chain.id).value();
    disabled.enabled = false;
    QVERIFY(ChainRepository(*other).update(disabled));
    // The engine reads the change feed before the command table: once it has done a command
    // queued after the edit, it has the edit (what it fired before is counted below).
    Command probe;
    probe.kind = CommandKind::Stop;
    // Its oldest run: a stop of a run that has ended changes nothing.
    probe.runId = RunRepository(t.store()).list(filter)->constLast().id;
    const Result<Command> queued = CommandRepository(*other).enqueue(probe);
    QVERIFY(queued);
    QTRY_VERIFY_WITH_TIMEOUT(CommandRepository(t.store()).byId(queued->id)->doneAt.isValid(),
                             30000);
    const qsizetype firstRuns = RunRepository(t.store()).list(filter)->size();
    const qsizetype secondRuns = RunRepository(t.store()).list(ofSecond)->size();
    // Three more fires of the second, a second apart: the engine has handled two seconds of due
    // fires since, and the first, still enabled, would have fired among them.
    QTRY_VERIFY_WITH_TIMEOUT(RunRepository(t.store()).list(ofSecond)->size() >= secondRuns + 3,
                             30000);
    QCOMPARE(RunRepository(t.store()).list(filter)->size(), firstRuns);
}

void TestEngineTasks::storeWriteFailure_holdsTheEndStartsNothingAndRecordsItOnce()
{
    HG_TEST_STORE(t);
    QTemporaryDir dir;
    const QString ledger = dir.filePath(QStringLiteral("ledger"));
    const QString go = dir.filePath(QStringLiteral("go"));
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    // Its own side-effect file says how often it started; its output wants log space. It ends
    // once the test creates `go`: while writes fail, for certain.
    addTask(t.store(), chain.id, QStringLiteral("work"), TaskKind::Shell,
            QStringLiteral("echo started >> '%1'; for i in $(seq 200); do echo line $i; done; "
                           "while [ ! -e '%2' ]; do sleep 0.1; done")
                .arg(ledger, go));
    auto engine = startEngine(t);
    QVERIFY(engine->isRunning());
    QSignalSpy reachability(engine.get(), &Engine::storeReachabilityChanged);
    QSignalSpy told(engine.get(), &Engine::taskRunChanged);
    const Run run = test::queueRun(t.store(), chain.id);
    engine->admitRun(run.id);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(ledger), 30000);
    qint64 pid = 0;
    for (const QList<QVariant> &args : std::as_const(told))
        pid = std::max(pid, args.first().value<TaskRun>().pid);
    QVERIFY(pid > 0);

    // The engine's own connection may no longer write (SQLite answers SQLITE_READONLY, as for
    // a file made read-only; a full disk answers SQLITE_FULL and is handled alike).
    QSqlQuery(engine->store()->database()).exec(QStringLiteral("PRAGMA query_only = ON"));
    QTRY_VERIFY_WITH_TIMEOUT(!reachability.isEmpty(), 30000);
    QVERIFY(reachability.first().first().toLongLong() >= 0);
    QVERIFY2(reachability.first().at(1).toString().contains(QLatin1String("cannot be written")),
             qPrintable(reachability.first().at(1).toString()));
    // The task ends now. Once the engine has reaped it (its process is gone, not a zombie), it
    // has seen the end: held, not written.
    QVERIFY(QFile(go).open(QIODevice::WriteOnly));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid)), 30000);
    QCOMPARE(RunRepository(t.store()).byId(run.id)->state, RunState::Running);
    // Nothing new starts while writes fail.
    const Run second = test::queueRun(t.store(), chain.id);
    engine->admitRun(second.id);
    QTest::qWait(500);
    QCOMPARE(RunRepository(t.store()).byId(second.id)->state, RunState::Queued);

    // Writable again: the engine notices by itself, records the end it held, and goes on.
    QSqlQuery(engine->store()->database()).exec(QStringLiteral("PRAGMA query_only = OFF"));
    QTRY_COMPARE_WITH_TIMEOUT(reachability.last().first().toLongLong(), -1, 30000);
    QCOMPARE(waitForEnd(t.store(), run.id).state, RunState::Succeeded);
    QCOMPARE(waitForEnd(t.store(), second.id).state, RunState::Succeeded);
    const QList<TaskRun> attempts = TaskRunRepository(t.store()).listForRun(run.id).value();
    QCOMPARE(attempts.size(), 1);
    QCOMPARE(attempts.first().state, RunState::Succeeded);
    QFile file(ledger);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().count("started"), 2); // once per run, never again for the first
}

HG_BACKEND_TEST_GUILESS_MAIN(TestEngineTasks)
#include "tst_enginetasks.moc"
