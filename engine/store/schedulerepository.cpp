#include "schedulerepository.h"

#include "domain/schedulevalidator.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectSchedule = QStringLiteral(
    "SELECT id, chain_id, kind, expression, dialect, time_zone, misfire, misfire_window_s, "
    "active_from, active_until, enabled, created_at FROM schedule ");

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
        .bind(s.enabled);
}

} // namespace

Result<Schedule> ScheduleRepository::add(const Schedule &schedule)
{
    Result<Schedule> normalized = ScheduleValidator::normalized(schedule);
    if (!normalized)
        return normalized.error();
    Schedule stored = std::move(normalized.value());
    stored.createdAt = QDateTime::currentDateTimeUtc();
    StoreQuery q(m_store,
                 QStringLiteral("INSERT INTO schedule (kind, expression, dialect, time_zone, "
                                "misfire, misfire_window_s, "
                                "active_from, active_until, enabled, chain_id, created_at) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    bindEditable(q, stored);
    q.bind(stored.chainId).bind(StoreQuery::fromTime(stored.createdAt));
    if (Status s = q.execSingle(tr("add schedule"), {}); !s) {
        if (s.error().kind == ErrorKind::Invalid)
            return Error::notFound(tr("unknown chain id %1").arg(stored.chainId));
        return s.error();
    }
    stored.id = q.int64(0);
    return stored;
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
            "misfire_window_s = ?, active_from = ?, active_until = ?, enabled = ? WHERE id = ?"));
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
    return readSchedule(q);
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
