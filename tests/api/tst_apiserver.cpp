#include "apiclient.h"
#include "backendtests.h"
#include "clisandbox.h"
#include "testservers.h"
#include "teststore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <memory>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace hg;

// `hourglass serve --api` as a user runs it, on both stores, asked by real HTTP: tokens and
// roles, every kind of refusal with its one shape, runs started once by their key, control,
// a log followed as server-sent events, webhooks signed and repeated, /metrics through
// promtool, the OpenAPI document against what the server answers, a thousand clients at once,
// SIGTERM with streams open, and addresses other machines reach.
class TestApiServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void tokens_refusedWithoutAndAdmittedByRole();
    void failedAuthentications_areLimitedAndNeverShowTheToken();
    void errors_haveOneShape();
    void bodies_overTheLimitAreRefused();
    void runs_startOncePerKeyAndPage();
    void control_stopsAndSaysConflicts();
    void log_followsUntilTheRunEnds();
    void webhook_signedStartsOneRunPerDelivery();
    void admin_exportsImportsAndListsChannels();
    void metrics_passPromtool();
    void prometheus_scrapesTheServer();
    void metricsOpen_onlyToThisMachinesNames();
    void openapi_everyPathIsAnswered();
    void thousandConcurrentRequests_allAnswered();
    void sigterm_endsWithStreamsOpen();
    void idleAndSlowClients_doNotLockOthersOut();
    void otherAddresses_needTlsOrInsecure();
    void tls_servesHttps();

private:
    void define(const QList<QStringList> &commands);
    QString makeToken(const QString &name, const QString &role);
    void startServing(const QStringList &options = {});
    void stopServing();
    // The run's state once it has ended (waits on the API's own answer).
    QString endState(qint64 runId);

    std::unique_ptr<test::TestStore> m_store;
    std::unique_ptr<test::CliSandbox> m_cli;
    std::unique_ptr<QProcess> m_serve;
    QByteArray m_said;
    quint16 m_port = 0;
    test::ApiClient m_api;
};

void TestApiServer::init()
{
    // A thousand connections need more descriptors than a shell's 1,024 (for this process and
    // the serve it starts, which inherits the limit).
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = std::min<rlim_t>(files.rlim_max, 8192);
    setrlimit(RLIMIT_NOFILE, &files);
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
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("echo \"hello ${name}\"")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/slow")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/slow"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"),
             QStringLiteral("for i in 1 2 3; do echo \"line $i\"; sleep 0.3; done; sleep 60")}});
}

void TestApiServer::cleanup()
{
    stopServing();
    m_serve.reset();
    m_cli.reset();
    m_store.reset();
    m_api.setToken({});
}

void TestApiServer::define(const QList<QStringList> &commands)
{
    const QString failed = m_cli->define(commands);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

QString TestApiServer::makeToken(const QString &name, const QString &role)
{
    const test::CliSandbox::Output made = m_cli->run(
        {QStringLiteral("token"), QStringLiteral("add"), name, QStringLiteral("--role"), role});
    if (made.exitCode != 0)
        qWarning() << "token add failed:" << made.err;
    return made.out.trimmed();
}

void TestApiServer::startServing(const QStringList &options)
{
    m_serve = std::make_unique<QProcess>();
    m_serve->setProcessEnvironment(m_cli->environment());
    m_serve->setWorkingDirectory(m_cli->path());
    m_said.clear();
    m_serve->start(QStringLiteral(HOURGLASS_BINARY),
                   QStringList{QStringLiteral("--db"), m_cli->db(), QStringLiteral("serve"),
                               QStringLiteral("--api"), QStringLiteral("127.0.0.1:0")}
                       + options);
    static const QRegularExpression listens(
        QStringLiteral("the API listens on https?://[^:]+:(\\d+)"));
    QRegularExpressionMatch match;
    QTRY_VERIFY_WITH_TIMEOUT(
        (match = listens.match(QString::fromUtf8(m_said += m_serve->readAllStandardError())))
            .hasMatch(),
        30000);
    m_port = quint16(match.captured(1).toUInt());
    m_api.setBase(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(m_port)));
}

void TestApiServer::stopServing()
{
    if (!m_serve || m_serve->state() == QProcess::NotRunning)
        return;
    m_serve->terminate();
    QVERIFY(m_serve->waitForFinished(15000));
    m_said += m_serve->readAllStandardError();
    QCOMPARE(m_serve->exitCode(), 0);
}

QString TestApiServer::endState(qint64 runId)
{
    const QString path = QStringLiteral("api/v1/runs/%1").arg(runId);
    QJsonObject run;
    QElapsedTimer waited;
    waited.start();
    // Polled by the test's own requests: the run's end is what is waited for.
    while ((run = m_api.get(path).json).value(QStringLiteral("finishedAt")).isNull()
           && waited.elapsed() < 30000)
        QTest::qWait(50);
    return run.value(QStringLiteral("state")).toString();
}

