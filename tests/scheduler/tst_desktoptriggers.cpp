#include "fakedesktopbus.h"
#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "store/chaintriggerrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QDateTime>
#include <QNetworkInformation>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace hg;

// Desktop triggers (issue 36) with a real engine on a real D-Bus: the test's dbus-daemon is
// this process's system and session bus, and on it the test answers as logind, UPower,
// NetworkManager and the screen saver do (FakeDesktopBus). An event starts one run of each
// trigger waiting for it; two sources saying one event start one run; an idle trigger fires
// once per idle period, also across an engine restart; a source that is not there is said
// on the trigger.
class TestDesktopTriggers final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void unlock_startsOneRun_whenTwoSourcesSayIt();
    void acPower_startsOnlyFromBatteryToMains();
    void resume_fromLogind_startsOneRun();
    void idle_firesOncePerIdlePeriod_alsoAcrossARestart();
    void network_cameUp_startsARun();
    void idleOfUnknownStart_atTheFirstRead_doesNotFire();
    void noSession_isSaidOnTheTrigger();
    void serveOutsideASession_followsTheUsersGraphicalSession();
    void badSettings_areRefusedNamingThem();
    void sharedStore_refusesAChainWithoutClientName();
    // Last: the bus restarts under it (the test process's own shared connection dies).
    void busRestarted_isConnectedToAgain();

private:
    Chain chainHere(test::TestStore &t, const QString &name);
    qint64 addTrigger(test::TestStore &t, const Chain &chain, DesktopEvent event,
                      qint64 idleMs = 0);
    // An engine whose desktop sources have read the session's state.
    std::unique_ptr<EngineHost> startEngine(test::TestStore &t);
    std::unique_ptr<EngineHost> startedEngine(test::TestStore &t); // not waiting for a read
    static QList<Run> runsOf(Store &store, qint64 chainId);

    test::FakeDesktopBus m_desktop;
};

void TestDesktopTriggers::initTestCase()
{
    QVERIFY2(m_desktop.start(), qPrintable(m_desktop.failure()));
    // The fake's session is found by the engine's pid; one that finds none must not fall
    // back on this machine's own session.
    qunsetenv("XDG_SESSION_ID");
}

Chain TestDesktopTriggers::chainHere(test::TestStore &t, const QString &name)
{
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), name);
    StoreQuery q(t.store(), QStringLiteral("UPDATE chain SET client_name = ? WHERE id = ?"));
    q.bind(QStringLiteral("desk")).bind(chain.id);
    if (!q.exec(QStringLiteral("test")))
        chain.id = 0;
    chain.clientName = QStringLiteral("desk");
    test::addTask(t.store(), chain.id, QStringLiteral("say"), TaskKind::Shell,
                  QStringLiteral("echo \"event ${trigger.event}\""));
    return chain;
}

qint64 TestDesktopTriggers::addTrigger(test::TestStore &t, const Chain &chain, DesktopEvent event,
                                       qint64 idleMs)
{
    ChainTrigger trigger;
    trigger.kind = TriggerKind::Desktop;
    trigger.chainId = chain.id;
    trigger.path = QStringLiteral("p/") + chain.name;
    trigger.desktop.event = event;
    trigger.desktop.idleMs = idleMs;
    const Result<ChainTrigger> added = ChainTriggerRepository(t.store()).add(trigger);
    return added ? added->id : 0;
}

std::unique_ptr<EngineHost> TestDesktopTriggers::startedEngine(test::TestStore &t)
{
    auto host = std::make_unique<EngineHost>(test::engineConfig(t, QStringLiteral("desk")));
    QSignalSpy started(host.get(), &EngineHost::started);
    host->start();
    return started.wait(10000) ? std::move(host) : nullptr;
}

std::unique_ptr<EngineHost> TestDesktopTriggers::startEngine(test::TestStore &t)
{
    const QString sessionRead = QStringLiteral("GetAll ") + QLatin1String(m_desktop.sessionPath);
    const int before = m_desktop.asked(sessionRead);
    auto host = startedEngine(t);
    if (!host)
        return nullptr;
    // Asked once the engine has a desktop trigger: each test adds one before starting.
    if (!QTest::qWaitFor([&] { return m_desktop.asked(sessionRead) > before; }, 10000))
        return nullptr;
    return host;
}

QList<Run> TestDesktopTriggers::runsOf(Store &store, qint64 chainId)
{
    RunFilter filter;
    filter.chainId = chainId;
    filter.limit = 100;
    const Result<QList<Run>> runs = RunRepository(store).list(filter);
    return runs ? runs.value() : QList<Run>();
}

