#include "missedrunsinbox.h"

#include "backfill.h"
#include "missedfileruns.h"
#include "scheduleplan.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/occurrencerepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"

#include <QMap>
#include <QSet>

#include <algorithm>

namespace hg {

Result<QList<MissedRunsInbox::Waiting>> MissedRunsInbox::waiting() const
{
    const Result<QList<Occurrence>> pending = OccurrenceRepository(m_store).pending();
    if (!pending)
        return pending.error();
    QMap<qint64, Waiting> byChain;
    for (const Occurrence &row : pending.value()) {
        Waiting &entry = byChain[row.chainId];
        entry.firstMs =
            entry.count == 0 ? row.firstFireMs : std::min(entry.firstMs, row.firstFireMs);
        if (row.lastFireMs >= entry.lastMs)
            entry.cause = row.cause;
        entry.chainId = row.chainId;
        entry.lastMs = std::max(entry.lastMs, row.lastFireMs);
        entry.count += row.count;
    }
    return byChain.values();
}

Result<MissedRunsInbox::Waiting> MissedRunsInbox::waiting(qint64 chainId) const
{
    const Result<QList<Waiting>> all = waiting();
    if (!all)
        return all.error();
    for (const Waiting &entry : all.value()) {
        if (entry.chainId == chainId)
            return entry;
    }
    return Waiting{chainId};
}

QList<qint64> MissedRunsInbox::fireTimesOf(const Occurrence &row,
                                           const QHash<qint64, Schedule> &schedules) const
{
    QList<qint64> times;
    const auto schedule = schedules.constFind(row.scheduleId);
    if (schedule != schedules.cend()) {
        if (const Result<SchedulePlan> plan = SchedulePlan::create(schedule.value(), m_zone)) {
            // From the row's own first fire time: an @every schedule's times count from the
            // last one, so a walk from just before it would be off by a second.
            for (std::optional<qint64> at = row.firstFireMs;
                 at && *at <= row.lastFireMs && times.size() <= Backfill::maxRuns;
                 at = plan->nextFireMs(*at))
                times << *at;
        }
    }
    if (times.isEmpty()) // the schedule changed since: its first and last fire times stand
        times << row.firstFireMs << row.lastFireMs;
    return times;
}

MisfirePolicy MissedRunsInbox::policyOf(Choice choice)
{
    switch (choice) {
    case Choice::RunAll:
        return MisfirePolicy::All;
    case Choice::RunLatest:
        return MisfirePolicy::Once;
    case Choice::Dismiss:
        break;
    }
    return MisfirePolicy::Skip;
}

Result<MissedRunsInbox::Decided> MissedRunsInbox::decide(const Chain &chain,
                                                         const Decision &decision)
{
    const Result<QList<Occurrence>> pending = OccurrenceRepository(m_store).pending(chain.id);
    if (!pending)
        return pending.error();
    const Result<QList<Schedule>> schedules = ScheduleRepository(m_store).list(chain.id);
    if (!schedules)
        return schedules.error();
    if (pending->isEmpty()) {
        const Result<ChainPath> path = ChainRepository(m_store).pathOf(chain.id);
        return Error::notFound(tr("no missed runs of %1 wait for a decision")
                                   .arg(path ? path->toString() : chain.name));
    }
    QHash<qint64, Schedule> byId;
    for (const Schedule &schedule : schedules.value())
        byId.insert(schedule.id, schedule);
    const bool run = decision.choice != Choice::Dismiss;
    QList<qint64> ids;
    QSet<qint64> scheduleIds;
    QSet<qint64> triggerIds;
    QList<Occurrence> fileRows; // a file trigger's rows: the files they hold
    QList<qint64> times;
    for (const Occurrence &row : pending.value()) {
        ids << row.id;
        if (row.triggerId > 0) {
            triggerIds.insert(row.triggerId);
            fileRows << row;
            continue;
        }
        scheduleIds.insert(row.scheduleId);
        if (run)
            times += fireTimesOf(row, byId);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    if (decision.choice == Choice::RunLatest && !times.isEmpty())
        times = {times.last()};
    qint64 fileCount = 0;
    for (const Occurrence &row : std::as_const(fileRows))
        fileCount += decision.choice == Choice::RunAll ? row.count : 1;
    if (times.size() + fileCount > Backfill::maxRuns)
        return Error::invalid(tr("%1 missed runs are more than %2 at once; run the latest only")
                                  .arg(times.size() + fileCount)
                                  .arg(Backfill::maxRuns));
    Decided decided;
    const Status done = m_store.transaction([&]() -> Status {
        decided.runs.clear();
        // Claimed first: a second decision at the same moment (a window and a command, two
        // commands) waits for this one, then finds the rows decided and does nothing.
        const Result<int> claimed = OccurrenceRepository(m_store).decide(
            ids, run ? InboxState::Run : InboxState::Dismissed);
        if (!claimed)
            return claimed.error();
        if (claimed.value() != ids.size()) {
            const Result<ChainPath> path = ChainRepository(m_store).pathOf(chain.id);
            return Error::notFound(tr("the missed runs of %1 were decided meanwhile, by another "
                                      "command or window; nothing was done")
                                       .arg(path ? path->toString() : chain.name));
        }
        if (run && !fileRows.isEmpty()) {
            const Result<QList<MissedFileRuns::Planned>> planned =
                MissedFileRuns::plan(m_store, fileRows, decision.choice == Choice::RunAll);
            if (!planned)
                return planned.error();
            Result<QList<Run>> queued = MissedFileRuns::enqueue(m_store, chain, planned.value(),
                                                                std::max(1, decision.parallel));
            if (!queued)
                return queued.error();
            decided.runs = queued.value();
        }
        if (run && !times.isEmpty()) {
            QList<QDateTime> at;
            for (qint64 ms : std::as_const(times))
                at << QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
            Result<QList<Run>> queued = Backfill::enqueue(
                m_store, chain, at, std::max(1, decision.parallel), Backfill::Order::OldestFirst);
            if (!queued)
                return queued.error();
            decided.runs += queued.value();
        }
        if (!decided.runs.isEmpty())
            if (Status s = OccurrenceRepository(m_store).setRun(ids, decided.runs.constFirst().id);
                !s)
                return s;
        if (!decision.keep)
            return {};
        for (qint64 triggerId : std::as_const(triggerIds)) {
            const Result<ChainTrigger> trigger = ChainTriggerRepository(m_store).byId(triggerId);
            if (!trigger)
                continue; // removed meanwhile
            FileTriggerSpec spec = trigger->file;
            spec.misfire = policyOf(decision.choice);
            if (Status s = ChainTriggerRepository(m_store).setSettings(triggerId, spec.toJson());
                !s)
                return s;
        }
        for (qint64 scheduleId : std::as_const(scheduleIds)) {
            if (!byId.contains(scheduleId))
                continue;
            Schedule schedule = byId.value(scheduleId);
            schedule.misfire = policyOf(decision.choice);
            if (Status s = ScheduleRepository(m_store).update(schedule); !s)
                return s;
        }
        return {};
    });
    if (!done)
        return done.error();
    if (decision.keep)
        decided.kept = policyOf(decision.choice);
    return decided;
}

} // namespace hg
