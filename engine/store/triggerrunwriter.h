#pragma once

#include "base/result.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace hg {

class Store;

// The one way a file or desktop trigger writes its run: queued, keyed by the trigger and a
// key of the event (a file's version, a desktop event's moment). UNIQUE (trigger_id,
// trigger_key) makes a second write of the same event start nothing, on any engine.
class TriggerRunWriter final
{
public:
    // The run's id; nullopt when that key had started one already. `doing` names the write
    // in an error ("start a run of a file trigger").
    static Result<std::optional<qint64>> insert(Store &store, qint64 triggerId, qint64 chainId,
                                                const QString &key, const QJsonObject &parameters,
                                                qint64 nowMs, const QString &doing);
};

} // namespace hg
