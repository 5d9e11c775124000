#include "fixtures.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/outboxrepository.h"
#include "store/runrepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

// The outbox the store's triggers write as runs end (migration 014), on SQLite and
// PostgreSQL: which routes apply, which event a run's end is, one row per run and channel,
// and claims that keep two engines from sending one row twice.
class TestOutbox final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failure_writesOneRowPerRouteChannel();
    void recovery_isTheFirstSuccessAfterAFailure();
    void routes_chainReplacesProjectReplacesGlobal();
    void cancelledRun_andNoRoutes_writeNothing();
    void endedTwice_writesOnce();
    void claim_isOneEnginesUntilItRunsOut();
    void settle_byAnotherEngine_isRefused();

private:
    static NotifyChannel webhook(Store &store, const QString &name);
    static qint64 route(Store &store, qint64 channelId, const QList<NotifyEvent> &events,
                        qint64 chainId = 0, qint64 projectId = 0);
    static QList<Delivery> rows(Store &store);
};

NotifyChannel TestOutbox::webhook(Store &store, const QString &name)
{
    NotifyChannel channel;
    channel.name = name;
    channel.kind = ChannelKind::Webhook;
    channel.url = QStringLiteral("http://127.0.0.1:9/%1").arg(name);
    const Result<NotifyChannel> added = NotifyChannelRepository(store).add(channel);
    if (!added)
        qWarning() << added.error().message;
    return added ? added.value() : NotifyChannel();
}

qint64 TestOutbox::route(Store &store, qint64 channelId, const QList<NotifyEvent> &events,
                         qint64 chainId, qint64 projectId)
{
    NotifyRoute route;
    route.channelId = channelId;
    route.chainId = chainId;
    route.projectId = projectId;
    route.events = events;
    const Result<NotifyRoute> added = NotifyRouteRepository(store).add(route);
    if (!added)
        qWarning() << added.error().message;
    return added ? added->id : 0;
}

QList<Delivery> TestOutbox::rows(Store &store)
{
    const Result<QList<Delivery>> listed = OutboxRepository(store).list(std::nullopt, 1000);
    return listed ? listed.value() : QList<Delivery>();
}

void TestOutbox::failure_writesOneRowPerRouteChannel()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel a = webhook(db.store(), QStringLiteral("a"));
    const NotifyChannel b = webhook(db.store(), QStringLiteral("b"));
    QVERIFY(chain.id > 0 && a.id > 0 && b.id > 0);
    QVERIFY(route(db.store(), a.id, {NotifyEvent::Failure, NotifyEvent::Output}, chain.id));
    QVERIFY(route(db.store(), a.id, {NotifyEvent::Output}, chain.id)); // the same channel again
    QVERIFY(route(db.store(), b.id, {NotifyEvent::Success}, chain.id));
    const qint64 runId = test::endRun(db.store(), chain.id, RunState::Failed);
    QVERIFY(runId > 0);
    const QList<Delivery> written = rows(db.store());
    QCOMPARE(written.size(), 1); // b wants successes only; a once, with the strongest event
    QCOMPARE(written.at(0).channelName, QStringLiteral("a"));
    QCOMPARE(written.at(0).event, QStringLiteral("failure"));
    QCOMPARE(written.at(0).runId, runId);
    QCOMPARE(written.at(0).state, DeliveryState::Queued);
    QCOMPARE(written.at(0).deliveryId.size(), 32);
}

void TestOutbox::recovery_isTheFirstSuccessAfterAFailure()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel a = webhook(db.store(), QStringLiteral("a"));
    QVERIFY(route(db.store(), a.id, {NotifyEvent::Failure, NotifyEvent::Recovery}, chain.id));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Succeeded)); // nothing: no failure before
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed));
    QVERIFY(
        test::endRun(db.store(), chain.id, RunState::Cancelled)); // not an outcome: skipped over
    const qint64 recovered = test::endRun(db.store(), chain.id, RunState::Succeeded);
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Succeeded)); // already recovered: nothing
    const QList<Delivery> written = rows(db.store());
    QCOMPARE(written.size(), 2);
    QCOMPARE(written.at(0).event, QStringLiteral("recovery")); // newest first
    QCOMPARE(written.at(0).runId, recovered);
    QCOMPARE(written.at(1).event, QStringLiteral("failure"));
}

void TestOutbox::routes_chainReplacesProjectReplacesGlobal()
{
    HG_TEST_STORE(db);
    const Chain own = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("own"));
    const Chain inProject = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("x"));
    const Chain elsewhere = test::makeChain(db.store(), QStringLiteral("q"), QStringLiteral("y"));
    const NotifyChannel chainLevel = webhook(db.store(), QStringLiteral("chain-level"));
    const NotifyChannel projectLevel = webhook(db.store(), QStringLiteral("project-level"));
    const NotifyChannel global = webhook(db.store(), QStringLiteral("global"));
    const QList<NotifyEvent> failure{NotifyEvent::Failure};
    QVERIFY(route(db.store(), chainLevel.id, failure, own.id));
    QVERIFY(route(db.store(), projectLevel.id, failure, 0, own.projectId));
    QVERIFY(route(db.store(), global.id, failure));
    const qint64 ownRun = test::endRun(db.store(), own.id, RunState::Failed);
    const qint64 projectRun = test::endRun(db.store(), inProject.id, RunState::Failed);
    const qint64 globalRun = test::endRun(db.store(), elsewhere.id, RunState::TimedOut);
    QHash<qint64, QStringList> channelsOfRun;
    for (const Delivery &delivery : rows(db.store()))
        channelsOfRun[delivery.runId] << delivery.channelName;
    QCOMPARE(channelsOfRun.value(ownRun), QStringList{QStringLiteral("chain-level")});
    QCOMPARE(channelsOfRun.value(projectRun), QStringList{QStringLiteral("project-level")});
    QCOMPARE(channelsOfRun.value(globalRun), QStringList{QStringLiteral("global")});
}

