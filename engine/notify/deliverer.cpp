#include "deliverer.h"

#include "base/waitingworkpool.h"
#include "channelsecrets.h"
#include "digestmessage.h"
#include "floodgate.h"
#include "smtpsender.h"
#include "store/notifychannelrepository.h"
#include "store/outboxrepository.h"
#include "store/store.h"
#include "webhooksender.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QSysInfo>
#include <QtConcurrent>

#include <algorithm>

namespace hg {
namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

Deliverer::Deliverer(Store &store, Options options, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_options(std::move(options))
    , m_cancel(std::make_shared<CancelToken>())
{
    m_poll.setInterval(int(m_options.pollMs));
    connect(&m_poll, &QTimer::timeout, this, &Deliverer::look);
    m_soon.setSingleShot(true);
    m_soon.setInterval(int(m_options.settleMs));
    connect(&m_soon, &QTimer::timeout, this, [this] {
        // The run's end may not be in the store yet when the engine says it ended (its
        // writes are batched): found nothing, look again every 100 ms for two seconds rather
        // than wait for the next poll (bench_notify: p50 2 s, the poll's period, before).
        if (look() == 0 && m_soonLooksLeft-- > 0) {
            m_soon.setInterval(100);
            m_soon.start();
        }
    });
}

Deliverer::~Deliverer()
{
    stop();
}

void Deliverer::start()
{
    m_running = true;
    m_cancel = std::make_shared<CancelToken>();
    m_poll.start();
    lookSoon();
}

void Deliverer::stop()
{
    m_running = false;
    m_poll.stop();
    m_soon.stop();
    m_cancel->cancel();
    // Given back, so the next engine (this one restarted) sends them at once rather than
    // after the claim ran out.
    if (!m_sending.isEmpty())
        (void)OutboxRepository(m_store).release(m_sending.keys(), m_options.engineName);
    m_sending.clear();
    m_sendingPerChannel.clear();
}

void Deliverer::lookSoon()
{
    m_soonLooksLeft = 20;
    if (m_running && !m_soon.isActive()) {
        m_soon.setInterval(int(std::max<qint64>(m_options.settleMs, 10)));
        m_soon.start();
    }
}

qint64 Deliverer::retryDelayMs(int attempts) const
{
    qint64 delay = m_options.firstRetryMs;
    for (int i = 1; i < attempts && delay < m_options.longestRetryMs; ++i)
        delay *= 2;
    return std::min(delay, m_options.longestRetryMs);
}

int Deliverer::look()
{
    const int room = m_options.inFlight - int(m_sending.size());
    if (!m_running || room <= 0)
        return -1; // busy: not nothing found
    QList<qint64> busy;
    for (auto channel = m_sendingPerChannel.cbegin(); channel != m_sendingPerChannel.cend();
         ++channel)
        if (channel.value() >= m_options.inFlightPerChannel)
            busy << channel.key();
    OutboxRepository::DesktopScope desktop;
    if (m_options.showOnDesktop)
        desktop.host = QSysInfo::machineHostName();
    desktop.unshownBeforeMs = nowMs() - m_options.retryForMs;
    const Result<QList<Delivery>> due = OutboxRepository(m_store).claimDue(
        m_options.engineName, nowMs() - m_options.settleMs, m_options.leaseMs, room, busy, desktop);
    if (!due)
        return -1; // the store is away: the next look tries again
    for (const Delivery &delivery : due.value()) {
        if (m_sendingPerChannel.value(delivery.channelId) >= m_options.inFlightPerChannel) {
            // More of one channel came in this claim than it may send at once: given back.
            (void)OutboxRepository(m_store).release({delivery.id}, m_options.engineName);
            continue;
        }
        send(delivery);
    }
    return int(due->size());
}

void Deliverer::send(Delivery delivery)
{
    const Result<NotifyChannel> channel = NotifyChannelRepository(m_store).byId(delivery.channelId);
    if (!channel)
        return; // removed meanwhile: its rows went with it
    const QString host = QSysInfo::machineHostName();
    NotificationMessage message;
    if (!delivery.subject.isEmpty()) {
        message = NotificationMessage::fromStore(delivery.subject, delivery.body);
    } else if (!compose(channel.value(), delivery, host, message)) {
        return; // held for a digest, skipped, or the store is away (the claim runs out)
    }
    if (channel->kind == ChannelKind::Desktop) {
        showOnDesktop(channel.value(), delivery, message, host);
        return;
    }
    m_sending.insert(delivery.id, delivery);
    ++m_sendingPerChannel[delivery.channelId];
    auto *watcher = new QFutureWatcher<SendOutcome>(this);
    connect(watcher, &QFutureWatcher<SendOutcome>::finished, this, [this, watcher, delivery] {
        watcher->deleteLater();
        if (m_sending.remove(delivery.id) > 0) {
            if (--m_sendingPerChannel[delivery.channelId] <= 0)
                m_sendingPerChannel.remove(delivery.channelId);
            finish(delivery, watcher->result());
        }
    });
    const int timeoutMs = m_options.sendTimeoutMs;
    watcher->setFuture(QtConcurrent::run(
        waitingWorkPool(),
        [channel = channel.value(), message, delivery, timeoutMs,
         cancel = m_cancel]() -> SendOutcome {
            if (cancel->isCancelled())
                return SendOutcome{false, false, false, QStringLiteral("the engine stopped")};
            const Result<QJsonObject> secrets = ChannelSecrets().lookup(channel.secretKey);
            if (!secrets) // gone for good: sending unsigned, or without a password, is worse
                return SendOutcome{false, secrets.error().kind == ErrorKind::NotFound, false,
                                   secrets.error().message};
            if (channel.kind == ChannelKind::Email)
                return SmtpSender::send(channel, secrets.value(), message, delivery.deliveryId,
                                        delivery.recipients, timeoutMs, cancel.get());
            return WebhookSender::send(channel, secrets.value(), message, delivery.deliveryId,
                                       timeoutMs, cancel.get());
        }));
}

bool Deliverer::compose(const NotifyChannel &channel, Delivery &delivery, const QString &host,
                        NotificationMessage &message)
{
    const bool digest =
        delivery.event == QLatin1String(digestEvent) || delivery.event == QLatin1String(capEvent);
    const auto composeAndKeep = [&]() -> Status {
        Result<NotificationMessage> composed =
            digest ? DigestMessage::compose(m_store, channel, delivery, host)
                   : NotificationMessage::compose(m_store, delivery, m_options.outputLines, host);
        if (!composed)
            return composed.error();
        message = composed.value();
        if (message.empty)
            return {};
        return OutboxRepository(m_store).keepMessage(delivery.id, message.subject,
                                                     message.bodyForStore(), nowMs());
    };
    // Composed, kept and (for a digest) its held rows taken in one transaction; a message of
    // a run first passes the channel's flood gate in the same one.
    Result<FloodGate::Verdict> verdict = FloodGate::Verdict::Send;
    if (digest) {
        if (Status done = m_store.transaction(composeAndKeep); !done)
            verdict = done.error();
    } else {
        verdict = FloodGate::pass(m_store, channel, delivery, m_options.engineName,
                                  QDateTime::currentDateTime(), composeAndKeep);
    }
    if (!verdict)
        return false;
    if (verdict.value() == FloodGate::Verdict::Held) {
        Delivery held = delivery;
        held.state = DeliveryState::Held;
        held.lastAnswer = tr("held back for a digest");
        Q_EMIT settled(held, SendOutcome{false, false, false, held.lastAnswer});
        return false;
    }
    if (message.empty) {
        (void)OutboxRepository(m_store).settle(
            delivery.id, m_options.engineName, DeliveryState::Skipped, delivery.attempts,
            digest ? tr("nothing was held back") : tr("the run printed nothing"), nowMs(), nowMs());
        return false;
    }
    delivery.subject = message.subject;
    delivery.body = message.bodyForStore();
    return true;
}

void Deliverer::finish(const Delivery &delivery, const SendOutcome &outcome)
{
    const qint64 now = nowMs();
    const int attempts = delivery.attempts + 1;
    DeliveryState state = DeliveryState::Sent;
    qint64 next = now;
    QString answer = outcome.answer;
    if (!outcome.delivered) {
        // The receiver's Retry-After where it asks for longer than the backoff, up to six
        // hours (and never past the day of retries).
        const qint64 delay =
            std::max(retryDelayMs(attempts),
                     std::min<qint64>(outcome.retryAfterMs, qint64(6) * 3600 * 1000));
        const bool tooOld =
            delivery.createdAt.isValid()
            && now - delivery.createdAt.toMSecsSinceEpoch() + delay > m_options.retryForMs;
        if (outcome.permanent || tooOld) {
            state = DeliveryState::Failed;
        } else {
            state = DeliveryState::Queued;
            next = now + delay;
        }
        if (outcome.ambiguous)
            answer += tr(" — it may have arrived all the same; it is sent again with the same "
                         "X-Hourglass-Delivery id for the receiver to drop the repeat");
    }
    if (const Result<bool> written = OutboxRepository(m_store).settle(
            delivery.id, m_options.engineName, state, attempts, answer, next, now);
        written && written.value()) {
        Delivery told = delivery;
        told.state = state;
        told.attempts = attempts;
        told.lastAnswer = answer;
        Q_EMIT settled(told, outcome);
    }
    lookSoon();
}

void Deliverer::showOnDesktop(const NotifyChannel &channel, const Delivery &delivery,
                              const NotificationMessage &message, const QString &host)
{
    if (!m_options.showOnDesktop || (!channel.url.isEmpty() && channel.url != host)) {
        const QString where = channel.url.isEmpty() ? tr("no desktop of this store")
                                                    : tr("the desktop of %1").arg(channel.url);
        finish(delivery, SendOutcome{false, true, false,
                                     tr("%1 showed it in %2 min of retries: Hourglass's window "
                                        "was not running there")
                                         .arg(where)
                                         .arg(m_options.retryForMs / 60000)});
        return;
    }
    m_options.showOnDesktop(message, delivery.runId);
    finish(delivery, SendOutcome{true, false, false, tr("shown on the desktop of %1").arg(host)});
}

} // namespace hg
