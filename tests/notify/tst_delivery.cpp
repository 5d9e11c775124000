#include "clisandbox.h"
#include "store/storelocation.h"
#include "testhttpserver.h"
#include "testservers.h"
#include "testsmtpserver.h"
#include "teststore.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

#include <memory>
#include <vector>

using namespace hg;

// Notifications sent by the real `serve`, to a real HTTP receiver: what one failed run sends,
// a receiver away across an engine's restart (delivered once when it is back), a stop while
// a send hangs (serve still ends at once), and two engines on one PostgreSQL store (each
// message sent by one of them).
class TestDelivery final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void failedRun_isPostedOnce();
    void receiverAway_acrossARestart_deliveredOnceBack();
    void stopWhileASendHangs_endsServeAtOnce();
    void twoEngines_sendEachMessageOnce();
    void hangingReceiver_holdsUpNoOtherChannel();
    void lostSecret_failsRatherThanSendingUnsigned();
    void channelsAddedAtOnce_keepEverySecret();
    void channelWithQueuedMessages_isRemovedOnlyWithForce();
    void crontabMailto_mailsTheOutputThroughTheDefaultChannel();
    void exportedChannel_arrivesWithoutItsPassword_thenTakesItBySet();
    void sendMailPassword_goesWithTheLastTaskThatNamesIt();
    void importedHookWithoutItsSecret_sendsNothingUnsigned();

private:
    void define(const QList<QStringList> &commands);
    void addHook(const QUrl &url);
    void startServing(QProcess &serve, const QStringList &options = {});
    void stopServing(QProcess &serve);
    QJsonArray deliveries();
    static QString failingChain();
    // p/c: one task that prints a line and exits 3.
    void defineFailingChain();

    std::unique_ptr<test::TestStore> m_store; // PostgreSQL: a database of the test's own
    std::unique_ptr<test::CliSandbox> m_cli;
    int m_engines = 0;
};

void TestDelivery::init()
{
    m_cli = std::make_unique<test::CliSandbox>(QStringLiteral(HOURGLASS_BINARY));
    if (test::TestStore::backend() == StoreBackend::PostgreSql) {
        m_store = std::make_unique<test::TestStore>();
        if (!m_store->create()) {
            HG_REQUIRE_SERVER(test::postgresUrl(), "HOURGLASS_TEST_PG_URL");
            QFAIL(qPrintable(m_store->error()));
        }
        QUrl url = test::postgresUrl();
        url.setPath(QLatin1Char('/') + m_store->location().databaseName());
        m_store->close();
        m_cli->setDb(url.toString());
    }
}

void TestDelivery::define(const QList<QStringList> &commands)
{
    const QString failed = m_cli->define(commands);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

QString TestDelivery::failingChain()
{
    return QStringLiteral("echo 'disk full'; exit 3");
}

void TestDelivery::defineFailingChain()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), failingChain()}});
}

void TestDelivery::addHook(const QUrl &url)
{
    QProcess add;
    m_cli->start(add, {QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("hook"),
                       QStringLiteral("--kind"), QStringLiteral("webhook"), QStringLiteral("--url"),
                       url.toString(), QStringLiteral("--secret-stdin")});
    add.write("s3cret\n");
    add.closeWriteChannel();
    QVERIFY(add.waitForFinished(30000));
    QVERIFY2(add.exitCode() == 0, add.readAllStandardError().constData());
    define({{QStringLiteral("notify"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("--channel"), QStringLiteral("hook"), QStringLiteral("--on"),
             QStringLiteral("failure")}});
}

void TestDelivery::startServing(QProcess &serve, const QStringList &options)
{
    // Each engine of a shared store by a name of its own.
    QProcessEnvironment environment = m_cli->environment();
    environment.insert(QStringLiteral("HOURGLASS_ENGINE_NAME"),
                       QStringLiteral("engine-%1").arg(++m_engines));
    serve.setProcessEnvironment(environment);
    serve.setWorkingDirectory(m_cli->path());
    serve.start(QStringLiteral(HOURGLASS_BINARY),
                QStringList{QStringLiteral("--db"), m_cli->db(), QStringLiteral("serve")}
                    + options);
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += serve.readAllStandardError()).contains("hourglass: serving"),
                             30000);
}

