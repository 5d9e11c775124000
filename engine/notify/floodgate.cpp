#include "floodgate.h"

#include "store/outboxrepository.h"
#include "store/store.h"

namespace hg {

bool FloodGate::exempt(const Delivery &delivery)
{
    return delivery.event == QLatin1String(digestEvent) || delivery.event == QLatin1String(capEvent)
           || !delivery.subject.isEmpty();
}

Result<FloodGate::Verdict> FloodGate::pass(Store &store, const NotifyChannel &channel,
                                           const Delivery &delivery, const QString &engine,
                                           const QDateTime &now,
                                           const std::function<Status()> &compose)
{
    if (exempt(delivery))
        return Verdict::Send;
    Verdict verdict = Verdict::Send;
    const qint64 nowMs = now.toMSecsSinceEpoch();
    const Status decided = store.transaction([&]() -> Status {
        verdict = Verdict::Send;
        OutboxRepository outbox(store);
        if (Status locked = outbox.lockChannel(channel.id); !locked)
            return locked;
        const QDate today = now.toLocalTime().date();
        if (channel.dailyCap > 0) {
            const Result<int> sent =
                outbox.passedSince(channel.id, today.startOfDay().toMSecsSinceEpoch(), delivery.id);
            if (!sent)
                return sent.error();
            if (sent.value() >= channel.dailyCap) {
                const QDateTime midnight = today.addDays(1).startOfDay();
                verdict = Verdict::Held;
                const QString day = today.toString(Qt::ISODate);
                if (Status s = outbox.hold(delivery.id, engine,
                                           tr("held: the channel's daily cap of %n message(s) is "
                                              "reached; a digest at midnight tells of it",
                                              nullptr, channel.dailyCap));
                    !s)
                    return s;
                if (Status s = outbox.addDigestRow(
                        channel.id, QLatin1String(capEvent),
                        QStringLiteral("cap:%1:%2").arg(channel.id).arg(day), nowMs, nowMs);
                    !s)
                    return s;
                return outbox.addDigestRow(
                    channel.id, QLatin1String(digestEvent),
                    QStringLiteral("digest:%1:day:%2").arg(channel.id).arg(day),
                    midnight.toMSecsSinceEpoch(), nowMs);
            }
        }
        if (channel.floodLimit > 0) {
            const qint64 windowMs = qint64(std::max(1, channel.floodWindowSeconds)) * 1000;
            const Result<int> sent = outbox.passedSince(channel.id, nowMs - windowMs, delivery.id);
            if (!sent)
                return sent.error();
            if (sent.value() >= channel.floodLimit) {
                verdict = Verdict::Held;
                // Digests on window boundaries: every engine names the same one.
                const qint64 bucket = nowMs / windowMs;
                if (Status s = outbox.hold(delivery.id, engine,
                                           tr("held: more than %n message(s) in %1 s; a digest "
                                              "at the window's end tells of it",
                                              nullptr, channel.floodLimit)
                                               .arg(channel.floodWindowSeconds));
                    !s)
                    return s;
                return outbox.addDigestRow(
                    channel.id, QLatin1String(digestEvent),
                    QStringLiteral("digest:%1:%2").arg(channel.id).arg(bucket),
                    (bucket + 1) * windowMs, nowMs);
            }
        }
        return compose();
    });
    if (!decided)
        return decided.error();
    return verdict;
}

} // namespace hg
