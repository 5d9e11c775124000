#include "notify/smtpsender.h"
#include "notify/webhooksender.h"
#include "testhttpserver.h"
#include "testservers.h"
#include "testsmtpserver.h"

#include <QFuture>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QtConcurrent>
#include <QTest>

using namespace hg;

// E-mail against a real SMTP server (aiosmtpd: STARTTLS, implicit TLS, AUTH, a CA of the
// test's own) and webhooks against a real HTTP server: what arrives, what each failure says,
// which failures are worth a retry.
class TestSenders final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void email_startTlsWithAuth_arrivesWithItsHeaders();
    void email_implicitTls_arrives();
    void email_wrongPassword_failsForGoodWithTheServersAnswer();
    void email_untrustedCertificate_isRefused();
    void email_hostileSubject_addsNoHeader();
    void email_manyRecipientsAndALongNonAsciiSubject_areFolded();
    void webhook_isSignedAndCarriesTheDeliveryId();
    void webhook_answers_sayWhetherToRetry();
    void webhook_presets_shapeTheBody();
    void slack_taskOutputCannotMentionOrDressALink();
    void webhook_unreachable_isRetriedAndHidesASecretUrl();

private:
    static NotifyChannel emailChannel(quint16 port, SmtpSecurity security, const QString &ca);
    static NotificationMessage message(const QString &subject, const QString &text);
    static NotifyChannel webhookChannel(const QUrl &url, WebhookFormat format);
    // Sends off this thread: the test's HTTP server answers on this one.
    static SendOutcome post(const NotifyChannel &channel, const QJsonObject &secrets,
                            const NotificationMessage &message, int timeoutMs = 10000);
};

#define HG_SMTP(server, mode)                                                                      \
    test::TestSmtpServer server;                                                                   \
    if (const QString failed = server.start(mode); !failed.isEmpty())                              \
        HG_REQUIRE_PART(false, "the test SMTP server (python3-aiosmtpd, openssl)");

NotifyChannel TestSenders::emailChannel(quint16 port, SmtpSecurity security, const QString &ca)
{
    NotifyChannel channel;
    channel.name = QStringLiteral("mail");
    channel.kind = ChannelKind::Email;
    channel.url = QStringLiteral("smtp://bob@127.0.0.1:%1").arg(port);
    channel.security = security;
    channel.caFile = ca;
    channel.from = QStringLiteral("hourglass@example.org");
    channel.to = {QStringLiteral("ops@example.org"), QStringLiteral("dba@example.org")};
    return channel;
}

NotificationMessage TestSenders::message(const QString &subject, const QString &text)
{
    NotificationMessage m;
    m.subject = subject;
    m.text = text;
    m.json = QJsonObject{{QStringLiteral("event"), QStringLiteral("failure")},
                         {QStringLiteral("subject"), subject},
                         {QStringLiteral("text"), text}};
    return m;
}

NotifyChannel TestSenders::webhookChannel(const QUrl &url, WebhookFormat format)
{
    NotifyChannel channel;
    channel.name = QStringLiteral("hook");
    channel.kind = ChannelKind::Webhook;
    channel.url = url.toString();
    channel.format = format;
    return channel;
}

SendOutcome TestSenders::post(const NotifyChannel &channel, const QJsonObject &secrets,
                              const NotificationMessage &message, int timeoutMs)
{
    QFuture<SendOutcome> sent = QtConcurrent::run([=] {
        return WebhookSender::send(channel, secrets, message, QStringLiteral("d-1"), timeoutMs);
    });
    while (!sent.isFinished())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    return sent.result();
}