void TestDelivery::stopServing(QProcess &serve)
{
    QElapsedTimer stopping;
    stopping.start();
    serve.terminate();
    QTRY_VERIFY_WITH_TIMEOUT(serve.state() == QProcess::NotRunning, 15000);
    QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
    QCOMPARE(serve.exitCode(), 0);
    QVERIFY2(stopping.elapsed() < 10000, "serve took long to stop");
}

QJsonArray TestDelivery::deliveries()
{
    const test::CliSandbox::Output listed =
        m_cli->run({QStringLiteral("deliveries"), QStringLiteral("--json")});
    return QJsonDocument::fromJson(listed.out.toUtf8()).array();
}

void TestDelivery::failedRun_isPostedOnce()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    defineFailingChain();
    addHook(http.url(QStringLiteral("/echo")));
    QProcess serve;
    startServing(serve);
    const test::CliSandbox::Output started =
        m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")});
    QCOMPARE(started.exitCode, 0);
    const qint64 runId = started.out.trimmed().toLongLong();
    QTRY_COMPARE_WITH_TIMEOUT(http.requests().size(), 1, 30000);
    const QJsonObject body = QJsonDocument::fromJson(http.requests().at(0).body).object();
    QCOMPARE(body.value(QLatin1String("run")).toInteger(), runId);
    QCOMPARE(body.value(QLatin1String("event")).toString(), QStringLiteral("failure"));
    QCOMPARE(body.value(QLatin1String("state")).toString(), QStringLiteral("failed"));
    QCOMPARE(body.value(QLatin1String("subject")).toString(),
             QStringLiteral("[Hourglass] p/c failed (run %1)").arg(runId));
    QCOMPARE(body.value(QLatin1String("output")).toArray().at(0).toString(),
             QStringLiteral("disk full"));
    QVERIFY(body.value(QLatin1String("reason")).toString().contains(QLatin1String("exit code 3")));
    QTRY_COMPARE_WITH_TIMEOUT(
        deliveries().at(0).toObject().value(QLatin1String("state")).toString(),
        QStringLiteral("sent"), 10000);
    const QJsonObject row = deliveries().at(0).toObject();
    QCOMPARE(row.value(QLatin1String("attempts")).toInt(), 1);
    QCOMPARE(row.value(QLatin1String("delivery")).toString().toLatin1(),
             http.requests().at(0).headers.value("x-hourglass-delivery"));
    stopServing(serve);
    QCOMPARE(http.requests().size(), 1);
}

