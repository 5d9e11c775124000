#include "backendtests.h"
#include "base/epochtime.h"
#include "scheduler/enginelease.h"
#include "store/enginesessionrepository.h"
#include "store/storefaulthook.h"
#include "testservers.h"
#include "teststore.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <QTest>

#include <condition_variable>
#include <latch>
#include <mutex>
#include <thread>

using namespace hg;

// The engine's session: who may start beside whom, heartbeats, and a lease lost to another
// engine.
class TestEngineLease final : public QObject
{
    Q_OBJECT
    // Engines of other names share a PostgreSQL store: one engine per file is SQLite's rule.
    Q_CLASSINFO("sqliteOnly", "acquire_twoStartingAtOnceOnSqliteOneServes")

private Q_SLOTS:
    void acquire_data();
    void acquire();
    void heartbeat_renewsUntilTheSessionIsTakenOver();
    void release_givesTheNameBack();
    void acquire_twoStartingAtOnceOnSqliteOneServes();
};

namespace {

constexpr qint64 leaseMs = 30000;
// A lease "live" in a row below: no load stretches a test past it, by any clock.
constexpr qint64 liveForMs = 3600000;

qint64 realNowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// SQLite takes the engine's time as given; PostgreSQL its own clock (the same machine's here),
// read while the store wrote the lease: after beforeMs and before afterMs, the real times the
// test read around the call (a loaded machine only widens that span). A millisecond each side
// for the two clocks' rounding.
bool leaseEndsAt(const Store &store, const QDateTime &until, qint64 engineNowMs, qint64 beforeMs,
                 qint64 afterMs)
{
    const qint64 untilMs = until.toMSecsSinceEpoch();
    if (store.backend() == StoreBackend::Sqlite)
        return untilMs == engineNowMs + leaseMs;
    return untilMs >= beforeMs + leaseMs - 1 && untilMs <= afterMs + leaseMs + 1;
}

EngineLease::Options options(const QString &name = QStringLiteral("this-engine"))
{
    return EngineLease::Options{name, 4, 30000};
}

// A session of another engine, held by a living process on this host (this test's own),
// serving since a minute before nowMs.
Status holdSession(Store &store, const QString &name, qint64 leaseUntilMs, qint64 nowMs)
{
    EngineSession other;
    other.name = name;
    other.host = QSysInfo::machineHostName();
    other.pid = QCoreApplication::applicationPid();
    other.leaseUntil = utcFromMs(leaseUntilMs);
    const Result<EngineSession> held =
        EngineSessionRepository(store).acquire(other, utcFromMs(nowMs - 60000));
    return held ? Status{} : Status(held.error());
}

// Two engines starting at once, read for read: each reads which engines serve the store before
// either registers, unless the reading and the registering are one write transaction.
class ReadTogether final : public StoreFaultHook
{
public:
    bool failStatement(const Store &, const QString &sql) override
    {
        std::unique_lock lock(m_mutex);
        if (sql.contains(QLatin1String("FROM engine_session ORDER BY name"))) { // the check
            ++m_checking;
            m_changed.notify_all();
        } else if (sql.contains(QLatin1String("FROM engine_session WHERE name = ?"))) {
            // About to register: not before the other engine checked too. Should this one hold
            // the write lock through its check, the other cannot come: then a while, short of
            // SQLite's busy timeout (5 s), so it waits for the lock instead of failing.
            if (m_changed.wait_for(lock, std::chrono::seconds(2),
                                   [this] { return m_checking >= 2; })) {
                lock.unlock();
                std::this_thread::sleep_for(std::chrono::milliseconds(300)); // its read runs
            }
        }
        return false;
    }
    CommitFault commitFault(const Store &) override { return CommitFault::None; }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_checking = 0;
};

} // namespace

void TestEngineLease::acquire_data()
{
    QTest::addColumn<QString>("otherName"); // empty: no other session
    // When its lease ends, from now (when the row runs): live for an hour, or just ended.
    QTest::addColumn<qint64>("otherLeaseInMs");
    QTest::addColumn<bool>("okOnSqlite");
    QTest::addColumn<bool>("okOnPostgres");
    QTest::addColumn<QString>("message");
    QTest::newRow("alone") << QString() << qint64(0) << true << true << QString();
    QTest::newRow("another engine's live lease: SQLite has one engine per file")
        << QStringLiteral("other") << liveForMs << false << true
        << QStringLiteral("another engine already serves %3: 'other', pid %1 on %2 (");
    QTest::newRow("another engine's expired lease")
        << QStringLiteral("other") << qint64(-1) << true << true << QString();
    QTest::newRow("our own name, live: refused everywhere")
        << QStringLiteral("this-engine") << liveForMs << false << false
        << QStringLiteral("'this-engine', pid %1 on %2 (");
    QTest::newRow("our own name, expired: replaced")
        << QStringLiteral("this-engine") << qint64(-1) << true << true << QString();
}