void TestSenders::email_startTlsWithAuth_arrivesWithItsHeaders()
{
    HG_SMTP(server, test::TestSmtpServer::Mode::StartTls);
    const NotifyChannel channel =
        emailChannel(server.port(), SmtpSecurity::StartTls, server.caFile());
    const QString text = QStringLiteral("p/c failed (run 7).\nWhy: t: exit code 3\n.\nköln ✓");
    const SendOutcome outcome =
        SmtpSender::send(channel, {{QStringLiteral("password"), QStringLiteral("hunter2")}},
                         message(QStringLiteral("[Hourglass] p/c failed (run 7)"), text),
                         QStringLiteral("abc123"), {}, 20000);
    QVERIFY2(outcome.delivered, qPrintable(outcome.answer));
    QVERIFY2(outcome.answer.startsWith(QLatin1String("250")), qPrintable(outcome.answer));
    QTRY_COMPARE(server.messages().size(), 1);
    const test::TestSmtpServer::Message got = server.messages().at(0);
    QCOMPARE(got.from, QStringLiteral("hourglass@example.org"));
    QCOMPARE(got.to,
             (QStringList{QStringLiteral("ops@example.org"), QStringLiteral("dba@example.org")}));
    QVERIFY(got.content.contains("Subject: [Hourglass] p/c failed (run 7)\r\n"));
    QVERIFY(got.content.contains("X-Hourglass-Delivery: abc123\r\n"));
    QVERIFY(got.content.contains("Message-ID: <abc123@hourglass>\r\n"));
    const QByteArray body = got.content.mid(got.content.indexOf("\r\n\r\n") + 4);
    QCOMPARE(QString::fromUtf8(QByteArray::fromBase64(body)), text);
    // A route's own recipients replace the channel's.
    const SendOutcome routed =
        SmtpSender::send(channel, {{QStringLiteral("password"), QStringLiteral("hunter2")}},
                         message(QStringLiteral("x"), QStringLiteral("y")),
                         QStringLiteral("abc124"), {QStringLiteral("night@example.org")}, 20000);
    QVERIFY2(routed.delivered, qPrintable(routed.answer));
    QTRY_COMPARE(server.messages().size(), 2);
    QCOMPARE(server.messages().at(1).to, QStringList{QStringLiteral("night@example.org")});
}

void TestSenders::email_implicitTls_arrives()
{
    HG_SMTP(server, test::TestSmtpServer::Mode::Implicit);
    const SendOutcome outcome = SmtpSender::send(
        emailChannel(server.port(), SmtpSecurity::Implicit, server.caFile()),
        {{QStringLiteral("password"), QStringLiteral("hunter2")}},
        message(QStringLiteral("s"), QStringLiteral("t")), QStringLiteral("i1"), {}, 20000);
    QVERIFY2(outcome.delivered, qPrintable(outcome.answer));
    QTRY_COMPARE(server.messages().size(), 1);
}

void TestSenders::email_wrongPassword_failsForGoodWithTheServersAnswer()
{
    HG_SMTP(server, test::TestSmtpServer::Mode::StartTls);
    const SendOutcome outcome = SmtpSender::send(
        emailChannel(server.port(), SmtpSecurity::StartTls, server.caFile()),
        {{QStringLiteral("password"), QStringLiteral("wrong")}},
        message(QStringLiteral("s"), QStringLiteral("t")), QStringLiteral("w1"), {}, 20000);
    QVERIFY(!outcome.delivered);
    QVERIFY(outcome.permanent);
    QVERIFY2(outcome.answer.contains(QLatin1String("535")), qPrintable(outcome.answer));
    QVERIFY2(!outcome.answer.contains(QLatin1String("wrong")), qPrintable(outcome.answer));
    QVERIFY(server.messages().isEmpty());
}

void TestSenders::email_untrustedCertificate_isRefused()
{
    HG_SMTP(server, test::TestSmtpServer::Mode::StartTls);
    // The system's CAs do not know the test's: the certificate is checked, not waved through.
    const SendOutcome outcome = SmtpSender::send(
        emailChannel(server.port(), SmtpSecurity::StartTls, {}),
        {{QStringLiteral("password"), QStringLiteral("hunter2")}},
        message(QStringLiteral("s"), QStringLiteral("t")), QStringLiteral("u1"), {}, 20000);
    QVERIFY(!outcome.delivered);
    QVERIFY(outcome.permanent);
    QVERIFY2(outcome.answer.contains(QLatin1String("certificate"), Qt::CaseInsensitive),
             qPrintable(outcome.answer));
    QVERIFY(server.messages().isEmpty());
}

void TestSenders::email_hostileSubject_addsNoHeader()
{
    HG_SMTP(server, test::TestSmtpServer::Mode::StartTls);
    const SendOutcome outcome = SmtpSender::send(
        emailChannel(server.port(), SmtpSecurity::StartTls, server.caFile()),
        {{QStringLiteral("password"), QStringLiteral("hunter2")}},
        message(QStringLiteral("[Hourglass] p/x\r\nBcc: victim@example.org\r\n\r\nforged"),
                QStringLiteral("t")),
        QStringLiteral("h1"), {}, 20000);
    QVERIFY2(outcome.delivered, qPrintable(outcome.answer));
    QTRY_COMPARE(server.messages().size(), 1);
    const QByteArray content = server.messages().at(0).content;
    QVERIFY(!content.contains("\r\nBcc:"));
    QCOMPARE(server.messages().at(0).to.size(), 2);
}

