#include "fixtures.h"
#include "notify/delivererthread.h"
#include "notify/engineeventrecorder.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/outboxrepository.h"
#include "store/runrepository.h"
#include "testhttpserver.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace hg;

// Engine events (EngineEventRecorder) on SQLite and PostgreSQL: a lease lost and the store
// away longer than the setting become outbox rows for the global routes that ask for
// `engine` (none for a chain's own, none for a short outage, one per event however often it
// is told), and a real deliverer posts them to a real HTTP receiver.
class TestEngineEvents final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void leaseLost_writesOneRowPerGlobalEngineRoute();
    void storeAway_toldWhenBack_onlyPastTheSetting();
    void engineEvent_isPostedByTheDeliverer();

private:
    static NotifyChannel hook(Store &store, const QString &name, const QUrl &url);
    static void route(Store &store, qint64 channelId, qint64 chainId, QList<NotifyEvent> events);
    static QList<Delivery> rows(Store &store);
};

NotifyChannel TestEngineEvents::hook(Store &store, const QString &name, const QUrl &url)
{
    NotifyChannel channel;
    channel.name = name;
    channel.kind = ChannelKind::Webhook;
    channel.url = url.toString();
    const Result<NotifyChannel> added = NotifyChannelRepository(store).add(channel);
    return added ? added.value() : NotifyChannel();
}

void TestEngineEvents::route(Store &store, qint64 channelId, qint64 chainId,
                             QList<NotifyEvent> events)
{
    NotifyRoute r;
    r.channelId = channelId;
    r.chainId = chainId;
    r.events = std::move(events);
    QVERIFY(NotifyRouteRepository(store).add(r));
}

QList<Delivery> TestEngineEvents::rows(Store &store)
{
    const Result<QList<Delivery>> listed = OutboxRepository(store).list(std::nullopt, 100);
    return listed ? listed.value() : QList<Delivery>();
}

void TestEngineEvents::leaseLost_writesOneRowPerGlobalEngineRoute()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel ops =
        hook(db.store(), QStringLiteral("ops"), QUrl(QStringLiteral("http://127.0.0.1:9/ops")));
    const NotifyChannel chat =
        hook(db.store(), QStringLiteral("chat"), QUrl(QStringLiteral("http://127.0.0.1:9/chat")));
    QVERIFY(ops.id > 0 && chat.id > 0);
    route(db.store(), ops.id, 0, {NotifyEvent::Engine, NotifyEvent::Failure});
    // A chain's route cannot ask for engine events (they belong to no chain): refused.
    NotifyRoute chainEngine;
    chainEngine.channelId = chat.id;
    chainEngine.chainId = chain.id;
    chainEngine.events = {NotifyEvent::Engine};
    QVERIFY(!NotifyRouteRepository(db.store()).add(chainEngine));
    route(db.store(), chat.id, chain.id, {NotifyEvent::Success}); // the chain's own
    route(db.store(), chat.id, 0, {NotifyEvent::Failure});        // global, but not `engine`
    EngineEventRecorder recorder(db.store(), QStringLiteral("e1"), 300000);
    QSignalSpy recorded(&recorder, &EngineEventRecorder::recorded);
    recorder.leaseLost(QStringLiteral("another engine took the session over"));
    const QList<Delivery> written = rows(db.store());
    QCOMPARE(written.size(), 1);
    QCOMPARE(written.at(0).channelName, QStringLiteral("ops"));
    QCOMPARE(written.at(0).event, QStringLiteral("engine"));
    QCOMPARE(written.at(0).subject, QStringLiteral("[Hourglass] engine e1 lost its lease"));
    QCOMPARE(recorded.size(), 1);
    // Runs of the chain are not engine events: the global failure routes still apply.
    const Run run = test::queueRun(db.store(), chain.id);
    QVERIFY(RunRepository(db.store())
                .setState(run.id, RunState::Running, QDateTime::currentDateTimeUtc(), QString()));
    QVERIFY(RunRepository(db.store())
                .setState(run.id, RunState::Failed, QDateTime::currentDateTimeUtc(), QString()));
    QCOMPARE(rows(db.store()).size(), 1); // the chain's own route replaces the global ones
}

void TestEngineEvents::storeAway_toldWhenBack_onlyPastTheSetting()
{
    HG_TEST_STORE(db);
    const NotifyChannel ops =
        hook(db.store(), QStringLiteral("ops"), QUrl(QStringLiteral("http://127.0.0.1:9/ops")));
    route(db.store(), ops.id, 0, {NotifyEvent::Engine});
    EngineEventRecorder recorder(db.store(), QStringLiteral("e1"), 300000);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // A minute away: under the five-minute setting, nothing.
    recorder.reachabilityChanged(now - 60000, QStringLiteral("server closed the connection"));
    recorder.reachabilityChanged(-1, {});
    QCOMPARE(rows(db.store()).size(), 0);
    // Twelve minutes, told twice while away (the first time counts), then back.
    recorder.reachabilityChanged(now - 720000, QStringLiteral("server closed the connection"));
    recorder.reachabilityChanged(now - 600000, QStringLiteral("still away"));
    recorder.reachabilityChanged(-1, {});
    recorder.reachabilityChanged(-1, {}); // back twice: told once
    const QList<Delivery> written = rows(db.store());
    QCOMPARE(written.size(), 1);
    QCOMPARE(written.at(0).subject,
             QStringLiteral("[Hourglass] the store was unreachable for 12 minute(s) (engine e1)"));
    const QJsonObject body = QJsonDocument::fromJson(written.at(0).body.toUtf8()).object();
    QCOMPARE(body.value(QLatin1String("kind")).toString(), QStringLiteral("store-unreachable"));
    QCOMPARE(body.value(QLatin1String("reason")).toString(),
             QStringLiteral("server closed the connection"));
}

void TestEngineEvents::engineEvent_isPostedByTheDeliverer()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const NotifyChannel ops =
        hook(db.store(), QStringLiteral("ops"), http.url(QStringLiteral("/echo")));
    route(db.store(), ops.id, 0, {NotifyEvent::Engine});
    EngineEventRecorder recorder(db.store(), QStringLiteral("e1"), 300000);
    recorder.leaseLost(QStringLiteral("taken over"));
    Deliverer::Options options;
    options.engineName = QStringLiteral("e1");
    options.pollMs = 200;
    options.settleMs = 0;
    DelivererThread deliverer;
    deliverer.start(db.location(), options);
    QTRY_COMPARE_WITH_TIMEOUT(http.requests().size(), 1, 20000);
    // The request is received before the deliverer has the answer and writes "sent": waited
    // for, not taken for granted (a stop right after the request raced that write).
    QTRY_COMPARE_WITH_TIMEOUT(rows(db.store()).at(0).state, DeliveryState::Sent, 20000);
    deliverer.stop();
    const QJsonObject body = QJsonDocument::fromJson(http.requests().at(0).body).object();
    QCOMPARE(body.value(QLatin1String("event")).toString(), QStringLiteral("engine"));
    QCOMPARE(body.value(QLatin1String("kind")).toString(), QStringLiteral("lease-lost"));
    QCOMPARE(body.value(QLatin1String("engine")).toString(), QStringLiteral("e1"));
}

QTEST_GUILESS_MAIN(TestEngineEvents)
#include "tst_engineevents.moc"
