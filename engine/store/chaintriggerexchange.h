#pragma once

#include "base/result.h"
#include "domain/chaintrigger.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace hg {

class Store;

// A chain's triggers in an export document ("triggers": [{"after": ["p/a"], "on":
// "succeeded", "withinMs": 0, "paused": false}]), by their upstream chains' paths. Read
// once every chain of the document is in, since an upstream may come after its downstream.
class ChainTriggerExchange final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ChainTriggerExchange)

public:
    // The triggers of one imported chain, waiting for the rest of the document.
    struct Pending
    {
        qint64 chainId = 0;
        QString path;      // the chain's, for ChainTrigger::path
        QString fieldPath; // where in the document, for errors ("projects[0].chains[2]")
        QJsonArray triggers;
    };

    static QJsonObject toJson(const ChainTrigger &trigger);
    // Adds them all, checked as `trigger add` checks them; the first problem names its field.
    static Status importAll(Store &store, const QList<Pending> &pending);
};

} // namespace hg