// 35 recipients and a subject of 400 CJK characters: each header line under 998 characters
// (unfolded, the server refused the message: "500 Line too long"), the subject whole again
// once decoded.
void TestSenders::email_manyRecipientsAndALongNonAsciiSubject_areFolded()
{
    HG_SMTP(server, test::TestSmtpServer::Mode::StartTls);
    NotifyChannel channel = emailChannel(server.port(), SmtpSecurity::StartTls, server.caFile());
    channel.to.clear();
    for (int i = 0; i < 35; ++i)
        channel.to << QStringLiteral("firstname.lastname%1@example.org").arg(i);
    const QString subject = QStringLiteral("[Hourglass] ") + QString(200, QChar(0xe9))
                            + QLatin1Char('/') + QString(200, QChar(0x65e5))
                            + QStringLiteral(" 🙂");
    const SendOutcome outcome =
        SmtpSender::send(channel, {{QStringLiteral("password"), QStringLiteral("hunter2")}},
                         message(subject, QStringLiteral("t")), QStringLiteral("f1"), {}, 20000);
    QVERIFY2(outcome.delivered, qPrintable(outcome.answer));
    QTRY_COMPARE(server.messages().size(), 1);
    QCOMPARE(server.messages().at(0).to.size(), 35);
    const QByteArray content = server.messages().at(0).content;
    const QByteArray headers = content.left(content.indexOf("\r\n\r\n"));
    for (const QByteArray &line : headers.split('\n'))
        QVERIFY2(line.size() < 998, line.left(80).constData());
    // Unfolded and decoded, the subject is what was sent.
    QString decoded;
    const qsizetype start = headers.indexOf("Subject: ") + 9;
    QByteArray value = headers.mid(start, headers.indexOf("\r\nDate:") - start);
    for (const QByteArray &word : value.replace("\r\n ", " ").split(' ')) {
        QVERIFY(word.startsWith("=?UTF-8?B?") && word.endsWith("?="));
        QVERIFY(word.size() <= 75);
        decoded += QString::fromUtf8(QByteArray::fromBase64(word.mid(10, word.size() - 12)));
    }
    QCOMPARE(decoded, subject);
}

void TestSenders::webhook_isSignedAndCarriesTheDeliveryId()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    const SendOutcome outcome =
        post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Json),
             {{QStringLiteral("secret"), QStringLiteral("s3cret")}},
             message(QStringLiteral("[Hourglass] p/c failed (run 7)"), QStringLiteral("why")));
    QVERIFY2(outcome.delivered, qPrintable(outcome.answer));
    QCOMPARE(http.requests().size(), 1);
    const test::TestHttpServer::Request request = http.requests().at(0);
    QCOMPARE(request.method, QByteArray("POST"));
    QCOMPARE(request.headers.value("x-hourglass-delivery"), QByteArray("d-1"));
    QCOMPARE(request.headers.value("x-hourglass-event"), QByteArray("failure"));
    QCOMPARE(request.headers.value("content-type"), QByteArray("application/json"));
    const QByteArray expected =
        "sha256="
        + QMessageAuthenticationCode::hash(request.body, "s3cret", QCryptographicHash::Sha256)
              .toHex();
    QCOMPARE(request.headers.value("x-hourglass-signature"), expected);
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    QCOMPARE(body.value(QLatin1String("subject")).toString(),
             QStringLiteral("[Hourglass] p/c failed (run 7)"));
    // Without a secret, no signature header at all (not an empty one).
    const SendOutcome unsigned_ =
        post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Json), {},
             message(QStringLiteral("s"), QStringLiteral("t")));
    QVERIFY(unsigned_.delivered);
    QVERIFY(!http.requests().at(1).headers.contains("x-hourglass-signature"));
}

void TestSenders::webhook_answers_sayWhetherToRetry()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    const NotificationMessage m = message(QStringLiteral("s"), QStringLiteral("t"));
    const SendOutcome unavailable =
        post(webhookChannel(http.url(QStringLiteral("/status/503")), WebhookFormat::Json), {}, m);
    QVERIFY(!unavailable.delivered);
    QVERIFY(!unavailable.permanent);
    QVERIFY2(unavailable.answer.startsWith(QLatin1String("HTTP 503")),
             qPrintable(unavailable.answer));
    const SendOutcome tooMany =
        post(webhookChannel(http.url(QStringLiteral("/status/429")), WebhookFormat::Json), {}, m);
    QVERIFY(!tooMany.delivered && !tooMany.permanent);
    QCOMPARE(tooMany.retryAfterMs, 0); // it did not say when
    // A receiver that says when to come back is obeyed (the deliverer waits at least that).
    const SendOutcome later = post(
        webhookChannel(http.url(QStringLiteral("/retry-after/120")), WebhookFormat::Json), {}, m);
    QVERIFY(!later.delivered && !later.permanent);
    QCOMPARE(later.retryAfterMs, 120000);
    QVERIFY2(later.answer.contains(QLatin1String("Retry-After: 120")), qPrintable(later.answer));
    const SendOutcome gone =
        post(webhookChannel(http.url(QStringLiteral("/status/404")), WebhookFormat::Json), {}, m);
    QVERIFY(!gone.delivered);
    QVERIFY(gone.permanent);
    const SendOutcome redirected =
        post(webhookChannel(http.url(QStringLiteral("/status/302")), WebhookFormat::Json), {}, m);
    QVERIFY(!redirected.delivered); // not followed: the signed body is for the URL named
    // A receiver that reads the request and never answers: maybe received, said so.
    const SendOutcome hung =
        post(webhookChannel(http.url(QStringLiteral("/hang")), WebhookFormat::Json), {}, m, 1000);
    QVERIFY(!hung.delivered && !hung.permanent);
    QVERIFY(hung.ambiguous);
}

