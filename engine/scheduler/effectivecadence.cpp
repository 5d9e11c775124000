#include "effectivecadence.h"

#include "clockwatch.h"
#include "scheduleplan.h"

#include <algorithm>

namespace hg {
namespace {

qint64 median(QList<qint64> values)
{
    if (values.isEmpty())
        return -1;
    const auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

// The fire times of a ledger row that fall in [fromMs, toMs]: a row reaching out of the span
// (119 fire times missed over two hours, seen over the last one) counts only its part.
qint64 countWithin(const SchedulePlan &plan, const Occurrence &row, qint64 fromMs, qint64 toMs)
{
    if (row.firstFireMs >= fromMs && row.lastFireMs <= toMs)
        return row.count;
    // From the row's own first fire time: an @every schedule's times count from the last one.
    const qint64 last = std::min(row.lastFireMs, toMs);
    qint64 walked = 0;
    qint64 count = 0;
    for (std::optional<qint64> at = row.firstFireMs; at && *at <= last && walked < row.count;
         at = plan.nextCandidateMs(*at), ++walked)
        count += *at >= fromMs ? 1 : 0;
    return count;
}

} // namespace

EffectiveCadence EffectiveCadence::measure(const SchedulePlan &plan,
                                           const QList<Occurrence> &occurrences, qint64 fromMs,
                                           qint64 toMs)
{
    EffectiveCadence cadence;
    // The configured gaps: the schedule's own fire times in the span (a calendar's days
    // included: they are what it is configured to do), at most a day of seconds of them.
    // A span too short for two gaps (an hourly schedule over the last hour) reads on past
    // its end: the configured cadence is the schedule's, whatever the span.
    constexpr int gapLimit = 86400;
    constexpr int fewestGaps = 10;
    QList<qint64> gaps;
    std::optional<qint64> previous;
    for (std::optional<qint64> at = plan.nextCandidateMs(fromMs - 1);
         at && (*at <= toMs || gaps.size() < fewestGaps) && gaps.size() < gapLimit;
         at = plan.nextCandidateMs(*at)) {
        if (previous)
            gaps << *at - *previous;
        previous = at;
    }
    cadence.configuredMs = median(gaps);

    QList<qint64> runGaps;
    QList<qint64> durations;
    qint64 previousRun = -1; // (GCC 12 takes a reused optional for uninitialised here)
    for (const Occurrence &o : occurrences) {
        if (o.scheduleId != plan.scheduleId())
            continue;
        if (o.outcome != OccurrenceOutcome::Ran) {
            cadence.unrun[o.outcome] += countWithin(plan, o, fromMs, toMs);
            continue;
        }
        ++cadence.runs;
        if (previousRun >= 0)
            runGaps << o.firstFireMs - previousRun;
        previousRun = o.firstFireMs;
        if (o.durationMs >= 0)
            durations << o.durationMs;
    }
    cadence.effectiveMs = median(runGaps);
    cadence.medianDurationMs = median(durations);
    return cadence;
}

QString EffectiveCadence::describe(const QString &spanText) const
{
    const auto every = [](qint64 ms) -> QString {
        return tr("every %1").arg(ClockWatch::describeLength(ms));
    };
    const QString configured = configuredMs > 0 ? tr("configured %1").arg(every(configuredMs))
                                                : tr("configured to fire "
                                                     "rarely");
    QString effective;
    if (runs == 0)
        effective = tr("no run %1").arg(spanText);
    else if (runs == 1)
        effective = tr("one run %1").arg(spanText);
    else
        effective = tr("effective %1 %2").arg(every(effectiveMs), spanText);
    // As configured within a tenth, and nothing passed unrun: nothing to explain.
    qint64 unrunTotal = 0;
    OccurrenceOutcome largest = OccurrenceOutcome::Ran;
    for (auto it = unrun.cbegin(); it != unrun.cend(); ++it) {
        unrunTotal += it.value();
        if (largest == OccurrenceOutcome::Ran || it.value() > unrun.value(largest))
            largest = it.key();
    }
    if (unrunTotal == 0) {
        if (runs >= 2 && configuredMs > 0
            && std::llabs(effectiveMs - configuredMs) * 10 <= configuredMs)
            return tr("%1; effective as configured %2").arg(configured, spanText);
        return tr("%1; %2").arg(configured, effective);
    }
    const qint64 n = unrun.value(largest);
    QString why;
    switch (largest) {
    case OccurrenceOutcome::SkippedOverlap:
        why = medianDurationMs >= 0
                  ? tr("runs take %1 and the overlap policy skips")
                        .arg(ClockWatch::describeLength(medianDurationMs))
                  : tr("the overlap policy skipped %1 fire times while a run still ran").arg(n);
        break;
    case OccurrenceOutcome::SkippedMisfire:
        why = tr("%1 fire times came too late and the misfire policy skipped them").arg(n);
        break;
    case OccurrenceOutcome::Coalesced:
        why = tr("%1 missed fire times were coalesced into later runs").arg(n);
        break;
    case OccurrenceOutcome::Missed:
        why = tr("%1 fire times were missed while the engine was away").arg(n);
        break;
    case OccurrenceOutcome::Excluded:
        why = tr("its calendar ruled out %1 fire times").arg(n);
        break;
    case OccurrenceOutcome::Paused:
        why = tr("schedules were paused over %1 fire times").arg(n);
        break;
    case OccurrenceOutcome::SkippedOffline:
        why = tr("%1 fire times passed without a network, which the chain needs").arg(n);
        break;
    case OccurrenceOutcome::Ran:
        break;
    }
    return tr("%1; %2: %3").arg(configured, effective, why);
}

} // namespace hg
