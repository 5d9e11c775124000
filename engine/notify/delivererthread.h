#pragma once

#include "deliverer.h"
#include "store/storelocation.h"

#include <QObject>
#include <QThread>

#include <memory>

namespace hg {

class Store;

// The desktop's sender of notifications: a Deliverer in a thread of its own, on a store
// connection opened there (a Qt Sql connection belongs to its thread), so neither the window
// nor the engine waits for a mail server. (`serve` runs its Deliverer beside its engine, on
// the main thread, which has no window to keep answering.)
class DelivererThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DelivererThread)

public:
    explicit DelivererThread(QObject *parent = nullptr);
    // Stops it: the sends under way are cut off (sent again later, with the same delivery id).
    ~DelivererThread() override;

    void start(const StoreLocation &location, const Deliverer::Options &options);
    void stop();
    // A run ended: something may be due now. From any thread.
    void lookSoon();

Q_SIGNALS:
    void settled(const hg::Delivery &delivery, const hg::SendOutcome &outcome);
    void unavailable(const QString &why);

private:
    QThread m_thread;
    QObject *m_context = nullptr; // lives in m_thread; owns the store and the deliverer there
};

} // namespace hg
