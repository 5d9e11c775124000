#include "dolphinschedulerfires.h"

#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"

namespace hg {

DolphinSchedulerFires::DolphinSchedulerFires(const DsSchedule &schedule, const QString &serverZone)
    : m_schedule(schedule)
    , m_zone(QTimeZone((schedule.timeZone.isEmpty() ? serverZone : schedule.timeZone).toUtf8()))
{
    if (!m_zone.isValid())
        m_zone = QTimeZone::utc();
    const Result<CronExpression> expression =
        CronExpression::parse(schedule.crontab, CronDialect::Quartz);
    if (!expression) {
        m_error = expression.error().message;
        return;
    }
    m_meaning = CronExplainer(expression.value()).describe(QString::fromUtf8(m_zone.id()));
    m_schedule.start.setTimeZone(m_zone);
    m_schedule.end.setTimeZone(m_zone);
}

QList<QDateTime> DolphinSchedulerFires::next(const QDateTime &after, int count) const
{
    QList<QDateTime> fires;
    const Result<CronExpression> expression =
        CronExpression::parse(m_schedule.crontab, CronDialect::Quartz);
    if (!expression)
        return fires;
    QDateTime from = after;
    if (m_schedule.start.isValid() && m_schedule.start > from)
        from = m_schedule.start.addMSecs(-1);
    while (fires.size() < count) {
        const std::optional<QDateTime> fire = expression->next(from, m_zone);
        if (!fire || (m_schedule.end.isValid() && *fire > m_schedule.end))
            break;
        fires << *fire;
        from = *fire;
    }
    return fires;
}

} // namespace hg