void TestDelivery::receiverAway_acrossARestart_deliveredOnceBack()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    const quint16 port = http.serverPort();
    const QUrl url = http.url(QStringLiteral("/echo"));
    http.close(); // away
    defineFailingChain();
    addHook(url);
    QProcess serve;
    startServing(serve, {QStringLiteral("--notify-retry"), QStringLiteral("1")});
    QCOMPARE(m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")}).exitCode, 0);
    // Tried, refused, queued again: the receiver's answer is kept.
    QTRY_VERIFY_WITH_TIMEOUT(
        deliveries().at(0).toObject().value(QLatin1String("attempts")).toInt() >= 1, 30000);
    QJsonObject row = deliveries().at(0).toObject();
    QCOMPARE(row.value(QLatin1String("state")).toString(), QStringLiteral("queued"));
    QVERIFY2(row.value(QLatin1String("lastAnswer"))
                 .toString()
                 .contains(QLatin1String("connect"), Qt::CaseInsensitive),
             qPrintable(row.value(QLatin1String("lastAnswer")).toString()));
    stopServing(serve);
    QVERIFY(http.listen(QHostAddress::LocalHost, port)); // back
    QProcess again;
    startServing(again, {QStringLiteral("--notify-retry"), QStringLiteral("1")});
    QTRY_COMPARE_WITH_TIMEOUT(http.requests().size(), 1, 30000);
    // A second failure's message comes after it: the first was not sent twice meanwhile.
    QCOMPARE(m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")}).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(http.requests().size(), 2, 30000);
    QVERIFY(http.requests().at(0).headers.value("x-hourglass-delivery")
            != http.requests().at(1).headers.value("x-hourglass-delivery"));
    row = deliveries().at(1).toObject(); // the first, older one
    QTRY_COMPARE_WITH_TIMEOUT(
        deliveries().at(1).toObject().value(QLatin1String("state")).toString(),
        QStringLiteral("sent"), 10000);
    QVERIFY(deliveries().at(1).toObject().value(QLatin1String("attempts")).toInt() >= 2);
    stopServing(again);
}

void TestDelivery::stopWhileASendHangs_endsServeAtOnce()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    defineFailingChain();
    addHook(http.url(QStringLiteral("/hang"))); // reads the request, never answers
    QProcess serve;
    startServing(serve);
    QCOMPARE(m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")}).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(http.requests().size(), 1, 30000);
    stopServing(serve); // within 10 s, though the send's own timeout is 30 s
    // Not settled (it was cut off): queued for the next engine, its claim runs out.
    QCOMPARE(deliveries().at(0).toObject().value(QLatin1String("state")).toString(),
             QStringLiteral("queued"));
}

void TestDelivery::twoEngines_sendEachMessageOnce()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    defineFailingChain();
    addHook(http.url(QStringLiteral("/echo")));
    QProcess one;
    QProcess two;
    startServing(one);
    if (test::TestStore::backend() == StoreBackend::PostgreSql) {
        startServing(two);
    } else {
        // One engine per SQLite file: the second is refused, and the first sends everything.
        QProcessEnvironment environment = m_cli->environment();
        environment.insert(QStringLiteral("HOURGLASS_ENGINE_NAME"), QStringLiteral("second"));
        two.setProcessEnvironment(environment);
        two.start(QStringLiteral(HOURGLASS_BINARY),
                  {QStringLiteral("--db"), m_cli->db(), QStringLiteral("serve")});
        QTRY_VERIFY_WITH_TIMEOUT(two.state() == QProcess::NotRunning, 30000);
        QVERIFY(two.exitCode() != 0);
    }
    constexpr int runs = 8;
    QSet<qint64> runIds;
    for (int i = 0; i < runs; ++i) {
        const test::CliSandbox::Output started =
            m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")});
        QCOMPARE(started.exitCode, 0);
        runIds.insert(started.out.trimmed().toLongLong());
    }
    QTRY_COMPARE_WITH_TIMEOUT(http.requests().size(), runs, 60000);
    // Every row settled, so nothing is left that could be sent a second time.
    QTRY_COMPARE_WITH_TIMEOUT(m_cli
                                  ->run({QStringLiteral("deliveries"), QStringLiteral("--state"),
                                         QStringLiteral("sent"), QStringLiteral("--json")})
                                  .out.count(QLatin1String("\"state\"")),
                              runs, 20000);
    QCOMPARE(http.requests().size(), runs);
    QSet<qint64> posted;
    QSet<QByteArray> ids;
    for (const test::TestHttpServer::Request &request : http.requests()) {
        posted.insert(
            QJsonDocument::fromJson(request.body).object().value(QLatin1String("run")).toInteger());
        ids.insert(request.headers.value("x-hourglass-delivery"));
    }
    QCOMPARE(posted, runIds);
    QCOMPARE(ids.size(), runs);
    stopServing(one);
    if (two.state() != QProcess::NotRunning)
        stopServing(two);
}

