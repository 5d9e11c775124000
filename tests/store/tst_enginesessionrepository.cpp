#include "store/enginesessionrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestEngineSessionRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void acquire_refusedWhileLeaseIsLive();
    void acquire_replacesExpiredSession();
    void heartbeat_failsAfterTakeover();
};

namespace {

const QDateTime now(QDate(2026, 11, 21), QTime(12, 0), Qt::UTC);

EngineSession session(const QDateTime &leaseUntil, qint64 pid = 100)
{
    EngineSession s;
    s.name = QStringLiteral("laptop");
    s.host = QStringLiteral("laptop.local");
    s.pid = pid;
    s.leaseUntil = leaseUntil;
    s.capacity = 4;
    return s;
}

} // namespace

void TestEngineSessionRepository::acquire_refusedWhileLeaseIsLive()
{
    HG_TEST_STORE(t);
    EngineSessionRepository sessions(t.store());
    const Result<EngineSession> first = sessions.acquire(session(now.addSecs(30)), now);
    QVERIFY2(first, first ? "" : qPrintable(first.error().message));
    const Result<EngineSession> second =
        sessions.acquire(session(now.addSecs(40), 200), now.addSecs(10));
    QVERIFY(!second);
    QCOMPARE(second.error().kind, ErrorKind::AlreadyExists);
    QVERIFY2(second.error().message.contains(QLatin1String("pid 100")),
             qPrintable(second.error().message));
    QCOMPARE(sessions.list()->size(), 1);
}

void TestEngineSessionRepository::acquire_replacesExpiredSession()
{
    HG_TEST_STORE(t);
    EngineSessionRepository sessions(t.store());
    QVERIFY(sessions.acquire(session(now.addSecs(30)), now));
    QCOMPARE(sessions.expired(now.addSecs(31))->size(), 1);
    const Result<EngineSession> next =
        sessions.acquire(session(now.addSecs(90), 200), now.addSecs(60));
    QVERIFY(next);
    QCOMPARE(sessions.list()->size(), 1);
    QCOMPARE(sessions.list()->first().pid, 200);
}

void TestEngineSessionRepository::heartbeat_failsAfterTakeover()
{
    HG_TEST_STORE(t);
    EngineSessionRepository sessions(t.store());
    const qint64 old = sessions.acquire(session(now.addSecs(30)), now)->id;
    QVERIFY(sessions.heartbeat(old, now.addSecs(10), now.addSecs(40), 2));
    QCOMPARE(sessions.list()->first().load, 2);
    QVERIFY(sessions.acquire(session(now.addSecs(200), 300), now.addSecs(100)));
    QCOMPARE(sessions.heartbeat(old, now.addSecs(101), now.addSecs(131), 0).error().kind,
             ErrorKind::NotFound);
    QVERIFY(sessions.release(sessions.list()->first().id));
    QVERIFY(sessions.list()->isEmpty());
}

QTEST_GUILESS_MAIN(TestEngineSessionRepository)
#include "tst_enginesessionrepository.moc"
