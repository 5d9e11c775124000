#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "scheduler/runcontrol.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QSignalSpy>
#include <QTest>

using namespace hg;

// Chain triggers (issue 36): chain B starts when chain A's run ends in a given state. The
// store writes B's run in the transaction that ends A's, keyed by A's run, so each end
// starts exactly one run of B whoever ends it; "all within" waits for every upstream and
// uses each end once; a cycle of triggers is refused, naming it. On SQLite and PostgreSQL,
// with the store's own writes and with a real engine.
class TestChainTriggers final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void upstreamEnd_startsOneRunSayingWhatFiredIt();
    void onState_pausedAndDisabled_startNothing();
    void allWithin_waitsForEveryUpstream_andUsesEachEndOnce();
    void cycle_isRefusedNamingIt();
    void twin_isRefusedNamingTheOneThere();
    void removingAnUpstream_removesTheTriggersThatWaitForIt();
    void engine_runsTheDownstreamWithTheUpstreamsRunInItsParameters();

private:
    static QList<Run> runsOf(Store &store, qint64 chainId);
    static ChainTrigger after(const Chain &downstream, const QList<Chain> &upstreams,
                              TriggerOn on = TriggerOn::Succeeded, qint64 withinMs = 0);
};

QList<Run> TestChainTriggers::runsOf(Store &store, qint64 chainId)
{
    RunFilter filter;
    filter.chainId = chainId;
    const Result<QList<Run>> runs = RunRepository(store).list(filter);
    return runs ? runs.value() : QList<Run>();
}

ChainTrigger TestChainTriggers::after(const Chain &downstream, const QList<Chain> &upstreams,
                                      TriggerOn on, qint64 withinMs)
{
    ChainTrigger t;
    t.chainId = downstream.id;
    t.path = QStringLiteral("p/") + downstream.name;
    for (const Chain &u : upstreams)
        t.upstreams << ChainTrigger::Upstream{u.id, QStringLiteral("p/") + u.name};
    t.on = on;
    t.withinMs = withinMs;
    return t;
}

void TestChainTriggers::upstreamEnd_startsOneRunSayingWhatFiredIt()
{
    HG_TEST_STORE(db);
    const Chain a = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("b"));
    const Result<ChainTrigger> trigger = ChainTriggerRepository(db.store()).add(after(b, {a}));
    QVERIFY2(trigger, trigger ? "" : qPrintable(trigger.error().message));
    QCOMPARE(trigger->upstreams.size(), 1);
    QCOMPARE(trigger->upstreams.at(0).path, QStringLiteral("p/a"));

    const qint64 first = test::endRun(db.store(), a.id, RunState::Succeeded);
    QVERIFY(first > 0);
    QList<Run> started = runsOf(db.store(), b.id);
    QCOMPARE(started.size(), 1);
    QCOMPARE(started.at(0).state, RunState::Queued);
    QCOMPARE(started.at(0).trigger, RunTrigger::Trigger);
    QCOMPARE(started.at(0).parameters.value(QLatin1String("trigger.upstream_run")).toString(),
             QString::number(first));
    QCOMPARE(started.at(0).parameters.value(QLatin1String("trigger.upstream_state")).toString(),
             QStringLiteral("succeeded"));
    QCOMPARE(started.at(0).parameters.value(QLatin1String("trigger.upstream_chain")).toString(),
             QStringLiteral("p/a"));
    // A second end starts a second run; B's own end starts nothing.
    QVERIFY(test::endRun(db.store(), a.id, RunState::Succeeded) > 0);
    QCOMPARE(runsOf(db.store(), b.id).size(), 2);
    QVERIFY(RunRepository(db.store())
                .setState(started.at(0).id, RunState::Running, QDateTime::currentDateTimeUtc(),
                          QStringLiteral("e1")));
    QVERIFY(RunRepository(db.store())
                .setState(started.at(0).id, RunState::Succeeded, QDateTime::currentDateTimeUtc(),
                          QStringLiteral("e1")));
    QCOMPARE(runsOf(db.store(), b.id).size(), 2);
    QCOMPARE(runsOf(db.store(), a.id).size(), 2);
}

