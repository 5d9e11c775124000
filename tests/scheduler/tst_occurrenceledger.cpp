#include "fixtures.h"
#include "scheduler/clock.h"
#include "scheduler/effectivecadence.h"
#include "scheduler/engine.h"
#include "scheduler/scheduleplan.h"
#include "store/calendarrepository.h"
#include "store/chainrepository.h"
#include "store/occurrencerepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSignalSpy>
#include <QTest>

using namespace hg;
using hg::test::addTask;

// The occurrence ledger on a real store, with the engine's injected clock: every expected
// fire time gets an outcome (a run, or a ledger row), equal outcomes collapse into one row,
// and the missed-runs inbox fills under misfire policy ask.
class TestOccurrenceLedger final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void downtimeSleepAndPause_eachSayWhyFireTimesDidNotRun();
    void calendarAndSkipPolicy_excludedDaysAreNotMissed();
    void overlapSkip_collapsesIntoOneRowAndSurvivesAReload();
    void askPolicy_missedFireTimesWaitInTheInbox();
    void dstPolicy_decidesWhichFireTimesTheLedgerCounts();
    void effectiveCadence_explainsTheDifference();

private:
    struct Harness
    {
        std::shared_ptr<ManualClock> clock;
        std::unique_ptr<Engine> engine;
    };
    static Harness startEngine(test::TestStore &store, qint64 nowMs);
    // A chain p/c with one task and one UTC schedule; the stored schedule.
    static Schedule chainWithSchedule(Store &store, const QString &expression,
                                      MisfirePolicy misfire, const QString &command = {});
    // The ledger rows (not the runs) of the chain, oldest first, as "outcome cause count".
    static QStringList ledgerRows(Store &store, qint64 chainId);
    static qint64 minute(qint64 ms) { return ms / 60000 * 60000; }
};

TestOccurrenceLedger::Harness TestOccurrenceLedger::startEngine(test::TestStore &store,
                                                                qint64 nowMs)
{
    Harness h;
    h.clock = std::make_shared<ManualClock>(nowMs);
    EngineConfig config = test::engineConfig(store, QStringLiteral("ledger-engine"));
    config.graceMs = 500;
    config.commandPollMs = 50;
    h.engine = std::make_unique<Engine>(config, h.clock);
    QSignalSpy failed(h.engine.get(), &Engine::startFailed);
    h.engine->start();
    if (!failed.isEmpty())
        qWarning() << "engine failed to start:" << failed.first().first().toString();
    return h;
}