void TestDesktopTriggers::unlock_startsOneRun_whenTwoSourcesSayIt()
{
    HG_TEST_STORE(t);
    const Chain unlocked = chainHere(t, QStringLiteral("unlocked"));
    const Chain woke = chainHere(t, QStringLiteral("woke"));
    QVERIFY(addTrigger(t, unlocked, DesktopEvent::Unlock) > 0);
    QVERIFY(addTrigger(t, woke, DesktopEvent::Resume) > 0);
    const auto host = startEngine(t);
    QVERIFY(host);

    m_desktop.setSession({{QStringLiteral("LockedHint"), true}});
    m_desktop.setSession({{QStringLiteral("LockedHint"), false}});
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), unlocked.id).size(), 1, 10000);
    const Run run = runsOf(t.store(), unlocked.id).constFirst();
    QCOMPARE(run.trigger, RunTrigger::Trigger);
    QCOMPARE(run.parameters.value(QLatin1String("trigger.event")).toString(),
             QStringLiteral("unlock"));
    QVERIFY(QDateTime::fromString(run.parameters.value(QLatin1String("trigger.at")).toString(),
                                  Qt::ISODateWithMs)
                .isValid());
    // The screen saver says the same unlock a moment later: no second run. What comes after
    // it on the bus (a resume) shows it was read.
    m_desktop.screenSaverActive(false);
    m_desktop.prepareForSleep(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), unlocked.id).size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const Result<QList<LogLine>> lines = LogRepository(t.store()).read(run.id);
            return lines && !lines->isEmpty()
                   && lines->constLast().text == QLatin1String("event unlock");
        }(),
        20000);
}

void TestDesktopTriggers::acPower_startsOnlyFromBatteryToMains()
{
    HG_TEST_STORE(t);
    const Chain mains = chainHere(t, QStringLiteral("mains"));
    const Chain woke = chainHere(t, QStringLiteral("woke"));
    QVERIFY(addTrigger(t, mains, DesktopEvent::AcPower) > 0);
    QVERIFY(addTrigger(t, woke, DesktopEvent::Resume) > 0);
    m_desktop.setOnBattery(false);
    const auto host = startEngine(t);
    QVERIFY(host);
    QVERIFY(QTest::qWaitFor(
        [&] { return m_desktop.asked(QStringLiteral("GetAll /org/freedesktop/UPower")) > 0; },
        10000));
    m_desktop.setOnBattery(false); // mains to mains: nothing
    m_desktop.setOnBattery(true);
    m_desktop.setOnBattery(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), mains.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), mains.id)
                 .constFirst()
                 .parameters.value(QLatin1String("trigger.event"))
                 .toString(),
             QStringLiteral("ac-power"));
    m_desktop.setOnBattery(false);
    m_desktop.prepareForSleep(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), mains.id).size(), 1);
}

void TestDesktopTriggers::resume_fromLogind_startsOneRun()
{
    HG_TEST_STORE(t);
    const Chain woke = chainHere(t, QStringLiteral("woke"));
    const Chain unlocked = chainHere(t, QStringLiteral("unlocked"));
    QVERIFY(addTrigger(t, woke, DesktopEvent::Resume) > 0);
    QVERIFY(addTrigger(t, unlocked, DesktopEvent::Unlock) > 0);
    const auto host = startEngine(t);
    QVERIFY(host);
    m_desktop.prepareForSleep(true); // going to sleep: nothing yet
    m_desktop.prepareForSleep(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 1, 10000);
    // logind saying it again is another wake-up, however soon (a short sleep): a run each;
    // only two services saying one wake-up are one.
    m_desktop.prepareForSleep(true);
    m_desktop.prepareForSleep(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 2, 10000);
}

