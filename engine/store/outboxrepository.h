#pragma once

#include "base/result.h"
#include "domain/notification.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

// The notification outbox (migration 014): rows the store's triggers write as runs end,
// alerts are raised and fires reach the missed-runs inbox; engines claim, send and settle
// them.
class OutboxRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::OutboxRepository)

public:
    explicit OutboxRepository(Store &store)
        : m_store(store)
    {}

    // Takes up to `limit` rows due by `nowMs` for `engine` until `nowMs + leaseMs`: no other
    // engine takes them meanwhile (FOR UPDATE SKIP LOCKED on PostgreSQL); a claim that runs
    // out (its engine died mid-send) lets another engine send the row again.
    // Rows of `busyChannels` are left: one hanging receiver must not hold up the others.
    // Rows of desktop channels are taken only where `desktop` can show them.
    struct DesktopScope
    {
        // The host whose desktop this engine shows messages on; '' when it has none (serve).
        QString host;
        // Rows of desktop channels created before this are taken all the same: no desktop
        // showed them while they could be retried, and they are failed.
        qint64 unshownBeforeMs = 0;
    };
    Result<QList<Delivery>> claimDue(const QString &engine, qint64 nowMs, qint64 leaseMs, int limit,
                                     const QList<qint64> &busyChannels,
                                     const DesktopScope &desktop);
    // A `channel test` message for a channel no command can reach itself (a desktop's tray):
    // queued for the engine that can, already composed. Its row id.
    Result<qint64> addTest(qint64 channelId, const QString &subject, const QString &body,
                           qint64 nowMs);
    // One row as it stands now.
    Result<Delivery> byId(qint64 id) const;
    // Takes a queued row back that no engine has claimed (a test nobody took in time): true
    // when it is gone, false when an engine took it meanwhile.
    Result<bool> withdraw(qint64 id, qint64 nowMs);
    // Gives claims back (an engine stopping mid-send): the next engine sends them at once.
    Status release(const QList<qint64> &ids, const QString &engine);
    // Queued messages of a channel and held ones no digest has told of yet: what removing it
    // would throw away.
    Result<int> waiting(qint64 channelId) const;
    // Keeps the composed message, so every retry sends the same one, and when flood control
    // let it go.
    Status keepMessage(qint64 id, const QString &subject, const QString &body, qint64 nowMs);
    // Settles an attempt of a row this engine claimed: sent, failed (for good), skipped
    // (nothing to say), or queued again for `nextAttemptMs`. False when the claim was lost.
    Result<bool> settle(qint64 id, const QString &engine, DeliveryState state, int attempts,
                        const QString &answer, qint64 nextAttemptMs, qint64 nowMs);
    // Newest first; every state when `state` is not set.
    Result<QList<Delivery>> list(std::optional<DeliveryState> state, int limit) const;

    // Flood control (FloodGate): messages of a channel let go since `sinceMs` (sent, being
    // sent, or waiting to be sent again), other than `exceptId`.
    Result<int> passedSince(qint64 channelId, qint64 sinceMs, qint64 exceptId) const;
    // Takes the channel's row (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already
    // did): two engines' gates on one channel take turns, so neither sends past the limit.
    Status lockChannel(qint64 channelId);
    // A claimed row held back for a digest.
    Status hold(qint64 id, const QString &engine, const QString &answer);
    // A digest (or cap) row of the channel, due at `dueMs`, unless one of that key is there.
    Status addDigestRow(qint64 channelId, const QString &event, const QString &dedupeKey,
                        qint64 dueMs, qint64 nowMs);
    // The held rows no digest has told of yet, now told of by the digest row `digestId`.
    Result<QList<Delivery>> takeHeld(qint64 channelId, qint64 digestId);
    // An engine event, composed already, for every global route that asks for `engine`
    // (to the default e-mail channel where it names none); `key` keeps a second write of the
    // same event out. How many rows it wrote.
    Result<int> addEngineEvent(const QString &key, const QString &subject, const QString &body,
                               qint64 nowMs);
    // How many rows of the channel are held and not yet told of.
    Result<int> heldUntold(qint64 channelId) const;

private:
    Store &m_store;
};

} // namespace hg
