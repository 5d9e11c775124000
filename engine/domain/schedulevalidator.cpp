#include "schedulevalidator.h"

#include "cron/compiledcroncache.h"

#include <QTimeZone>

namespace hg {

Status ScheduleValidator::validate(const Schedule &s)
{
    if (s.expression.trimmed().isEmpty())
        return Error::invalid(tr("schedule expression is empty"));
    if (!s.timeZone.isEmpty() && !QTimeZone(s.timeZone.toUtf8()).isValid())
        return Error::invalid(tr("unknown time zone '%1'").arg(s.timeZone));
    if (s.kind == ScheduleKind::Once
        && !QDateTime::fromString(s.expression.trimmed(), Qt::ISODate).isValid())
        return Error::invalid(tr("'%1' is not an ISO 8601 date and time").arg(s.expression));
    if (s.kind != ScheduleKind::Once) {
        const Result<CronExpression> cron =
            CompiledCronCache::shared().compile(s.expression, s.dialect);
        if (!cron)
            return cron.error();
        // cronie counts in minutes; its DST rule has no meaning for a fire time at second 30.
        if (s.dst.isCronie() && cron->kind() == CronExpression::Kind::Cron
            && !cron->spec().wholeMinutes)
            return Error::invalid(tr("the cronie DST rule needs fire times on whole minutes, as "
                                     "cron has; '%1' fires at other seconds")
                                      .arg(s.expression.trimmed()));
    }
    if (s.misfireWindowSeconds < 0)
        return Error::invalid(tr("misfire window must not be negative"));
    if (s.activeFrom.isValid() && s.activeUntil.isValid() && s.activeFrom >= s.activeUntil)
        return Error::invalid(tr("active window ends before it starts"));
    return {};
}

Result<Schedule> ScheduleValidator::normalized(const Schedule &schedule)
{
    if (Status valid = validate(schedule); !valid)
        return valid.error();
    Schedule stored = schedule;
    stored.expression = schedule.expression.trimmed();
    if (stored.kind != ScheduleKind::Once && stored.dialect == CronDialect::Auto) {
        if (const Result<CronExpression> cron =
                CompiledCronCache::shared().compile(stored.expression);
            cron)
            stored.dialect = cron->dialect();
    }
    return stored;
}

} // namespace hg
