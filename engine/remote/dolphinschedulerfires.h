#pragma once

#include "dolphinschedulertypes.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QTimeZone>

namespace hg {

// When a DolphinScheduler schedule fires, by our quartz dialect: in the schedule's own zone
// (else the server's), and only inside its start/end window, whose ends are wall times there.
class DolphinSchedulerFires final
{
public:
    DolphinSchedulerFires(const DsSchedule &schedule, const QString &serverZone);

    const QTimeZone &zone() const { return m_zone; }
    // Empty when the crontab parses; else why not.
    QString error() const { return m_error; }
    // In plain English, naming the zone.
    QString meaning() const { return m_meaning; }
    QList<QDateTime> next(const QDateTime &after, int count) const;

private:
    DsSchedule m_schedule;
    QTimeZone m_zone;
    QString m_error;
    QString m_meaning;
};

} // namespace hg
