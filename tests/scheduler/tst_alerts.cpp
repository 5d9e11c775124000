#include "fixtures.h"
#include "scheduler/alertwatch.h"
#include "scheduler/clock.h"
#include "scheduler/engine.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QSignalSpy>
#include <QTest>

using namespace hg;
using hg::test::addTask;

// Lateness and duration alerts with the engine's injected clock, on a real store: a run that
// starts late, one that runs past its ceiling (told while it runs, once), one that succeeds
// below a floor relative to the chain's median, and a deadline passed without a success. Each
// is recorded (a mark on the run) and told as a notification when the chain's notify policy
// wants failures told.
class TestAlerts final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lateStart_isRecordedAndTold();
    void lateStart_ofATriggeredRun_countsFromItsTrigger();
    void ceiling_isToldWhileTheRunRunsOnce();
    void relativeFloor_waitsForFiveRunsThenJudges();
    void deadline_withoutASuccessIsRaisedOnce();
    void notifyNone_recordsButTellsNothing();

private:
    struct Harness
    {
        std::shared_ptr<ManualClock> clock;
        std::unique_ptr<Engine> engine;
    };
    static Harness startEngine(test::TestStore &store, qint64 nowMs);
    // Admits a manual run of the chain and waits until it has the state wanted.
    static Run runUntil(test::TestStore &store, Engine &engine, qint64 chainId,
                        const std::function<bool(const Run &)> &done);
    static QStringList alertsOf(Store &store, qint64 chainId);
    // A run of the chain that succeeded at startMs after durationMs, as an engine left it.
    static bool pastSuccess(Store &store, qint64 chainId, qint64 startMs, qint64 durationMs);
    static constexpr qint64 base = qint64(1893456000000); // 2030-01-01T00:00:00Z, a Tuesday
};

TestAlerts::Harness TestAlerts::startEngine(test::TestStore &store, qint64 nowMs)
{
    Harness h;
    h.clock = std::make_shared<ManualClock>(nowMs);
    EngineConfig config = test::engineConfig(store, QStringLiteral("alert-engine"));
    config.graceMs = 500;
    config.commandPollMs = 50;
    config.defaultZone = QTimeZone::utc();
    h.engine = std::make_unique<Engine>(config, h.clock);
    h.engine->start();
    return h;
}

Run TestAlerts::runUntil(test::TestStore &store, Engine &engine, qint64 chainId,
                         const std::function<bool(const Run &)> &done)
{
    Run run;
    run.chainId = chainId;
    const Run created = RunRepository(store.store()).insert(run).value();
    QSignalSpy changes(&engine, &Engine::runChanged);
    engine.admitRun(created.id);
    for (int i = 0; i < 300; ++i) {
        const Run now = RunRepository(store.store()).byId(created.id).value();
        if (done(now))
            return now;
        changes.wait(50);
    }
    return RunRepository(store.store()).byId(created.id).value();
}

QStringList TestAlerts::alertsOf(Store &store, qint64 chainId)
{
    QStringList lines;
    const Result<QList<Alert>> alerts =
        AlertRepository(store).list(chainId, 0, std::numeric_limits<qint64>::max() / 2);
    if (!alerts)
        return {alerts.error().message};
    for (const Alert &alert : alerts.value())
        lines << QStringLiteral("%1: %2").arg(enumName(alert.kind), alert.detail);
    return lines;
}

bool TestAlerts::pastSuccess(Store &store, qint64 chainId, qint64 startMs, qint64 durationMs)
{
    Run run;
    run.chainId = chainId;
    run.state = RunState::Succeeded;
    const Result<Run> stored = RunRepository(store).insert(run);
    if (!stored)
        return false;
    StoreQuery q(store,
                 QStringLiteral("UPDATE run SET started_at = ?, finished_at = ? WHERE id = ?"));
    q.bind(startMs).bind(startMs + durationMs).bind(stored->id);
    return bool(q.exec(QStringLiteral("finish a run")));
}