// A receiver that takes the request and never answers: the other channel's messages go out
// meanwhile (each channel sends two at a time; before, every send waited for the hung ones).
void TestDelivery::hangingReceiver_holdsUpNoOtherChannel()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    defineFailingChain();
    addHook(http.url(QStringLiteral("/hang")));
    define({{QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("good"),
             QStringLiteral("--kind"), QStringLiteral("webhook"), QStringLiteral("--url"),
             http.url(QStringLiteral("/echo")).toString()},
            {QStringLiteral("notify"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("--channel"), QStringLiteral("good"), QStringLiteral("--on"),
             QStringLiteral("failure")}});
    QProcess serve;
    startServing(serve);
    constexpr int runs = 6;
    for (int i = 0; i < runs; ++i)
        QCOMPARE(m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")}).exitCode, 0);
    const auto echoed = [&http] {
        int count = 0;
        for (const test::TestHttpServer::Request &request : http.requests())
            count += request.path == "/echo" ? 1 : 0;
        return count;
    };
    // Well inside the hung sends' 30 s timeout.
    QTRY_COMPARE_WITH_TIMEOUT(echoed(), runs, 20000);
    stopServing(serve);
}

// A secret kept once and gone (the file edited, a keychain wiped): sending unsigned would
// look like success to everyone but the receiver. The message fails naming why.
void TestDelivery::lostSecret_failsRatherThanSendingUnsigned()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}});
    addHook(http.url(QStringLiteral("/echo")));
    QFile secrets(m_cli->filePath(QStringLiteral("config/hourglass/channel-secrets.json")));
    QVERIFY2(secrets.open(QIODevice::WriteOnly | QIODevice::Truncate),
             qPrintable(secrets.fileName()));
    secrets.write("{}");
    secrets.close();
    const test::CliSandbox::Output tested =
        m_cli->run({QStringLiteral("channel"), QStringLiteral("test"), QStringLiteral("hook")});
    QCOMPARE(tested.exitCode, 1);
    QVERIFY2(tested.err.contains(QLatin1String("secrets are not here")), qPrintable(tested.err));
    QVERIFY(http.requests().isEmpty());
}

// Twenty `channel add` at once: every secret kept (each rewrote the file as it had read it).
void TestDelivery::channelsAddedAtOnce_keepEverySecret()
{
    constexpr int count = 20;
    std::vector<std::unique_ptr<QProcess>> adds;
    for (int i = 0; i < count; ++i) {
        adds.push_back(std::make_unique<QProcess>());
        m_cli->start(*adds.back(), {QStringLiteral("channel"), QStringLiteral("add"),
                                    QStringLiteral("c%1").arg(i), QStringLiteral("--kind"),
                                    QStringLiteral("webhook"), QStringLiteral("--url"),
                                    QStringLiteral("http://127.0.0.1:9/%1").arg(i),
                                    QStringLiteral("--secret-stdin")});
        adds.back()->write(QStringLiteral("secret-%1\n").arg(i).toUtf8());
        adds.back()->closeWriteChannel();
    }
    for (const auto &add : adds) {
        QVERIFY(add->waitForFinished(60000));
        QCOMPARE(add->exitCode(), 0);
    }
    QFile secrets(m_cli->filePath(QStringLiteral("config/hourglass/channel-secrets.json")));
    QVERIFY(secrets.open(QIODevice::ReadOnly));
    const QJsonObject kept = QJsonDocument::fromJson(secrets.readAll()).object();
    QCOMPARE(kept.size(), count);
}

