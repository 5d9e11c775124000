#include "clisandbox.h"
#include "fixtures.h"
#include "notify/deliverer.h"
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
#include <QProcess>
#include <QSysInfo>
#include <QTest>

#include <memory>

using namespace hg;

// The desktop as a channel like the others: a route's message reaches the tray of the
// engine that has one (a Deliverer given showOnDesktop, as the window's is), once; an engine
// without a desktop (serve) leaves it queued for one, and fails it only when no desktop
// showed it in the day of retries; a channel that names a host is left to that host; and
// `channel test` waits for the desktop's answer. On SQLite and PostgreSQL.
class TestDesktopChannel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void routedFailure_isShownOnceInTheTray();
    void noDesktopHere_leavesItQueued_thenFailsItWhenTooOld();
    void channelNamingAnotherHost_isLeftToThatHost();
    void commandLineTest_waitsForTheDesktopsAnswer();
    void commandLine_refusesWhatADesktopChannelCannotHave();
    void commandLine_refusesWhatAWebhookOrRouteCannotHave();

private:
    struct Shown
    {
        QString subject;
        qint64 runId = 0;
    };
    static NotifyChannel addChannel(Store &store, const QString &name, ChannelKind kind,
                                    const QString &url);
    static bool routeFailures(Store &store, qint64 channelId, qint64 chainId);
    static std::optional<Delivery> deliveryOf(Store &store, qint64 channelId);
    static Deliverer::Options options(const QString &engine, QList<Shown> *shown);
    static std::unique_ptr<test::CliSandbox> sandboxFor(const test::TestStore &db);
};

NotifyChannel TestDesktopChannel::addChannel(Store &store, const QString &name, ChannelKind kind,
                                             const QString &url)
{
    NotifyChannel channel;
    channel.name = name;
    channel.kind = kind;
    channel.url = url;
    const Result<NotifyChannel> added = NotifyChannelRepository(store).add(channel);
    if (!added)
        qWarning() << added.error().message;
    return added ? added.value() : NotifyChannel();
}

bool TestDesktopChannel::routeFailures(Store &store, qint64 channelId, qint64 chainId)
{
    NotifyRoute route;
    route.channelId = channelId;
    route.chainId = chainId;
    route.events = {NotifyEvent::Failure};
    return NotifyRouteRepository(store).add(route).ok();
}

std::optional<Delivery> TestDesktopChannel::deliveryOf(Store &store, qint64 channelId)
{
    const Result<QList<Delivery>> all = OutboxRepository(store).list(std::nullopt, 1000);
    if (all)
        for (const Delivery &d : all.value())
            if (d.channelId == channelId)
                return d;
    return std::nullopt;
}

Deliverer::Options TestDesktopChannel::options(const QString &engine, QList<Shown> *shown)
{
    Deliverer::Options o;
    o.engineName = engine;
    o.pollMs = 100;
    o.settleMs = 0;
    if (shown) // called on this thread: the Deliverer lives here
        o.showOnDesktop = [shown](const NotificationMessage &message, qint64 runId) {
            shown->append(Shown{message.subject, runId});
        };
    return o;
}

std::unique_ptr<test::CliSandbox> TestDesktopChannel::sandboxFor(const test::TestStore &db)
{
    auto cli = std::make_unique<test::CliSandbox>(QStringLiteral(HOURGLASS_BINARY));
    if (db.location().backend() == StoreBackend::PostgreSql) {
        QUrl url = test::postgresUrl();
        url.setPath(QLatin1Char('/') + db.location().databaseName());
        cli->setDb(url.toString());
    } else {
        cli->setDb(db.location().sqlitePath());
    }
    return cli;
}

void TestDesktopChannel::routedFailure_isShownOnceInTheTray()
{
    HG_TEST_STORE(db);
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel desk =
        addChannel(db.store(), QStringLiteral("desk"), ChannelKind::Desktop, QString());
    QVERIFY(desk.id > 0);
    QVERIFY(routeFailures(db.store(), desk.id, chain.id));
    const qint64 runId = test::endRun(db.store(), chain.id, RunState::Failed);
    QVERIFY(runId > 0);

    QList<Shown> shown;
    Deliverer deliverer(db.store(), options(QStringLiteral("desktop"), &shown));
    deliverer.start();
    QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 20000);
    QCOMPARE(shown.first().runId, runId);
    QVERIFY2(shown.first().subject.contains(QLatin1String("p/c failed")),
             qPrintable(shown.first().subject));
    QTRY_VERIFY_WITH_TIMEOUT(deliveryOf(db.store(), desk.id)->state == DeliveryState::Sent, 10000);
    QCOMPARE(deliveryOf(db.store(), desk.id)->lastAnswer,
             QStringLiteral("shown on the desktop of %1").arg(QSysInfo::machineHostName()));

    // A second failure is shown too; the first is not shown again.
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed) > 0);
    QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 2, 20000);
    QVERIFY(shown.at(1).runId != runId);
}

