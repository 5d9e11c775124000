#include "alertrulesvalidator.h"

#include "schedulevalidator.h"

#include <QTimeZone>

#include <cmath>

namespace hg {

Status AlertRulesValidator::validate(const AlertRules &rules)
{
    if (rules.lateAfterMs < 0 || rules.longerThanMs < 0 || rules.shorterThanMs < 0
        || !std::isfinite(rules.longerThanFactor) || !std::isfinite(rules.shorterThanFactor)
        || rules.longerThanFactor < 0 || rules.shorterThanFactor < 0)
        return Error::invalidField(QStringLiteral("limits"), 0,
                                   tr("alert limits must not be negative"));
    if (!rules.deadlineZone.isEmpty() && !QTimeZone(rules.deadlineZone.toUtf8()).isValid())
        return Error::invalidField(QStringLiteral("deadlineZone"), 0,
                                   tr("'%1' is not a time zone").arg(rules.deadlineZone));
    if (rules.deadline.isEmpty())
        return {};
    Schedule deadline;
    deadline.expression = rules.deadline;
    deadline.dialect = CronDialect::Unix;
    deadline.timeZone = rules.deadlineZone;
    if (const Status valid = ScheduleValidator::validate(deadline); !valid)
        return Error::invalidField(QStringLiteral("deadline"), valid.error().column,
                                   valid.error().message);
    return {};
}

} // namespace hg