void TestAlerts::lateStart_isRecordedAndTold()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("late"));
    addTask(t.store(), chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("* * * * *");
    schedule.timeZone = QStringLiteral("UTC");
    schedule.misfire = MisfirePolicy::Once;
    const Schedule stored = ScheduleRepository(t.store()).add(schedule).value();
    AlertRules rules;
    rules.lateAfterMs = 10000;
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, rules));
    QCOMPARE(AlertRepository(t.store()).rules(chain.id).value(), rules);
    // The engine comes up 30 s after a fire time: policy once runs it now, 30 s late.
    const qint64 fire = (stored.createdAt.toMSecsSinceEpoch() / 60000 + 2) * 60000;
    Harness h = startEngine(t, fire + 30000);
    QSignalSpy told(h.engine.get(), &Engine::notificationRequested);
    QVERIFY(h.engine->isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(
        alertsOf(t.store(), chain.id),
        QStringList{QStringLiteral("late: started 30 s after its fire time (limit 10 s)")}, 10000);
    const QList<Alert> alerts = AlertRepository(t.store()).list(chain.id, 0, fire + 60000).value();
    QCOMPARE(alerts.first().atMs, fire);
    QVERIFY(alerts.first().runId > 0);
    const Run run = RunRepository(t.store()).byId(alerts.first().runId).value();
    QCOMPARE(run.scheduledFor.toMSecsSinceEpoch(), fire);
    QCOMPARE(AlertRepository(t.store()).forRuns({run.id})->value(run.id).size(), 1);
    QTRY_VERIFY(!told.isEmpty());
    QCOMPARE(told.first().at(1).toString(), QStringLiteral("late started late"));
    QCOMPARE(told.first().at(2).toString(),
             QStringLiteral("Run %1 started 30 s after its fire time (limit 10 s).").arg(run.id));
}

void TestAlerts::lateStart_ofATriggeredRun_countsFromItsTrigger()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("files"));
    AlertRules rules;
    rules.lateAfterMs = 10000;
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, rules));
    // A run a trigger made (its scheduled_for is when the trigger fired), started 45 s later
    // (the slots were full); a manual run as late is not judged.
    Run triggered;
    triggered.chainId = chain.id;
    triggered.trigger = RunTrigger::Trigger;
    triggered.scheduledFor = QDateTime::fromMSecsSinceEpoch(base, Qt::UTC);
    triggered = RunRepository(t.store()).insert(triggered).value();
    triggered.startedAt = QDateTime::fromMSecsSinceEpoch(base + 45000, Qt::UTC);
    Run manual = triggered;
    manual.id = 0;
    manual.trigger = RunTrigger::Manual;
    manual = RunRepository(t.store()).insert(manual).value();
    manual.startedAt = triggered.startedAt;
    AlertWatch watch(t.store());
    QCOMPARE(watch.runStarted(manual, base + 45000).size(), 0);
    const QList<Alert> raised = watch.runStarted(triggered, base + 45000);
    QCOMPARE(raised.size(), 1);
    QCOMPARE(raised.first().kind, AlertKind::Late);
    QCOMPARE(raised.first().atMs, base);
    QCOMPARE(
        alertsOf(t.store(), chain.id),
        QStringList{QStringLiteral("late: started 45 s after its trigger fired (limit 10 s)")});
}

void TestAlerts::ceiling_isToldWhileTheRunRunsOnce()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("slow"));
    addTask(t.store(), chain.id, QStringLiteral("work"), TaskKind::Shell,
            QStringLiteral("sleep 2"));
    AlertRules rules;
    rules.longerThanMs = 5 * 60000;
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, rules));
    Harness h = startEngine(t, base);
    const Run running = runUntil(t, *h.engine, chain.id,
                                 [](const Run &run) { return run.state == RunState::Running; });
    QCOMPARE(running.state, RunState::Running);
    h.engine->checkAlerts();
    QCOMPARE(alertsOf(t.store(), chain.id), QStringList{}); // not yet past its ceiling
    h.clock->advanceMs(6 * 60000);
    h.engine->checkAlerts();
    h.engine->checkAlerts(); // told once, however often the engine looks
    QCOMPARE(alertsOf(t.store(), chain.id),
             QStringList{QStringLiteral("too-long: running for 6 min, more than 5 min")});
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(running.id)->state), 10000);
    QCOMPARE(alertsOf(t.store(), chain.id).size(), 1); // its end does not tell it again
}

