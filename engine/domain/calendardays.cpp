#include "calendardays.h"

#include <algorithm>

namespace hg {
namespace {
const QDate searchEnd(2200, 1, 1); // as the cron search: beyond it nothing is looked for
} // namespace

CalendarDays::CalendarDays(quint8 weekdays, QList<Range> ranges)
    : m_weekdays(weekdays & 0xfe)
{
    ranges.removeIf([](const Range &r) { return !r.first.isValid() || !r.last.isValid(); });
    for (Range &range : ranges) { // a range written backwards, first put right
        if (range.last < range.first)
            std::swap(range.first, range.last);
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const Range &a, const Range &b) { return a.first < b.first; });
    for (const Range &range : std::as_const(ranges)) {
        if (!m_ranges.isEmpty() && range.first <= m_ranges.last().last.addDays(1))
            m_ranges.last().last = std::max(m_ranges.last().last, range.last);
        else
            m_ranges << range;
    }
}

qsizetype CalendarDays::rangeAtOrAfter(QDate day) const
{
    const auto it = std::lower_bound(m_ranges.cbegin(), m_ranges.cend(), day,
                                     [](const Range &r, QDate d) { return r.last < d; });
    return it - m_ranges.cbegin();
}

bool CalendarDays::contains(QDate day) const
{
    if (!day.isValid())
        return false;
    if (onWeekday(day))
        return true;
    const qsizetype i = rangeAtOrAfter(day);
    return i < m_ranges.size() && m_ranges.at(i).first <= day;
}

QDate CalendarDays::firstIn(QDate day) const
{
    // A weekday is never more than six days away; a range may be nearer.
    QDate best;
    if (m_weekdays) {
        for (int step = 0; step < 7; ++step) {
            if (onWeekday(day.addDays(step))) {
                best = day.addDays(step);
                break;
            }
        }
    }
    const qsizetype i = rangeAtOrAfter(day);
    if (i < m_ranges.size()) {
        const QDate inRange = std::max(day, m_ranges.at(i).first);
        if (!best.isValid() || inRange < best)
            best = inRange;
    }
    return best.isValid() && best < searchEnd ? best : QDate();
}

QDate CalendarDays::firstOutside(QDate day) const
{
    // Ranges and weekdays can chain (a holiday week running into a weekend): walk them.
    for (QDate d = day; d < searchEnd;) {
        if (onWeekday(d)) {
            d = d.addDays(1);
            continue;
        }
        const qsizetype i = rangeAtOrAfter(d);
        if (i < m_ranges.size() && m_ranges.at(i).first <= d) {
            d = m_ranges.at(i).last.addDays(1);
            continue;
        }
        return d;
    }
    return {}; // every day of the week, say
}

} // namespace hg
