#include "webhooksender.h"

#include "curlsession.h"
#include "domain/version.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>

namespace hg {
namespace {

// Discord refuses content over 2,000 characters; Slack and Teams cut long texts themselves.
QString clipped(const QString &text, qsizetype limit)
{
    return text.size() <= limit ? text : text.left(limit - 1) + QChar(0x2026);
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

bool retryable(long status)
{
    return status == 408 || status == 425 || status == 429 || status >= 500;
}

} // namespace

QByteArray WebhookSender::signature(const QByteArray &body, const QByteArray &secret)
{
    return "sha256="
           + QMessageAuthenticationCode::hash(body, secret, QCryptographicHash::Sha256).toHex();
}

WebhookSender::Request WebhookSender::request(const NotifyChannel &channel,
                                              const QJsonObject &secrets,
                                              const NotificationMessage &message,
                                              const QString &deliveryId)
{
    Request request;
    request.contentType = "application/json";
    switch (channel.format) {
    case WebhookFormat::Json:
        request.body = compact(message.json);
        break;
    case WebhookFormat::Slack:
        // Slack reads <…> as mentions and links (<!channel>, <http://x|click>): a task's output
        // must not ping a channel or dress a link, so its control characters are escaped as
        // Slack documents (&amp; &lt; &gt;), and unfurling is off.
        request.body = compact(QJsonObject{
            {QStringLiteral("text"), clipped(message.text, 3000)
                                         .replace(QLatin1Char('&'), QLatin1String("&amp;"))
                                         .replace(QLatin1Char('<'), QLatin1String("&lt;"))
                                         .replace(QLatin1Char('>'), QLatin1String("&gt;"))},
            {QStringLiteral("unfurl_links"), false},
            {QStringLiteral("unfurl_media"), false}});
        break;
    case WebhookFormat::Discord:
        request.body = compact(QJsonObject{{QStringLiteral("content"), clipped(message.text, 2000)},
                                           {QStringLiteral("allowed_mentions"),
                                            QJsonObject{{QStringLiteral("parse"), QJsonArray()}}}});
        break;
    case WebhookFormat::Teams: {
        const QJsonObject card{
            {QStringLiteral("type"), QStringLiteral("AdaptiveCard")},
            {QStringLiteral("version"), QStringLiteral("1.4")},
            {QStringLiteral("body"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("TextBlock")},
                                    {QStringLiteral("text"), message.subject},
                                    {QStringLiteral("weight"), QStringLiteral("bolder")},
                                    {QStringLiteral("wrap"), true}},
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("TextBlock")},
                                    {QStringLiteral("text"), clipped(message.text, 10000)},
                                    {QStringLiteral("wrap"), true},
                                    {QStringLiteral("fontType"), QStringLiteral("monospace")}}}}};
        request.body = compact(QJsonObject{
            {QStringLiteral("type"), QStringLiteral("message")},
            {QStringLiteral("attachments"),
             QJsonArray{QJsonObject{{QStringLiteral("contentType"),
                                     QStringLiteral("application/vnd.microsoft.card.adaptive")},
                                    {QStringLiteral("content"), card}}}}});
        break;
    }
    case WebhookFormat::Ntfy: {
        request.contentType = "text/plain; charset=utf-8";
        request.body = clipped(message.text, 4000).toUtf8();
        QString title = message.subject;
        title.replace(QLatin1Char('\r'), QLatin1Char(' '))
            .replace(QLatin1Char('\n'), QLatin1Char(' '));
        // Headers are ASCII: ntfy reads RFC 2047 encoded words for the rest.
        bool ascii = true;
        for (const QChar c : std::as_const(title))
            ascii = ascii && c.unicode() < 0x80;
        request.headers << std::pair(QByteArray("Title"),
                                     ascii ? title.toLatin1()
                                           : "=?UTF-8?B?" + title.toUtf8().toBase64() + "?=");
        const QString event = message.json.value(QLatin1String("event")).toString();
        if (event == QLatin1String("failure") || event == QLatin1String("alert"))
            request.headers << std::pair(QByteArray("Priority"), QByteArray("high"));
        break;
    }
    }
    request.headers << std::pair(QByteArray("X-Hourglass-Delivery"), deliveryId.toLatin1())
                    << std::pair(QByteArray("X-Hourglass-Event"),
                                 message.json.value(QLatin1String("event")).toString().toLatin1());
    const QByteArray secret = secrets.value(QLatin1String("secret")).toString().toUtf8();
    if (!secret.isEmpty())
        request.headers << std::pair(QByteArray("X-Hourglass-Signature"),
                                     signature(request.body, secret));
    return request;
}