void TestSenders::slack_taskOutputCannotMentionOrDressALink()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    const NotificationMessage m = message(QStringLiteral("[Hourglass] p/c failed (run 7)"),
                                          QStringLiteral("<!channel> a & b <http://evil|click>"));
    QVERIFY(post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Slack), {}, m)
                .delivered);
    const QJsonObject slack = QJsonDocument::fromJson(http.requests().at(0).body).object();
    QCOMPARE(slack.value(QLatin1String("text")).toString(),
             QStringLiteral("&lt;!channel&gt; a &amp; b &lt;http://evil|click&gt;"));
    QCOMPARE(slack.value(QLatin1String("unfurl_links")).toBool(true), false);
}

void TestSenders::webhook_presets_shapeTheBody()
{
    test::TestHttpServer http;
    QVERIFY(http.start());
    const NotificationMessage m =
        message(QStringLiteral("[Hourglass] p/c failed (run 7)"), QString(3000, QLatin1Char('x')));
    QVERIFY(post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Slack), {}, m)
                .delivered);
    QVERIFY(post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Discord), {}, m)
                .delivered);
    QVERIFY(post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Teams), {}, m)
                .delivered);
    QVERIFY(post(webhookChannel(http.url(QStringLiteral("/echo")), WebhookFormat::Ntfy), {}, m)
                .delivered);
    QCOMPARE(http.requests().size(), 4);
    const QJsonObject slack = QJsonDocument::fromJson(http.requests().at(0).body).object();
    QVERIFY(slack.value(QLatin1String("text")).toString().startsWith(QLatin1String("xxx")));
    const QJsonObject discord = QJsonDocument::fromJson(http.requests().at(1).body).object();
    QVERIFY(discord.value(QLatin1String("content")).toString().size() <= 2000); // its limit
    QVERIFY(discord.value(QLatin1String("allowed_mentions")).isObject());       // no @everyone
    const QJsonObject teams = QJsonDocument::fromJson(http.requests().at(2).body).object();
    QCOMPARE(teams.value(QLatin1String("type")).toString(), QStringLiteral("message"));
    QCOMPARE(teams.value(QLatin1String("attachments"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QLatin1String("contentType"))
                 .toString(),
             QStringLiteral("application/vnd.microsoft.card.adaptive"));
    const test::TestHttpServer::Request ntfy = http.requests().at(3);
    QCOMPARE(ntfy.headers.value("title"), QByteArray("[Hourglass] p/c failed (run 7)"));
    QCOMPARE(ntfy.headers.value("priority"), QByteArray("high"));
    QVERIFY(ntfy.body.startsWith("xxx"));
}

void TestSenders::webhook_unreachable_isRetriedAndHidesASecretUrl()
{
    QTcpServer closed; // a port nothing listens on once closed
    QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
    const quint16 port = closed.serverPort();
    closed.close();
    NotifyChannel channel = webhookChannel({}, WebhookFormat::Slack);
    channel.url.clear();
    channel.urlIsSecret = true;
    const QString secretUrl =
        QStringLiteral("http://127.0.0.1:%1/services/T000/B000/XXXXtoken").arg(port);
    const SendOutcome outcome = post(channel, {{QStringLiteral("url"), secretUrl}},
                                     message(QStringLiteral("s"), QStringLiteral("t")));
    QVERIFY(!outcome.delivered);
    QVERIFY(!outcome.permanent);
    QVERIFY2(!outcome.answer.contains(QLatin1String("XXXXtoken")), qPrintable(outcome.answer));
    // No URL kept at all: nothing to retry.
    const SendOutcome none = post(channel, {}, message(QStringLiteral("s"), QStringLiteral("t")));
    QVERIFY(!none.delivered && none.permanent);
}

QTEST_GUILESS_MAIN(TestSenders)
#include "tst_senders.moc"
