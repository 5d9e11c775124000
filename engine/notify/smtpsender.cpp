#include "smtpsender.h"

#include "curlsession.h"

#include <QDateTime>
#include <QLocale>
#include <QUrl>

namespace hg {
namespace {

// A header's value on one line, without control characters; RFC 2047 words where it is not
// ASCII.
QByteArray headerValue(const QString &text)
{
    QString clean;
    for (const QChar c : text)
        clean += (c.category() == QChar::Other_Control || c == QChar::LineSeparator)
                     ? QLatin1Char(' ')
                     : c;
    const QByteArray utf8 = clean.toUtf8();
    bool ascii = true;
    for (const char c : utf8)
        ascii = ascii && uchar(c) < 0x80;
    if (ascii)
        return utf8.left(900); // a line may hold 998 (RFC 5322)
    // Encoded words of at most 75 characters each (RFC 2047), one per folded line, cut
    // between characters: 45 bytes of UTF-8 make 60 of base64.
    QByteArray folded;
    qsizetype at = 0;
    while (at < clean.size()) {
        QByteArray chunk;
        qsizetype end = at;
        while (end < clean.size()) {
            const qsizetype width = clean.at(end).isHighSurrogate() ? 2 : 1;
            const QByteArray next = clean.mid(end, width).toUtf8();
            if (!chunk.isEmpty() && chunk.size() + next.size() > 45)
                break;
            chunk += next;
            end += width;
        }
        if (!folded.isEmpty())
            folded += "\r\n ";
        folded += "=?UTF-8?B?" + chunk.toBase64() + "?=";
        at = end;
    }
    return folded;
}

QByteArray rfc5322Date(const QDateTime &now)
{
    return QLocale::c().toString(now, QStringLiteral("ddd, dd MMM yyyy HH:mm:ss")).toLatin1()
           + " +0000";
}

// SMTP's answers say whether to try again: 5xx is permanent (a refused login, an unknown
// recipient), 4xx and a lost connection are not.
bool permanentFailure(CURLcode code, long reply)
{
    if (code == CURLE_LOGIN_DENIED || code == CURLE_PEER_FAILED_VERIFICATION
        || code == CURLE_SSL_CACERT_BADFILE || code == CURLE_UNSUPPORTED_PROTOCOL
        || code == CURLE_URL_MALFORMAT || code == CURLE_USE_SSL_FAILED)
        return true;
    return reply >= 500 && reply < 600;
}

} // namespace

QByteArray SmtpSender::mimeMessage(const NotifyChannel &channel, const NotificationMessage &message,
                                   const QString &deliveryId, const QStringList &to)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QByteArray mime;
    const auto header = [&mime](const char *name, const QByteArray &value) {
        mime += name;
        mime += ": ";
        mime += value;
        mime += "\r\n";
    };
    header("From", headerValue(channel.from));
    // One address a line: 35 recipients on one line passed 998 characters and the server
    // refused the message ("500 Line too long").
    QByteArray toLines;
    for (const QString &address : to)
        toLines += (toLines.isEmpty() ? QByteArray() : QByteArray(",\r\n ")) + headerValue(address);
    header("To", toLines);
    header("Subject", headerValue(message.subject));
    header("Date", rfc5322Date(now));
    header("Message-ID", "<" + deliveryId.toLatin1() + "@hourglass>");
    header("X-Hourglass-Delivery", deliveryId.toLatin1());
    header("Auto-Submitted", "auto-generated"); // RFC 3834: no vacation replies
    header("MIME-Version", "1.0");
    header("Content-Type", "text/plain; charset=utf-8");
    header("Content-Transfer-Encoding", "base64");
    mime += "\r\n";
    // Base64: no line of the output can be taken for the end of the message or a header.
    const QByteArray body = message.text.toUtf8().toBase64();
    for (qsizetype at = 0; at < body.size(); at += 76)
        mime += body.mid(at, 76) + "\r\n";
    return mime;
}

SendOutcome SmtpSender::send(const NotifyChannel &channel, const QJsonObject &secrets,
                             const NotificationMessage &message, const QString &deliveryId,
                             const QStringList &recipients, int timeoutMs,
                             const std::atomic<bool> *cancel)
{
    SendOutcome outcome;
    CurlSession session;
    if (!session.isValid()) {
        outcome.answer = tr("libcurl could not start a transfer");
        return outcome;
    }
    const QUrl url(channel.url);
    QUrl server;
    server.setScheme(channel.security == SmtpSecurity::Implicit ? QStringLiteral("smtps")
                                                                : QStringLiteral("smtp"));
    server.setHost(url.host());
    server.setPort(url.port(channel.security == SmtpSecurity::Implicit ? 465 : 587));
    session.setCancel(cancel);
    CURL *curl = session.handle();
    const QByteArray serverText = server.toString(QUrl::FullyEncoded).toUtf8();
    curl_easy_setopt(curl, CURLOPT_URL, serverText.constData());
    curl_easy_setopt(curl, CURLOPT_USE_SSL,
                     channel.security == SmtpSecurity::StartTls ? long(CURLUSESSL_ALL)
                                                                : long(CURLUSESSL_NONE));
    const QByteArray ca = channel.caFile.toLocal8Bit();
    if (!ca.isEmpty())
        curl_easy_setopt(curl, CURLOPT_CAINFO, ca.constData());
    const QByteArray user = url.userName().toUtf8();
    const QByteArray password = secrets.value(QLatin1String("password")).toString().toUtf8();
    if (!user.isEmpty()) {
        curl_easy_setopt(curl, CURLOPT_USERNAME, user.constData());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, password.constData());
    }
    const QByteArray from = "<" + channel.from.toUtf8() + ">";
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.constData());
    const QStringList to = recipients.isEmpty() ? channel.to : recipients;
    curl_slist *rcpt = nullptr;
    QList<QByteArray> kept;
    for (const QString &address : to) {
        kept << "<" + address.toUtf8() + ">";
        rcpt = curl_slist_append(rcpt, kept.last().constData());
    }
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(timeoutMs));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(std::min(timeoutMs, 10000)));
    session.setUpload(mimeMessage(channel, message, deliveryId, to));
    const CURLcode code = session.perform();
    curl_slist_free_all(rcpt);
    const long reply = session.responseCode();
    const QString line = session.lastServerLine();
    if (code == CURLE_OK) {
        outcome.delivered = true;
        outcome.answer = line.isEmpty() ? tr("accepted") : line;
        return outcome;
    }
    outcome.permanent = permanentFailure(code, reply);
    // Cut off after the message's end went out: the server may have queued it.
    outcome.ambiguous = code == CURLE_OPERATION_TIMEDOUT || code == CURLE_RECV_ERROR;
    outcome.answer = session.errorText(code);
    if (!line.isEmpty() && !outcome.answer.contains(line))
        outcome.answer += tr(" (the server said: %1)").arg(line);
    return outcome;
}

} // namespace hg
