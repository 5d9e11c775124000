#include "scheduleloader.h"

#include <algorithm>

namespace hg {

ScheduleLoader::Loaded
ScheduleLoader::load(const QList<Schedule> &schedules, const QHash<qint64, Chain> &chains,
                     const QHash<qint64, RunRepository::ScheduleHistory> &history, qint64 nowMs,
                     bool firstLoad, bool paused) const
{
    Loaded loaded;
    SchedulePlan::Cache cache;
    loaded.plans.reserve(schedules.size());
    for (const Schedule &schedule : schedules) {
        const Chain chain = chains.value(schedule.chainId);
        if (!schedule.enabled || !chain.enabled
            || (!chain.clientName.isEmpty() && chain.clientName != m_engineName))
            continue;
        Result<SchedulePlan> plan = SchedulePlan::create(schedule, m_defaultZone, &cache);
        if (!plan)
            continue;
        const RunRepository::ScheduleHistory past = history.value(schedule.id);
        const qint64 last =
            past.lastFireMs >= 0 ? past.lastFireMs : schedule.createdAt.toMSecsSinceEpoch();
        std::optional<qint64> next;
        switch (schedule.kind) {
        case ScheduleKind::Startup:
            if (firstLoad && !paused)
                loaded.fires << Fire{schedule.id, nowMs / 1000 * 1000};
            break;
        case ScheduleKind::After:
            if (past.lastFireMs < 0)
                next = nowMs;
            else if (!past.unfinished && past.lastFinishMs >= 0)
                next = std::max(nowMs, plan->nextAfterRunEnded(past.lastFinishMs).value_or(nowMs));
            break;
        default:
            if (paused) {
                next = plan->nextFireMs(last); // kept due, not fired
                loaded.passed << Passed{schedule.id, last, last};
                break;
            }
            for (qint64 missed : plan->missedFires(last, nowMs))
                loaded.fires << Fire{schedule.id, missed};
            next = plan->nextFireMs(std::max(nowMs, last));
            loaded.passed << Passed{schedule.id, last, std::max(nowMs, last)};
            break;
        }
        if (next)
            loaded.next << FireQueue::Due{schedule.id, *next};
        loaded.plans.emplace(schedule.id, std::move(*plan));
    }
    return loaded;
}

ScheduleLoader::DueFires ScheduleLoader::due(const SchedulePlan &plan, qint64 dueMs,
                                             qint64 nowMs) const
{
    DueFires result;
    if (nowMs - dueMs > m_lateToleranceMs) {
        result.fires = plan.missedFires(dueMs - 1, nowMs);
        result.next = plan.nextFireMs(std::max(nowMs, dueMs));
        return result;
    }
    result.fires = {dueMs};
    // One computation in the usual case: the fire time after the due one lies ahead of now,
    // so it is the next, and nothing was passed over (the ledger's fast path).
    result.next = plan.nextFireMs(dueMs);
    if (result.next && *result.next <= nowMs)
        result.next = plan.nextFireMs(nowMs);
    else
        result.nothingBetween = !plan.hasCalendar();
    return result;
}

} // namespace hg