void TestEngineLease::acquire()
{
    QFETCH(QString, otherName);
    QFETCH(qint64, otherLeaseInMs);
    QFETCH(bool, okOnSqlite);
    QFETCH(bool, okOnPostgres);
    QFETCH(QString, message);
    HG_TEST_STORE(t);
    // The real time: on PostgreSQL leases follow the database's clock, whatever the engine says.
    const qint64 nowMs = realNowMs();
    if (!otherName.isEmpty())
        QVERIFY(holdSession(t.store(), otherName, nowMs + otherLeaseInMs, nowMs));
    const bool ok = t.store().backend() == StoreBackend::Sqlite ? okOnSqlite : okOnPostgres;
    EngineLease lease(t.store(), options());
    const qint64 beforeMs = realNowMs();
    const Status acquired = lease.acquire(nowMs);
    QCOMPARE(acquired.ok(), ok);
    QCOMPARE(lease.isHeld(), ok);
    if (!ok) {
        QCOMPARE(acquired.error().kind, ErrorKind::AlreadyExists);
        // The holder is named so a person can find it: pid, host, command line, since when.
        const QString expected =
            message.arg(QCoreApplication::applicationPid())
                .arg(QSysInfo::machineHostName(), t.store().location().displayName());
        const QString &text = acquired.error().message;
        QVERIFY2(text.contains(expected), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("tst_enginelease")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("serving since ")
                               + utcFromMs(nowMs - 60000)
                                     .toLocalTime()
                                     .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))),
                 qPrintable(text));
        return;
    }
    const QList<EngineSession> sessions = EngineSessionRepository(t.store()).list().value();
    const qint64 afterMs = realNowMs();
    const auto mine = std::find_if(sessions.cbegin(), sessions.cend(),
                                   [&](const auto &s) { return s.id == lease.sessionId(); });
    QVERIFY(mine != sessions.cend());
    QCOMPARE(mine->name, QStringLiteral("this-engine"));
    QCOMPARE(mine->capacity, 4);
    QVERIFY2(leaseEndsAt(t.store(), mine->leaseUntil, nowMs, beforeMs, afterMs),
             qPrintable(mine->leaseUntil.toString(Qt::ISODateWithMs)));
    QVERIFY(lease.fence().epoch > 0);
}

void TestEngineLease::heartbeat_renewsUntilTheSessionIsTakenOver()
{
    HG_TEST_STORE(t);
    const qint64 nowMs = realNowMs();
    EngineLease lease(t.store(), options());
    QVERIFY(lease.acquire(nowMs));
    const qint64 beforeMs = realNowMs();
    QVERIFY(lease.heartbeat(nowMs + 5000, 3));
    const EngineSession renewed = EngineSessionRepository(t.store()).list()->first();
    const qint64 afterMs = realNowMs();
    QVERIFY2(leaseEndsAt(t.store(), renewed.leaseUntil, nowMs + 5000, beforeMs, afterMs),
             qPrintable(renewed.leaseUntil.toString(Qt::ISODateWithMs)));
    QCOMPARE(renewed.load, 3);
    // Another engine replaced the session after our lease ran out.
    QVERIFY(EngineSessionRepository(t.store()).release(lease.sessionId()));
    const Status lost = lease.heartbeat(nowMs + 10000, 0);
    QVERIFY(!lost);
    QCOMPARE(lost.error().kind, ErrorKind::Fenced);
}

void TestEngineLease::release_givesTheNameBack()
{
    HG_TEST_STORE(t);
    const qint64 nowMs = realNowMs();
    {
        EngineLease lease(t.store(), options());
        QVERIFY(lease.acquire(nowMs));
        lease.release();
        QVERIFY(!lease.isHeld());
        QVERIFY(EngineSessionRepository(t.store()).list()->isEmpty());
        QVERIFY(lease.acquire(nowMs)); // the name is free again
    }                                  // and the destructor gives it up
    QVERIFY(EngineSessionRepository(t.store()).list()->isEmpty());
    EngineLease next(t.store(), options(QStringLiteral("next")));
    QVERIFY(next.acquire(nowMs));
}

// Two engines of other names starting on one SQLite file at once (`serve` and the engine of a
// `run --wait`): one serves it, the other is refused. Before, each read the file free before
// either registered, both served it, and `serve` claimed the run the other waited for: the
// wait never ended.
void TestEngineLease::acquire_twoStartingAtOnceOnSqliteOneServes()
{
    HG_TEST_STORE(t);
    ReadTogether together;
    StoreFaultHook::install(&together);
    std::latch bothOpened(2);
    std::latch bothTried(2);
    Status tried[2];
    bool opened[2] = {false, false};
    const auto start = [&](int i) {
        std::unique_ptr<Store> store = t.openAnother(QStringLiteral("engine%1").arg(i));
        opened[i] = store != nullptr;
        bothOpened.arrive_and_wait(); // the two start together, not one after the other opened
        if (store) {
            EngineLease lease(*store, options(QStringLiteral("engine-%1").arg(i)));
            tried[i] = lease.acquire(realNowMs());
            bothTried.arrive_and_wait(); // both leases held, if both were taken
        } else {
            bothTried.count_down();
        }
    };
    std::thread first(start, 0);
    std::thread second(start, 1);
    first.join();
    second.join();
    StoreFaultHook::install(nullptr);
    QVERIFY(opened[0] && opened[1]);
    QCOMPARE(int(tried[0].ok()) + int(tried[1].ok()), 1);
    const Status &refused = tried[0].ok() ? tried[1] : tried[0];
    QCOMPARE(refused.error().kind, ErrorKind::AlreadyExists);
    QVERIFY2(refused.error().message.contains(QStringLiteral("another engine already serves")),
             qPrintable(refused.error().message));
}

HG_BACKEND_TEST_GUILESS_MAIN(TestEngineLease)
#include "tst_enginelease.moc"
