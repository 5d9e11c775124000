#include "scheduleplan.h"

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

std::optional<qint64> SchedulePlan::nextFireMs(qint64 afterMs) const
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
        if (const auto seconds = m_cron->nextSeconds(afterSeconds, *m_zone))
            next = *seconds * 1000;
        break;
    }
    }
    if (next && !insideWindow(*next))
        return std::nullopt;
    return next;
}

std::optional<qint64> SchedulePlan::nextAfterRunEnded(qint64 endedMs) const
{
    if (m_schedule.kind != ScheduleKind::After)
        return std::nullopt;
    const qint64 next = (endedMs / 1000 + m_cron->intervalSeconds()) * 1000;
    if (!insideWindow(next))
        return std::nullopt;
    return next;
}

QList<qint64> SchedulePlan::missedFires(qint64 sinceMs, qint64 nowMs, int limit) const
{
    QList<qint64> missed;
    if (m_schedule.misfire == MisfirePolicy::Skip)
        return missed;
    const qint64 windowStart = nowMs - qint64(m_schedule.misfireWindowSeconds) * 1000;
    if (m_schedule.misfire == MisfirePolicy::Once) {
        // The latest missed fire: walk back from now instead of forward through the gap.
        if (m_schedule.kind == ScheduleKind::Cron) {
            const qint64 nowSeconds = nowMs / 1000 + 1; // previous() is strictly before
            const auto latest = m_cron->previousSeconds(nowSeconds, *m_zone);
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
