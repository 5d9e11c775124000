#include "fixtures.h"
#include "notify/delivererthread.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/outboxrepository.h"
#include "store/runrepository.h"
#include "testhttpserver.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <memory>

using namespace hg;

// Flood control (FloodGate, DigestMessage) on SQLite and PostgreSQL, with real deliverers
// in threads of their own posting to a real HTTP receiver: past a channel's limit in its
// window one digest tells of the rest, each held message exactly once; past its daily cap one
// message says so and the rest wait for midnight's digest; two deliverers sending from one
// store together never go past the limit.
class TestFloodControl final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overTheLimit_sendsTheLimitThenOneDigestOfTheRest();
    void dailyCap_saysSoOnceAndHoldsTheRestForMidnight();
    void twoDeliverers_neverPastTheLimit();
    void noLimits_sendEverything();
    void receiverAway_stillLetsOnlyTheLimitGo();

private:
    struct Posted
    {
        QList<QJsonObject> runs;    // one per run message
        QList<QJsonObject> digests; // digest and cap messages
    };
    static NotifyChannel hook(Store &store, const QUrl &url, int limit, int windowSeconds, int cap);
    // The chain's failures (chainId 0: every chain's) to the channel.
    static bool routeFailures(Store &store, qint64 channelId, qint64 chainId);
    static QList<qint64> failRuns(Store &store, qint64 chainId, int count);
    static Posted posted(const test::TestHttpServer &http);
    static int inState(Store &store, DeliveryState state);
    static Deliverer::Options options(const QString &engine);
};

NotifyChannel TestFloodControl::hook(Store &store, const QUrl &url, int limit, int windowSeconds,
                                     int cap)
{
    NotifyChannel channel;
    channel.name = QStringLiteral("hook");
    channel.kind = ChannelKind::Webhook;
    channel.url = url.toString();
    channel.floodLimit = limit;
    channel.floodWindowSeconds = windowSeconds;
    channel.dailyCap = cap;
    const Result<NotifyChannel> added = NotifyChannelRepository(store).add(channel);
    if (!added)
        qWarning() << added.error().message;
    return added ? added.value() : NotifyChannel();
}

bool TestFloodControl::routeFailures(Store &store, qint64 channelId, qint64 chainId)
{
    NotifyRoute route;
    route.channelId = channelId;
    route.chainId = chainId;
    route.events = {NotifyEvent::Failure};
    return NotifyRouteRepository(store).add(route).ok();
}

QList<qint64> TestFloodControl::failRuns(Store &store, qint64 chainId, int count)
{
    QList<qint64> ids;
    for (int i = 0; i < count; ++i) {
        const qint64 id = test::endRun(store, chainId, RunState::Failed);
        if (id == 0)
            return {};
        ids << id;
    }
    return ids;
}

TestFloodControl::Posted TestFloodControl::posted(const test::TestHttpServer &http)
{
    Posted result;
    for (const test::TestHttpServer::Request &request : http.requests()) {
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        const QString event = body.value(QLatin1String("event")).toString();
        (event == QLatin1String(digestEvent) || event == QLatin1String(capEvent) ? result.digests
                                                                                 : result.runs)
            << body;
    }
    return result;
}

int TestFloodControl::inState(Store &store, DeliveryState state)
{
    const Result<QList<Delivery>> listed = OutboxRepository(store).list(state, 10000);
    return listed ? int(listed->size()) : -1;
}

Deliverer::Options TestFloodControl::options(const QString &engine)
{
    Deliverer::Options o;
    o.engineName = engine;
    o.pollMs = 200;
    o.settleMs = 0;
    return o;
}

void TestFloodControl::overTheLimit_sendsTheLimitThenOneDigestOfTheRest()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel channel = hook(db.store(), http.url(QStringLiteral("/echo")), 3, 8, 0);
    QVERIFY(channel.id > 0);
    QVERIFY(routeFailures(db.store(), channel.id, chain.id));
    const QList<qint64> runs = failRuns(db.store(), chain.id, 10);
    QCOMPARE(runs.size(), 10);

    DelivererThread deliverer;
    deliverer.start(db.location(), options(QStringLiteral("e1")));
    // Three go at once, seven are held; the digest comes at the window's end (8 s at most: a
    // window wide enough that a loaded machine gates all ten inside it).
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Held), 7, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!posted(http).digests.isEmpty(), 30000);
    // Held rows across a window's boundary may bring a second digest row: whichever comes
    // first tells of every held message, the other finds nothing and is skipped.
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Queued), 0, 30000);
    deliverer.stop();
    const Posted sent = posted(http);
    QCOMPARE(sent.runs.size(), 3);
    QCOMPARE(sent.digests.size(), 1);
    const QJsonObject digest = sent.digests.at(0);
    QCOMPARE(digest.value(QLatin1String("held")).toInt(), 7);
    QCOMPARE(digest.value(QLatin1String("subject")).toString(),
             QStringLiteral("[Hourglass] 7 messages held back on channel 'hook'"));
    const QJsonObject told = digest.value(QLatin1String("chains")).toArray().at(0).toObject();
    QCOMPARE(told.value(QLatin1String("chain")).toString(), QStringLiteral("c"));
    QCOMPARE(told.value(QLatin1String("counts")).toObject().value(QLatin1String("failure")).toInt(),
             7);
    QCOMPARE(told.value(QLatin1String("first")).toArray().size(), 3);
    // Each run told of once: by its own message or in the digest, never both.
    QSet<qint64> own;
    for (const QJsonObject &message : sent.runs)
        own.insert(message.value(QLatin1String("run")).toInteger());
    QCOMPARE(own.size(), 3);
    for (const QJsonValue first : told.value(QLatin1String("first")).toArray())
        QVERIFY(!own.contains(first.toObject().value(QLatin1String("run")).toInteger()));
    QVERIFY(digest.value(QLatin1String("text"))
                .toString()
                .contains(QStringLiteral("p/c: 7 × failure")));
    QCOMPARE(inState(db.store(), DeliveryState::Held), 7); // listed as held, told of once
    // Told of: nothing waits for the channel any more (removing it loses nothing).
    QCOMPARE(OutboxRepository(db.store()).waiting(channel.id).value(), 0);
}

