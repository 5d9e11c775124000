#pragma once

#include "base/canceltoken.h"
#include "domain/notification.h"
#include "notificationmessage.h"
#include "sendoutcome.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

namespace hg {

class Store;

// Sends the outbox's messages: on the engine's thread it claims what is due, composes each
// message once (kept in its row, so every retry says the same), and hands the sending to a
// pool thread (a mail server or a webhook may take seconds to answer; the engine's thread
// never waits for one). The answer settles the row: sent; queued again with backoff (30 s,
// doubling, at most an hour apart) until it is a day old (retryForMs); or failed at once
// when sending again cannot help. A claim outlives its engine by leaseMs only: should the
// engine die mid-send, another sends it again, with the same delivery id.
class Deliverer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Deliverer)

public:
    struct Options
    {
        QString engineName;
        qint64 pollMs = 2000;
        qint64 leaseMs = 120000;
        qint64 retryForMs = qint64(24) * 3600 * 1000;
        qint64 firstRetryMs = 30000;
        qint64 longestRetryMs = 3600000;
        int sendTimeoutMs = 30000;
        int inFlight = 8;
        int inFlightPerChannel = 2; // a receiver that hangs holds up its own messages only
        int outputLines = 50;
        // A message is composed this long after its run ended at the earliest: the engine
        // writes a task's last lines up to 100 ms after its end (LogBatcher), and a message
        // composed before them would miss them (an `output` route would think it silent).
        qint64 settleMs = 300;
        // Shows a desktop channel's message in this process's tray (runId 0: no run). Called
        // on the deliverer's thread: it must only queue the message to the window's. Unset
        // (serve), this engine leaves desktop channels' messages to a desktop's engine.
        std::function<void(const NotificationMessage &message, qint64 runId)> showOnDesktop;
    };

    Deliverer(Store &store, Options options, QObject *parent = nullptr);
    ~Deliverer() override;

    void start();
    // Stops claiming and abandons the sends under way (their transfers are cut off): their
    // rows are sent again once their claim runs out.
    void stop();
    // Something may be due now (a run ended here).
    void lookSoon();
    int sendsInFlight() const { return int(m_sending.size()); }

Q_SIGNALS:
    void settled(const hg::Delivery &delivery, const hg::SendOutcome &outcome);

private:
    // Claims and sends what is due: how many rows it claimed (-1: none could be).
    int look();
    void send(Delivery delivery);
    // Composes a row's message and keeps it with the row: false when it is not sent now.
    bool compose(const NotifyChannel &channel, Delivery &delivery, const QString &host,
                 NotificationMessage &message);
    void finish(const Delivery &delivery, const SendOutcome &outcome);
    // A desktop channel's message: shown here at once, or failed when no desktop showed it
    // in the day of retries (this engine has none, or the channel names another host).
    void showOnDesktop(const NotifyChannel &channel, const Delivery &delivery,
                       const NotificationMessage &message, const QString &host);
    qint64 retryDelayMs(int attempts) const;

    Store &m_store;
    Options m_options;
    QTimer m_poll;
    QTimer m_soon;
    int m_soonLooksLeft = 0;
    QHash<qint64, Delivery> m_sending;
    QHash<qint64, int> m_sendingPerChannel;
    std::shared_ptr<CancelToken> m_cancel;
    bool m_running = false;
};

} // namespace hg