void TestChainTriggers::onState_pausedAndDisabled_startNothing()
{
    HG_TEST_STORE(db);
    const Chain a = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("b"));
    const Chain c = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    ChainTriggerRepository triggers(db.store());
    QVERIFY(triggers.add(after(b, {a}, TriggerOn::Failed)));
    const Result<ChainTrigger> onAny = triggers.add(after(c, {a}, TriggerOn::Finished));
    QVERIFY(onAny);

    QVERIFY(test::endRun(db.store(), a.id, RunState::Succeeded) > 0); // c only
    QCOMPARE(runsOf(db.store(), b.id).size(), 0);
    QCOMPARE(runsOf(db.store(), c.id).size(), 1);
    QVERIFY(test::endRun(db.store(), a.id, RunState::TimedOut) > 0); // a failure: both
    QCOMPARE(runsOf(db.store(), b.id).size(), 1);
    QCOMPARE(runsOf(db.store(), c.id).size(), 2);
    QVERIFY(test::endRun(db.store(), a.id, RunState::Cancelled) > 0); // finished: c only
    QCOMPARE(runsOf(db.store(), b.id).size(), 1);
    QCOMPARE(runsOf(db.store(), c.id).size(), 3);

    QVERIFY(triggers.setPaused(onAny->id, true));
    QVERIFY(test::endRun(db.store(), a.id, RunState::Failed) > 0);
    QCOMPARE(runsOf(db.store(), c.id).size(), 3);
    QCOMPARE(runsOf(db.store(), b.id).size(), 2);
    Chain disabled = ChainRepository(db.store()).byId(b.id).value();
    disabled.enabled = false;
    QVERIFY(ChainRepository(db.store()).update(disabled));
    QVERIFY(test::endRun(db.store(), a.id, RunState::Failed) > 0);
    QCOMPARE(runsOf(db.store(), b.id).size(), 2);
    QVERIFY(triggers.setPaused(onAny->id, false));
    QVERIFY(test::endRun(db.store(), a.id, RunState::Failed) > 0);
    QCOMPARE(runsOf(db.store(), c.id).size(), 4);
    QVERIFY(!triggers.setPaused(9999, true));
    QVERIFY(!triggers.remove(9999));
}

void TestChainTriggers::allWithin_waitsForEveryUpstream_andUsesEachEndOnce()
{
    HG_TEST_STORE(db);
    const Chain a = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain c = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Chain b = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("b"));
    const Result<ChainTrigger> trigger =
        ChainTriggerRepository(db.store()).add(after(b, {a, c}, TriggerOn::Succeeded, 3600000));
    QVERIFY2(trigger, trigger ? "" : qPrintable(trigger.error().message));

    QVERIFY(test::endRun(db.store(), a.id, RunState::Succeeded) > 0);
    QCOMPARE(runsOf(db.store(), b.id).size(), 0); // c has not ended yet
    QVERIFY(test::endRun(db.store(), c.id, RunState::Failed) > 0);
    QCOMPARE(runsOf(db.store(), b.id).size(), 0); // nor succeeded
    const qint64 completing = test::endRun(db.store(), c.id, RunState::Succeeded);
    QCOMPARE(runsOf(db.store(), b.id).size(), 1);
    QCOMPARE(runsOf(db.store(), b.id)
                 .at(0)
                 .parameters.value(QLatin1String("trigger.upstream_run"))
                 .toString(),
             QString::number(completing));
    // c again: a's end was used already; then a again: both are new, one more run.
    QVERIFY(test::endRun(db.store(), c.id, RunState::Succeeded) > 0);
    QCOMPARE(runsOf(db.store(), b.id).size(), 1);
    QVERIFY(test::endRun(db.store(), a.id, RunState::Succeeded) > 0);
    QCOMPARE(runsOf(db.store(), b.id).size(), 2);

    // Checked before anything is written: a window with one upstream, one too short.
    QVERIFY(!ChainTriggerRepository(db.store()).add(after(b, {a}, TriggerOn::Succeeded, 60000)));
    QVERIFY(!ChainTriggerRepository(db.store()).add(after(b, {a, c}, TriggerOn::Succeeded, 10)));
    QVERIFY(!ChainTriggerRepository(db.store()).add(after(b, {a, a})));
    QVERIFY(!ChainTriggerRepository(db.store()).add(after(b, {b})));
    QCOMPARE(ChainTriggerRepository(db.store()).list()->size(), 1);
}

