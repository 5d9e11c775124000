#pragma once

#include "base/result.h"
#include "domain/notification.h"
#include "notificationmessage.h"

#include <QCoreApplication>

namespace hg {

class Store;

// The messages flood control adds (FloodGate). A digest tells of what was held back on its
// channel -- counts per chain and event, and the first reasons -- and takes those rows, so
// each held message is told of once. A cap message says the daily cap is reached.
class DigestMessage final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DigestMessage)

public:
    // For a digest row, in the caller's transaction (the rows it takes are its own once it
    // commits). `empty` when nothing was held.
    static Result<NotificationMessage> compose(Store &store, const NotifyChannel &channel,
                                               const Delivery &row, const QString &host);

private:
    static NotificationMessage capReached(const NotifyChannel &channel, const Delivery &row,
                                          const QString &host);
};

} // namespace hg
