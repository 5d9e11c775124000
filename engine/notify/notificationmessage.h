#pragma once

#include "base/result.h"
#include "domain/notification.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace hg {

class Store;

// What a notification says, composed once from the store (at its first attempt) and then
// sent alike at every retry: a subject line, a plain-text body for e-mail and chat, and the
// documented JSON body of a webhook.
struct NotificationMessage
{
    Q_DECLARE_TR_FUNCTIONS(hg::NotificationMessage)

public:
    QString subject;
    QString text;
    QJsonObject json;
    // Nothing to say: an `output` route for a run that printed nothing (cron's rule).
    bool empty = false;

    // Reads the run (or alert, or missed fire), its chain and project, why it ended and the
    // last `outputLines` lines of its output. Text from outside (names, output) has its
    // control characters escaped (terminaltext), so a chain name cannot add a mail header.
    static Result<NotificationMessage> compose(Store &store, const Delivery &delivery,
                                               int outputLines, const QString &host);
    // The message `channel test` sends.
    static NotificationMessage test(const NotifyChannel &channel, const QString &host);

    // The message as the delivery row keeps it (subject and body: the JSON document, whose
    // "text" is the plain-text body).
    QString bodyForStore() const;
    static NotificationMessage fromStore(const QString &subject, const QString &body);
};

} // namespace hg