void TestApiServer::tokens_refusedWithoutAndAdmittedByRole()
{
    const QString reader = makeToken(QStringLiteral("reader"), QStringLiteral("read"));
    const QString operate = makeToken(QStringLiteral("ops"), QStringLiteral("operate"));
    const QString metrics = makeToken(QStringLiteral("prom"), QStringLiteral("metrics"));
    QVERIFY(reader.startsWith(QLatin1String("hg_")));
    QCOMPARE(reader.size(), 43);
    startServing();
    test::ApiClient::Answer none = m_api.get(QStringLiteral("api/v1/chains"));
    QCOMPARE(none.status, 401);
    QVERIFY(none.header("WWW-Authenticate").startsWith("Bearer"));
    QVERIFY(none.json.contains(QStringLiteral("error")));
    m_api.setToken(reader.left(42) + QLatin1Char(reader.endsWith(QLatin1Char('0')) ? '1' : '0'));
    QCOMPARE(m_api.get(QStringLiteral("api/v1/chains")).status, 401);
    m_api.setToken(reader);
    const test::ApiClient::Answer chains = m_api.get(QStringLiteral("api/v1/chains"));
    QCOMPARE(chains.status, 200);
    QCOMPARE(chains.json.value(QStringLiteral("chains")).toArray().size(), 2);
    QCOMPARE(m_api.post(QStringLiteral("api/v1/chains/p/c/runs")).status, 403);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/tokens")).status, 403);
    m_api.setToken(metrics);
    QCOMPARE(m_api.get(QStringLiteral("metrics")).status, 200);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/runs")).status, 403);
    m_api.setToken(operate);
    QCOMPARE(m_api.post(QStringLiteral("api/v1/chains/p/c/runs")).status, 201);
    QCOMPARE(m_api.get(QStringLiteral("metrics")).status, 200);
    // The list says when each was used; a removed token is refused at once.
    const test::CliSandbox::Output listed =
        m_cli->run({QStringLiteral("token"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY(!listed.out.contains(reader));
    const QJsonArray tokens = QJsonDocument::fromJson(listed.out.toUtf8()).array();
    QCOMPARE(tokens.size(), 3);
    for (const QJsonValue entry : tokens)
        QVERIFY(!entry[QStringLiteral("lastUsedAt")].isNull());
    QCOMPARE(
        m_cli->run({QStringLiteral("token"), QStringLiteral("rm"), QStringLiteral("ops")}).exitCode,
        0);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/runs")).status, 401);
    // The store keeps a hash: the token's text is nowhere in a SQLite file.
    if (test::TestStore::backend() == StoreBackend::Sqlite) {
        QFile file(m_cli->db());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains(reader.toLatin1()));
    }
}

void TestApiServer::failedAuthentications_areLimitedAndNeverShowTheToken()
{
    const QString reader = makeToken(QStringLiteral("reader"), QStringLiteral("read"));
    startServing();
    int refused = 0;
    int limited = 0;
    for (int i = 0; i < 30; ++i) {
        m_api.setToken(QStringLiteral("hg_%1").arg(i, 40, 10, QLatin1Char('7')));
        const int status = m_api.get(QStringLiteral("api/v1/runs")).status;
        refused += status == 401;
        limited += status == 429;
    }
    QCOMPARE(refused, 20);
    QCOMPARE(limited, 10);
    // While limited, a failure waits; a good token from the same address is still served (on
    // loopback every client is one address: a stranger must not lock the others out).
    m_api.setToken(QStringLiteral("hg_%1").arg(99, 40, 10, QLatin1Char('7')));
    const test::ApiClient::Answer answer = m_api.get(QStringLiteral("api/v1/runs"));
    QCOMPARE(answer.status, 429);
    QVERIFY(answer.header("Retry-After").toInt() > 0);
    m_api.setToken(reader);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/runs")).status, 200);
    // A request without a token is refused before its body is read.
    const QByteArray early = test::rawRequest(
        m_port, "POST /api/v1/chains/p/c/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n"
                "Connection: close\r\n\r\n{");
    QVERIFY2(early.startsWith("HTTP/1.1 429"), early.left(100).constData());
    stopServing();
    QVERIFY2(m_said.contains("failed authentication from 127.0.0.1"), m_said.constData());
    // Said once for the window, never with a token's text.
    QCOMPARE(m_said.count("failed authentication from"), 1);
    QVERIFY(!m_said.contains("hg_"));
}

void TestApiServer::errors_haveOneShape()
{
    m_api.setToken(makeToken(QStringLiteral("admin"), QStringLiteral("admin")));
    startServing();
    const auto check = [](const test::ApiClient::Answer &a, int status, const QString &field,
                          const QString &says) {
        QCOMPARE(a.status, status);
        QVERIFY2(a.json.value(QStringLiteral("error")).toString().contains(says), a.body);
        QCOMPARE(a.json.value(QStringLiteral("field")).toString(), field);
        QVERIFY(a.header("Content-Type").startsWith("application/json"));
    };
    check(m_api.get(QStringLiteral("api/v1/nothing")), 404, {}, QStringLiteral("no endpoint"));
    check(m_api.get(QStringLiteral("api/v1/chains/p/none")), 404, {}, QStringLiteral("none"));
    check(m_api.get(QStringLiteral("api/v1/runs/99999")), 404, {}, QStringLiteral("99999"));
    check(m_api.get(QStringLiteral("api/v1/runs/abc")), 400, {}, QStringLiteral("not a run id"));
    check(m_api.get(QStringLiteral("api/v1/chains/p/c%00zzz")), 400, {}, QStringLiteral("NUL"));
    check(m_api.get(QStringLiteral("api/v1/runs/1%00")), 400, {}, QStringLiteral("NUL"));
    check(m_api.get(QStringLiteral("api/v1/runs?limit=0")), 400, QStringLiteral("limit"),
          QStringLiteral("limit"));
    check(m_api.get(QStringLiteral("api/v1/runs?state=happy")), 400, QStringLiteral("state"),
          QStringLiteral("state"));
    check(m_api.get(QStringLiteral("api/v1/runs?since=yesterday")), 400, QStringLiteral("since"),
          QStringLiteral("since"));
    check(m_api.get(QStringLiteral("api/v1/runs?chain=p/none")), 404, QStringLiteral("chain"),
          QStringLiteral("none"));
    check(m_api.post(QStringLiteral("api/v1/chains/p/c/runs"), "{\"parameters\": [1]"), 400, {},
          QStringLiteral("not JSON"));
    check(m_api.post(QStringLiteral("api/v1/chains/p/c/runs"), "[]"), 400, {},
          QStringLiteral("not a JSON object"));
    check(m_api.post(QStringLiteral("api/v1/chains/p/c/runs"), "{\"paramters\": {}}"), 400,
          QStringLiteral("paramters"), QStringLiteral("unknown field"));
    check(m_api.post(QStringLiteral("api/v1/chains/p/c/runs"),
                     "{\"parameters\": {\"a\": {\"b\": 1}}}"),
          400, QStringLiteral("parameters.a"), QStringLiteral("string"));
    check(m_api.post(QStringLiteral("api/v1/missed/p/c/decide"), "{\"choice\": \"maybe\"}"), 400,
          QStringLiteral("choice"), QStringLiteral("run-all"));
    check(m_api.post(QStringLiteral("api/v1/missed/p/c/decide"), "{\"choice\": \"dismiss\"}"), 409,
          {}, QStringLiteral("no missed runs"));
    check(m_api.post(QStringLiteral("api/v1/tokens"), "{\"name\": \"x\", \"role\": \"god\"}"), 400,
          QStringLiteral("role"), QStringLiteral("role"));
    const test::ApiClient::Answer wrongMethod =
        m_api.send("DELETE", QStringLiteral("api/v1/runs"), {}, {});
    check(wrongMethod, 405, {}, QStringLiteral("GET"));
    QCOMPARE(wrongMethod.header("Allow"), QByteArray("GET"));
    // What a client library would not send, written by hand.
    const QByteArray twoLengths =
        test::rawRequest(m_port, "POST /api/v1/chains/p/c/runs HTTP/1.1\r\nHost: x\r\nConnection: "
                                 "close\r\nContent-Length: 2\r\n"
                                 "Content-Length: 4\r\n\r\n{}");
    QVERIFY2(twoLengths.startsWith("HTTP/1.1 400"), twoLengths.constData());
    const QByteArray control = test::rawRequest(
        m_port, "GET /api/v1/chains/p%01/c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    QVERIFY2(control.startsWith("HTTP/1.1 400") || control.startsWith("HTTP/1.1 401"),
             control.constData());
    const QByteArray hugeHeader = test::rawRequest(
        m_port, "GET /api/v1/runs HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: "
                    + QByteArray(200000, 'a') + "\r\n\r\n");
    QVERIFY2(hugeHeader.startsWith("HTTP/1.1 431") || hugeHeader.startsWith("HTTP/1.1 413")
                 || hugeHeader.isEmpty(),
             hugeHeader.left(200).constData());
    // Garbage is answered (or the connection closed), and the server goes on answering.
    test::rawRequest(m_port, QByteArray("\x00\x01\x02 / HTTP/9.9\r\n\r\n", 20), 3000);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/runs")).status, 200);
}

void TestApiServer::bodies_overTheLimitAreRefused()
{
    const QByteArray token = makeToken(QStringLiteral("ops"), QStringLiteral("operate")).toLatin1();
    m_api.setToken(QString::fromLatin1(token));
    startServing({QStringLiteral("--api-body-limit"), QStringLiteral("1")});
    const QByteArray big = "{\"parameters\": {\"a\": \"" + QByteArray(2000, 'x') + "\"}}";
    const test::ApiClient::Answer refused =
        m_api.post(QStringLiteral("api/v1/chains/p/c/runs"), big);
    QCOMPARE(refused.status, 413);
    QVERIFY(refused.json.value(QStringLiteral("error")).toString().contains(QLatin1String("1024")));
    // A chunked body has no length to refuse it by: refused as it grows past the limit.
    const QByteArray chunked =
        test::rawRequest(m_port, "POST /api/v1/chains/p/c/runs HTTP/1.1\r\nHost: x\r\nConnection: "
                                 "close\r\nAuthorization: Bearer "
                                     + token + "\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n"
                                     + QByteArray(2000, 'x') + "\r\n0\r\n\r\n");
    QVERIFY2(chunked.startsWith("HTTP/1.1 413"), chunked.left(200).constData());
    // Nothing was started by either.
    QCOMPARE(m_api.get(QStringLiteral("api/v1/runs"))
                 .json.value(QStringLiteral("runs"))
                 .toArray()
                 .size(),
             0);
}

void TestApiServer::runs_startOncePerKeyAndPage()
{
    m_api.setToken(makeToken(QStringLiteral("ops"), QStringLiteral("operate")));
    startServing();
    const QList<std::pair<QByteArray, QByteArray>> key{{"Idempotency-Key", "deploy-42"}};
    const test::ApiClient::Answer first = m_api.post(
        QStringLiteral("api/v1/chains/p/c/runs"), "{\"parameters\": {\"name\": \"world\"}}", key);
    QCOMPARE(first.status, 201);
    const qint64 id = qint64(first.json.value(QStringLiteral("id")).toDouble());
    QCOMPARE(first.header("Location"), "/api/v1/runs/" + QByteArray::number(id));
    const test::ApiClient::Answer again = m_api.post(QStringLiteral("api/v1/chains/p/c/runs"),
                                                     "{\"parameters\": {\"name\": \"x\"}}", key);
    QCOMPARE(again.status, 200);
    QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
    QCOMPARE(qint64(again.json.value(QStringLiteral("id")).toDouble()), id);
    QCOMPARE(endState(id), QStringLiteral("succeeded"));
    const QJsonObject run = m_api.get(QStringLiteral("api/v1/runs/%1").arg(id)).json;
    QCOMPARE(run.value(QStringLiteral("attempts")).toArray().size(), 1);
    QCOMPARE(run.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("name")),
             QJsonValue(QStringLiteral("world")));
    const QJsonArray lines = m_api.get(QStringLiteral("api/v1/runs/%1/log").arg(id))
                                 .json.value(QStringLiteral("lines"))
                                 .toArray();
    bool said = false;
    for (const QJsonValue line : lines)
        said |= line[QStringLiteral("text")].toString() == QLatin1String("hello world");
    QVERIFY(said);
    // Two more, then pages of one, newest first, continued by nextBefore.
    QCOMPARE(m_api.post(QStringLiteral("api/v1/chains/p/c/runs")).status, 201);
    QCOMPARE(m_api.post(QStringLiteral("api/v1/chains/p/c/runs")).status, 201);
    QList<qint64> seen;
    QString page = QStringLiteral("api/v1/runs?chain=p/c&limit=1");
    for (int i = 0; i < 5 && !page.isEmpty(); ++i) {
        const QJsonObject answer = m_api.get(page).json;
        for (const QJsonValue r : answer.value(QStringLiteral("runs")).toArray())
            seen << qint64(r[QStringLiteral("id")].toDouble());
        const QJsonValue next = answer.value(QStringLiteral("nextBefore"));
        page = next.isNull() ? QString()
                             : QStringLiteral("api/v1/runs?chain=p/c&limit=1&before=%1")
                                   .arg(qint64(next.toDouble()));
    }
    QCOMPARE(seen.size(), 3);
    QVERIFY(seen.at(0) > seen.at(1) && seen.at(1) > seen.at(2) && seen.at(2) == id);
    const QJsonArray succeeded =
        m_api
            .get(QStringLiteral("api/v1/runs?state=succeeded&since=%1")
                     .arg(run.value(QStringLiteral("createdAt")).toString()))
            .json.value(QStringLiteral("runs"))
            .toArray();
    QVERIFY(!succeeded.isEmpty());
    QCOMPARE(qint64(succeeded.last()[QStringLiteral("id")].toDouble()), id);
    // Disabled by the API, as the window would.
    QCOMPARE(m_api.post(QStringLiteral("api/v1/chains/p/c/disable")).status, 200);
    const test::CliSandbox::Output shown =
        m_cli->run({QStringLiteral("chain"), QStringLiteral("show"), QStringLiteral("p/c"),
                    QStringLiteral("--json")});
    QVERIFY2(shown.out.contains(QLatin1String("\"enabled\": false")), qPrintable(shown.out));
}

void TestApiServer::control_stopsAndSaysConflicts()
{
    m_api.setToken(makeToken(QStringLiteral("ops"), QStringLiteral("operate")));
    startServing();
    const qint64 id = qint64(m_api.post(QStringLiteral("api/v1/chains/p/slow/runs"))
                                 .json.value(QStringLiteral("id"))
                                 .toDouble());
    const QString path = QStringLiteral("api/v1/runs/%1").arg(id);
    QTRY_COMPARE_WITH_TIMEOUT(m_api.get(path).json.value(QStringLiteral("state")).toString(),
                              QStringLiteral("running"), 30000);
    QCOMPARE(m_api.post(path + QStringLiteral("/rerun")).status, 409);
    const test::ApiClient::Answer stop = m_api.post(path + QStringLiteral("/stop"));
    QCOMPARE(stop.status, 202);
    QCOMPARE(endState(id), QStringLiteral("cancelled"));
    QCOMPARE(m_api.post(path + QStringLiteral("/stop")).status, 409);
    QCOMPARE(m_api.post(path + QStringLiteral("/pause")).status, 409);
    const test::ApiClient::Answer rerun = m_api.post(
        path + QStringLiteral("/rerun"), "{\"failedOnly\": true}", {{"Idempotency-Key", "r-1"}});
    QCOMPARE(rerun.status, 201);
    const test::ApiClient::Answer rerunAgain = m_api.post(
        path + QStringLiteral("/rerun"), "{\"failedOnly\": true}", {{"Idempotency-Key", "r-1"}});
    QCOMPARE(rerunAgain.status, 200);
    QCOMPARE(rerunAgain.json.value(QStringLiteral("id")), rerun.json.value(QStringLiteral("id")));
    QCOMPARE(rerun.json.value(QStringLiteral("rerunOf")).toDouble(), double(id));
    const qint64 again = qint64(rerun.json.value(QStringLiteral("id")).toDouble());
    QCOMPARE(m_api.post(QStringLiteral("api/v1/runs/%1/stop").arg(again)).status, 202);
    QCOMPARE(endState(again), QStringLiteral("cancelled"));
}

void TestApiServer::log_followsUntilTheRunEnds()
{
    const QString reader = makeToken(QStringLiteral("reader"), QStringLiteral("read"));
    m_api.setToken(makeToken(QStringLiteral("ops"), QStringLiteral("operate")));
    startServing();
    define({{QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/lines")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/lines"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"),
             QStringLiteral("for i in 1 2 3 4 5; do echo \"line $i\"; sleep 0.2; done")}});
    const qint64 id = qint64(m_api.post(QStringLiteral("api/v1/chains/p/lines/runs"))
                                 .json.value(QStringLiteral("id"))
                                 .toDouble());
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(
        QStringLiteral("http://127.0.0.1:%1/api/v1/runs/%2/log?follow=1").arg(m_port).arg(id)));
    request.setRawHeader("Authorization", "Bearer " + reader.toLatin1());
    QNetworkReply *reply = network.get(request);
    QByteArray events;
    connect(reply, &QNetworkReply::readyRead, this, [&] { events += reply->readAll(); });
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 30000);
    events += reply->readAll();
    QCOMPARE(reply->header(QNetworkRequest::ContentTypeHeader).toString().left(17),
             QStringLiteral("text/event-stream"));
    for (int i = 1; i <= 5; ++i)
        QVERIFY2(events.contains(QByteArray(QByteArray("line ") + QByteArray::number(i))),
                 events.constData());
    QCOMPARE(events.count("event: line"), 5);
    QVERIFY(events.trimmed().endsWith("data: {\"state\":\"succeeded\"}"));
    reply->deleteLater();
    // Resumed after a line by Last-Event-ID, the stream sends only what came after it.
    const QByteArray all = events;
    const qsizetype second = all.indexOf("id: ", all.indexOf("id: ") + 1);
    const QByteArray secondId = all.mid(second + 4, all.indexOf('\n', second) - second - 4);
    request.setRawHeader("Last-Event-ID", secondId);
    QNetworkReply *resumed = network.get(request);
    QTRY_VERIFY_WITH_TIMEOUT(resumed->isFinished(), 30000);
    const QByteArray rest = resumed->readAll();
    QCOMPARE(rest.count("event: line"), 3);
    resumed->deleteLater();
}

