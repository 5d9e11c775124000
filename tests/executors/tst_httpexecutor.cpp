#include "executorrun.h"
#include "executors/httpexecutor.h"
#include "testhttpserver.h"

#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace hg;

// HTTP tasks and the HttpRequest/Download builtins against a real server on loopback.
class TestHttpExecutor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void get_succeedsAndLogsTheBody();
    void post_sendsMethodHeadersAndBody();
    void unexpectedStatus_failsWithTheStatus();
    void expectedStatus_canBeANon2xx();
    void refusedConnection_failsNamingTheUrl();
    void timeout_endsTheRequest();
    void stop_endsTheRequest();
    void longBody_isTruncatedInTheLog();
    void download_writesTheWholeFile();
    void download_refusesToOverwriteUnlessAsked();
    void download_failedStatusLeavesNoFile();
    void download_toFifoRefusedWithoutBlocking();
    void download_cutShortFailsAndKeepsTheOldFile_data();
    void download_cutShortFailsAndKeepsTheOldFile();

private:
    HttpRequestSpec request(const QString &path, const QByteArray &method = "GET") const;

    std::unique_ptr<test::TestHttpServer> m_server;
};

void TestHttpExecutor::init()
{
    m_server = std::make_unique<test::TestHttpServer>();
    QVERIFY(m_server->start());
}

HttpRequestSpec TestHttpExecutor::request(const QString &path, const QByteArray &method) const
{
    HttpRequestSpec spec;
    spec.url = m_server->url(path);
    spec.method = method;
    return spec;
}

void TestHttpExecutor::get_succeedsAndLogsTheBody()
{
    HttpExecutor executor(request(QStringLiteral("/status/200")), 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QVERIFY(run.finished);
    QCOMPARE(run.outcome.state, RunState::Succeeded);
    QCOMPARE(run.outcome.exitCode, 200);
    QVERIFY2(run.text().contains(QLatin1String("-> 200 Test")), qPrintable(run.text()));
    QVERIFY(run.text().contains(QLatin1String("status 200")));
}

void TestHttpExecutor::post_sendsMethodHeadersAndBody()
{
    const Result<HttpRequestSpec> spec = HttpRequestSpec::fromJson(
        QJsonObject{{QStringLiteral("url"), m_server->url(QStringLiteral("/echo")).toString()},
                    {QStringLiteral("method"), QStringLiteral("post")},
                    {QStringLiteral("headers"),
                     QJsonObject{{QStringLiteral("X-Test"), QStringLiteral("42")}}},
                    {QStringLiteral("body"), QStringLiteral("{\"run\": 7}")}},
        QStringLiteral("HttpRequest"));
    QVERIFY(spec);
    HttpExecutor executor(spec.value(), 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Succeeded);
    QCOMPARE(m_server->requests().size(), 1);
    const test::TestHttpServer::Request &received = m_server->requests().first();
    QCOMPARE(received.method, QByteArray("POST"));
    QCOMPARE(received.headers.value("x-test"), QByteArray("42"));
    QCOMPARE(received.body, QByteArray("{\"run\": 7}"));
    QVERIFY(run.text().contains(QLatin1String("x-test: 42")));
}

void TestHttpExecutor::unexpectedStatus_failsWithTheStatus()
{
    HttpExecutor executor(request(QStringLiteral("/status/503")), 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QCOMPARE(run.outcome.exitCode, 503);
    QVERIFY2(run.outcome.error.contains(QLatin1String("expected status 2xx, got 503")),
             qPrintable(run.outcome.error));
    // A "%2" in the URL as shown stays as it is (before, a later value took its place).
    HttpRequestSpec spec = request(QStringLiteral("/status/503"));
    spec.url = QUrl(spec.url.toString() + QStringLiteral("/a%2Fb"));
    const QString shown = spec.url.toDisplayString(QUrl::RemoveUserInfo);
    QVERIFY2(shown.contains(QLatin1String("%2F")), qPrintable(shown));
    HttpExecutor percent(spec, 0);
    const test::ExecutorRun garbled = test::runExecutor(percent);
    QVERIFY2(garbled.outcome.error.startsWith(QStringLiteral("GET ") + shown
                                              + QStringLiteral(": expected status 2xx, got ")),
             qPrintable(garbled.outcome.error));
    QVERIFY2(garbled.text().contains(shown + QStringLiteral(" -> ")), qPrintable(garbled.text()));
}

void TestHttpExecutor::expectedStatus_canBeANon2xx()
{
    HttpRequestSpec spec = request(QStringLiteral("/status/404"));
    spec.expectedStatuses = {404};
    HttpExecutor executor(spec, 0);
    QCOMPARE(test::runExecutor(executor).outcome.state, RunState::Succeeded);
}

void TestHttpExecutor::refusedConnection_failsNamingTheUrl()
{
    // A port that was free a moment ago: nothing listens there.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    HttpRequestSpec spec;
    spec.url = QUrl(QStringLiteral("http://127.0.0.1:%1/x").arg(port));
    HttpExecutor executor(spec, 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QStringLiteral("GET http://127.0.0.1:%1/x").arg(port)),
             qPrintable(run.outcome.error));
    QVERIFY2(run.outcome.error.contains(QLatin1String("refused")), qPrintable(run.outcome.error));
}

void TestHttpExecutor::timeout_endsTheRequest()
{
    HttpExecutor executor(request(QStringLiteral("/hang")), 300);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::TimedOut);
}

