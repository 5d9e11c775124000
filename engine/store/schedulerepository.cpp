#include "schedulerepository.h"

#include "calendarrepository.h"
#include "domain/schedulevalidator.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectSchedule = QStringLiteral(
    "SELECT id, chain_id, kind, expression, dialect, time_zone, misfire, misfire_window_s, "
    "active_from, active_until, enabled, created_at, dst, calendar_id, calendar_mode "
    "FROM schedule ");

Schedule readSchedule(const StoreQuery &q)
{
    Schedule s;
    s.id = q.int64(0);
    s.chainId = q.int64(1);
    s.kind = enumFromString<ScheduleKind>(q.text(2)).value_or(ScheduleKind::Cron);
    s.expression = q.text(3);
    s.dialect = enumFromString<CronDialect>(q.text(4)).value_or(CronDialect::Auto);
    s.timeZone = q.text(5);
    s.misfire = enumFromString<MisfirePolicy>(q.text(6)).value_or(MisfirePolicy::Once);
    s.misfireWindowSeconds = q.integer(7);
    s.activeFrom = q.time(8);
    s.activeUntil = q.time(9);
    s.enabled = q.boolean(10);
    s.createdAt = q.time(11);
    s.dst = DstPolicy::fromText(q.text(12)).value_or(DstPolicy{});
    s.calendarId = q.int64(13);
    s.calendarMode = enumFromString<CalendarMode>(q.text(14)).value_or(CalendarMode::Exclude);
    return s;
}

void bindEditable(StoreQuery &q, const Schedule &s)
{
    q.bind(enumName(s.kind))
        .bind(s.expression.trimmed())
        .bind(enumName(s.dialect))
        .bind(s.timeZone)
        .bind(enumName(s.misfire))
        .bind(s.misfireWindowSeconds)
        .bind(StoreQuery::fromTime(s.activeFrom))
        .bind(StoreQuery::fromTime(s.activeUntil))
        .bind(s.enabled)
        .bind(s.dst.toText())
        .bind(StoreQuery::fromId(s.calendarId))
        .bind(enumName(s.calendarMode));
}

} // namespace

Status ScheduleRepository::attachCalendars(QList<Schedule> &schedules) const
{
    QList<qint64> ids;
    for (const Schedule &s : std::as_const(schedules)) {
        if (s.calendarId > 0)
            ids << s.calendarId;
    }
    if (ids.isEmpty())
        return {};
    const Result<QHash<qint64, CalendarRepository::Compiled>> calendars =
        CalendarRepository(m_store).compiled(ids);
    if (!calendars)
        return calendars.error();
    for (Schedule &s : schedules) {
        if (s.calendarId > 0) {
            const CalendarRepository::Compiled compiled = calendars->value(s.calendarId);
            s.calendarName = compiled.name;
            s.calendarDays = compiled.days;
        }
    }
    return {};
}

Result<Schedule> ScheduleRepository::add(const Schedule &schedule)
{
    Result<Schedule> normalized = ScheduleValidator::normalized(schedule);
    if (!normalized)
        return normalized.error();
    Schedule stored = std::move(normalized.value());
    stored.createdAt = QDateTime::currentDateTimeUtc();
    StoreQuery q(m_store,
                 QStringLiteral("INSERT INTO schedule (kind, expression, dialect, time_zone, "
                                "misfire, misfire_window_s, active_from, active_until, enabled, "
                                "dst, calendar_id, calendar_mode, chain_id, created_at) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    bindEditable(q, stored);
    q.bind(stored.chainId).bind(StoreQuery::fromTime(stored.createdAt));
    if (Status s = q.execSingle(tr("add schedule"), {}); !s) {
        if (s.error().kind == ErrorKind::Invalid)
            return Error::notFound(stored.calendarId > 0
                                       ? tr("unknown chain id %1 or calendar id %2")
                                             .arg(stored.chainId)
                                             .arg(stored.calendarId)
                                       : tr("unknown chain id %1").arg(stored.chainId));
        return s.error();
    }
    stored.id = q.int64(0);
    QList<Schedule> one{stored};
    if (Status s = attachCalendars(one); !s)
        return s.error();
    return one.constFirst();
}

Status ScheduleRepository::update(const Schedule &schedule)
{
    if (Status valid = ScheduleValidator::validate(schedule); !valid)
        return valid;
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE schedule SET kind = ?, expression = ?, dialect = ?, time_zone = ?, misfire = "
            "?, "
            "misfire_window_s = ?, active_from = ?, active_until = ?, enabled = ?, dst = ?, "
            "calendar_id = ?, calendar_mode = ? WHERE id = ?"));
    bindEditable(q, schedule);
    q.bind(schedule.id);
    if (Status s = q.exec(tr("update schedule")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown schedule %1").arg(schedule.id));
    return {};
}

Result<Schedule> ScheduleRepository::byId(qint64 id) const
{
    StoreQuery q(m_store, selectSchedule + QStringLiteral("WHERE id = ?"));
    q.bind(id);
    if (Status s = q.execSingle(tr("read schedule"), tr("unknown schedule %1").arg(id)); !s)
        return s.error();
    QList<Schedule> one{readSchedule(q)};
    if (Status s = attachCalendars(one); !s)
        return s.error();
    return one.constFirst();
}

Result<QList<Schedule>> ScheduleRepository::list(std::optional<qint64> chainId) const
{
    StoreQuery q(m_store, selectSchedule
                              + (chainId ? QStringLiteral("WHERE chain_id = ? ORDER BY id")
                                         : QStringLiteral("ORDER BY id")));
    if (chainId)
        q.bind(*chainId);
    if (Status s = q.exec(tr("list schedules")); !s)
        return s.error();
    QList<Schedule> schedules;
    while (q.next())
        schedules << readSchedule(q);
    if (Status s = attachCalendars(schedules); !s)
        return s.error();
    return schedules;
}

Status ScheduleRepository::remove(qint64 id)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM schedule WHERE id = ?"));
    q.bind(id);
    if (Status s = q.exec(tr("remove schedule")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown schedule %1").arg(id));
    return {};
}

} // namespace hg