Schedule TestOccurrenceLedger::chainWithSchedule(Store &store, const QString &expression,
                                                 MisfirePolicy misfire, const QString &command)
{
    const Chain chain = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c"));
    if (command.isEmpty())
        addTask(store, chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    else
        addTask(store, chain.id, QStringLiteral("work"), TaskKind::Shell, command);
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

QStringList TestOccurrenceLedger::ledgerRows(Store &store, qint64 chainId)
{
    QStringList rows;
    const Result<QList<Occurrence>> all =
        OccurrenceRepository(store).list(chainId, 0, std::numeric_limits<qint64>::max() / 2);
    if (!all)
        return {all.error().message};
    for (const Occurrence &o : all.value()) {
        if (o.outcome != OccurrenceOutcome::Ran)
            rows << QStringLiteral("%1 %2 %3")
                        .arg(enumName(o.outcome), enumName(o.cause))
                        .arg(o.count)
                        .simplified();
    }
    return rows;
}

void TestOccurrenceLedger::downtimeSleepAndPause_eachSayWhyFireTimesDidNotRun()
{
    HG_TEST_STORE(t);
    const Schedule stored =
        chainWithSchedule(t.store(), QStringLiteral("* * * * *"), MisfirePolicy::Once);
    QVERIFY(stored.id > 0);
    // Down two hours since the schedule was made: 120 fire times; once runs the latest.
    const qint64 start = minute(stored.createdAt.toMSecsSinceEpoch()) + 2 * 3600000 + 30000;
    Harness h = startEngine(t, start);
    QVERIFY(h.engine->isRunning());
    QCOMPARE(ledgerRows(t.store(), stored.chainId),
             QStringList{QStringLiteral("coalesced down 119")});
    const QList<Occurrence> first =
        OccurrenceRepository(t.store()).list(stored.chainId, 0, start).value();
    QCOMPARE(first.size(), 2);
    QCOMPARE(first.at(0).firstFireMs, minute(start) - 119 * 60000);
    QCOMPARE(first.at(0).lastFireMs, minute(start) - 60000);
    QCOMPARE(first.at(1).outcome, OccurrenceOutcome::Ran);
    QCOMPARE(first.at(1).firstFireMs, minute(start));
    QCOMPARE(first.at(0).runId, first.at(1).runId); // folded into the run that was made

    // Asleep ten minutes: nine coalesced, the latest runs.
    QSignalSpy jumped(h.engine.get(), &Engine::clockJumped);
    h.clock->sleepMs(10 * 60000);
    QVERIFY(jumped.wait(30000));
    QCOMPARE(
        ledgerRows(t.store(), stored.chainId),
        (QStringList{QStringLiteral("coalesced down 119"), QStringLiteral("coalesced asleep 9")}));

    // Paused five minutes: on resume the latest runs (once), the other four were paused.
    h.engine->setSchedulesPaused(true);
    h.clock->setMs(h.clock->nowMs() + 5 * 60000);
    h.engine->checkDue();
    h.engine->setSchedulesPaused(false);
    QCOMPARE(
        ledgerRows(t.store(), stored.chainId),
        (QStringList{QStringLiteral("coalesced down 119"), QStringLiteral("coalesced asleep 9"),
                     QStringLiteral("paused paused 4")}));

    // On time: runs only, no row.
    h.clock->setMs(minute(h.clock->nowMs()) + 60000 + 5);
    h.engine->checkDue();
    QCOMPARE(ledgerRows(t.store(), stored.chainId).size(), 3);
    qint64 runs = 0;
    for (const Occurrence &o :
         OccurrenceRepository(t.store()).list(stored.chainId, 0, h.clock->nowMs()).value())
        runs += o.outcome == OccurrenceOutcome::Ran ? 1 : 0;
    QCOMPARE(runs, 4);

    // The engine stops and starts again a minute later: nothing is accounted twice, and the
    // minute it was down is a run (policy once) and nothing else.
    const qint64 stoppedAt = h.clock->nowMs();
    h.engine->shutdown(Engine::ExitPolicy::Stop);
    h.engine.reset();
    Harness again = startEngine(t, stoppedAt + 60000);
    QCOMPARE(ledgerRows(t.store(), stored.chainId).size(), 3);
}

void TestOccurrenceLedger::calendarAndSkipPolicy_excludedDaysAreNotMissed()
{
    HG_TEST_STORE(t);
    Schedule stored =
        chainWithSchedule(t.store(), QStringLiteral("0 12 * * *"), MisfirePolicy::Skip);
    QVERIFY(stored.id > 0);
    const QDate made = stored.createdAt.toUTC().date();
    // The second and third noon after the schedule was made are holidays.
    Calendar holidays;
    holidays.name = QStringLiteral("holidays");
    holidays.ranges << Calendar::Range{made.addDays(2), made.addDays(3), QStringLiteral("break")};
    const Result<Calendar> calendar = CalendarRepository(t.store()).add(holidays);
    QVERIFY(calendar);
    stored.calendarId = calendar->id;
    stored.calendarMode = CalendarMode::Exclude;
    QVERIFY(ScheduleRepository(t.store()).update(stored));

    // Down until the sixth day's 13:00: noons of days 1-5 (day 0's too when made before it).
    const qint64 start = QDateTime(made.addDays(5), QTime(13, 0), Qt::UTC).toMSecsSinceEpoch();
    Harness h = startEngine(t, start);
    QVERIFY(h.engine->isRunning());
    const bool madeBeforeNoon = stored.createdAt.toUTC().time() < QTime(12, 0);
    const QString missedBefore = QStringLiteral("missed down %1").arg(madeBeforeNoon ? 2 : 1);
    QCOMPARE(
        ledgerRows(t.store(), stored.chainId),
        (QStringList{missedBefore, QStringLiteral("excluded 2"), QStringLiteral("missed down 2")}));
    QVERIFY(RunRepository(t.store()).list(RunFilter{})->isEmpty());
}

void TestOccurrenceLedger::overlapSkip_collapsesIntoOneRowAndSurvivesAReload()
{
    HG_TEST_STORE(t);
    const Schedule stored = chainWithSchedule(t.store(), QStringLiteral("* * * * *"),
                                              MisfirePolicy::Skip, QStringLiteral("sleep 30"));
    QVERIFY(stored.id > 0);
    Chain chain = ChainRepository(t.store()).byId(stored.chainId).value();
    chain.maxInstances = 1;
    chain.overlap = OverlapPolicy::Skip;
    QVERIFY(ChainRepository(t.store()).update(chain));
    const qint64 start = minute(stored.createdAt.toMSecsSinceEpoch()) + 10 * 60000 + 30000;
    Harness h = startEngine(t, start);
    QCOMPARE(ledgerRows(t.store(), stored.chainId), QStringList{QStringLiteral("missed down 10")});

    // A run starts at the next minute and lasts; the two minutes after it are skipped.
    h.clock->setMs(minute(start) + 60000 + 5);
    h.engine->checkDue();
    RunFilter all;
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).list(all)->size(), 1, 5000);
    const qint64 runId = RunRepository(t.store()).list(all)->first().id;
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).byId(runId)->state, RunState::Running, 5000);
    for (int m = 2; m <= 3; ++m) {
        h.clock->setMs(minute(start) + m * 60000 + 5);
        h.engine->checkDue();
    }
    QCOMPARE(ledgerRows(t.store(), stored.chainId),
             (QStringList{QStringLiteral("missed down 10"), QStringLiteral("skipped-overlap 2")}));

    // A definition reload does not take the skipped minutes for missed ones.
    h.engine->reloadSchedules();
    QCOMPARE(ledgerRows(t.store(), stored.chainId),
             (QStringList{QStringLiteral("missed down 10"), QStringLiteral("skipped-overlap 2")}));
    QCOMPARE(RunRepository(t.store()).list(all)->size(), 1);
    h.engine->shutdown(Engine::ExitPolicy::Stop);
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(runId)->state), 5000);
}