void TestDelivery::channelWithQueuedMessages_isRemovedOnlyWithForce()
{
    defineFailingChain();
    addHook(QUrl(QStringLiteral("http://127.0.0.1:9/away")));
    QProcess serve;
    startServing(serve, {QStringLiteral("--notify-retry"), QStringLiteral("3600")});
    QCOMPARE(m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")}).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!deliveries().isEmpty(), 30000);
    stopServing(serve);
    const test::CliSandbox::Output refused =
        m_cli->run({QStringLiteral("channel"), QStringLiteral("rm"), QStringLiteral("hook")});
    QCOMPARE(refused.exitCode, 2); // refused as a bad request is
    QVERIFY2(refused.err.contains(QLatin1String("not yet sent")), qPrintable(refused.err));
    QCOMPARE(deliveries().size(), 1);
    QCOMPARE(m_cli
                 ->run({QStringLiteral("channel"), QStringLiteral("rm"), QStringLiteral("hook"),
                        QStringLiteral("--force")})
                 .exitCode,
             0);
    QVERIFY(deliveries().isEmpty());
}

// cron mails a job's output to MAILTO: an imported crontab does the same through the default
// e-mail channel, added after the import (the route waited for it), to MAILTO's address
// rather than the channel's own recipients; a silent run sends nothing.
void TestDelivery::crontabMailto_mailsTheOutputThroughTheDefaultChannel()
{
    test::TestSmtpServer smtp;
    if (const QString failed = smtp.start(test::TestSmtpServer::Mode::StartTls); !failed.isEmpty())
        HG_REQUIRE_PART(false, "the test SMTP server (python3-aiosmtpd, openssl)");
    const QString crontab = m_cli->filePath(QStringLiteral("crontab"));
    QFile file(crontab);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("MAILTO=ops@example.org\n"
               "0 3 * * * echo backed up; echo 2 files >&2\n"
               "0 4 * * * true\n");
    file.close();
    const test::CliSandbox::Output imported =
        m_cli->run({QStringLiteral("import"), crontab, QStringLiteral("--from"),
                    QStringLiteral("crontab"), QStringLiteral("--into"), QStringLiteral("cron")});
    QCOMPARE(imported.exitCode, 0);
    QVERIFY2(imported.out.contains(QLatin1String("no default e-mail channel yet")),
             qPrintable(imported.out));
    QProcess add;
    m_cli->start(add, {QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("mail"),
                       QStringLiteral("--kind"), QStringLiteral("email"), QStringLiteral("--url"),
                       QStringLiteral("smtp://bob@127.0.0.1:%1").arg(smtp.port()),
                       QStringLiteral("--ca"), smtp.caFile(), QStringLiteral("--from"),
                       QStringLiteral("hourglass@example.org"), QStringLiteral("--to"),
                       QStringLiteral("someone.else@example.org"),
                       QStringLiteral("--password-stdin"), QStringLiteral("--default")});
    add.write("hunter2\n");
    add.closeWriteChannel();
    QVERIFY(add.waitForFinished(30000));
    QVERIFY2(add.exitCode() == 0, add.readAllStandardError().constData());
    const QJsonArray chains =
        QJsonDocument::fromJson(
            m_cli->run({QStringLiteral("chain"), QStringLiteral("list"), QStringLiteral("--json")})
                .out.toUtf8())
            .array();
    QCOMPARE(chains.size(), 2);
    QProcess serve;
    startServing(serve);
    for (const QJsonValue chain : chains)
        QCOMPARE(m_cli
                     ->run({QStringLiteral("run"),
                            chain.toObject().value(QLatin1String("path")).toString()})
                     .exitCode,
                 0);
    QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 1, 30000);
    const test::TestSmtpServer::Message mail = smtp.messages().at(0);
    QCOMPARE(mail.to, QStringList{QStringLiteral("ops@example.org")});
    const qsizetype bodyAt = mail.content.indexOf("\r\n\r\n");
    QVERIFY(bodyAt > 0);
    const QByteArray body = QByteArray::fromBase64(mail.content.mid(bodyAt + 4));
    QVERIFY2(body.contains("backed up\n2 files"), body.constData());
    // The silent run's row is skipped, never sent.
    QTRY_VERIFY_WITH_TIMEOUT(m_cli
                                 ->run({QStringLiteral("deliveries"), QStringLiteral("--state"),
                                        QStringLiteral("skipped"), QStringLiteral("--json")})
                                 .out.contains(QLatin1String("printed nothing")),
                             20000);
    stopServing(serve);
    QCOMPARE(smtp.messages().size(), 1);
}

