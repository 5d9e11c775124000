#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QTimeZone>

namespace hg {

class Store;

// Backfill (DolphinScheduler's "complement"): runs of a chain for the fire times its schedules
// had in a past (or future) range, each with that fire time as scheduled_for. The runs form a
// batch: the engine starts them in the chosen order, at most `parallel` at a time, and the
// batch survives an engine restart because it is stored with the runs.
class Backfill final
{
    Q_DECLARE_TR_FUNCTIONS(hg::Backfill)

public:
    enum class Order { OldestFirst, NewestFirst };
    static constexpr int maxRuns = 10000;

    // The fire times of the chain's enabled schedules in [from, to], each once, oldest first.
    // An error when there are none or more than maxRuns.
    static Result<QList<QDateTime>> fireTimes(Store &store, const Chain &chain,
                                              const QDateTime &from, const QDateTime &to,
                                              const QTimeZone &defaultZone);
    // Queues the batch (runs with trigger backfill, and a backfill command for each so an
    // engine picks them up) in one transaction; the runs in the order they will start.
    static Result<QList<Run>> enqueue(Store &store, const Chain &chain,
                                      const QList<QDateTime> &fireTimes, int parallel, Order order);
};

} // namespace hg