void TestOccurrenceLedger::askPolicy_missedFireTimesWaitInTheInbox()
{
    HG_TEST_STORE(t);
    const Schedule stored =
        chainWithSchedule(t.store(), QStringLiteral("0 * * * *"), MisfirePolicy::Ask);
    QVERIFY(stored.id > 0);
    const qint64 hour = stored.createdAt.toMSecsSinceEpoch() / 3600000 * 3600000;
    Harness h = startEngine(t, hour + 3 * 3600000 + 600000); // three hours down
    QVERIFY(h.engine->isRunning());
    QCOMPARE(ledgerRows(t.store(), stored.chainId), QStringList{QStringLiteral("missed down 3")});
    QVERIFY(RunRepository(t.store()).list(RunFilter{})->isEmpty()); // nothing ran on its own
    const QList<Occurrence> pending = OccurrenceRepository(t.store()).pending().value();
    QCOMPARE(pending.size(), 1);
    QCOMPARE(pending.first().inbox, InboxState::Pending);
    QCOMPARE(pending.first().firstFireMs, hour + 3600000);
    QCOMPARE(pending.first().lastFireMs, hour + 3 * 3600000);
    QCOMPARE(OccurrenceRepository(t.store()).pendingCount().value(), 3);
    // A decision takes it out of the inbox; the ledger keeps it.
    QVERIFY(OccurrenceRepository(t.store()).decide({pending.first().id}, InboxState::Dismissed));
    QCOMPARE(OccurrenceRepository(t.store()).pendingCount().value(), 0);
    QCOMPARE(ledgerRows(t.store(), stored.chainId), QStringList{QStringLiteral("missed down 3")});
}

