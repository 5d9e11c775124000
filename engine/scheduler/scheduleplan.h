#pragma once

#include "base/result.h"
#include "cron/cronexpression.h"
#include "cron/dsteffect.h"
#include "domain/schedule.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QTimeZone>

#include <memory>
#include <optional>

namespace hg {

class ZoneRules;

// When one schedule fires: its kind, expression, zone and active window turned into fire
// times (milliseconds since the epoch, whole seconds), plus the misfire policy for fire
// times the engine was not there to see.
class SchedulePlan final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SchedulePlan)

public:
    // Zones looked up once while many plans are made at once (a store's schedules repeat a
    // handful of zones). Expressions come from CompiledCronCache, shared with the schedule
    // dialog, the schedules model and validation, so none of them parses one again.
    struct Cache
    {
        QHash<QString, QTimeZone> zones;
    };

    static Result<SchedulePlan> create(const Schedule &schedule, const QTimeZone &defaultZone,
                                       Cache *cache = nullptr);

    const Schedule &schedule() const { return m_schedule; }
    qint64 scheduleId() const { return m_schedule.id; }
    qint64 chainId() const { return m_schedule.chainId; }
    ScheduleKind kind() const { return m_schedule.kind; }

    // The first fire time strictly after afterMs, inside the active window and on a day its
    // calendar allows; nullopt when the schedule has no more (a past "once", the window's
    // end, @reboot, or @after, whose next time depends on when the previous run ends: see
    // nextAfterRunEnded()).
    std::optional<qint64> nextFireMs(qint64 afterMs) const;
    // The same before the calendar has its say: the schedule dialog shows what it rules out.
    std::optional<qint64> nextCandidateMs(qint64 afterMs) const;
    // The calendar rules this fire time out: a day it excludes, or one an include-only
    // calendar lacks (days in the schedule's zone).
    bool ruledOutByCalendar(qint64 fireMs) const;
    // The DST changes in (fromMs, toMs] that skip or repeat a wall time this cron schedule
    // matches, each said with what the schedule's DST policy makes of it.
    QList<DstEffect::Change> dstChanges(qint64 fromMs, qint64 toMs) const;
    // @after: the fire time for a run of this schedule that ended at endedMs.
    std::optional<qint64> nextAfterRunEnded(qint64 endedMs) const;

    bool hasCalendar() const { return bool(m_schedule.calendarDays); }

    // The fire times in (sinceMs, nowMs] that the policy says to run now, oldest first:
    // skip and ask -> none; once -> the latest; all -> each within the misfire window, at
    // most limit.
    QList<qint64> missedFires(qint64 sinceMs, qint64 nowMs, int limit = 1000) const;

private:
    SchedulePlan() = default;
    bool insideWindow(qint64 ms) const;

    QDate localDay(qint64 ms) const;
    // The first instant, in ms, of the first day on or after `day` the calendar allows; -1
    // when there is none.
    qint64 startOfAllowedDayMs(QDate day) const;

    Schedule m_schedule;
    std::optional<CronExpression> m_cron; // cron, every and after kinds
    std::shared_ptr<const ZoneRules> m_zone;
    QTimeZone m_timeZone;
    qint64 m_onceMs = 0;
};

} // namespace hg