void TestDesktopTriggers::idle_firesOncePerIdlePeriod_alsoAcrossARestart()
{
    HG_TEST_STORE(t);
    const Chain idle = chainHere(t, QStringLiteral("idle"));
    const Chain woke = chainHere(t, QStringLiteral("woke"));
    QVERIFY(addTrigger(t, idle, DesktopEvent::Idle, 60'000) > 0);
    QVERIFY(addTrigger(t, woke, DesktopEvent::Resume) > 0);
    m_desktop.setSession({{QStringLiteral("IdleHint"), false}});
    auto host = startEngine(t);
    QVERIFY(host);

    // Idle since 59.5 s ago (logind says microseconds of the wall clock): a minute is
    // reached half a second from now.
    const qint64 sinceMs = QDateTime::currentMSecsSinceEpoch() - 59'500;
    m_desktop.setSession({{QStringLiteral("IdleHint"), true},
                          {QStringLiteral("IdleSinceHint"), qulonglong(sinceMs) * 1000}});
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), idle.id).size(), 1, 10000);
    const Run run = runsOf(t.store(), idle.id).constFirst();
    QCOMPARE(run.parameters.value(QLatin1String("trigger.idle_ms")).toString(),
             QStringLiteral("60000"));
    QCOMPARE(QDateTime::fromString(run.parameters.value(QLatin1String("trigger.at")).toString(),
                                   Qt::ISODateWithMs)
                 .toMSecsSinceEpoch(),
             sinceMs + 60'000);

    // Another engine in the same idle period: the same key, no second run.
    host.reset(); // stops the engine
    host = startEngine(t);
    QVERIFY(host);
    m_desktop.prepareForSleep(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), idle.id).size(), 1);

    // Active, then idle again: a new period, a new run.
    m_desktop.setSession({{QStringLiteral("IdleHint"), false}});
    m_desktop.setSession({{QStringLiteral("IdleHint"), true},
                          {QStringLiteral("IdleSinceHint"),
                           qulonglong(QDateTime::currentMSecsSinceEpoch() - 60'000) * 1000}});
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), idle.id).size(), 2, 10000);
}

void TestDesktopTriggers::network_cameUp_startsARun()
{
    HG_TEST_STORE(t);
    const Chain online = chainHere(t, QStringLiteral("online"));
    QVERIFY(addTrigger(t, online, DesktopEvent::Network) > 0);
    m_desktop.setNetworkState(70);
    const auto host = startEngine(t);
    QVERIFY(host);
    // Qt's NetworkManager backend (the process's, loaded by the engine once NetworkManager
    // answered its probe) has read NetworkManager's state: from then on it sees changes.
    QVERIFY(QTest::qWaitFor(
        [&] {
            const QNetworkInformation *network = QNetworkInformation::instance();
            return network && network->reachability() == QNetworkInformation::Reachability::Online;
        },
        10000));
    m_desktop.setNetworkState(20); // disconnected
    m_desktop.setNetworkState(70); // connected, global
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), online.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), online.id)
                 .constFirst()
                 .parameters.value(QLatin1String("trigger.event"))
                 .toString(),
             QStringLiteral("network"));
    const Result<ChainTrigger> trigger = ChainTriggerRepository(t.store()).byId(
        ChainTriggerRepository(t.store()).list(online.id).value().constFirst().id);
    QVERIFY(trigger);
    QCOMPARE(trigger->watchNote, QString());
}

// Idle when the engine starts, and the desktop does not say since when (IdleSinceHint 0):
// it may have fired before this engine, and a new key would fire it twice. Not fired; an
// idle period seen beginning is.
void TestDesktopTriggers::idleOfUnknownStart_atTheFirstRead_doesNotFire()
{
    HG_TEST_STORE(t);
    const Chain idle = chainHere(t, QStringLiteral("idle"));
    const Chain woke = chainHere(t, QStringLiteral("woke"));
    QVERIFY(addTrigger(t, idle, DesktopEvent::Idle, 60'000) > 0);
    QVERIFY(addTrigger(t, woke, DesktopEvent::Resume) > 0);
    m_desktop.setSession(
        {{QStringLiteral("IdleHint"), true}, {QStringLiteral("IdleSinceHint"), qulonglong(0)}});
    const auto host = startEngine(t);
    QVERIFY(host);
    m_desktop.prepareForSleep(false); // read after the session's state: that was applied
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), idle.id).size(), 0);
    m_desktop.setSession({{QStringLiteral("IdleHint"), false}});
    m_desktop.setSession({{QStringLiteral("IdleHint"), false}});
}

void TestDesktopTriggers::noSession_isSaidOnTheTrigger()
{
    HG_TEST_STORE(t);
    const Chain unlocked = chainHere(t, QStringLiteral("unlocked"));
    const qint64 id = addTrigger(t, unlocked, DesktopEvent::Unlock);
    QVERIFY(id > 0);
    m_desktop.setNoSession(true);
    const auto host = startedEngine(t);
    QVERIFY(host);
    QTRY_VERIFY_WITH_TIMEOUT(ChainTriggerRepository(t.store()).byId(id).value().watchNote.contains(
                                 QLatin1String("no login session")),
                             10000);
    m_desktop.setNoSession(false);
}

