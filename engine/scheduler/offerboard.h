#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace hg {

class OfferedTaskExecutor;
class Store;
class Clock;

// The attempts this engine's runs offered to the engines of a shared store, watched until
// they end: their rows are read when an attempt changed anywhere (a 'taskruns' notification),
// and at each heartbeat should a notification have been missed. A stop goes to the store:
// an unclaimed offer is withdrawn, a claimed one's worker is asked to stop it.
class OfferBoard final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OfferBoard)

public:
    OfferBoard(Store &store, const Clock &clock, QObject *parent = nullptr);

    void watch(OfferedTaskExecutor *executor);
    void forget(qint64 taskRunId);
    bool isEmpty() const { return m_watched.isEmpty(); }

    // Reads every watched attempt's row; each executor hears what became of its attempt.
    void look();
    // The same after a short while: the notifications of a burst make one read.
    void lookSoon();
    void stop(OfferedTaskExecutor *executor);

private:
    Store &m_store;
    const Clock &m_clock;
    QHash<qint64, QPointer<OfferedTaskExecutor>> m_watched; // by task run id
    QTimer m_soon;
};

} // namespace hg