void TestHttpExecutor::stop_endsTheRequest()
{
    HttpExecutor executor(request(QStringLiteral("/hang")), 0);
    const test::ExecutorRun run = test::runExecutor(executor, 200);
    QCOMPARE(run.outcome.state, RunState::Cancelled);
}

void TestHttpExecutor::longBody_isTruncatedInTheLog()
{
    HttpExecutor executor(request(QStringLiteral("/bytes/300000")), 0);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Succeeded);
    QVERIFY(run.text().contains(QLatin1String("300000 bytes")));
    QVERIFY(run.text().contains(QLatin1String("truncated in the log after 65536 bytes")));
}

void TestHttpExecutor::download_writesTheWholeFile()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("data.bin"));
    HttpExecutor executor(request(QStringLiteral("/bytes/1000000")), 0,
                          HttpExecutor::Download{target, false});
    const test::ExecutorRun run = test::runExecutor(executor);
    QVERIFY2(run.outcome.state == RunState::Succeeded, qPrintable(run.outcome.error));
    QCOMPARE(QFileInfo(target).size(), 1000000);
    QVERIFY(run.text().contains(QLatin1String("saved 1000000 bytes")));
}

void TestHttpExecutor::download_refusesToOverwriteUnlessAsked()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("data.bin"));
    QFile existing(target);
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write("old");
    existing.close();
    {
        HttpExecutor executor(request(QStringLiteral("/bytes/10")), 0,
                              HttpExecutor::Download{target, false});
        const test::ExecutorRun run = test::runExecutor(executor);
        QCOMPARE(run.outcome.state, RunState::Failed);
        QVERIFY(run.outcome.error.contains(QLatin1String("exists")));
        QCOMPARE(QFileInfo(target).size(), 3);
    }
    HttpExecutor executor(request(QStringLiteral("/bytes/10")), 0,
                          HttpExecutor::Download{target, true});
    QCOMPARE(test::runExecutor(executor).outcome.state, RunState::Succeeded);
    QCOMPARE(QFileInfo(target).size(), 10);
}

void TestHttpExecutor::download_failedStatusLeavesNoFile()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("data.bin"));
    HttpExecutor executor(request(QStringLiteral("/status/500")), 0,
                          HttpExecutor::Download{target, false});
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY(!QFileInfo::exists(target));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
}

// A FIFO nobody reads would block the engine's thread on open, and a rename would replace it.
void TestHttpExecutor::download_toFifoRefusedWithoutBlocking()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    HttpExecutor executor(request(QStringLiteral("/bytes/10")), 0,
                          HttpExecutor::Download{fifo, true});
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("FIFO")), qPrintable(run.outcome.error));
    struct stat info = {};
    QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &info), 0);
    QVERIFY(S_ISFIFO(info.st_mode));
}

void TestHttpExecutor::download_cutShortFailsAndKeepsTheOldFile_data()
{
    QTest::addColumn<QByteArray>("response");
    QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n"
                                                  "Connection: close\r\n\r\n")
                                           + QByteArray(5000, 'x');
    // Not a row: a chunked body cut at a chunk's end passes for whole about half the time
    // (Qt 6.4's HTTP client does not always report the missing last chunk; README).
}

// Found by helper-10: a server that closed the connection before the whole body gave a
// "saved 5000 bytes" success, over the old file.
void TestHttpExecutor::download_cutShortFailsAndKeepsTheOldFile()
{
    QFETCH(QByteArray, response);
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    connect(&server, &QTcpServer::newConnection, &server, [&server, response] {
        QTcpSocket *socket = server.nextPendingConnection();
        connect(socket, &QTcpSocket::readyRead, socket, [socket, response] {
            if (!socket->peek(socket->bytesAvailable()).contains("\r\n\r\n"))
                return;
            socket->readAll();
            socket->write(response);
            socket->disconnectFromHost(); // after the bytes written: the body cut short
        });
    });
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("data.bin"));
    QFile existing(target);
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write("old");
    existing.close();
    HttpRequestSpec spec;
    spec.url = QUrl(QStringLiteral("http://127.0.0.1:%1/big").arg(server.serverPort()));
    HttpExecutor executor(spec, 0, HttpExecutor::Download{target, true});
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("cut short")), qPrintable(run.outcome.error));
    QFile kept(target);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("old"));
}

QTEST_GUILESS_MAIN(TestHttpExecutor)
#include "tst_httpexecutor.moc"
