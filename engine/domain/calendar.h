#pragma once

#include "calendardays.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace hg {

// A named set of days a schedule may exclude or keep to: days of the week (weekends),
// dates and date ranges, and the events of an imported iCalendar file (public holidays),
// each kept as a range with its summary.
struct Calendar
{
    struct Range
    {
        QDate first;
        QDate last; // inclusive
        QString summary;
    };

    qint64 id = 0;
    QString name;
    QString description;
    quint8 weekdays = 0; // bit N: Qt's day of week N (1 Monday .. 7 Sunday)
    QList<Range> ranges;
    QDateTime createdAt;

    CalendarDays days() const
    {
        QList<CalendarDays::Range> plain;
        plain.reserve(ranges.size());
        for (const Range &range : ranges)
            plain << CalendarDays::Range{range.first, range.last};
        return CalendarDays(weekdays, plain);
    }
};

} // namespace hg
