#pragma once

#include "calendardays.h"
#include "cron/dstpolicy.h"
#include "enums.h"

#include <QDateTime>
#include <QString>

#include <memory>

namespace hg {

struct Schedule
{
    qint64 id = 0;
    qint64 chainId = 0;
    ScheduleKind kind = ScheduleKind::Cron;
    QString expression; // cron text, an ISO time (once) or an interval (every/after)
    CronDialect dialect = CronDialect::Auto;
    QString timeZone; // IANA id; empty: the engine's default zone
    MisfirePolicy misfire = MisfirePolicy::Once;
    int misfireWindowSeconds = 24 * 3600;
    DstPolicy dst; // what a DST change's gap or overlap does to a cron schedule
    // A calendar whose days the schedule skips (or keeps to); 0: none. Its days come with the
    // schedule when the store reads it, so every plan made from it sees the same days.
    qint64 calendarId = 0;
    CalendarMode calendarMode = CalendarMode::Exclude;
    QString calendarName;
    std::shared_ptr<const CalendarDays> calendarDays;
    QDateTime activeFrom; // invalid: no bound
    QDateTime activeUntil;
    bool enabled = true;
    QDateTime createdAt;
};

} // namespace hg

namespace hg {

// "@reboot" starts with the engine, "@every"/"@after" are intervals, an ISO 8601 time
// fires once, anything else is a cron expression.
ScheduleKind inferScheduleKind(const QString &expression);

} // namespace hg
