#pragma once

#include "base/canceltoken.h"
#include "domain/notification.h"
#include "notificationmessage.h"
#include "sendoutcome.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <atomic>

namespace hg {

// Posts a message to a webhook through libcurl. The body is Hourglass's JSON document, or
// shaped for Slack, Discord, Microsoft Teams (workflow webhooks: an Adaptive Card) or ntfy
// (plain text with a Title header). Every request carries X-Hourglass-Delivery (the same at
// every retry) and, when the channel has a secret, X-Hourglass-Signature: sha256=<hex
// HMAC-SHA256 of the raw body>. Redirects are not followed (a signed body is for the URL the
// user named). Blocks the calling thread (a pool thread) up to the timeout.
class WebhookSender final
{
    Q_DECLARE_TR_FUNCTIONS(hg::WebhookSender)

public:
    struct Request
    {
        QByteArray body;
        QByteArray contentType;
        QList<std::pair<QByteArray, QByteArray>> headers;
    };

    static Request request(const NotifyChannel &channel, const QJsonObject &secrets,
                           const NotificationMessage &message, const QString &deliveryId);
    static QByteArray signature(const QByteArray &body, const QByteArray &secret);
    static SendOutcome send(const NotifyChannel &channel, const QJsonObject &secrets,
                            const NotificationMessage &message, const QString &deliveryId,
                            int timeoutMs, CancelToken *cancel = nullptr);
};

} // namespace hg
