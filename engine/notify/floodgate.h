#pragma once

#include "base/result.h"
#include "domain/notification.h"

#include <QCoreApplication>
#include <QDateTime>

#include <functional>

namespace hg {

class Store;

// Flood control. Decides, in one transaction with the channel's row taken, whether a message
// goes now or waits as 'held' for a digest: a channel gets at most its limit of messages in
// any window of its length, and at most its cap since the engine's midnight -- also when two
// engines send from one store. Past the limit, one digest at the window's end tells of what
// was held; past the cap, one message says so at once and a digest at midnight tells of the
// rest.
class FloodGate final
{
    Q_DECLARE_TR_FUNCTIONS(hg::FloodGate)

public:
    enum class Verdict { Send, Held };

    // Digests, cap messages and retries (composed and let through before) pass unasked.
    static bool exempt(const Delivery &delivery);
    // `compose` runs in the same transaction when the message may go: it composes and keeps
    // the message, which makes the row count as being sent for the next gate.
    static Result<Verdict> pass(Store &store, const NotifyChannel &channel,
                                const Delivery &delivery, const QString &engine,
                                const QDateTime &now, const std::function<Status()> &compose);
};

} // namespace hg
