#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "scheduler/filetriggerruns.h"
#include "scheduler/filetriggerwatch.h"
#include "scheduler/missedfileruns.h"
#include "scheduler/missedrunsinbox.h"
#include "store/chaintriggerrepository.h"
#include "store/filetriggerrepository.h"
#include "store/occurrencerepository.h"
#include "store/runrepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QDateTime>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <latch>
#include <thread>

using namespace hg;

// File triggers in the occurrence ledger and the missed-runs inbox (issue 36): files skipped
// by misfire policy skip, gathered into one run (batch window, storm guard, policy once), or
// held under policy ask until the user runs each, one for all, or dismisses them. On the
// real store of each backend; the engine test uses real inotify and a real engine.
class TestFileTriggerLedger final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void askWhileStopped_waitsInTheInbox_thenEachRunsOnce();
    void askRunLatest_isOneRunForAllItsFiles();
    void askDismissKept_becomesPolicySkip();
    void twoDecisionsAtOnce_oneWinsAndNoFileRunsTwice();
    void skipped_isALedgerRowNamingTheFiles();
    void arrivedWhilePaused_isSaidSoNotEngineDown();
    void batchWindow_gatheredFilesAreOneRowOfItsRun();
    void ledgerRows_goWithTheirTrigger();

private:
    struct Harness
    {
        Chain chain;
        ChainTrigger trigger;
    };
    // A chain whose client name is this engine's (a shared store wants it).
    static Chain chainHere(test::TestStore &t);
    static Harness fileTrigger(test::TestStore &t, MisfirePolicy misfire, qint64 batchMs = 0);
    static QList<FileTriggerRuns::Settled> arrivals(const QStringList &names, bool missed);
    static QList<Run> runsOf(Store &store, qint64 chainId);
    static qint64 now() { return QDateTime::currentMSecsSinceEpoch(); }
};

void TestFileTriggerLedger::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the lists of gathered runs go to a test folder
}

Chain TestFileTriggerLedger::chainHere(test::TestStore &t)
{
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    StoreQuery q(t.store(), QStringLiteral("UPDATE chain SET client_name = 'files' WHERE id = ?"));
    q.bind(chain.id);
    (void)q.exec(QStringLiteral("test"));
    chain.clientName = QStringLiteral("files");
    return chain;
}

TestFileTriggerLedger::Harness
TestFileTriggerLedger::fileTrigger(test::TestStore &t, MisfirePolicy misfire, qint64 batchMs)
{
    Harness h;
    h.chain = chainHere(t);
    ChainTrigger spec;
    spec.kind = TriggerKind::File;
    spec.chainId = h.chain.id;
    spec.file.glob = QStringLiteral("/srv/in/*.csv");
    spec.file.settleMs = 0;
    spec.file.maxPerMinute = 0;
    spec.file.misfire = misfire;
    spec.file.batchMs = batchMs;
    h.trigger = ChainTriggerRepository(t.store()).add(spec).value();
    return h;
}

QList<FileTriggerRuns::Settled> TestFileTriggerLedger::arrivals(const QStringList &names,
                                                                bool missed)
{
    QList<FileTriggerRuns::Settled> settled;
    qint64 inode = 100;
    for (const QString &name : names)
        settled << FileTriggerRuns::Settled{
            {QStringLiteral("/srv/in/") + name, ++inode, 5, 1700000000000 + inode * 1000},
            FileEvent::Created,
            missed};
    return settled;
}

QList<Run> TestFileTriggerLedger::runsOf(Store &store, qint64 chainId)
{
    RunFilter filter;
    filter.chainId = chainId;
    filter.limit = 5000;
    QList<Run> runs = RunRepository(store).list(filter).value();
    std::sort(runs.begin(), runs.end(), [](const Run &a, const Run &b) { return a.id < b.id; });
    return runs;
}