void TestDesktopChannel::noDesktopHere_leavesItQueued_thenFailsItWhenTooOld()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel desk =
        addChannel(db.store(), QStringLiteral("desk"), ChannelKind::Desktop, QString());
    const NotifyChannel hook = addChannel(db.store(), QStringLiteral("hook"), ChannelKind::Webhook,
                                          http.url(QStringLiteral("/echo")).toString());
    QVERIFY(desk.id > 0 && hook.id > 0);
    QVERIFY(routeFailures(db.store(), desk.id, chain.id));
    QVERIFY(routeFailures(db.store(), hook.id, chain.id));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed) > 0);

    {
        // serve's deliverer: it sends the webhook's message and leaves the desktop's.
        Deliverer serve(db.store(), options(QStringLiteral("serve"), nullptr));
        serve.start();
        QTRY_VERIFY_WITH_TIMEOUT(deliveryOf(db.store(), hook.id)->state == DeliveryState::Sent,
                                 20000);
        QCOMPARE(deliveryOf(db.store(), desk.id)->state, DeliveryState::Queued);
        QCOMPARE(deliveryOf(db.store(), desk.id)->attempts, 0);
    }
    // Past the retries' day (here 1 ms) no desktop will show it: it fails, saying why.
    Deliverer::Options late = options(QStringLiteral("serve"), nullptr);
    late.retryForMs = 1;
    Deliverer serve(db.store(), late);
    serve.start();
    QTRY_VERIFY_WITH_TIMEOUT(deliveryOf(db.store(), desk.id)->state == DeliveryState::Failed,
                             20000);
    QVERIFY2(deliveryOf(db.store(), desk.id)
                 ->lastAnswer.contains(QLatin1String("no desktop of this store showed it")),
             qPrintable(deliveryOf(db.store(), desk.id)->lastAnswer));
}

void TestDesktopChannel::channelNamingAnotherHost_isLeftToThatHost()
{
    HG_TEST_STORE(db);
    test::TestHttpServer http;
    QVERIFY(http.start());
    const Chain chain = test::makeChain(db.store(), QStringLiteral("p"), QStringLiteral("c"));
    const NotifyChannel theirs = addChannel(db.store(), QStringLiteral("theirs"),
                                            ChannelKind::Desktop, QStringLiteral("elsewhere-9"));
    const NotifyChannel mine = addChannel(db.store(), QStringLiteral("mine"), ChannelKind::Desktop,
                                          QSysInfo::machineHostName());
    const NotifyChannel hook = addChannel(db.store(), QStringLiteral("hook"), ChannelKind::Webhook,
                                          http.url(QStringLiteral("/echo")).toString());
    QVERIFY(theirs.id > 0 && mine.id > 0 && hook.id > 0);
    for (const qint64 channel : {theirs.id, mine.id, hook.id})
        QVERIFY(routeFailures(db.store(), channel, chain.id));
    QVERIFY(test::endRun(db.store(), chain.id, RunState::Failed) > 0);

    QList<Shown> shown;
    Deliverer deliverer(db.store(), options(QStringLiteral("desktop"), &shown));
    deliverer.start();
    QTRY_VERIFY_WITH_TIMEOUT(deliveryOf(db.store(), hook.id)->state == DeliveryState::Sent, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(deliveryOf(db.store(), mine.id)->state == DeliveryState::Sent, 20000);
    QCOMPARE(shown.size(), 1);
    QCOMPARE(deliveryOf(db.store(), theirs.id)->state, DeliveryState::Queued);
}

void TestDesktopChannel::commandLineTest_waitsForTheDesktopsAnswer()
{
    HG_TEST_STORE(db);
    const std::unique_ptr<test::CliSandbox> cli = sandboxFor(db);
    const test::CliSandbox::Output added =
        cli->run({QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("desk"),
                  QStringLiteral("--kind"), QStringLiteral("desktop")});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));

    QList<Shown> shown;
    Deliverer deliverer(db.store(), options(QStringLiteral("desktop"), &shown));
    deliverer.start();
    QProcess test;
    cli->start(test, {QStringLiteral("channel"), QStringLiteral("test"), QStringLiteral("desk"),
                      QStringLiteral("--json")});
    QTRY_VERIFY_WITH_TIMEOUT(test.state() == QProcess::NotRunning, 30000);
    QCOMPARE(test.exitCode(), 0);
    const QJsonObject answer = QJsonDocument::fromJson(test.readAllStandardOutput()).object();
    QCOMPARE(answer.value(QLatin1String("delivered")).toBool(), true);
    QCOMPARE(answer.value(QLatin1String("answer")).toString(),
             QStringLiteral("shown on the desktop of %1").arg(QSysInfo::machineHostName()));
    QCOMPARE(shown.size(), 1);
    QVERIFY(shown.first().subject.contains(QLatin1String("test of channel 'desk'")));

    const test::CliSandbox::Output listed =
        cli->run({QStringLiteral("channel"), QStringLiteral("list"), QStringLiteral("--json")});
    const QJsonObject channel =
        QJsonDocument::fromJson(listed.out.toUtf8()).array().at(0).toObject();
    QCOMPARE(channel.value(QLatin1String("kind")).toString(), QStringLiteral("desktop"));
    QCOMPARE(channel.value(QLatin1String("host")).toString(), QString());
}