SendOutcome WebhookSender::send(const NotifyChannel &channel, const QJsonObject &secrets,
                                const NotificationMessage &message, const QString &deliveryId,
                                int timeoutMs, CancelToken *cancel)
{
    SendOutcome outcome;
    const QString url =
        channel.urlIsSecret ? secrets.value(QLatin1String("url")).toString() : channel.url;
    if (url.isEmpty()) {
        outcome.permanent = true;
        outcome.answer = tr("the webhook's URL is kept as a secret, and none is kept: add the "
                            "channel again");
        return outcome;
    }
    CurlSession session;
    if (!session.isValid()) {
        outcome.answer = tr("libcurl could not start a transfer");
        return outcome;
    }
    const Request request = WebhookSender::request(channel, secrets, message, deliveryId);
    session.setCancel(cancel);
    CURL *curl = session.handle();
    const QByteArray urlText = url.toUtf8();
    curl_easy_setopt(curl, CURLOPT_URL, urlText.constData());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(timeoutMs));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(std::min(timeoutMs, 10000)));
    const QByteArray agent = "Hourglass/" + versionString().toLatin1();
    curl_easy_setopt(curl, CURLOPT_USERAGENT, agent.constData());
    curl_slist *headers = nullptr;
    QList<QByteArray> kept{"Content-Type: " + request.contentType, "Expect:"};
    for (const auto &[name, value] : request.headers)
        kept << name + ": " + value;
    for (const QByteArray &header : kept)
        headers = curl_slist_append(headers, header.constData());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    const CURLcode code = session.perform();
    curl_slist_free_all(headers);
    // Never the URL in an answer: it may carry the token.
    // The status line came, then the body stalled or broke off: a 2xx is the receiver's
    // yes already, and sending again would only repeat it (helper-8).
    if (code != CURLE_OK && session.responseCode() >= 200 && session.responseCode() < 300) {
        outcome.delivered = true;
        outcome.answer = tr("HTTP %1 (the answer's body did not arrive: %2)")
                             .arg(session.responseCode())
                             .arg(session.errorText(code));
        outcome.answer.replace(url, QStringLiteral("<the webhook's URL>"));
        return outcome;
    }
    if (code != CURLE_OK) {
        outcome.ambiguous = code == CURLE_OPERATION_TIMEDOUT || code == CURLE_RECV_ERROR
                            || code == CURLE_GOT_NOTHING;
        outcome.permanent = code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL
                            || code == CURLE_PEER_FAILED_VERIFICATION;
        outcome.answer = session.errorText(code);
        outcome.answer.replace(url, QStringLiteral("<the webhook's URL>"));
        return outcome;
    }
    const long status = session.responseCode();
    QString body = QString::fromUtf8(session.responseBody()).simplified().left(200);
    outcome.answer = body.isEmpty() ? QStringLiteral("HTTP %1").arg(status)
                                    : QStringLiteral("HTTP %1: %2").arg(status).arg(body);
    outcome.delivered = status >= 200 && status < 300;
    outcome.permanent = !outcome.delivered && !retryable(status);
    // A receiver that says when to come back (RFC 9110: seconds, or an HTTP date) is obeyed.
    curl_header *retryAfter = nullptr;
    if (!outcome.delivered
        && curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &retryAfter) == CURLHE_OK
        && retryAfter) {
        const QByteArray value = QByteArray(retryAfter->value).trimmed();
        bool seconds = false;
        const qint64 wait = value.toLongLong(&seconds);
        if (seconds && wait > 0) {
            outcome.retryAfterMs = std::min<qint64>(wait, qint64(7) * 86400) * 1000;
        } else if (const QDateTime at =
                       QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
                   at.isValid()) {
            outcome.retryAfterMs = std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(at));
        }
        if (outcome.retryAfterMs > 0)
            outcome.answer += tr(" (Retry-After: %1)").arg(QString::fromLatin1(value.left(64)));
    }
    return outcome;
}

} // namespace hg
