#include "schedule.h"

namespace hg {

ScheduleKind inferScheduleKind(const QString &expression)
{
    const QString text = expression.trimmed();
    if (text.compare(QLatin1String("@reboot"), Qt::CaseInsensitive) == 0)
        return ScheduleKind::Startup;
    if (text.startsWith(QLatin1String("@every "), Qt::CaseInsensitive))
        return ScheduleKind::Every;
    if (text.startsWith(QLatin1String("@after "), Qt::CaseInsensitive))
        return ScheduleKind::After;
    if (QDateTime::fromString(text, Qt::ISODate).isValid())
        return ScheduleKind::Once;
    return ScheduleKind::Cron;
}

} // namespace hg