void TestDesktopChannel::commandLine_refusesWhatADesktopChannelCannotHave()
{
    HG_TEST_STORE(db);
    const std::unique_ptr<test::CliSandbox> cli = sandboxFor(db);
    const QStringList add{QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("d"),
                          QStringLiteral("--kind"), QStringLiteral("desktop")};
    const test::CliSandbox::Output withUrl =
        cli->run(add + QStringList{QStringLiteral("--url"), QStringLiteral("https://x.example")});
    QCOMPARE(withUrl.exitCode, 2);
    QVERIFY2(withUrl.err.contains(QLatin1String("takes --host only")), qPrintable(withUrl.err));
    const test::CliSandbox::Output badHost =
        cli->run(add + QStringList{QStringLiteral("--host"), QStringLiteral("a\nb")});
    QVERIFY(badHost.exitCode != 0);
    QVERIFY2(badHost.err.contains(QLatin1String("is not a host name")), qPrintable(badHost.err));
    QVERIFY2(!badHost.err.contains(QLatin1Char('\n') + QStringLiteral("b'")),
             qPrintable(badHost.err)); // the control character is escaped
    const test::CliSandbox::Output hostOnMail =
        cli->run({QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("m"),
                  QStringLiteral("--kind"), QStringLiteral("email"), QStringLiteral("--host"),
                  QStringLiteral("h")});
    QCOMPARE(hostOnMail.exitCode, 2);
    QVERIFY2(hostOnMail.err.contains(QLatin1String("--host is for desktop channels")),
             qPrintable(hostOnMail.err));
}

// What helper-8 found accepted in silence: e-mail options on a webhook, a chat service's
// secret URL in plain text, an engine event on a chain, a route twice; and a channel removed
// with its routes says so.
void TestDesktopChannel::commandLine_refusesWhatAWebhookOrRouteCannotHave()
{
    HG_TEST_STORE(db);
    const std::unique_ptr<test::CliSandbox> cli = sandboxFor(db);
    const QStringList hook{QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("h"),
                           QStringLiteral("--kind"), QStringLiteral("webhook")};
    const test::CliSandbox::Output withTls =
        cli->run(hook
                 + QStringList{QStringLiteral("--url"), QStringLiteral("https://x.example/h"),
                               QStringLiteral("--tls"), QStringLiteral("implicit")});
    QCOMPARE(withTls.exitCode, 2);
    QVERIFY2(withTls.err.contains(QLatin1String("--tls is for e-mail channels")),
             qPrintable(withTls.err));
    const test::CliSandbox::Output slack = cli->run(
        hook
        + QStringList{QStringLiteral("--format"), QStringLiteral("slack"), QStringLiteral("--url"),
                      QStringLiteral("https://hooks.slack.com/services/T0/B0/XXXX")});
    QVERIFY(slack.exitCode != 0);
    QVERIFY2(slack.err.contains(QLatin1String("is itself a secret")), qPrintable(slack.err));
    const test::CliSandbox::Output added = cli->run(
        hook + QStringList{QStringLiteral("--url"), QStringLiteral("https://x.example/h")});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));

    QVERIFY(cli->define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
                         {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}})
                .isEmpty());
    const QStringList route{QStringLiteral("notify"), QStringLiteral("add"),
                            QStringLiteral("p/c"),    QStringLiteral("--channel"),
                            QStringLiteral("h"),      QStringLiteral("--on")};
    const test::CliSandbox::Output engine = cli->run(route + QStringList{QStringLiteral("engine")});
    QVERIFY(engine.exitCode != 0);
    QVERIFY2(engine.err.contains(QLatin1String("global route")), qPrintable(engine.err));
    QCOMPARE(cli->run(route + QStringList{QStringLiteral("failure,success")}).exitCode, 0);
    const test::CliSandbox::Output twice =
        cli->run(route + QStringList{QStringLiteral("success,failure")});
    QVERIFY(twice.exitCode != 0);
    QVERIFY2(twice.err.contains(QLatin1String("is this one already")), qPrintable(twice.err));
    const test::CliSandbox::Output removed =
        cli->run({QStringLiteral("channel"), QStringLiteral("rm"), QStringLiteral("h")});
    QCOMPARE(removed.exitCode, 0);
    QVERIFY2(removed.err.contains(QLatin1String("removed with its 1 route(s), of p/c")),
             qPrintable(removed.err));
}

QTEST_GUILESS_MAIN(TestDesktopChannel)
#include "tst_desktopchannel.moc"