void TestFloodControl::dailyCap_saysSoOnceAndHoldsTheRestForMidnight()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel channel = hook(db.store(), http.url(QStringLiteral("/echo")), 0, 600, 2);
    QVERIFY(channel.id > 0);
    QVERIFY(routeFailures(db.store(), channel.id, 0)); // a global route
    QCOMPARE(failRuns(db.store(), chain.id, 5).size(), 5);

    DelivererThread deliverer;
    deliverer.start(db.location(), options(QStringLiteral("e1")));
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Held), 3, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(posted(http).digests.size(), 1, 20000);
    // Settled too (two runs' messages and the cap's), before the deliverer stops.
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Sent), 3, 20000);
    deliverer.stop();
    const Posted sent = posted(http);
    QCOMPARE(sent.runs.size(), 2);
    QCOMPARE(sent.digests.at(0).value(QLatin1String("event")).toString(), QLatin1String(capEvent));
    QCOMPARE(sent.digests.at(0).value(QLatin1String("cap")).toInt(), 2);
    // Midnight's digest waits in the outbox, due at the engine's next midnight.
    const Result<QList<Delivery>> queued =
        OutboxRepository(db.store()).list(DeliveryState::Queued, 10);
    QVERIFY(queued);
    QCOMPARE(queued->size(), 1);
    QCOMPARE(queued->at(0).event, QLatin1String(digestEvent));
    QCOMPARE(queued->at(0).nextAttemptAt.toLocalTime(),
             QDate::currentDate().addDays(1).startOfDay());
}

void TestFloodControl::twoDeliverers_neverPastTheLimit()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    // A long window: no digest during the test, so every post is a run's own.
    const NotifyChannel channel = hook(db.store(), http.url(QStringLiteral("/echo")), 4, 3600, 0);
    QVERIFY(routeFailures(db.store(), channel.id, chain.id));
    QCOMPARE(failRuns(db.store(), chain.id, 24).size(), 24);

    DelivererThread one;
    DelivererThread two;
    one.start(db.location(), options(QStringLiteral("e1")));
    two.start(db.location(), options(QStringLiteral("e2")));
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Held), 20, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Sent), 4, 30000);
    one.stop();
    two.stop();
    QCOMPARE(posted(http).runs.size(), 4);
}

void TestFloodControl::noLimits_sendEverything()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel channel = hook(db.store(), http.url(QStringLiteral("/echo")), 0, 600, 0);
    QVERIFY(routeFailures(db.store(), channel.id, chain.id));
    QCOMPARE(failRuns(db.store(), chain.id, 15).size(), 15);
    DelivererThread deliverer;
    deliverer.start(db.location(), options(QStringLiteral("e1")));
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Sent), 15, 30000);
    deliverer.stop();
    QCOMPARE(posted(http).runs.size(), 15);
    QCOMPARE(inState(db.store(), DeliveryState::Held), 0);
}

// A receiver away (helper-4): its failed attempts count as let go, so only the limit's
// messages wait to be sent again and the rest are held; before, every message was let through
// and all were sent at once when the receiver came back.
void TestFloodControl::receiverAway_stillLetsOnlyTheLimitGo()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel channel =
        hook(db.store(), QUrl(QStringLiteral("http://127.0.0.1:9/away")), 2, 3600, 0);
    QVERIFY(routeFailures(db.store(), channel.id, chain.id));
    QCOMPARE(failRuns(db.store(), chain.id, 6).size(), 6);
    DelivererThread deliverer;
    deliverer.start(db.location(), options(QStringLiteral("e1")));
    QTRY_COMPARE_WITH_TIMEOUT(inState(db.store(), DeliveryState::Held), 4, 20000);
    const auto attempted = [&db] {
        int count = 0;
        for (const Delivery &d :
             OutboxRepository(db.store()).list(DeliveryState::Queued, 100).value())
            count += d.attempts > 0 ? 1 : 0;
        return count;
    };
    QTRY_COMPARE_WITH_TIMEOUT(attempted(), 2, 20000);
    deliverer.stop();
    QCOMPARE(inState(db.store(), DeliveryState::Held), 4);
}

QTEST_GUILESS_MAIN(TestFloodControl)
#include "tst_floodcontrol.moc"
