#include "occurrencewalk.h"

#include "scheduleplan.h"

namespace hg {
namespace {

bool madeARun(const OccurrenceWalk::Fire &fire)
{
    return fire.what == OccurrenceWalk::Fired::Made
           || fire.what == OccurrenceWalk::Fired::Elsewhere;
}

} // namespace

QList<OccurrenceWalk::Segment> OccurrenceWalk::walk(const SchedulePlan &plan, qint64 fromMs,
                                                    qint64 toMs, const QList<Fire> &fires,
                                                    OccurrenceCause cause)
{
    // The run that policy once folds the earlier missed fires into: the latest one made.
    qint64 coalescedInto = -1;
    qint64 coalescedBeforeMs = -1;
    for (const Fire &fire : fires) {
        if (madeARun(fire)) {
            coalescedInto = fire.runId;
            coalescedBeforeMs = fire.fireMs;
        }
    }
    const MisfirePolicy policy = plan.schedule().misfire;
    const bool away = cause == OccurrenceCause::Down || cause == OccurrenceCause::Asleep
                      || cause == OccurrenceCause::ClockStep || cause == OccurrenceCause::StoreLost;

    QList<Segment> segments;
    auto add = [&segments](const Segment &one) {
        if (!segments.isEmpty() && segments.last().continuedBy(one)) {
            segments.last().lastMs = one.lastMs;
            segments.last().count += one.count;
            return;
        }
        segments << one;
    };

    qsizetype nextFire = 0;
    qint64 walked = 0;
    for (std::optional<qint64> at = plan.nextCandidateMs(fromMs); at && *at <= toMs;
         at = plan.nextCandidateMs(*at)) {
        if (++walked > walkLimit) {
            if (!segments.isEmpty())
                segments.last().lastMs = toMs; // the rest, uncounted
            break;
        }
        while (nextFire < fires.size() && fires[nextFire].fireMs < *at)
            ++nextFire;
        Segment one{OccurrenceOutcome::Ran, OccurrenceCause::None, *at, *at, 1, 0,
                    InboxState::None};
        const bool fired = nextFire < fires.size() && fires[nextFire].fireMs == *at
                           && fires[nextFire].what != Fired::Failed;
        if (fired && fires[nextFire].what == Fired::SkippedOverlap) {
            one.outcome = OccurrenceOutcome::SkippedOverlap;
        } else if (fired && fires[nextFire].what == Fired::SkippedOffline) {
            one.outcome = OccurrenceOutcome::SkippedOffline;
        } else if (fired) {
            one.runId = fires[nextFire].runId;
        } else if (plan.ruledOutByCalendar(*at)) {
            one.outcome = OccurrenceOutcome::Excluded;
        } else if (cause == OccurrenceCause::Paused) {
            one.outcome = OccurrenceOutcome::Paused;
            one.cause = cause;
        } else if (policy == MisfirePolicy::Once && *at < coalescedBeforeMs) {
            one.outcome = OccurrenceOutcome::Coalesced;
            one.cause = cause;
            one.runId = coalescedInto;
        } else if (policy == MisfirePolicy::Ask) {
            one.outcome = OccurrenceOutcome::Missed;
            one.cause = cause;
            one.inbox = InboxState::Pending;
        } else {
            one.outcome = away ? OccurrenceOutcome::Missed : OccurrenceOutcome::SkippedMisfire;
            one.cause = cause;
        }
        add(one);
    }
    return segments;
}

} // namespace hg
