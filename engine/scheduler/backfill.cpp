#include "backfill.h"

#include "base/epochtime.h"
#include "scheduleplan.h"
#include "store/commandrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"

#include <algorithm>
#include <set>

namespace hg {

Result<QList<QDateTime>> Backfill::fireTimes(Store &store, const Chain &chain,
                                             const QDateTime &from, const QDateTime &to,
                                             const QTimeZone &defaultZone)
{
    if (!from.isValid() || !to.isValid() || from > to)
        return Error::invalid(tr("backfill: --from must not be after --to"));
    const Result<QList<Schedule>> schedules = ScheduleRepository(store).list(chain.id);
    if (!schedules)
        return schedules.error();
    std::set<qint64> times;
    const qint64 fromMs = from.toMSecsSinceEpoch();
    const qint64 toMs = to.toMSecsSinceEpoch();
    for (const Schedule &schedule : schedules.value()) {
        if (!schedule.enabled || schedule.kind == ScheduleKind::Startup
            || schedule.kind == ScheduleKind::After)
            continue; // no fire times of their own: they follow the engine or the last run
        const Result<SchedulePlan> plan = SchedulePlan::create(schedule, defaultZone);
        if (!plan)
            return plan.error();
        for (std::optional<qint64> next = plan->nextFireMs(fromMs - 1); next && *next <= toMs;
             next = plan->nextFireMs(*next)) {
            times.insert(*next);
            if (times.size() > maxRuns)
                return Error::invalid(
                    tr("backfill: more than %1 fire times between "
                       "%2 and %3; choose a shorter range")
                        .arg(maxRuns)
                        .arg(from.toString(Qt::ISODate), to.toString(Qt::ISODate)));
        }
    }
    if (times.empty())
        return Error::invalid(
            tr("backfill: chain '%1' has no fire times between %2 "
               "and %3 (only enabled cron, every and once schedules "
               "have fire times)")
                .arg(chain.name, from.toString(Qt::ISODate), to.toString(Qt::ISODate)));
    QList<QDateTime> result;
    for (qint64 ms : times)
        result << utcFromMs(ms);
    return result;
}

Result<QList<Run>> Backfill::enqueue(Store &store, const Chain &chain,
                                     const QList<QDateTime> &fireTimes, int parallel, Order order)
{
    if (parallel < 1)
        return Error::invalid(tr("backfill: --parallel must be 1 or more"));
    QList<QDateTime> ordered = fireTimes;
    if (order == Order::NewestFirst)
        std::reverse(ordered.begin(), ordered.end());
    QList<Run> runs;
    const Status queued = store.transaction([&]() -> Status {
        RunRepository repository(store);
        CommandRepository commands(store);
        for (const QDateTime &time : std::as_const(ordered)) {
            Run run;
            run.chainId = chain.id;
            run.trigger = RunTrigger::Backfill;
            run.scheduledFor = time;
            run.batchId = runs.isEmpty() ? 0 : runs.first().id;
            run.batchParallel = parallel;
            Result<Run> inserted = repository.insert(run);
            if (!inserted)
                return inserted.error();
            if (runs.isEmpty()) { // the batch is named after its first run
                if (const Status s = repository.setBatch(inserted->id, inserted->id); !s)
                    return s;
                inserted->batchId = inserted->id;
            }
            Command command;
            command.kind = CommandKind::Backfill;
            command.runId = inserted->id;
            if (const Result<Command> c = commands.enqueue(command); !c)
                return c.error();
            runs << inserted.value();
        }
        return {};
    });
    if (!queued)
        return queued.error();
    return runs;
}

} // namespace hg