void TestOccurrenceLedger::dstPolicy_decidesWhichFireTimesTheLedgerCounts()
{
    HG_TEST_STORE(t);
    // 02:30 in Berlin, every day, one schedule of each gap policy; the engine is down until
    // the day after the spring-forward of 28 March 2027, when 02:30 does not exist.
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("dst"));
    addTask(t.store(), chain.id, QStringLiteral("noop"), TaskKind::Builtin, QStringLiteral("NoOp"));
    QList<qint64> ids;
    for (const QString &policy : {QStringLiteral("run-after"), QStringLiteral("skip")}) {
        Schedule schedule;
        schedule.chainId = chain.id;
        schedule.expression = QStringLiteral("30 2 * * *");
        schedule.timeZone = QStringLiteral("Europe/Berlin");
        schedule.misfire = MisfirePolicy::Skip;
        schedule.dst = DstPolicy::fromText(policy).value();
        const Result<Schedule> stored = ScheduleRepository(t.store()).add(schedule);
        QVERIFY2(stored, stored ? "" : qPrintable(stored.error().message));
        ids << stored->id;
    }
    const qint64 start =
        QDateTime(QDate(2027, 3, 29), QTime(12, 0), QTimeZone("Europe/Berlin")).toMSecsSinceEpoch();
    Harness h = startEngine(t, start);
    QVERIFY(h.engine->isRunning());
    const QList<Occurrence> rows = OccurrenceRepository(t.store()).list(chain.id, 0, start).value();
    QHash<qint64, qint64> missed;
    QHash<qint64, qint64> lastFire;
    for (const Occurrence &o : rows) {
        QCOMPARE(o.outcome, OccurrenceOutcome::Missed);
        QCOMPARE(o.cause, OccurrenceCause::Down);
        missed[o.scheduleId] += o.count;
        lastFire[o.scheduleId] = std::max(lastFire.value(o.scheduleId), o.lastFireMs);
    }
    // The gap day: run-after fires at 03:00, the first instant after the gap, and counts it;
    // skip has no fire time that day, so there is nothing to miss.
    QCOMPARE(missed.value(ids.at(0)), missed.value(ids.at(1)) + 1);
    const QDateTime lastBerlin =
        QDateTime::fromMSecsSinceEpoch(lastFire.value(ids.at(0)), QTimeZone("Europe/Berlin"));
    QCOMPARE(lastBerlin.time(), QTime(2, 30)); // 29 March: an ordinary day again
    QVERIFY(RunRepository(t.store()).list(RunFilter{})->isEmpty());
    // A restart walks nothing again.
    h.engine.reset();
    Harness again = startEngine(t, start + 60000);
    qint64 total = 0;
    for (const Occurrence &o : OccurrenceRepository(t.store()).list(chain.id, 0, start).value())
        total += o.count;
    QCOMPARE(total, missed.value(ids.at(0)) + missed.value(ids.at(1)));
}

void TestOccurrenceLedger::effectiveCadence_explainsTheDifference()
{
    Schedule schedule;
    schedule.id = 1;
    schedule.chainId = 1;
    schedule.kind = ScheduleKind::Every;
    schedule.expression = QStringLiteral("@every 20s");
    schedule.timeZone = QStringLiteral("UTC");
    schedule.createdAt = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    const Result<SchedulePlan> plan = SchedulePlan::create(schedule, QTimeZone::utc());
    QVERIFY2(plan, plan ? "" : qPrintable(plan.error().message));
    // Runs take 45 s: of every three fire times one runs and two are skipped.
    const qint64 from = qint64(1800000000) * 1000;
    QList<Occurrence> occurrences;
    for (qint64 at = from; at < from + 3600000; at += 60000) {
        Occurrence ran;
        ran.scheduleId = 1;
        ran.firstFireMs = ran.lastFireMs = at;
        ran.durationMs = 45000;
        Occurrence skipped;
        skipped.scheduleId = 1;
        skipped.outcome = OccurrenceOutcome::SkippedOverlap;
        skipped.firstFireMs = at + 20000;
        skipped.lastFireMs = at + 40000;
        skipped.count = 2;
        occurrences << ran << skipped;
    }
    const EffectiveCadence cadence =
        EffectiveCadence::measure(plan.value(), occurrences, from, from + 3600000);
    QCOMPARE(cadence.configuredMs, 20000);
    QCOMPARE(cadence.effectiveMs, 60000);
    QCOMPARE(cadence.describe(QStringLiteral("over the last hour")),
             QStringLiteral("configured every 20 s; effective every 1 min over the last hour: "
                            "runs take 45 s and the overlap policy skips"));
    // A row reaching back before the span counts only its fire times inside it: two hours of
    // every 20 s missed (360), seen over the second hour, are 180.
    Occurrence away;
    away.scheduleId = 1;
    away.outcome = OccurrenceOutcome::Missed;
    away.cause = OccurrenceCause::Down;
    away.firstFireMs = from - 3600000;
    away.lastFireMs = from + 3600000 - 20000;
    away.count = 360;
    const EffectiveCadence partly =
        EffectiveCadence::measure(plan.value(), {away}, from, from + 3600000);
    QCOMPARE(partly.unrun.value(OccurrenceOutcome::Missed), 180);
    // Runs as configured: nothing to explain.
    QList<Occurrence> onTime;
    for (qint64 at = from; at < from + 3600000; at += 20000) {
        Occurrence ran;
        ran.scheduleId = 1;
        ran.firstFireMs = ran.lastFireMs = at;
        onTime << ran;
    }
    QCOMPARE(EffectiveCadence::measure(plan.value(), onTime, from, from + 3600000)
                 .describe(QStringLiteral("over the last hour")),
             QStringLiteral("configured every 20 s; effective as configured over the last hour"));
}

QTEST_GUILESS_MAIN(TestOccurrenceLedger)
#include "tst_occurrenceledger.moc"