void TestOutbox::cancelledRun_andNoRoutes_writeNothing()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed)); // no route at all
    const NotifyChannel a = webhook(db.store(), QStringLiteral("a"));
    QVERIFY(route(db.store(), a.id,
                  {NotifyEvent::Failure, NotifyEvent::Success, NotifyEvent::Output}, chain.id));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Cancelled)); // the user's own stop
    QVERIFY(rows(db.store()).isEmpty());
}

void TestOutbox::endedTwice_writesOnce()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel a = webhook(db.store(), QStringLiteral("a"));
    QVERIFY(route(db.store(), a.id, {NotifyEvent::Failure}, chain.id));
    const qint64 runId = test::endRun(db.store(), chain.id, RunState::Failed);
    // A writer that tells the end again (a retried transaction, a recovered engine): from a
    // terminal state to another the trigger writes nothing, and a repeat of the same key adds
    // nothing either.
    QVERIFY(RunRepository(db.store())
                .setState(runId, RunState::TimedOut, QDateTime::currentDateTimeUtc(), {}));
    StoreQuery requeue(db.store(), QStringLiteral("UPDATE run SET state = 'running' WHERE id = ?"));
    requeue.bind(runId);
    QVERIFY(requeue.exec(QStringLiteral("test")));
    QVERIFY(RunRepository(db.store())
                .setState(runId, RunState::Failed, QDateTime::currentDateTimeUtc(), {}));
    QCOMPARE(rows(db.store()).size(), 1);
}

void TestOutbox::claim_isOneEnginesUntilItRunsOut()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel a = webhook(db.store(), QStringLiteral("a"));
    QVERIFY(route(db.store(), a.id, {NotifyEvent::Failure}, chain.id));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed));
    std::unique_ptr<Store> other = db.openAnother(QStringLiteral("engine two"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch() + 1000;
    const Result<QList<Delivery>> first =
        OutboxRepository(db.store()).claimDue(QStringLiteral("e1"), now, 60000, 1, {}, {});
    QVERIFY(first);
    QCOMPARE(first->size(), 1);
    const Result<QList<Delivery>> second =
        OutboxRepository(*other).claimDue(QStringLiteral("e2"), now, 60000, 10, {}, {});
    QVERIFY(second);
    QCOMPARE(second->size(), 1); // the other row only
    QVERIFY(second->at(0).id != first->at(0).id);
    QVERIFY(
        OutboxRepository(*other).claimDue(QStringLiteral("e2"), now, 60000, 10, {}, {})->isEmpty());
    // e1 died mid-send: once its claim runs out, e2 sends that row (at least once).
    const Result<QList<Delivery>> later =
        OutboxRepository(*other).claimDue(QStringLiteral("e2"), now + 61000, 60000, 10, {}, {});
    QVERIFY(later);
    QCOMPARE(later->size(), 2);
}

void TestOutbox::settle_byAnotherEngine_isRefused()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel a = webhook(db.store(), QStringLiteral("a"));
    QVERIFY(route(db.store(), a.id, {NotifyEvent::Failure}, chain.id));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed));
    const qint64 now = QDateTime::currentMSecsSinceEpoch() + 1000;
    const Result<QList<Delivery>> claimed =
        OutboxRepository(db.store()).claimDue(QStringLiteral("e1"), now, 60000, 1, {}, {});
    QVERIFY(claimed && claimed->size() == 1);
    const qint64 id = claimed->at(0).id;
    const Result<bool> stranger = OutboxRepository(db.store())
                                      .settle(id, QStringLiteral("e2"), DeliveryState::Sent, 1,
                                              QStringLiteral("x"), now, now);
    QVERIFY(stranger && !stranger.value());
    const Result<bool> owner = OutboxRepository(db.store())
                                   .settle(id, QStringLiteral("e1"), DeliveryState::Sent, 1,
                                           QStringLiteral("HTTP 200"), now, now);
    QVERIFY(owner && owner.value());
    const QList<Delivery> written = rows(db.store());
    QCOMPARE(written.at(0).state, DeliveryState::Sent);
    QCOMPARE(written.at(0).attempts, 1);
    QCOMPARE(written.at(0).lastAnswer, QStringLiteral("HTTP 200"));
    QVERIFY(written.at(0).sentAt.isValid());
}

QTEST_GUILESS_MAIN(TestOutbox)
#include "tst_outbox.moc"