// A chain's route travels with its channel, the channel without its password: the export and
// the import say so, the import's channel cannot log in, and `channel set --password-stdin`
// gives it what it lacks.
void TestDelivery::exportedChannel_arrivesWithoutItsPassword_thenTakesItBySet()
{
    test::TestSmtpServer smtp;
    if (const QString failed = smtp.start(test::TestSmtpServer::Mode::StartTls); !failed.isEmpty())
        HG_REQUIRE_PART(false, "the test SMTP server (python3-aiosmtpd, openssl)");
    const auto withStdin = [](const test::CliSandbox &cli, const QStringList &arguments,
                              const QByteArray &input) {
        QProcess process;
        cli.start(process, arguments);
        process.write(input);
        process.closeWriteChannel();
        process.waitForFinished(30000);
        return std::pair{process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
    };
    const auto [added, addErr] =
        withStdin(*m_cli,
                  {QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("mail"),
                   QStringLiteral("--kind"), QStringLiteral("email"), QStringLiteral("--url"),
                   QStringLiteral("smtp://bob@127.0.0.1:%1").arg(smtp.port()),
                   QStringLiteral("--ca"), smtp.caFile(), QStringLiteral("--from"),
                   QStringLiteral("hourglass@example.org"), QStringLiteral("--to"),
                   QStringLiteral("ops@example.org"), QStringLiteral("--password-stdin")},
                  "hunter2\n");
    QVERIFY2(added == 0, qPrintable(addErr));
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("ops")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("ops/nightly")},
            {QStringLiteral("notify"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
             QStringLiteral("--channel"), QStringLiteral("mail"), QStringLiteral("--on"),
             QStringLiteral("failure")}});
    const QString document = m_cli->filePath(QStringLiteral("ops.json"));
    const test::CliSandbox::Output exported = m_cli->run(
        {QStringLiteral("export"), QStringLiteral("ops"), QStringLiteral("--output"), document});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QVERIFY2(exported.err.contains(QLatin1String("exported without its secrets")),
             qPrintable(exported.err));
    QFile written(document);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(!written.readAll().contains("hunter2"));

    test::CliSandbox elsewhere{QStringLiteral(HOURGLASS_BINARY)};
    const test::CliSandbox::Output imported = elsewhere.run({QStringLiteral("import"), document});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.out + imported.err));
    QVERIFY2(imported.out.contains(QLatin1String("came without its secrets")),
             qPrintable(imported.out));
    const test::CliSandbox::Output refused =
        elsewhere.run({QStringLiteral("channel"), QStringLiteral("test"), QStringLiteral("mail")});
    QVERIFY2(refused.exitCode != 0, qPrintable(refused.out + refused.err));
    const auto [set, setErr] =
        withStdin(elsewhere,
                  {QStringLiteral("channel"), QStringLiteral("set"), QStringLiteral("mail"),
                   QStringLiteral("--password-stdin")},
                  "hunter2\n");
    QVERIFY2(set == 0, qPrintable(setErr));
    const test::CliSandbox::Output tested =
        elsewhere.run({QStringLiteral("channel"), QStringLiteral("test"), QStringLiteral("mail")});
    QVERIFY2(tested.exitCode == 0, qPrintable(tested.out + tested.err));
    QTRY_VERIFY(!smtp.messages().isEmpty());
    QCOMPARE(smtp.messages().constLast().to, QStringList{QStringLiteral("ops@example.org")});
}