void TestFileTriggerLedger::askWhileStopped_waitsInTheInbox_thenEachRunsOnce()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t);
    test::addTask(t.store(), c.id, QStringLiteral("noop"), TaskKind::Builtin,
                  QStringLiteral("NoOp"));
    ChainTrigger spec;
    spec.kind = TriggerKind::File;
    spec.chainId = c.id;
    spec.file.glob = folder.path() + QStringLiteral("/*.csv");
    spec.file.settleMs = 200;
    spec.file.maxPerMinute = 0;
    spec.file.misfire = MisfirePolicy::Ask;
    const Result<ChainTrigger> trigger = ChainTriggerRepository(t.store()).add(spec);
    QVERIFY2(trigger, qPrintable(trigger ? QString() : trigger.error().message));
    {
        EngineHost host(test::engineConfig(t, QStringLiteral("files")));
        QSignalSpy started(&host, &EngineHost::started);
        host.start();
        QVERIFY(started.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(
            FileTriggerRepository(t.store()).baselineAt(trigger->id).value().has_value(), 10000);
        QSignalSpy stopped(&host, &EngineHost::stopped);
        host.shutdown(Engine::ExitPolicy::Stop);
        QVERIFY(stopped.wait(20000));
    }
    for (const char *name : {"/x.csv", "/y.csv", "/z.csv"}) {
        QFile file(folder.path() + QLatin1String(name));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(name) > 0);
    }
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    QVERIFY(started.wait(10000));
    // Held, not run: one inbox row for the three, naming them.
    QTRY_COMPARE_WITH_TIMEOUT(OccurrenceRepository(t.store()).pending(c.id)->size(), 1, 10000);
    const Occurrence row = OccurrenceRepository(t.store()).pending(c.id)->constFirst();
    QCOMPARE(row.triggerId, trigger->id);
    QCOMPARE(row.scheduleId, 0);
    QCOMPARE(row.count, 3);
    QCOMPARE(row.outcome, OccurrenceOutcome::Missed);
    QCOMPARE(row.cause, OccurrenceCause::Down);
    QCOMPARE(row.detail, QStringLiteral("x.csv, y.csv, z.csv"));
    QCOMPARE(FileTriggerRepository(t.store()).held(row.id)->size(), 3);
    QCOMPARE(MissedRunsInbox(t.store()).waiting(c.id)->count, 3);
    QCOMPARE(runsOf(t.store(), c.id).size(), 0);

    MissedRunsInbox::Decision decision;
    decision.parallel = 2;
    const Result<MissedRunsInbox::Decided> decided = MissedRunsInbox(t.store()).decide(c, decision);
    QVERIFY2(decided, qPrintable(decided ? QString() : decided.error().message));
    QCOMPARE(decided->runs.size(), 3);
    const auto allSucceeded = [&] {
        const QList<Run> runs = runsOf(t.store(), c.id);
        return std::all_of(runs.cbegin(), runs.cend(),
                           [](const Run &run) { return run.state == RunState::Succeeded; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allSucceeded(), 20000);
    QStringList paths;
    for (const Run &run : runsOf(t.store(), c.id)) {
        QCOMPARE(run.trigger, RunTrigger::Trigger);
        QCOMPARE(run.parameters.value(QLatin1String("trigger.missed")),
                 QJsonValue(QStringLiteral("1")));
        QCOMPARE(run.batchParallel, 2);
        paths << run.parameters.value(QLatin1String("trigger.path")).toString();
    }
    QCOMPARE(paths, (QStringList{folder.path() + QStringLiteral("/x.csv"),
                                 folder.path() + QStringLiteral("/y.csv"),
                                 folder.path() + QStringLiteral("/z.csv")}));
    // Decided once: the inbox is empty, the row says it was run, its files run no second time.
    QCOMPARE(OccurrenceRepository(t.store()).pending(c.id)->size(), 0);
    QVERIFY(!MissedRunsInbox(t.store()).decide(c, decision));
    const Result<QList<MissedFileRuns::Planned>> again =
        MissedFileRuns::plan(t.store(), {row}, true);
    QCOMPARE(again->size(), 3);
    QCOMPARE(MissedFileRuns::enqueue(t.store(), c, again.value(), 1)->size(), 0);
    QCOMPARE(runsOf(t.store(), c.id).size(), 3);
    // The ledger: the row run from the inbox, and the three runs as the trigger's entries.
    const QList<Occurrence> ledger = OccurrenceRepository(t.store()).list(c.id, 0, now()).value();
    QCOMPARE(std::count_if(ledger.cbegin(), ledger.cend(),
                           [&](const Occurrence &o) {
                               return o.outcome == OccurrenceOutcome::Ran
                                      && o.triggerId == trigger->id;
                           }),
             3);
    QVERIFY(std::any_of(ledger.cbegin(), ledger.cend(), [](const Occurrence &o) {
        return o.outcome == OccurrenceOutcome::Missed && o.inbox == InboxState::Run;
    }));
}

void TestFileTriggerLedger::askRunLatest_isOneRunForAllItsFiles()
{
    HG_TEST_STORE(t);
    const Harness h = fileTrigger(t, MisfirePolicy::Ask);
    FileTriggerRuns runs(h.trigger, t.store(), now, now);
    runs.load({});
    QVERIFY(runs.take(arrivals({QStringLiteral("b.csv"), QStringLiteral("a.csv")}, true), false));
    QCOMPARE(runsOf(t.store(), h.chain.id).size(), 0);
    // Seen, not waiting: a restart neither runs nor asks them again.
    const auto seen = FileTriggerRepository(t.store()).seen(h.trigger.id).value();
    QCOMPARE(seen.size(), 2);
    QVERIFY(std::none_of(seen.cbegin(), seen.cend(), [](const auto &s) { return s.waiting; }));
    MissedRunsInbox::Decision decision;
    decision.choice = MissedRunsInbox::Choice::RunLatest;
    const Result<MissedRunsInbox::Decided> decided =
        MissedRunsInbox(t.store()).decide(h.chain, decision);
    QVERIFY2(decided, qPrintable(decided ? QString() : decided.error().message));
    QCOMPARE(decided->runs.size(), 1);
    const Run run = decided->runs.constFirst();
    QCOMPARE(run.parameters.value(QLatin1String("trigger.count")), QJsonValue(QStringLiteral("2")));
    // Oldest first: b.csv was written before a.csv.
    QCOMPARE(run.parameters.value(QLatin1String("trigger.path")),
             QJsonValue(QStringLiteral("/srv/in/b.csv")));
    QFile list(run.parameters.value(QLatin1String("trigger.paths")).toString());
    QVERIFY(list.open(QIODevice::ReadOnly));
    QCOMPARE(list.readAll(), QByteArray("/srv/in/b.csv\n/srv/in/a.csv\n"));
}

void TestFileTriggerLedger::twoDecisionsAtOnce_oneWinsAndNoFileRunsTwice()
{
    // A window and a command (or two commands) deciding the same rows at the same moment,
    // each on its own connection: one decides, the other does nothing. Found by a hostile
    // pass: "run each" and "the latest only" at once ran every file twice.
    HG_TEST_STORE(t);
    const Harness h = fileTrigger(t, MisfirePolicy::Ask);
    FileTriggerRuns runs(h.trigger, t.store(), now, now);
    runs.load({});
    using Choice = MissedRunsInbox::Choice;
    const QList<std::pair<Choice, Choice>> rounds{
        {Choice::RunAll, Choice::RunLatest}, {Choice::RunLatest, Choice::RunAll},
        {Choice::RunAll, Choice::Dismiss},   {Choice::Dismiss, Choice::RunAll},
        {Choice::RunAll, Choice::RunAll},    {Choice::RunLatest, Choice::Dismiss}};
    qsizetype expected = 0;
    for (qsizetype round = 0; round < rounds.size(); ++round) {
        QStringList names;
        for (int i = 0; i < 10; ++i)
            names << QStringLiteral("r%1-%2.csv").arg(round).arg(i);
        QVERIFY(runs.take(arrivals(names, true), false));
        std::latch ready(2);
        std::atomic<int> succeeded{0};
        Choice won = Choice::Dismiss;
        QString refusal;
        const auto decide = [&](Choice choice) {
            std::unique_ptr<Store> store = t.openAnother(QStringLiteral("decide"));
            ready.arrive_and_wait();
            MissedRunsInbox::Decision decision;
            decision.choice = choice;
            const Result<MissedRunsInbox::Decided> decided =
                MissedRunsInbox(*store).decide(h.chain, decision);
            if (decided) {
                ++succeeded;
                won = choice;
            } else {
                refusal = decided.error().message;
            }
        };
        std::thread first(decide, rounds.at(round).first);
        std::thread second(decide, rounds.at(round).second);
        first.join();
        second.join();
        QCOMPARE(succeeded.load(), 1);
        QVERIFY2(refusal.contains(QLatin1String("decided meanwhile"))
                     || refusal.contains(QLatin1String("no missed runs")),
                 qPrintable(refusal));
        expected += won == Choice::RunAll ? 10 : won == Choice::RunLatest ? 1 : 0;
        QCOMPARE(runsOf(t.store(), h.chain.id).size(), expected);
        QCOMPARE(OccurrenceRepository(t.store()).pendingCount().value(), 0);
    }
}

void TestFileTriggerLedger::askDismissKept_becomesPolicySkip()
{
    HG_TEST_STORE(t);
    const Harness h = fileTrigger(t, MisfirePolicy::Ask);
    FileTriggerRuns runs(h.trigger, t.store(), now, now);
    runs.load({});
    QVERIFY(runs.take(arrivals({QStringLiteral("a.csv")}, true), false));
    MissedRunsInbox::Decision decision;
    decision.choice = MissedRunsInbox::Choice::Dismiss;
    decision.keep = true;
    const Result<MissedRunsInbox::Decided> decided =
        MissedRunsInbox(t.store()).decide(h.chain, decision);
    QVERIFY(decided);
    QCOMPARE(decided->runs.size(), 0);
    QCOMPARE(decided->kept, std::optional(MisfirePolicy::Skip));
    QCOMPARE(ChainTriggerRepository(t.store()).byId(h.trigger.id)->file.misfire,
             MisfirePolicy::Skip);
    QCOMPARE(runsOf(t.store(), h.chain.id).size(), 0);
    const QList<Occurrence> ledger =
        OccurrenceRepository(t.store()).list(h.chain.id, 0, now()).value();
    QCOMPARE(ledger.size(), 1);
    QCOMPARE(ledger.constFirst().inbox, InboxState::Dismissed);
}

void TestFileTriggerLedger::arrivedWhilePaused_isSaidSoNotEngineDown()
{
    // The engine ran all along; the trigger was paused: its ledger row says "paused".
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t);
    ChainTrigger spec;
    spec.kind = TriggerKind::File;
    spec.chainId = c.id;
    spec.file.glob = folder.path() + QStringLiteral("/*.csv");
    spec.file.settleMs = 0;
    spec.file.misfire = MisfirePolicy::Skip;
    const ChainTrigger trigger = ChainTriggerRepository(t.store()).add(spec).value();
    FileTriggerWatch watch(t.store(), QStringLiteral("files"), now, now);
    watch.reload(); // the baseline: an empty folder
    QCOMPARE(watch.watching(), 1);
    QVERIFY(ChainTriggerRepository(t.store()).setPaused(trigger.id, true));
    watch.reload();
    QCOMPARE(watch.watching(), 0);
    QFile file(folder.path() + QStringLiteral("/while-paused.csv"));
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("x") == 1);
    file.close();
    QVERIFY(ChainTriggerRepository(t.store()).setPaused(trigger.id, false));
    watch.reload(); // compared with what it saw: skipped once settled, by its misfire policy
    const auto ledger = [&] {
        return OccurrenceRepository(t.store()).list(c.id, 0, now() + 3'600'000);
    };
    QTRY_COMPARE_WITH_TIMEOUT(ledger().value().size(), 1, 10000);
    const Result<QList<Occurrence>> rows = ledger();
    QCOMPARE(rows->constFirst().outcome, OccurrenceOutcome::SkippedMisfire);
    QCOMPARE(rows->constFirst().cause, OccurrenceCause::Paused);
}