void TestAlerts::relativeFloor_waitsForFiveRunsThenJudges()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("quick"));
    addTask(t.store(), chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    AlertRules rules;
    rules.shorterThanFactor = 0.5;
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, rules));
    Harness h = startEngine(t, base);
    const auto ended = [](const Run &run) {
        return isTerminal(run.state);
    };
    // The clock stands still: each NoOp run takes 0 s. Four runs of a minute before are too
    // few for a median.
    const auto pastRun = [&](int i) {
        QVERIFY(pastSuccess(t.store(), chain.id, base - (i + 1) * 3600000, 60000));
    };
    for (int i = 0; i < 4; ++i)
        pastRun(i);
    QCOMPARE(runUntil(t, *h.engine, chain.id, ended).state, RunState::Succeeded);
    QCOMPARE(alertsOf(t.store(), chain.id), QStringList{});
    // Five of a minute and the run of 0 s just made: the median is a minute.
    for (int i = 4; i < 6; ++i)
        pastRun(i);
    const Run quick = runUntil(t, *h.engine, chain.id, ended);
    QCOMPARE(quick.state, RunState::Succeeded);
    QTRY_COMPARE(alertsOf(t.store(), chain.id),
                 QStringList{QStringLiteral(
                     "too-short: ran 0 s, less than 0.5x the median of the last 7 runs (1 min)")});
}

void TestAlerts::deadline_withoutASuccessIsRaisedOnce()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("report"));
    AlertRules rules;
    rules.deadline = QStringLiteral("0 7 * * 1-5"); // by 07:00 on weekdays
    rules.deadlineZone = QStringLiteral("UTC");
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, rules));
    const qint64 sevenTuesday = base + 7 * 3600000;
    Harness h = startEngine(t, sevenTuesday - 10000);
    QSignalSpy told(h.engine.get(), &Engine::notificationRequested);
    h.engine->checkAlerts();
    QCOMPARE(alertsOf(t.store(), chain.id), QStringList{});
    h.clock->setMs(sevenTuesday + 5000);
    h.engine->checkAlerts();
    h.engine->checkAlerts();
    QCOMPARE(alertsOf(t.store(), chain.id),
             QStringList{QStringLiteral(
                 "deadline: no run succeeded in the 24 hours before its deadline (0 7 * * 1-5)")});
    QCOMPARE(told.size(), 1);
    QCOMPARE(told.first().at(1).toString(), QStringLiteral("report missed its deadline"));
    // Wednesday: a run succeeded at 06:00, so 07:00 passes quietly.
    QVERIFY(pastSuccess(t.store(), chain.id, sevenTuesday + 23 * 3600000, 30000));
    h.clock->setMs(sevenTuesday + 24 * 3600000 + 5000);
    h.engine->checkAlerts();
    QCOMPARE(alertsOf(t.store(), chain.id).size(), 1);
}

void TestAlerts::notifyNone_recordsButTellsNothing()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("quiet"));
    chain.notify = NotifyPolicy::None;
    QVERIFY(ChainRepository(t.store()).update(chain));
    addTask(t.store(), chain.id, QStringLiteral("work"), TaskKind::Shell,
            QStringLiteral("sleep 1"));
    AlertRules rules;
    rules.longerThanMs = 1000;
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, rules));
    Harness h = startEngine(t, base);
    QSignalSpy told(h.engine.get(), &Engine::notificationRequested);
    const Run running = runUntil(t, *h.engine, chain.id,
                                 [](const Run &run) { return run.state == RunState::Running; });
    h.clock->advanceMs(2000);
    h.engine->checkAlerts();
    QCOMPARE(alertsOf(t.store(), chain.id),
             QStringList{QStringLiteral("too-long: running for 2 s, more than 1 s")});
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(running.id)->state), 10000);
    QCOMPARE(told.size(), 0);
    // Rules all off remove the chain's row.
    QVERIFY(AlertRepository(t.store()).setRules(chain.id, AlertRules{}));
    QCOMPARE(AlertRepository(t.store()).rules(chain.id).value(), AlertRules{});
}

QTEST_MAIN(TestAlerts)
#include "tst_alerts.moc"