void TestDelivery::importedHookWithoutItsSecret_sendsNothingUnsigned()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    QProcess add;
    m_cli->start(add,
                 {QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("hook"),
                  QStringLiteral("--kind"), QStringLiteral("webhook"), QStringLiteral("--url"),
                  http.url(QStringLiteral("/echo")).toString(), QStringLiteral("--secret-stdin")});
    add.write("s3cret\n");
    add.closeWriteChannel();
    QVERIFY(add.waitForFinished(30000) && add.exitCode() == 0);
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("ops")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("ops/nightly")},
            {QStringLiteral("notify"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
             QStringLiteral("--channel"), QStringLiteral("hook"), QStringLiteral("--on"),
             QStringLiteral("failure")}});
    const QString document = m_cli->filePath(QStringLiteral("ops.json"));
    QCOMPARE(m_cli->run({QStringLiteral("export"), QStringLiteral("--output"), document}).exitCode,
             0);
    test::CliSandbox elsewhere{QStringLiteral(HOURGLASS_BINARY)};
    const test::CliSandbox::Output imported = elsewhere.run({QStringLiteral("import"), document});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.out + imported.err));
    QVERIFY2(imported.out.contains(QLatin1String("channel set hook --secret-stdin")),
             qPrintable(imported.out));
    const test::CliSandbox::Output tested =
        elsewhere.run({QStringLiteral("channel"), QStringLiteral("test"), QStringLiteral("hook")});
    QVERIFY(tested.exitCode != 0);
    QVERIFY2(tested.err.contains(QLatin1String("channel set hook")), qPrintable(tested.err));
    QCOMPARE(http.requests().size(), 0); // nothing went out unsigned
}

void TestDelivery::sendMailPassword_goesWithTheLastTaskThatNamesIt()
{
    // No keychain here (no session bus): the kept passwords are in the 0600 file, readable.
    const QString secretsFile =
        m_cli->filePath(QStringLiteral("config/hourglass/channel-secrets.json"));
    const auto keptKeys = [&secretsFile] {
        QFile file(secretsFile);
        if (!file.open(QIODevice::ReadOnly))
            return QStringList();
        return QJsonDocument::fromJson(file.readAll()).object().keys();
    };
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/d")}});
    const QString mail =
        QStringLiteral("{\"server\":\"smtp://u@mail.example.org:587\",\"from\":\"a@example.org\","
                       "\"to\":[\"b@example.org\"],\"subject\":\"s\",\"body\":\"b\"}");
    const auto addMailTask = [&](const QString &chain, const QString &name) {
        QProcess add;
        m_cli->start(add, {QStringLiteral("task"), QStringLiteral("add"), chain, name,
                           QStringLiteral("--kind"), QStringLiteral("builtin"),
                           QStringLiteral("--command"), QStringLiteral("SendMail"),
                           QStringLiteral("--arg"), mail, QStringLiteral("--password-stdin")});
        add.write("pw-123\n");
        add.closeWriteChannel();
        return add.waitForFinished(60000) && add.exitCode() == 0;
    };
    QVERIFY(addMailTask(QStringLiteral("p/c"), QStringLiteral("mail")));
    QVERIFY(addMailTask(QStringLiteral("p/c"), QStringLiteral("mail2")));
    QVERIFY(addMailTask(QStringLiteral("p/d"), QStringLiteral("mail")));
    QCOMPARE(keptKeys().size(), 3);

    const test::CliSandbox::Output removed =
        m_cli->run({QStringLiteral("task"), QStringLiteral("rm"), QStringLiteral("p/c"),
                    QStringLiteral("mail")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QCOMPARE(keptKeys().size(), 2);
    const test::CliSandbox::Output chainGone =
        m_cli->run({QStringLiteral("chain"), QStringLiteral("rm"), QStringLiteral("p/c")});
    QVERIFY2(chainGone.exitCode == 0, qPrintable(chainGone.err));
    QCOMPARE(keptKeys().size(), 1);
    const test::CliSandbox::Output projectGone =
        m_cli->run({QStringLiteral("project"), QStringLiteral("rm"), QStringLiteral("p"),
                    QStringLiteral("--force")});
    QVERIFY2(projectGone.exitCode == 0, qPrintable(projectGone.err));
    QCOMPARE(keptKeys(), QStringList());
}

QTEST_GUILESS_MAIN(TestDelivery)
#include "tst_delivery.moc"
