#include "clisandbox.h"
#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/logrepository.h"
#include "store/occurrencerepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <atomic>
#include <csignal>

using namespace hg;

// A chain that needs a network (Task Scheduler's RunOnlyIfNetworkAvailable, issue 36): its
// schedules' fires while the computer has none are ledger rows (skipped-offline), its
// triggers' runs are cancelled saying why, and once a network is back it runs again. The
// engine's answer to "online?" is put in by the first test; the second runs the real binary
// in a network namespace of its own, where only loopback exists (offline, for real).
class TestNeedsNetwork final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void offline_skipsFiresAndCancelsTriggeredRuns_onlineRunsAgain();
    void networkNamespaceWithoutNetwork_skipsOnlyTheChainThatNeedsOne();
    void networkNamespace_interfaceComingUp_firesTheNetworkTrigger();

private:
    static QList<Run> runsOf(Store &store, qint64 chainId);
    static qint64 offlineRows(Store &store, qint64 chainId);
};

QList<Run> TestNeedsNetwork::runsOf(Store &store, qint64 chainId)
{
    RunFilter filter;
    filter.chainId = chainId;
    return RunRepository(store).list(filter).value();
}

qint64 TestNeedsNetwork::offlineRows(Store &store, qint64 chainId)
{
    qint64 fires = 0;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const Occurrence &o : OccurrenceRepository(store).list(chainId, 0, now + 1000).value())
        fires += o.outcome == OccurrenceOutcome::SkippedOffline ? o.count : 0;
    return fires;
}

void TestNeedsNetwork::offline_skipsFiresAndCancelsTriggeredRuns_onlineRunsAgain()
{
    HG_TEST_STORE(t);
    Chain net = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("net"));
    net.needsNetwork = true;
    QVERIFY(ChainRepository(t.store()).update(net));
    QVERIFY(ChainRepository(t.store()).byId(net.id)->needsNetwork);
    test::addTask(t.store(), net.id, QStringLiteral("noop"), TaskKind::Builtin,
                  QStringLiteral("NoOp"));
    Schedule everySecond;
    everySecond.chainId = net.id;
    everySecond.expression = QStringLiteral("* * * * * *");
    everySecond.dialect = CronDialect::Seconds;
    everySecond.misfire = MisfirePolicy::Skip;
    QVERIFY(ScheduleRepository(t.store()).add(everySecond));
    // up (no condition) starts down (needs a network) when it succeeds.
    const Chain up = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("up"));
    test::addTask(t.store(), up.id, QStringLiteral("noop"), TaskKind::Builtin,
                  QStringLiteral("NoOp"));
    Chain down = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("down"));
    down.needsNetwork = true;
    QVERIFY(ChainRepository(t.store()).update(down));
    test::addTask(t.store(), down.id, QStringLiteral("noop"), TaskKind::Builtin,
                  QStringLiteral("NoOp"));
    ChainTrigger after;
    after.chainId = down.id;
    after.upstreams = {ChainTrigger::Upstream{up.id, {}}};
    QVERIFY(ChainTriggerRepository(t.store()).add(after));
    QVERIFY(test::queueRun(t.store(), up.id).id > 0);

    auto online = std::make_shared<std::atomic<bool>>(false);
    EngineConfig config = test::engineConfig(t);
    config.online = [online] {
        return online->load();
    };
    EngineHost host(config);
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    QVERIFY(started.wait(10000));
    // Offline: the fires are skipped, one row a fire time, and nothing of net runs.
    QTRY_VERIFY_WITH_TIMEOUT(offlineRows(t.store(), net.id) >= 2, 10000);
    QCOMPARE(runsOf(t.store(), net.id).size(), 0);
    // up runs (it needs nothing); the run it starts of down is cancelled, its log says why.
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), down.id).size(), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), down.id).constFirst().state, RunState::Cancelled,
                              10000);
    const qint64 cancelled = runsOf(t.store(), down.id).constFirst().id;
    QTRY_VERIFY_WITH_TIMEOUT(!LogRepository(t.store()).read(cancelled)->isEmpty(), 10000);
    QVERIFY2(LogRepository(t.store()).read(cancelled)->constFirst().text.contains(
                 QLatin1String("no network")),
             qPrintable(LogRepository(t.store()).read(cancelled)->constFirst().text));
    // A network again: the next fire runs.
    online->store(true);
    QTRY_VERIFY_WITH_TIMEOUT(!runsOf(t.store(), net.id).isEmpty(), 10000);
    QSignalSpy stopped(&host, &EngineHost::stopped);
    host.shutdown(Engine::ExitPolicy::Stop);
    QVERIFY(stopped.wait(20000));
}