void TestApiServer::webhook_signedStartsOneRunPerDelivery()
{
    const test::CliSandbox::Output added =
        m_cli->run({QStringLiteral("trigger"), QStringLiteral("add"), QStringLiteral("p/c"),
                    QStringLiteral("--webhook"), QStringLiteral("--header"),
                    QStringLiteral("X-GitHub-Event")});
    QCOMPARE(added.exitCode, 0);
    static const QRegularExpression hookLine(QStringLiteral("hook: +(/hooks/[0-9a-f]{24})"));
    static const QRegularExpression secretLine(QStringLiteral("secret: +([0-9a-f]{64})"));
    const QString hook = hookLine.match(added.out).captured(1);
    const QByteArray secret = secretLine.match(added.out).captured(1).toLatin1();
    QVERIFY2(!hook.isEmpty() && !secret.isEmpty(), qPrintable(added.out));
    // The store never holds the secret, nor does `trigger list`.
    const test::CliSandbox::Output listed =
        m_cli->run({QStringLiteral("trigger"), QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY(listed.out.contains(hook) && !listed.out.contains(QString::fromLatin1(secret)));
    startServing();
    const QByteArray body = "{\"name\": \"hooked\", \"ref\": {\"branch\": \"main\"}}";
    const QByteArray signature =
        "sha256="
        + QMessageAuthenticationCode::hash(body, secret, QCryptographicHash::Sha256).toHex();
    const QString path = hook.mid(1);
    QCOMPARE(m_api.post(path, body, {{"X-Hourglass-Signature", "sha256=00"}}).status, 401);
    QCOMPARE(m_api.post(path, body + " ", {{"X-Hourglass-Signature", signature}}).status, 401);
    QCOMPARE(m_api.post(path, body).status, 401);
    QCOMPARE(m_api
                 .post(QStringLiteral("hooks/000000000000000000000000"), body,
                       {{"X-Hourglass-Signature", signature}})
                 .status,
             404);
    const QList<std::pair<QByteArray, QByteArray>> signedHeaders{
        {"X-Hourglass-Signature", signature},
        {"X-Hourglass-Delivery", "d-1"},
        {"X-GitHub-Event", "push"},
        {"X-Secret-Thing", "never"}};
    const test::ApiClient::Answer started = m_api.post(path, body, signedHeaders);
    QCOMPARE(started.status, 202);
    QCOMPARE(started.json.value(QStringLiteral("replayed")).toBool(), false);
    const qint64 id = qint64(started.json.value(QStringLiteral("run")).toDouble());
    const test::ApiClient::Answer repeated = m_api.post(path, body, signedHeaders);
    QCOMPARE(repeated.status, 202);
    QCOMPARE(repeated.json.value(QStringLiteral("replayed")).toBool(), true);
    QCOMPARE(qint64(repeated.json.value(QStringLiteral("run")).toDouble()), id);
    m_api.setToken(makeToken(QStringLiteral("reader"), QStringLiteral("read")));
    QCOMPARE(endState(id), QStringLiteral("succeeded"));
    const QJsonObject run = m_api.get(QStringLiteral("api/v1/runs/%1").arg(id)).json;
    QCOMPARE(run.value(QStringLiteral("trigger")).toString(), QStringLiteral("trigger"));
    const QJsonObject detail = run.value(QStringLiteral("triggerDetail")).toObject();
    QCOMPARE(detail.value(QStringLiteral("body.name")).toString(), QStringLiteral("hooked"));
    QCOMPARE(detail.value(QStringLiteral("body.ref")).toString(),
             QStringLiteral("{\"branch\":\"main\"}"));
    QCOMPARE(detail.value(QStringLiteral("header.x_github_event")).toString(),
             QStringLiteral("push"));
    QVERIFY(!detail.contains(QStringLiteral("header.x-secret-thing")));
    QVERIFY(!detail.contains(QStringLiteral("header.x_secret_thing")));
    QCOMPARE(detail.value(QStringLiteral("delivery")).toString(), QStringLiteral("d-1"));
    // Names no variable may carry are left out, each name once whatever its case; numbers
    // as they read; a value too large for the environment is left out and counted.
    const QByteArray hostile =
        "{\"x\": \"real\", \"x=evil\": \"z\", \"a\": 1, \"A\": 2, \"n\": 0.1, "
        "\"big\": \""
        + QByteArray(70000, 'b') + "\"}";
    const test::ApiClient::Answer odd = m_api.post(
        path, hostile,
        {{"X-Hourglass-Signature",
          "sha256="
              + QMessageAuthenticationCode::hash(hostile, secret, QCryptographicHash::Sha256)
                    .toHex()},
         {"X-Hourglass-Delivery", "d-3"}});
    QCOMPARE(odd.status, 202);
    const qint64 oddId = qint64(odd.json.value(QStringLiteral("run")).toDouble());
    QCOMPARE(endState(oddId), QStringLiteral("succeeded"));
    const QJsonObject oddDetail = m_api.get(QStringLiteral("api/v1/runs/%1").arg(oddId))
                                      .json.value(QStringLiteral("triggerDetail"))
                                      .toObject();
    QCOMPARE(oddDetail.value(QStringLiteral("body.x")).toString(), QStringLiteral("real"));
    QCOMPARE(oddDetail.value(QStringLiteral("body.n")).toString(), QStringLiteral("0.1"));
    QVERIFY(!oddDetail.contains(QStringLiteral("body.x=evil")));
    QVERIFY(!oddDetail.contains(QStringLiteral("body.big")));
    QVERIFY(!oddDetail.contains(QStringLiteral("body"))); // the body itself is over 64 KiB
    QCOMPARE(oddDetail.contains(QStringLiteral("body.a"))
                 + oddDetail.contains(QStringLiteral("body.A")),
             1);
    QCOMPARE(oddDetail.value(QStringLiteral("body_left_out")).toString(), QStringLiteral("4"));
    // One run for the two deliveries of d-1.
    QCOMPARE(m_api.get(QStringLiteral("api/v1/runs?chain=p/c"))
                 .json.value(QStringLiteral("runs"))
                 .toArray()
                 .size(),
             2);
    // Paused, a signed call starts nothing and says why.
    const QString triggerId = QString::number(
        QJsonDocument::fromJson(listed.out.toUtf8()).array().at(0)[QStringLiteral("id")].toInt());
    QCOMPARE(m_cli->run({QStringLiteral("trigger"), QStringLiteral("pause"), triggerId}).exitCode,
             0);
    QCOMPARE(m_api
                 .post(path, body,
                       {{"X-Hourglass-Signature", signature}, {"X-Hourglass-Delivery", "d-2"}})
                 .status,
             409);
    // The ledger has it, as a paused fire; and the run of d-1.
    const test::CliSandbox::Output ledger = m_cli->run(
        {QStringLiteral("occurrences"), QStringLiteral("p/c"), QStringLiteral("--json")});
    QVERIFY2(ledger.out.contains(QLatin1String("paused"))
                 && ledger.out.contains(QLatin1String("webhook delivery d-2")),
             qPrintable(ledger.out));
}

void TestApiServer::admin_exportsImportsAndListsChannels()
{
    QProcess add;
    m_cli->start(add, {QStringLiteral("channel"), QStringLiteral("add"), QStringLiteral("chat"),
                       QStringLiteral("--kind"), QStringLiteral("webhook"),
                       QStringLiteral("--secret-url-stdin")});
    add.write("https://hooks.example.org/services/T000/B000/SECRETPART\n");
    add.closeWriteChannel();
    QVERIFY(add.waitForFinished(30000));
    QVERIFY2(add.exitCode() == 0, add.readAllStandardError().constData());
    m_api.setToken(makeToken(QStringLiteral("admin"), QStringLiteral("admin")));
    startServing();
    const test::ApiClient::Answer channels = m_api.get(QStringLiteral("api/v1/channels"));
    QCOMPARE(channels.status, 200);
    QVERIFY(!channels.body.contains("SECRETPART"));
    QCOMPARE(channels.json.value(QStringLiteral("channels"))
                 .toArray()
                 .at(0)[QStringLiteral("urlIsSecret")],
             QJsonValue(true));
    const test::ApiClient::Answer exported =
        m_api.get(QStringLiteral("api/v1/export?project=p&chain=c"));
    QCOMPARE(exported.status, 200);
    QVERIFY(!exported.body.contains("SECRETPART"));
    // The same chain again: refused whole, nothing written.
    const test::ApiClient::Answer twice =
        m_api.post(QStringLiteral("api/v1/import"), exported.body);
    QVERIFY2(twice.status == 409 || twice.status == 400, twice.body.constData());
    // Under another project's name: checked first (nothing written), then imported.
    QByteArray renamed = exported.body;
    renamed.replace("\"name\":\"p\"", "\"name\":\"q\"");
    const test::ApiClient::Answer checked =
        m_api.post(QStringLiteral("api/v1/import?check=1"), renamed);
    QCOMPARE(checked.status, 200);
    QCOMPARE(checked.json.value(QStringLiteral("chains")).toInt(), 1);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/chains/q/c")).status, 404);
    const test::ApiClient::Answer imported = m_api.post(QStringLiteral("api/v1/import"), renamed);
    QCOMPARE(imported.status, 201);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/chains/q/c")).status, 200);
    QCOMPARE(m_api.post(QStringLiteral("api/v1/import"), "{\"format\": 1}").status, 400);
    QCOMPARE(m_api.get(QStringLiteral("api/v1/export?chain=c")).status, 400);
}

void TestApiServer::metrics_passPromtool()
{
    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    HG_REQUIRE_PART(!promtool.isEmpty(), "promtool (Debian's prometheus package)");
    m_api.setToken(makeToken(QStringLiteral("ops"), QStringLiteral("operate")));
    startServing();
    const qint64 id = qint64(m_api.post(QStringLiteral("api/v1/chains/p/c/runs"))
                                 .json.value(QStringLiteral("id"))
                                 .toDouble());
    QCOMPARE(endState(id), QStringLiteral("succeeded"));
    QByteArray text;
    QTRY_VERIFY_WITH_TIMEOUT(
        (text = m_api.get(QStringLiteral("metrics")).body)
            .contains("hourglass_runs_finished_total{chain=\"p/c\",state=\"succeeded\"} 1"),
        10000);
    for (const char *name :
         {"hourglass_run_duration_seconds_bucket{chain=\"p/c\",le=\"+Inf\"} 1",
          "hourglass_task_duration_seconds_count 1", "hourglass_start_lateness_seconds_count",
          "hourglass_runs{state=\"queued\"} 0", "hourglass_missed_runs_waiting 0",
          "hourglass_outbox_pending 0", "hourglass_outbox_failed 0", "hourglass_store_reachable 1",
          "hourglass_chains 2",
          "hourglass_engine_up{engine=", "hourglass_api_requests_total{code="})
        QVERIFY2(text.contains(name), name);
    const QByteArray problems = test::promtoolProblems(promtool, text);
    QVERIFY2(problems.isEmpty(), problems.constData());
}

void TestApiServer::prometheus_scrapesTheServer()
{
    const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
    HG_REQUIRE_PART(!prometheus.isEmpty(), "prometheus (Debian's prometheus package)");
    const QString token = makeToken(QStringLiteral("prom"), QStringLiteral("metrics"));
    m_api.setToken(makeToken(QStringLiteral("ops"), QStringLiteral("operate")));
    startServing();
    // A run ended, so the counters and histograms have series.
    const qint64 id = qint64(m_api.post(QStringLiteral("api/v1/chains/p/c/runs"))
                                 .json.value(QStringLiteral("id"))
                                 .toDouble());
    QCOMPARE(endState(id), QStringLiteral("succeeded"));
    const QByteArray exposed = m_api.get(QStringLiteral("metrics")).body;
    QFile tokenFile(m_cli->filePath(QStringLiteral("prometheus-token")));
    QVERIFY(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write(token.toLatin1());
    tokenFile.close();
    QTcpServer probe; // a free port for Prometheus's own
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 prometheusPort = probe.serverPort();
    probe.close();
    QFile config(m_cli->filePath(QStringLiteral("prometheus.yml")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("global:\n  scrape_interval: 1s\nscrape_configs:\n"
                                "  - job_name: hourglass\n    scrape_interval: 1s\n"
                                "    authorization:\n      credentials_file: %1\n"
                                "    static_configs:\n      - targets: ['127.0.0.1:%2']\n")
                     .arg(tokenFile.fileName())
                     .arg(m_port)
                     .toUtf8());
    config.close();
    QProcess server;
    server.setProcessChannelMode(QProcess::MergedChannels);
    server.start(prometheus,
                 {QStringLiteral("--config.file=") + config.fileName(),
                  QStringLiteral("--storage.tsdb.path=") + m_cli->filePath(QStringLiteral("tsdb")),
                  QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(prometheusPort)});
    QVERIFY(server.waitForStarted(10000));
    // Prometheus's own answer: the target is up and its series are there.
    test::ApiClient query;
    query.setBase(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(prometheusPort)));
    const auto value = [&query](const QString &expression) {
        const QJsonArray result =
            query
                .get(QStringLiteral("api/v1/query?query=")
                     + QString::fromLatin1(QUrl::toPercentEncoding(expression)))
                .json.value(QStringLiteral("data"))
                .toObject()
                .value(QStringLiteral("result"))
                .toArray();
        return result.isEmpty() ? QString()
                                : result.at(0)[QStringLiteral("value")].toArray().at(1).toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(value(QStringLiteral("up{job=\"hourglass\"}")), QStringLiteral("1"),
                              60000);
    QCOMPARE(value(QStringLiteral("hourglass_chains")), QStringLiteral("2"));
    QCOMPARE(value(QStringLiteral("hourglass_store_reachable")), QStringLiteral("1"));
    // The Grafana dashboard of installer/: each panel's query names metrics the server
    // exposes, and Prometheus runs it (with two scrapes in hand, so rates have samples).
    QTRY_VERIFY_WITH_TIMEOUT(
        !value(QStringLiteral("count_over_time(hourglass_chains[1m]) > 2")).isEmpty(), 30000);
    QFile dashboardFile(QStringLiteral(HOURGLASS_GRAFANA_DASHBOARD));
    QVERIFY(dashboardFile.open(QIODevice::ReadOnly));
    const QJsonArray panels = QJsonDocument::fromJson(dashboardFile.readAll())
                                  .object()
                                  .value(QStringLiteral("panels"))
                                  .toArray();
    QVERIFY(panels.size() >= 10);
    static const QRegularExpression metricName(QStringLiteral("\\bhourglass_[a-z_]+"));
    int queries = 0;
    for (const QJsonValue panel : panels) {
        const QString title = panel[QStringLiteral("title")].toString();
        for (const QJsonValue target : panel[QStringLiteral("targets")].toArray()) {
            QString expression = target[QStringLiteral("expr")].toString();
            for (auto it = metricName.globalMatch(expression); it.hasNext();) {
                const QString name = it.next().captured(0);
                QVERIFY2(exposed.contains(name.toLatin1()),
                         qPrintable(title + QLatin1String(": ") + name));
            }
            expression.replace(QStringLiteral("$__rate_interval"), QStringLiteral("1m"));
            const test::ApiClient::Answer answer =
                query.get(QStringLiteral("api/v1/query?query=")
                          + QString::fromLatin1(QUrl::toPercentEncoding(expression)));
            QVERIFY2(answer.json.value(QStringLiteral("status")).toString()
                         == QLatin1String("success"),
                     qPrintable(title + QLatin1String(": ") + QString::fromUtf8(answer.body)));
            ++queries;
        }
    }
    QVERIFY(queries >= 12);
    server.terminate();
    QVERIFY(server.waitForFinished(15000));
}

void TestApiServer::metricsOpen_onlyToThisMachinesNames()
{
    startServing({QStringLiteral("--api-metrics-open")});
    const QByteArray local = test::rawRequest(
        m_port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QVERIFY2(local.startsWith("HTTP/1.1 200"), local.left(100).constData());
    // A page whose name was rebound to 127.0.0.1 sends its own name: it needs a token.
    const QByteArray rebound = test::rawRequest(
        m_port, "GET /metrics HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    QVERIFY2(rebound.startsWith("HTTP/1.1 401"), rebound.left(100).constData());
    QVERIFY(test::rawRequest(m_port, "GET /api/v1/runs HTTP/1.1\r\nHost: localhost\r\n"
                                     "Connection: close\r\n\r\n")
                .startsWith("HTTP/1.1 401"));
}

void TestApiServer::openapi_everyPathIsAnswered()
{
    m_api.setToken(makeToken(QStringLiteral("admin"), QStringLiteral("admin")));
    startServing();
    const test::ApiClient::Answer document = m_api.get(QStringLiteral("api/v1/openapi.json"));
    QCOMPARE(document.status, 200);
    QCOMPARE(document.json.value(QStringLiteral("openapi")).toString().left(2),
             QStringLiteral("3."));
    const QJsonObject paths = document.json.value(QStringLiteral("paths")).toObject();
    QVERIFY(paths.size() >= 15);
    static const QRegularExpression parameter(QStringLiteral("\\{[a-z]+\\}"));
    for (auto it = paths.constBegin(); it != paths.constEnd(); ++it) {
        // Every parameter by a name nothing has: what is answered is the endpoint's own 404
        // (or a refusal of the body), never "no endpoint" or 405.
        QString path = it.key().mid(1);
        path.replace(parameter, QStringLiteral("9999"));
        for (const QString &method : it.value().toObject().keys()) {
            const test::ApiClient::Answer a =
                m_api.send(method.toUpper().toLatin1(), path, "{}", {});
            QVERIFY2(a.status != 405, qPrintable(method + QLatin1Char(' ') + path));
            QVERIFY2(!a.json.value(QStringLiteral("error"))
                          .toString()
                          .startsWith(QLatin1String("no endpoint")),
                     qPrintable(method + QLatin1Char(' ') + path + QLatin1Char(' ')
                                + QString::fromUtf8(a.body)));
        }
    }
}

void TestApiServer::thousandConcurrentRequests_allAnswered()
{
    const QByteArray token = makeToken(QStringLiteral("reader"), QStringLiteral("read")).toLatin1();
    startServing();
    // A thousand connections at once, each one request: every one answered 200.
    constexpr int clients = 1000;
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    QList<QByteArray> answers(clients);
    int done = 0;
    const QByteArray request = "GET /api/v1/runs?limit=5 HTTP/1.1\r\nHost: x\r\nAuthorization: "
                               "Bearer "
                               + token + "\r\nConnection: close\r\n\r\n";
    for (int i = 0; i < clients; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        QTcpSocket *raw = socket.get();
        connect(raw, &QTcpSocket::connected, this, [raw, request] { raw->write(request); });
        connect(raw, &QTcpSocket::readyRead, this,
                [raw, &answers, i] { answers[i] += raw->readAll(); });
        // Each ends once: closed after its answer, or refused (then never connected).
        connect(raw, &QTcpSocket::disconnected, this, [&done] { ++done; });
        connect(raw, &QTcpSocket::errorOccurred, this, [&done](QAbstractSocket::SocketError e) {
            if (e != QAbstractSocket::RemoteHostClosedError)
                ++done;
        });
        raw->connectToHost(QStringLiteral("127.0.0.1"), m_port);
        sockets.push_back(std::move(socket));
    }
    QTRY_VERIFY_WITH_TIMEOUT(done >= clients, 120000);
    int ok = 0;
    for (const QByteArray &answer : std::as_const(answers))
        ok += answer.startsWith("HTTP/1.1 200");
    QCOMPARE(ok, clients);
}

void TestApiServer::sigterm_endsWithStreamsOpen()
{
    const QString reader = makeToken(QStringLiteral("reader"), QStringLiteral("read"));
    m_api.setToken(makeToken(QStringLiteral("ops"), QStringLiteral("operate")));
    startServing();
    const qint64 id = qint64(m_api.post(QStringLiteral("api/v1/chains/p/slow/runs"))
                                 .json.value(QStringLiteral("id"))
                                 .toDouble());
    // A follower of the long run, an idle connection and one that sent half a request.
    QTcpSocket follower;
    follower.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    QVERIFY(follower.waitForConnected(5000));
    follower.write(
        "GET /api/v1/runs/" + QByteArray::number(id)
        + "/log?follow=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer "
        + reader.toLatin1() + "\r\n\r\n");
    QByteArray streamed;
    QTRY_VERIFY_WITH_TIMEOUT((streamed += follower.readAll()).contains("line 1"), 30000);
    QTcpSocket idle;
    idle.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    QVERIFY(idle.waitForConnected(5000));
    QTcpSocket half;
    half.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    QVERIFY(half.waitForConnected(5000));
    half.write("POST /api/v1/chains/p/c/runs HTTP/1.1\r\nHost: x\r\nConnection: "
               "close\r\nContent-Length: 100\r\n\r\n{");
    QElapsedTimer stopping;
    stopping.start();
    m_serve->terminate();
    QVERIFY(m_serve->waitForFinished(15000));
    QVERIFY2(stopping.elapsed() < 10000, "serve took long to stop");
    QCOMPARE(m_serve->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_serve->exitCode(), 0);
    // The stream ended as a stream ends (the last chunk), not cut mid-line.
    QTRY_VERIFY_WITH_TIMEOUT(follower.state() == QAbstractSocket::UnconnectedState
                                 || (streamed += follower.readAll()).endsWith("0\r\n\r\n"),
                             10000);
}

void TestApiServer::idleAndSlowClients_doNotLockOthersOut()
{
    m_api.setToken(makeToken(QStringLiteral("reader"), QStringLiteral("read")));
    startServing();
    // Past the connection limit (1,000) with connections that say nothing: the extra ones
    // are closed at once, and once the idle ones go the server accepts again (it once
    // stopped accepting for good).
    std::vector<std::unique_ptr<QTcpSocket>> idle;
    for (int i = 0; i < 1100; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QStringLiteral("127.0.0.1"), m_port);
        idle.push_back(std::move(socket));
    }
    QTRY_VERIFY_WITH_TIMEOUT(
        std::count_if(idle.cbegin(), idle.cend(),
                      [](const auto &s) { return s->state() == QAbstractSocket::UnconnectedState; })
            >= 90,
        20000);
    idle.clear();
    QTRY_COMPARE_WITH_TIMEOUT(m_api.get(QStringLiteral("api/v1/runs")).status, 200, 20000);
    // A client sending a byte of its headers now and then is closed at the header deadline.
    QTcpSocket slow;
    slow.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    QVERIFY(slow.waitForConnected(5000));
    QElapsedTimer held;
    held.start();
    const QByteArray headers = "GET /api/v1/runs HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    int sent = 0;
    while (slow.state() == QAbstractSocket::ConnectedState && held.elapsed() < 40000) {
        slow.write(headers.mid(sent++ % headers.size(), 1));
        slow.waitForBytesWritten(1000);
        QTest::qWait(2000);
    }
    QCOMPARE(slow.state(), QAbstractSocket::UnconnectedState);
    QVERIFY2(held.elapsed() < 25000, qPrintable(QString::number(held.elapsed())));
}

void TestApiServer::otherAddresses_needTlsOrInsecure()
{
    test::CliSandbox::Output refused =
        m_cli->run({QStringLiteral("serve"), QStringLiteral("--api"), QStringLiteral("0.0.0.0:0")});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QLatin1String("--api-cert")), qPrintable(refused.err));
    refused =
        m_cli->run({QStringLiteral("serve"), QStringLiteral("--api"), QStringLiteral("nonsense")});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY(refused.err.contains(QLatin1String("ADDRESS:PORT")));
    // A FIFO as the certificate is refused, not waited on for good.
    const QString fifo = m_cli->filePath(QStringLiteral("cert.fifo"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    refused =
        m_cli->run({QStringLiteral("serve"), QStringLiteral("--api"), QStringLiteral("127.0.0.1:0"),
                    QStringLiteral("--api-cert"), fifo, QStringLiteral("--api-key"), fifo},
                   20000);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QLatin1String("not a regular file")), qPrintable(refused.err));
    refused = m_cli->run({QStringLiteral("serve"), QStringLiteral("--api-insecure")});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY(refused.err.contains(QLatin1String("needs --api")));
    // Plain HTTP where other machines reach it, as asked: the log says so.
    m_serve = std::make_unique<QProcess>();
    m_serve->setProcessEnvironment(m_cli->environment());
    m_serve->start(QStringLiteral(HOURGLASS_BINARY),
                   {QStringLiteral("--db"), m_cli->db(), QStringLiteral("serve"),
                    QStringLiteral("--api"), QStringLiteral("0.0.0.0:0"),
                    QStringLiteral("--api-insecure")});
    QTRY_VERIFY_WITH_TIMEOUT((m_said += m_serve->readAllStandardError()).contains("plain HTTP"),
                             30000);
    stopServing();
}

void TestApiServer::tls_servesHttps()
{
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
    HG_REQUIRE_PART(!openssl.isEmpty() && !curl.isEmpty(), "openssl and curl");
    const QString cert = m_cli->filePath(QStringLiteral("api.crt"));
    const QString key = m_cli->filePath(QStringLiteral("api.key"));
    QProcess make;
    make.start(openssl,
               {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
                QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
    QVERIFY(make.waitForFinished(60000));
    QCOMPARE(make.exitCode(), 0);
    const QString reader = makeToken(QStringLiteral("reader"), QStringLiteral("read"));
    startServing({QStringLiteral("--api-cert"), cert, QStringLiteral("--api-key"), key});
    QVERIFY(m_said.contains("https://"));
    QProcess request;
    request.start(curl, {QStringLiteral("-sS"), QStringLiteral("--cacert"), cert,
                         QStringLiteral("-H"), QStringLiteral("Authorization: Bearer ") + reader,
                         QStringLiteral("https://127.0.0.1:%1/api/v1/chains").arg(m_port)});
    QVERIFY(request.waitForFinished(30000));
    const QByteArray answer = request.readAllStandardOutput();
    QVERIFY2(request.exitCode() == 0 && answer.contains("\"chains\""),
             QByteArray(answer + request.readAllStandardError()).constData());
    // Plain HTTP to the HTTPS port gets no answer of ours.
    const QByteArray plain = test::rawRequest(
        m_port, "GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 3000);
    QVERIFY(!plain.contains("\"chains\""));
}

HG_BACKEND_TEST_GUILESS_MAIN(TestApiServer)
#include "tst_apiserver.moc"
