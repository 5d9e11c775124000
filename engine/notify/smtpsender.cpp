#include "smtpsender.h"

#include "curlsession.h"
#include "mailcomposer.h"

#include <QDateTime>
#include <QUrl>

#include <sys/stat.h>

namespace hg {
namespace {

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
    header("From", MailComposer::headerValue(channel.from));
    // One address a line: 35 recipients on one line passed 998 characters and the server
    // refused the message ("500 Line too long").
    QByteArray toLines;
    for (const QString &address : to)
        toLines += (toLines.isEmpty() ? QByteArray() : QByteArray(",\r\n "))
                   + MailComposer::headerValue(address);
    header("To", toLines);
    header("Subject", MailComposer::headerValue(message.subject));
    header("Date", MailComposer::date(now));
    header("Message-ID", "<" + deliveryId.toLatin1() + "@hourglass>");
    header("X-Hourglass-Delivery", deliveryId.toLatin1());
    header("Auto-Submitted", "auto-generated"); // RFC 3834: no vacation replies
    header("MIME-Version", "1.0");
    header("Content-Type", "text/plain; charset=utf-8");
    header("Content-Transfer-Encoding", "base64");
    mime += "\r\n";
    // Base64: no line of the output can be taken for the end of the message or a header.
    mime += MailComposer::base64Lines(message.text.toUtf8());
    return mime;
}

SendOutcome SmtpSender::send(const NotifyChannel &channel, const QJsonObject &secrets,
                             const NotificationMessage &message, const QString &deliveryId,
                             const QStringList &recipients, int timeoutMs, CancelToken *cancel)
{
    const QStringList to = recipients.isEmpty() ? channel.to : recipients;
    return transfer(Server{channel.url, channel.security, channel.caFile},
                    secrets.value(QLatin1String("password")).toString(), channel.from, to,
                    mimeMessage(channel, message, deliveryId, to), timeoutMs, cancel);
}

SendOutcome SmtpSender::transfer(const Server &smtp, const QString &passwordText,
                                 const QString &sender, const QStringList &recipients,
                                 const QByteArray &mime, int timeoutMs, CancelToken *cancel)
{
    SendOutcome outcome;
    CurlSession session;
    if (!session.isValid()) {
        outcome.answer = tr("libcurl could not start a transfer");
        return outcome;
    }
    const QUrl url(smtp.url);
    QUrl server;
    server.setScheme(smtp.security == SmtpSecurity::Implicit ? QStringLiteral("smtps")
                                                             : QStringLiteral("smtp"));
    server.setHost(url.host());
    server.setPort(url.port(smtp.security == SmtpSecurity::Implicit ? 465 : 587));
    session.setCancel(cancel);
    CURL *curl = session.handle();
    const QByteArray serverText = server.toString(QUrl::FullyEncoded).toUtf8();
    curl_easy_setopt(curl, CURLOPT_URL, serverText.constData());
    curl_easy_setopt(curl, CURLOPT_USE_SSL,
                     smtp.security == SmtpSecurity::StartTls ? long(CURLUSESSL_ALL)
                                                             : long(CURLUSESSL_NONE));
    const QByteArray ca = smtp.caFile.toLocal8Bit();
    if (struct stat info = {};
        !ca.isEmpty() && (::stat(ca.constData(), &info) != 0 || !S_ISREG(info.st_mode))) {
        outcome.answer = tr("the CA file %1 is not a file").arg(smtp.caFile);
        outcome.permanent = true;
        return outcome;
    }
    if (!ca.isEmpty())
        curl_easy_setopt(curl, CURLOPT_CAINFO, ca.constData());
    const QByteArray user = url.userName().toUtf8();
    const QByteArray password = passwordText.toUtf8();
    if (!user.isEmpty()) {
        curl_easy_setopt(curl, CURLOPT_USERNAME, user.constData());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, password.constData());
    }
    const QByteArray from = "<" + sender.toUtf8() + ">";
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.constData());
    curl_slist *rcpt = nullptr;
    QList<QByteArray> kept;
    for (const QString &address : recipients) {
        kept << "<" + address.toUtf8() + ">";
        rcpt = curl_slist_append(rcpt, kept.last().constData());
    }
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(timeoutMs));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(std::min(timeoutMs, 10000)));
    // The wait for the server's answer to the message's end does not heed the transfer's
    // timeout (a server that never answered held a 5 s task for 125 s, helper-7).
    curl_easy_setopt(curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, long(std::max(1, timeoutMs / 1000)));
    session.setUpload(mime);
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