void TestFileTriggerLedger::skipped_isALedgerRowNamingTheFiles()
{
    HG_TEST_STORE(t);
    const Harness h = fileTrigger(t, MisfirePolicy::Skip);
    FileTriggerRuns runs(h.trigger, t.store(), now, now);
    runs.load({});
    QStringList names;
    for (int i = 0; i < 40; ++i)
        names << QStringLiteral("report-%1.csv").arg(i, 2, 10, QLatin1Char('0'));
    names << QStringLiteral("bad\nname.csv");
    QVERIFY(runs.take(arrivals(names, true), false));
    QCOMPARE(runsOf(t.store(), h.chain.id).size(), 0);
    const QList<Occurrence> ledger =
        OccurrenceRepository(t.store()).list(h.chain.id, 0, now()).value();
    QCOMPARE(ledger.size(), 1);
    const Occurrence &row = ledger.constFirst();
    QCOMPARE(row.outcome, OccurrenceOutcome::SkippedMisfire);
    QCOMPARE(row.triggerId, h.trigger.id);
    QCOMPARE(row.count, 41);
    // Sorted, the newline shown as '?', cut short.
    QVERIFY2(row.detail.startsWith(QStringLiteral("bad?name.csv, report-00.csv, report-01.csv")),
             qPrintable(row.detail));
    QVERIFY2(row.detail.endsWith(QStringLiteral(", …")), qPrintable(row.detail));
    QVERIFY(row.detail.size() < 200);
    QVERIFY(row.lastFireMs > row.firstFireMs); // the span of the files' modification times
    // Not in the inbox, and live arrivals after it run as always.
    QCOMPARE(OccurrenceRepository(t.store()).pending(h.chain.id)->size(), 0);
    QVERIFY(runs.take(arrivals({QStringLiteral("new.csv")}, false), false));
    QCOMPARE(runsOf(t.store(), h.chain.id).size(), 1);
}