void TestDesktopTriggers::serveOutsideASession_followsTheUsersGraphicalSession()
{
    // `systemctl --user start hourglass`: the engine is in no session; the user's
    // graphical session is the one a person locks and unlocks, also one that begins later.
    HG_TEST_STORE(t);
    const Chain unlocked = chainHere(t, QStringLiteral("unlocked"));
    const Chain woke = chainHere(t, QStringLiteral("woke"));
    const qint64 id = addTrigger(t, unlocked, DesktopEvent::Unlock);
    QVERIFY(id > 0 && addTrigger(t, woke, DesktopEvent::Resume) > 0);
    m_desktop.setNoSession(true, false);
    const auto host = startedEngine(t);
    QVERIFY(host);
    QTRY_VERIFY_WITH_TIMEOUT(ChainTriggerRepository(t.store()).byId(id).value().watchNote.contains(
                                 QLatin1String("no graphical session")),
                             10000);
    m_desktop.setNoSession(true, true);
    m_desktop.sessionNew();
    QTRY_VERIFY_WITH_TIMEOUT(ChainTriggerRepository(t.store()).byId(id).value().watchNote.isEmpty(),
                             10000);
    m_desktop.setSession({{QStringLiteral("LockedHint"), true}});
    m_desktop.setSession({{QStringLiteral("LockedHint"), false}});
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), unlocked.id).size(), 1, 10000);
    // A value of the wrong type (a broken service) is not read: no unlock from it.
    m_desktop.setSession({{QStringLiteral("LockedHint"), QStringLiteral("true")}});
    m_desktop.setSession({{QStringLiteral("LockedHint"), 0}});
    m_desktop.setSession({{QStringLiteral("LockedHint"), false}});
    m_desktop.prepareForSleep(false); // what comes after on the bus shows those were read
    m_desktop.setNoSession(false);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), woke.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), unlocked.id).size(), 1);
}

void TestDesktopTriggers::badSettings_areRefusedNamingThem()
{
    HG_TEST_STORE(t);
    const Chain c = chainHere(t, QStringLiteral("c"));
    ChainTriggerRepository triggers(t.store());
    for (const qint64 idleMs : {qint64(0), qint64(30'000), qint64(90'000),
                                qint64(8) * 24 * 3600 * 1000, qint64(-60'000)}) {
        ChainTrigger trigger;
        trigger.kind = TriggerKind::Desktop;
        trigger.chainId = c.id;
        trigger.path = QStringLiteral("p/c");
        trigger.desktop.event = DesktopEvent::Idle;
        trigger.desktop.idleMs = idleMs;
        const Result<ChainTrigger> added = triggers.add(trigger);
        QVERIFY2(!added, qPrintable(QString::number(idleMs)));
        QVERIFY(added.error().message.contains(QLatin1String("--on-idle")));
    }
    QCOMPARE(triggers.list(c.id).value().size(), 0);
}

void TestDesktopTriggers::sharedStore_refusesAChainWithoutClientName()
{
    HG_TEST_STORE(t);
    const Chain c = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("anywhere"));
    ChainTrigger trigger;
    trigger.kind = TriggerKind::Desktop;
    trigger.chainId = c.id;
    trigger.path = QStringLiteral("p/anywhere");
    trigger.desktop.event = DesktopEvent::Unlock;
    const Result<ChainTrigger> added = ChainTriggerRepository(t.store()).add(trigger);
    if (test::TestStore::backend() == StoreBackend::Sqlite) {
        QVERIFY(added); // one engine per SQLite store: its desktop is the one
        return;
    }
    QVERIFY(!added);
    QVERIFY(added.error().message.contains(QLatin1String("client name")));
    QVERIFY(added.error().message.contains(QLatin1String("--on-unlock")));
}

QTEST_GUILESS_MAIN(TestDesktopTriggers)
void TestDesktopTriggers::busRestarted_isConnectedToAgain()
{
    HG_TEST_STORE(t);
    const Chain unlocked = chainHere(t, QStringLiteral("unlocked"));
    QVERIFY(addTrigger(t, unlocked, DesktopEvent::Unlock) > 0);
    const auto host = startEngine(t);
    QVERIFY(host);
    const QString sessionRead = QStringLiteral("GetAll ") + QLatin1String(m_desktop.sessionPath);
    const int before = m_desktop.asked(sessionRead);
    QVERIFY2(m_desktop.restart(), qPrintable(m_desktop.failure()));
    // Asked again on a new connection, within the engine's look at its buses (5 s).
    QTRY_VERIFY_WITH_TIMEOUT(m_desktop.asked(sessionRead) > before, 20000);
    m_desktop.setSession({{QStringLiteral("LockedHint"), true}});
    m_desktop.setSession({{QStringLiteral("LockedHint"), false}});
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), unlocked.id).size(), 1, 10000);
}

#include "tst_desktoptriggers.moc"
