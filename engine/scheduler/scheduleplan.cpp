#include "scheduleplan.h"

#include "cron/civiltime.h"
#include "cron/compiledcroncache.h"
#include "cron/zonerules.h"

#include <QDateTime>

namespace hg {

Result<SchedulePlan> SchedulePlan::create(const Schedule &schedule, const QTimeZone &defaultZone,
                                          Cache *cache)
{
    SchedulePlan plan;
    plan.m_schedule = schedule;
    QTimeZone zone = defaultZone;
    if (!schedule.timeZone.isEmpty()) {
        if (cache && cache->zones.contains(schedule.timeZone)) {
            zone = cache->zones.value(schedule.timeZone);
        } else {
            zone = QTimeZone(schedule.timeZone.toUtf8());
            if (cache)
                cache->zones.insert(schedule.timeZone, zone);
        }
    }
    if (!zone.isValid())
        return Error::invalid(
            tr("schedule %1: unknown time zone '%2'").arg(schedule.id).arg(schedule.timeZone));
    plan.m_zone = ZoneRules::forZone(zone);
    plan.m_timeZone = zone;
    switch (schedule.kind) {
    case ScheduleKind::Once: {
        QDateTime at = QDateTime::fromString(schedule.expression, Qt::ISODateWithMs);
        if (!at.isValid())
            return Error::invalid(tr("schedule %1: '%2' is not an ISO 8601 time")
                                      .arg(schedule.id)
                                      .arg(schedule.expression));
        if (at.timeSpec() == Qt::LocalTime) // no offset written: a wall time in the zone
            at = QDateTime(at.date(), at.time(), zone);
        plan.m_onceMs = at.toMSecsSinceEpoch();
        break;
    }
    case ScheduleKind::Startup:
        break;
    case ScheduleKind::Cron:
    case ScheduleKind::Every:
    case ScheduleKind::After: {
        Result<CronExpression> cron =
            CompiledCronCache::shared().compile(schedule.expression, schedule.dialect);
        if (!cron)
            return Error::invalid(tr("schedule %1: %2").arg(schedule.id).arg(cron.error().message));
        plan.m_cron = std::move(cron.value());
        break;
    }
    }
    return plan;
}

bool SchedulePlan::insideWindow(qint64 ms) const
{
    const QDateTime &from = m_schedule.activeFrom;
    const QDateTime &until = m_schedule.activeUntil;
    return (!from.isValid() || ms >= from.toMSecsSinceEpoch())
           && (!until.isValid() || ms <= until.toMSecsSinceEpoch());
}

QDate SchedulePlan::localDay(qint64 ms) const
{
    const qint64 seconds = civil::floorDiv(ms, 1000);
    const qint64 days = civil::floorDiv(seconds + m_zone->offsetAt(seconds), 86400);
    return QDate::fromJulianDay(days + 2440588); // 1970-01-01 is Julian day 2440588
}

bool SchedulePlan::ruledOutByCalendar(qint64 fireMs) const
{
    const CalendarDays *days = m_schedule.calendarDays.get();
    if (!days)
        return false;
    const bool listed = days->contains(localDay(fireMs));
    return m_schedule.calendarMode == CalendarMode::Exclude ? listed : !listed;
}

qint64 SchedulePlan::startOfAllowedDayMs(QDate day) const
{
    const CalendarDays &days = *m_schedule.calendarDays;
    const QDate allowed = m_schedule.calendarMode == CalendarMode::Exclude ? days.firstOutside(day)
                                                                           : days.firstIn(day);
    // startOfDay(): the first instant of the day, also where midnight falls into a DST gap.
    return allowed.isValid() ? allowed.startOfDay(m_timeZone).toMSecsSinceEpoch() : -1;
}

std::optional<qint64> SchedulePlan::nextFireMs(qint64 afterMs) const
{
    std::optional<qint64> next = nextCandidateMs(afterMs);
    if (!m_schedule.calendarDays)
        return next;
    // A fire time on a day the calendar rules out is passed over, a whole run of such days
    // at a time; each step moves on by at least a day, and the search ends by 2200.
    for (int step = 0; next && step < 100000; ++step) {
        if (!ruledOutByCalendar(*next))
            return next;
        const qint64 resume = startOfAllowedDayMs(localDay(*next).addDays(1));
        if (resume < 0)
            return std::nullopt;
        next = nextCandidateMs(resume - 1);
    }
    return std::nullopt;
}

std::optional<qint64> SchedulePlan::nextCandidateMs(qint64 afterMs) const
{
    // Start no earlier than the window opens.
    if (m_schedule.activeFrom.isValid())
        afterMs = std::max(afterMs, m_schedule.activeFrom.toMSecsSinceEpoch() - 1);
    std::optional<qint64> next;
    switch (m_schedule.kind) {
    case ScheduleKind::Once:
        if (m_onceMs > afterMs)
            next = m_onceMs;
        break;
    case ScheduleKind::Startup:
    case ScheduleKind::After:
        break;
    case ScheduleKind::Every:
    case ScheduleKind::Cron: {
        // Fire times are whole seconds; "strictly after" counts from the whole second.
        const qint64 afterSeconds = afterMs >= 0 ? afterMs / 1000 : (afterMs - 999) / 1000;
        if (const auto seconds = m_cron->nextSeconds(afterSeconds, *m_zone, m_schedule.dst))
            next = *seconds * 1000;
        break;
    }
    }
    if (next && !insideWindow(*next))
        return std::nullopt;
    return next;
}

QList<DstEffect::Change> SchedulePlan::dstChanges(qint64 fromMs, qint64 toMs) const
{
    if (m_schedule.kind != ScheduleKind::Cron || !m_cron)
        return {};
    QList<DstEffect::Change> changes =
        DstEffect::between(*m_cron, *m_zone, m_schedule.dst, fromMs / 1000, toMs / 1000);
    // On a day the calendar rules out the schedule does not run at all: nothing to say.
    changes.removeIf([this](const DstEffect::Change &change) {
        return ruledOutByCalendar(change.atUtc * 1000);
    });
    return changes;
}

std::optional<qint64> SchedulePlan::nextAfterRunEnded(qint64 endedMs) const
{
    if (m_schedule.kind != ScheduleKind::After)
        return std::nullopt;
    qint64 next = (endedMs / 1000 + m_cron->intervalSeconds()) * 1000;
    if (ruledOutByCalendar(next)) {
        // Not on a day the calendar rules out: at the start of the next day it allows.
        next = startOfAllowedDayMs(localDay(next).addDays(1));
        if (next < 0)
            return std::nullopt;
    }
    if (!insideWindow(next))
        return std::nullopt;
    return next;
}

QList<qint64> SchedulePlan::missedFires(qint64 sinceMs, qint64 nowMs, int limit) const
{
    QList<qint64> missed;
    if (m_schedule.misfire == MisfirePolicy::Skip || m_schedule.misfire == MisfirePolicy::Ask)
        return missed; // ask: the missed-runs inbox holds them (OccurrenceLedger)
    const qint64 windowStart = nowMs - qint64(m_schedule.misfireWindowSeconds) * 1000;
    if (m_schedule.misfire == MisfirePolicy::Once) {
        // The latest missed fire: walk back from now instead of forward through the gap.
        // (With a calendar, the walk forward below skips the days it rules out.)
        if (m_schedule.kind == ScheduleKind::Cron && !m_schedule.calendarDays) {
            const qint64 nowSeconds = nowMs / 1000 + 1; // previous() is strictly before
            const auto latest = m_cron->previousSeconds(nowSeconds, *m_zone, m_schedule.dst);
            if (latest && *latest * 1000 > sinceMs && insideWindow(*latest * 1000))
                missed << *latest * 1000;
            return missed;
        }
        std::optional<qint64> latest;
        for (auto at = nextFireMs(sinceMs); at && *at <= nowMs; at = nextFireMs(*at))
            latest = at;
        if (latest)
            missed << *latest;
        return missed;
    }
    for (auto at = nextFireMs(std::max(sinceMs, windowStart - 1)); at && *at <= nowMs;
         at = nextFireMs(*at)) {
        missed << *at;
        if (missed.size() >= limit)
            break;
    }
    return missed;
}

} // namespace hg