void TestChainTriggers::cycle_isRefusedNamingIt()
{
    HG_TEST_STORE(db);
    const Chain a = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("b"));
    const Chain c = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    ChainTriggerRepository triggers(db.store());
    QVERIFY(triggers.add(after(b, {a})));
    QVERIFY(triggers.add(after(c, {b})));
    const Result<ChainTrigger> closing = triggers.add(after(a, {c}));
    QVERIFY(!closing);
    QVERIFY2(closing.error().message.contains(QStringLiteral("p/c → p/a → p/b → p/c")),
             qPrintable(closing.error().message));
    QCOMPARE(triggers.list()->size(), 2);
    QCOMPARE(triggers.list(a.id)->size(), 0);
}

void TestChainTriggers::twin_isRefusedNamingTheOneThere()
{
    // Two alike would start two runs for every event.
    HG_TEST_STORE(db);
    const Chain a = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("b"));
    const Chain c = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    ChainTriggerRepository triggers(db.store());
    const Result<ChainTrigger> first = triggers.add(after(c, {a, b}, TriggerOn::Failed, 60'000));
    QVERIFY(first);
    const Result<ChainTrigger> twin = triggers.add(after(c, {b, a}, TriggerOn::Failed, 60'000));
    QVERIFY(!twin);
    QVERIFY2(twin.error().message.contains(
                 QStringLiteral("p/c already has this trigger (id %1)").arg(first->id)),
             qPrintable(twin.error().message));
    // "Finished" takes in every failure too: alike.
    QVERIFY(!triggers.add(after(c, {a, b}, TriggerOn::Finished, 60'000)));
    // Alike but for one setting: another trigger.
    QVERIFY(triggers.add(after(c, {a, b}, TriggerOn::Succeeded, 60'000)));
    QVERIFY(triggers.add(after(c, {a})));
    // Any one of b and a (no window) shares a's ends with the one above: alike.
    QVERIFY(!triggers.add(after(c, {b, a})));
    ChainTrigger onUnlock;
    onUnlock.kind = TriggerKind::Desktop;
    onUnlock.chainId = c.id;
    onUnlock.path = QStringLiteral("p/c");
    onUnlock.desktop.event = DesktopEvent::Unlock;
    onUnlock.paused = true;
    StoreQuery named(db.store(), QStringLiteral("UPDATE chain SET client_name = 'here' WHERE "
                                                "id = ?")); // a desktop is one engine's
    named.bind(c.id);
    QVERIFY(named.exec(QStringLiteral("test")));
    const Result<ChainTrigger> unlock = triggers.add(onUnlock);
    QVERIFY(unlock);
    onUnlock.paused = false;
    const Result<ChainTrigger> again = triggers.add(onUnlock);
    QVERIFY(!again);
    QVERIFY2(again.error().message.contains(QStringLiteral("paused (id %1): `hourglass trigger "
                                                           "resume %1`")
                                                .arg(unlock->id)),
             qPrintable(again.error().message));
    // The same files, however written, with an event in common: alike.
    ChainTrigger files;
    files.kind = TriggerKind::File;
    files.chainId = c.id;
    files.path = QStringLiteral("p/c");
    files.file.glob = QStringLiteral("/srv/in/*.csv");
    files.file.events = {FileEvent::Created, FileEvent::Moved};
    QVERIFY(triggers.add(files));
    files.file.glob = QStringLiteral("/srv//in/*.csv");
    files.file.events = {FileEvent::Moved, FileEvent::Created};
    files.file.settleMs = 9000;
    QVERIFY(!triggers.add(files));
    files.file.events = {FileEvent::Deleted}; // no event in common: another trigger
    QVERIFY(triggers.add(files));
    files.file.glob = QStringLiteral("/srv/in/");
    const Result<ChainTrigger> folder = triggers.add(files);
    QVERIFY(!folder);
    QVERIFY2(folder.error().message.contains(QLatin1String("names a folder")),
             qPrintable(folder.error().message));
    QCOMPARE(triggers.list(c.id)->size(), 6);
}

void TestChainTriggers::removingAnUpstream_removesTheTriggersThatWaitForIt()
{
    // "After a and b" with b gone can never be met: it goes, rather than becoming "after a".
    HG_TEST_STORE(db);
    const Chain a = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("a"));
    const Chain b = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("b"));
    const Chain d = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("d"));
    ChainTriggerRepository triggers(db.store());
    const Result<ChainTrigger> both =
        triggers.add(after(d, {a, b}, TriggerOn::Succeeded, 3'600'000));
    const Result<ChainTrigger> onlyA = triggers.add(after(d, {a}));
    const Result<ChainTrigger> fromB = triggers.add(after(b, {a})); // b's own: goes with b
    QVERIFY(both && onlyA && fromB);
    const Result<QList<ChainTrigger>> waiting = triggers.waitingFor(b.id);
    QVERIFY(waiting);
    QCOMPARE(waiting->size(), 1);
    QCOMPARE(waiting->constFirst().id, both->id);
    QVERIFY(ChainRepository(db.store()).remove(b.id));
    const Result<QList<ChainTrigger>> left = triggers.list();
    QVERIFY(left);
    QCOMPARE(left->size(), 1);
    QCOMPARE(left->constFirst().id, onlyA->id);
}

void TestChainTriggers::engine_runsTheDownstreamWithTheUpstreamsRunInItsParameters()
{
    HG_TEST_STORE(t);
    const Chain a = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("a"));
    test::makeTask(t.store(), a.id, QStringLiteral("first"));
    const Chain b = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("b"));
    test::addTask(t.store(), b.id, QStringLiteral("say"), TaskKind::Shell,
                  QStringLiteral("echo \"started by ${trigger.upstream_run} "
                                 "(${trigger.upstream_chain} ${trigger.upstream_state})\""));
    QVERIFY(ChainTriggerRepository(t.store()).add(after(b, {a})));
    EngineHost host(test::engineConfig(t));
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    QVERIFY(started.wait(10000));
    const Result<Run> upstream = RunControl(t.store()).start(a.id);
    QVERIFY(upstream);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), b.id).size(), 1, 20000);
    const qint64 downstream = runsOf(t.store(), b.id).at(0).id;
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).byId(downstream)->state, RunState::Succeeded,
                              20000);
    QCOMPARE(RunRepository(t.store()).byId(upstream->id)->state, RunState::Succeeded);
    const auto said = [&] {
        const Result<QList<LogLine>> lines = LogRepository(t.store()).read(downstream);
        QStringList texts;
        if (lines)
            for (const LogLine &line : lines.value())
                texts << line.text;
        return texts.join(QLatin1Char('\n'));
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        said().contains(QStringLiteral("started by %1 (p/a succeeded)").arg(upstream->id)), 10000);
    QCOMPARE(runsOf(t.store(), b.id).size(), 1);
}

QTEST_GUILESS_MAIN(TestChainTriggers)
#include "tst_chaintriggers.moc"