void TestNeedsNetwork::networkNamespaceWithoutNetwork_skipsOnlyTheChainThatNeedsOne()
{
    const QString unshare = QStandardPaths::findExecutable(QStringLiteral("unshare"));
    QVERIFY2(!unshare.isEmpty(), "unshare (util-linux) is missing");
    QProcess probe;
    probe.start(unshare, {QStringLiteral("--net"), QStringLiteral("true")});
    QVERIFY(probe.waitForFinished(10000));
    if (probe.exitCode() != 0) {
        // Only root (or a user namespace) may make a network namespace.
        if (test::requireServers())
            QFAIL("cannot make a network namespace here (unshare --net failed)");
        QSKIP("cannot make a network namespace here");
    }
    test::CliSandbox cli(QStringLiteral(HOURGLASS_BINARY));
    QVERIFY(cli.isValid());
    const QStringList task{QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
                           QStringLiteral("--command"), QStringLiteral("true")};
    const QString failed = cli.define(
        {{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
         {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/net"),
          QStringLiteral("--needs-network")},
         QStringList{QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/net")} + task,
         {QStringLiteral("schedule"), QStringLiteral("add"), QStringLiteral("p/net"),
          QStringLiteral("* * * * * *"), QStringLiteral("--dialect"), QStringLiteral("seconds")},
         {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/any")},
         QStringList{QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/any")} + task,
         {QStringLiteral("schedule"), QStringLiteral("add"), QStringLiteral("p/any"),
          QStringLiteral("* * * * * *"), QStringLiteral("--dialect"), QStringLiteral("seconds")}});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const QString shown = cli.run({QStringLiteral("chain"), QStringLiteral("show"),
                                   QStringLiteral("p/net"), QStringLiteral("--json")})
                              .out;
    QVERIFY2(QJsonDocument::fromJson(shown.toUtf8())
                 .object()
                 .value(QLatin1String("needsNetwork"))
                 .toBool(),
             qPrintable(shown));
    QProcess serve;
    serve.setProcessEnvironment(cli.environment());
    serve.setWorkingDirectory(cli.path());
    serve.start(unshare, {QStringLiteral("--net"), QStringLiteral(HOURGLASS_BINARY),
                          QStringLiteral("--db"), cli.db(), QStringLiteral("serve")});
    QVERIFY(serve.waitForStarted());
    const auto ledger = [&cli](const QString &chain) {
        const test::CliSandbox::Output listed =
            cli.run({QStringLiteral("occurrences"), chain, QStringLiteral("--json")});
        return QJsonDocument::fromJson(listed.out.toUtf8())
            .object()
            .value(QLatin1String("occurrences"))
            .toArray();
    };
    const auto counted = [&ledger](const QString &chain, const QString &outcome) {
        qint64 count = 0;
        for (const QJsonValue row : ledger(chain))
            if (row.toObject().value(QLatin1String("outcome")).toString() == outcome)
                count += row.toObject().value(QLatin1String("count")).toInteger();
        return count;
    };
    QTRY_VERIFY_WITH_TIMEOUT(counted(QStringLiteral("p/net"), QStringLiteral("skipped-offline"))
                                     >= 2
                                 && counted(QStringLiteral("p/any"), QStringLiteral("ran")) >= 2,
                             20000);
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(15000));
    QCOMPARE(counted(QStringLiteral("p/net"), QStringLiteral("ran")), 0);
}

void TestNeedsNetwork::networkNamespace_interfaceComingUp_firesTheNetworkTrigger()
{
    // No D-Bus, no NetworkManager: Qt's GLib backend never says the network came up, so the
    // engine looks at the kernel's interfaces. A veth pair in a namespace of the serve's own,
    // brought up and down by the test from outside (nsenter).
    const QString unshare = QStandardPaths::findExecutable(QStringLiteral("unshare"));
    const QString nsenter = QStandardPaths::findExecutable(QStringLiteral("nsenter"));
    QVERIFY2(!unshare.isEmpty() && !nsenter.isEmpty(), "unshare or nsenter (util-linux) missing");
    QProcess probe;
    probe.start(unshare, {QStringLiteral("--net"), QStringLiteral("ip"), QStringLiteral("link"),
                          QStringLiteral("add"), QStringLiteral("v0"), QStringLiteral("type"),
                          QStringLiteral("veth"), QStringLiteral("peer"), QStringLiteral("name"),
                          QStringLiteral("v1")});
    QVERIFY(probe.waitForFinished(10000));
    if (probe.exitCode() != 0) {
        if (test::requireServers())
            QFAIL("cannot make a network namespace with a veth pair here");
        QSKIP("cannot make a network namespace with a veth pair here");
    }
    test::CliSandbox cli(QStringLiteral(HOURGLASS_BINARY));
    QVERIFY(cli.isValid());
    const QString failed =
        cli.define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
                    {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/online")},
                    {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/online"),
                     QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
                     QStringLiteral("--command"), QStringLiteral("true")},
                    {QStringLiteral("trigger"), QStringLiteral("add"), QStringLiteral("p/online"),
                     QStringLiteral("--on-network")}});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QProcess serve;
    QProcessEnvironment environment = cli.environment();
    environment.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"),
                       QStringLiteral("unix:path=") + cli.path() + QStringLiteral("/no-bus"));
    serve.setProcessEnvironment(environment);
    serve.setWorkingDirectory(cli.path());
    serve.start(unshare,
                {QStringLiteral("--net"), QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("ip link set lo up && ip link add v0 type veth peer name v1 && "
                                "ip link set v1 up && ip addr add 10.9.9.9/24 dev v0 && exec "
                                "\"$0\" --db \"$1\" serve"),
                 QStringLiteral(HOURGLASS_BINARY), cli.db()});
    QVERIFY(serve.waitForStarted());
    const auto link = [&](const char *state) {
        return QProcess::execute(
            nsenter, {QStringLiteral("--net=/proc/%1/ns/net").arg(serve.processId()),
                      QStringLiteral("ip"), QStringLiteral("link"), QStringLiteral("set"),
                      QStringLiteral("v0"), QString::fromLatin1(state)});
    };
    const auto runs = [&cli] {
        return QJsonDocument::fromJson(
                   cli.run({QStringLiteral("runs"), QStringLiteral("--json")}).out.toUtf8())
            .array()
            .size();
    };
    const auto serving = [&cli] {
        const QJsonArray engines =
            QJsonDocument::fromJson(
                cli.run({QStringLiteral("engines"), QStringLiteral("--json")}).out.toUtf8())
                .array();
        return !engines.isEmpty()
               && engines.first().toObject().value(QLatin1String("serves")).toBool();
    };
    QTRY_VERIFY_WITH_TIMEOUT(serving(), 20000);
    // v0 is down: the engine read "offline" as it loaded its triggers. Brought up, it is
    // seen at the engine's next look (every 5 s). Should the engine have been slower than
    // its registration (it reads the interfaces when it loads the trigger), v0 goes down for
    // one look and up again: the only wait here that is a length of time, and only then.
    QCOMPARE(link("up"), 0);
    if (!QTest::qWaitFor([&] { return runs() > 0; }, 15000)) {
        QCOMPARE(link("down"), 0);
        QTest::qWait(6000);
        QCOMPARE(link("up"), 0);
        QTRY_VERIFY_WITH_TIMEOUT(runs() > 0, 15000);
    }
    QVERIFY(runs() > 0);
    const QJsonObject run =
        QJsonDocument::fromJson(
            cli.run({QStringLiteral("runs"), QStringLiteral("--json")}).out.toUtf8())
            .array()
            .first()
            .toObject();
    QCOMPARE(run.value(QLatin1String("triggerDetail")).toObject().value(QLatin1String("event")),
             QJsonValue(QStringLiteral("network")));
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(15000));
}

QTEST_GUILESS_MAIN(TestNeedsNetwork)
#include "tst_needsnetwork.moc"
