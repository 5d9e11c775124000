#pragma once

#include "base/result.h"
#include "domain/notification.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

// Which events of which chains go to which channel (see NotifyRoute). The outbox's triggers
// read them as the run ends, in its transaction.
class NotifyRouteRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::NotifyRouteRepository)

public:
    explicit NotifyRouteRepository(Store &store)
        : m_store(store)
    {}

    // "failure,recovery" -> the events, or an error naming the word that is none.
    static Result<QList<NotifyEvent>> parseEvents(const QString &text);

    Result<NotifyRoute> add(const NotifyRoute &route);
    // Every route, or those whose scope is the chain, its project, or the global one.
    Result<QList<NotifyRoute>> list() const;
    Status remove(qint64 id);

private:
    Store &m_store;
};

} // namespace hg
