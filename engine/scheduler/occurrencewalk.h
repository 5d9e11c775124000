#pragma once

#include "domain/occurrence.h"

#include <QList>

namespace hg {

class SchedulePlan;

// What became of a schedule's fire times in (fromMs, toMs], in order: ruled out by its
// calendar, made into runs, skipped by the chain's overlap policy, or passed unrun for a
// cause (the engine down or asleep, late, schedules paused), which the misfire policy turns
// into an outcome. Consecutive equal outcomes make one segment. A decision only: the
// OccurrenceLedger writes it.
class OccurrenceWalk final
{
public:
    // What the engine did with a fire time it was asked to fire.
    enum class Fired { Made, Elsewhere, SkippedOverlap, SkippedOffline, Failed };
    struct Fire
    {
        qint64 fireMs = 0;
        Fired what = Fired::Made;
        qint64 runId = 0;
    };
    struct Segment
    {
        OccurrenceOutcome outcome = OccurrenceOutcome::Ran;
        OccurrenceCause cause = OccurrenceCause::None;
        qint64 firstMs = 0;
        qint64 lastMs = 0;
        qint64 count = 0;
        qint64 runId = 0;
        InboxState inbox = InboxState::None;
        friend bool operator==(const Segment &, const Segment &) = default;
        // NEXT, right after this, is more of the same: one row holds both. A run never is.
        bool continuedBy(const Segment &next) const
        {
            return outcome != OccurrenceOutcome::Ran && outcome == next.outcome
                   && cause == next.cause && runId == next.runId && inbox == next.inbox;
        }
    };
    // Beyond this many fire times (115 days of an every-second schedule) the last segment
    // reaches to toMs uncounted: the walk must end in well under a second.
    static constexpr qint64 walkLimit = 10'000'000;

    // fires: the fire times of (fromMs, toMs] the engine fired, oldest first.
    static QList<Segment> walk(const SchedulePlan &plan, qint64 fromMs, qint64 toMs,
                               const QList<Fire> &fires, OccurrenceCause cause);
};

} // namespace hg