void TestFileTriggerLedger::batchWindow_gatheredFilesAreOneRowOfItsRun()
{
    HG_TEST_STORE(t);
    const Harness h = fileTrigger(t, MisfirePolicy::All, 60000);
    FileTriggerRuns runs(h.trigger, t.store(), now, now);
    runs.load({});
    QVERIFY(runs.take(
        arrivals({QStringLiteral("a.csv"), QStringLiteral("b.csv"), QStringLiteral("c.csv")},
                 false),
        false));
    QCOMPARE(runsOf(t.store(), h.chain.id).size(), 0);
    QVERIFY(runs.flushNow());
    const QList<Run> started = runsOf(t.store(), h.chain.id);
    QCOMPARE(started.size(), 1);
    const QList<Occurrence> ledger =
        OccurrenceRepository(t.store()).list(h.chain.id, 0, now()).value();
    const auto gathered = std::find_if(ledger.cbegin(), ledger.cend(), [](const Occurrence &o) {
        return o.outcome == OccurrenceOutcome::Coalesced;
    });
    QVERIFY(gathered != ledger.cend());
    QCOMPARE(gathered->count, 2); // the run stands for the first; two more were gathered
    QCOMPARE(gathered->cause, OccurrenceCause::Batch);
    QCOMPARE(gathered->runId, started.constFirst().id);
    QCOMPARE(gathered->detail, QStringLiteral("b.csv, c.csv"));
    QVERIFY(std::any_of(ledger.cbegin(), ledger.cend(), [&](const Occurrence &o) {
        return o.outcome == OccurrenceOutcome::Ran && o.runId == started.constFirst().id;
    }));
}

void TestFileTriggerLedger::ledgerRows_goWithTheirTrigger()
{
    HG_TEST_STORE(t);
    const Harness h = fileTrigger(t, MisfirePolicy::Ask);
    FileTriggerRuns runs(h.trigger, t.store(), now, now);
    runs.load({});
    QVERIFY(runs.take(arrivals({QStringLiteral("a.csv")}, true), false));
    const qint64 rowId = OccurrenceRepository(t.store()).pending(h.chain.id)->constFirst().id;
    QVERIFY(ChainTriggerRepository(t.store()).remove(h.trigger.id));
    QCOMPARE(OccurrenceRepository(t.store()).pending(h.chain.id)->size(), 0);
    QCOMPARE(FileTriggerRepository(t.store()).held(rowId)->size(), 0);
}

QTEST_GUILESS_MAIN(TestFileTriggerLedger)
#include "tst_filetriggerledger.moc"
