#pragma once

#include <QDate>
#include <QList>

namespace hg {

// A calendar's days as a matcher: days of the week, and date ranges kept sorted and merged,
// so that a look-up is a binary search. Built once when a schedule is read and shared by its
// plans.
class CalendarDays final
{
public:
    struct Range
    {
        QDate first;
        QDate last; // inclusive
    };

    CalendarDays() = default;
    // weekdays: bit N set for Qt's day of week N (1 Monday .. 7 Sunday).
    CalendarDays(quint8 weekdays, QList<Range> ranges);

    bool contains(QDate day) const;
    // The first day on or after `day` that the calendar holds / does not hold; invalid when
    // there is none before the year 2200.
    QDate firstIn(QDate day) const;
    QDate firstOutside(QDate day) const;

    bool isEmpty() const { return m_weekdays == 0 && m_ranges.isEmpty(); }
    quint8 weekdays() const { return m_weekdays; }
    const QList<Range> &ranges() const { return m_ranges; }

private:
    bool onWeekday(QDate day) const { return m_weekdays & (1u << day.dayOfWeek()); }
    // The range holding `day`, or the first one after it; m_ranges.size() when none.
    qsizetype rangeAtOrAfter(QDate day) const;

    quint8 m_weekdays = 0;
    QList<Range> m_ranges; // sorted, disjoint and never touching
};

} // namespace hg
