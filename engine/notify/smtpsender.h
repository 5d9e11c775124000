#pragma once

#include "base/canceltoken.h"
#include "domain/notification.h"
#include "notificationmessage.h"
#include "sendoutcome.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <atomic>

namespace hg {

// Sends a message by SMTP through libcurl (Debian's libcurl speaks SMTP with STARTTLS,
// implicit TLS and AUTH PLAIN/LOGIN, and checks the server's certificate and name): the
// protocol is not written here. Blocks the calling thread (a pool thread) up to the timeout.
class SmtpSender final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SmtpSender)

public:
    // `recipients` replace the channel's own when not empty (a route's --to).
    static SendOutcome send(const NotifyChannel &channel, const QJsonObject &secrets,
                            const NotificationMessage &message, const QString &deliveryId,
                            const QStringList &recipients, int timeoutMs,
                            CancelToken *cancel = nullptr);
    // Where a message goes: smtp://[USER@]HOST[:PORT], how, and the CA its certificate is
    // checked against ('' = the system's).
    struct Server
    {
        QString url;
        SmtpSecurity security = SmtpSecurity::StartTls;
        QString caFile;
    };
    // Hands a composed message to the server for the envelope's recipients.
    static SendOutcome transfer(const Server &server, const QString &password, const QString &from,
                                const QStringList &recipients, const QByteArray &mime,
                                int timeoutMs, CancelToken *cancel = nullptr);
    // The message as it goes to the server: headers and a base64 body, CRLF lines.
    static QByteArray mimeMessage(const NotifyChannel &channel, const NotificationMessage &message,
                                  const QString &deliveryId, const QStringList &to);
};

} // namespace hg
