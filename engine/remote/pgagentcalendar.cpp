#include "pgagentcalendar.h"

#include <QStringList>

#include <algorithm>

namespace hg {
namespace {

template<std::size_t N>
bool anySelected(const std::array<bool, N> &values)
{
    return std::any_of(values.cbegin(), values.cend(), [](bool value) { return value; });
}

template<std::size_t N>
bool selected(const std::array<bool, N> &values, int index)
{
    return !anySelected(values) || values.at(std::size_t(index));
}

// "0,15,30" from the selected indices plus OFFSET, "*" when none is selected.
template<std::size_t N>
QString field(const std::array<bool, N> &values, int offset, std::size_t count = N)
{
    QStringList items;
    for (std::size_t i = 0; i < count; ++i) {
        if (values.at(i))
            items << QString::number(int(i) + offset);
    }
    return items.isEmpty() ? QStringLiteral("*") : items.join(QLatin1Char(','));
}

} // namespace

bool PgAgentCalendar::dayMatches(const PgAgentSchedule &s, QDate date)
{
    if (!selected(s.months, date.month() - 1) || !selected(s.weekdays, date.dayOfWeek() % 7))
        return false;
    if (!anySelected(s.monthdays) || s.monthdays.at(std::size_t(date.day() - 1)))
        return true;
    // The last-day flag alone (pga_next_schedule checks for exactly this array).
    const bool onlyLast =
        s.monthdays.at(31) && std::count(s.monthdays.cbegin(), s.monthdays.cend(), true) == 1;
    return onlyLast && date.day() == date.daysInMonth();
}

QList<QDateTime> PgAgentCalendar::next(const PgAgentSchedule &s, const QDateTime &after,
                                       const QTimeZone &zone, int count)
{
    if (count > 1) { // each next one as the agent computes it when the one before fires
        QList<QDateTime> fires = next(s, after, zone, 1);
        while (!fires.isEmpty() && fires.size() < count) {
            const QList<QDateTime> more = next(s, fires.constLast(), zone, 1);
            if (more.isEmpty())
                break;
            fires << more.constFirst();
        }
        return fires;
    }
    QList<QDateTime> fires;
    // pgAgent starts at the later of "after + 1 minute" and the start, to the minute; with
    // nothing selected at all, pga_next_schedule() adds one more minute.
    QDateTime from = after.toTimeZone(zone).addSecs(60);
    if (s.start.isValid() && s.start.toTimeZone(zone) > from)
        from = s.start.toTimeZone(zone);
    from = QDateTime(from.date(), QTime(from.time().hour(), from.time().minute()), zone);
    if (!anySelected(s.minutes) && !anySelected(s.hours) && !anySelected(s.weekdays)
        && !anySelected(s.monthdays) && !anySelected(s.months))
        from = from.addSecs(60);
    const auto excepted = [&s](const QDateTime &at) {
        return std::any_of(s.exceptions.cbegin(), s.exceptions.cend(), [&at](const auto &e) {
            const bool date = !e.date.isValid() || e.date == at.date();
            const bool time = !e.time.isValid() || e.time == at.time();
            return date && time && (e.date.isValid() || e.time.isValid());
        });
    };
    constexpr int searchDays = 366 * 8; // every pattern repeats within 8 years (29 February)
    for (int day = 0; day < searchDays && fires.isEmpty(); ++day) {
        const QDate date = from.date().addDays(day);
        if (!dayMatches(s, date))
            continue;
        for (int hour = 0; hour < 24 && fires.isEmpty(); ++hour) {
            if (!selected(s.hours, hour))
                continue;
            for (int minute = 0; minute < 60 && fires.isEmpty(); ++minute) {
                if (!selected(s.minutes, minute))
                    continue;
                const QDateTime at(date, QTime(hour, minute), zone);
                if (at < from || (s.end.isValid() && at > s.end))
                    continue;
                if (!at.isValid() || at.time() != QTime(hour, minute))
                    continue; // a wall time a DST gap removes
                if (!excepted(at))
                    fires << at;
            }
        }
        if (s.end.isValid() && QDateTime(date, QTime(0, 0), zone) > s.end)
            break;
    }
    return fires;
}

Result<PgAgentCalendar::Cron> PgAgentCalendar::toCron(const PgAgentSchedule &s)
{
    if (!s.exceptions.isEmpty())
        return Error::invalid(
            tr("%n exception(s) have no cron form", nullptr, int(s.exceptions.size())));
    const bool someDays = std::any_of(s.monthdays.cbegin(), s.monthdays.cbegin() + 31,
                                      [](bool value) { return value; });
    const QString minutes = field(s.minutes, 0);
    const QString hours = field(s.hours, 0);
    const QString months = field(s.months, 1);
    const QString weekdays = field(s.weekdays, 0);
    if (s.monthdays.at(31)) {
        if (someDays)
            return Error::invalid(tr("the last day together with other days: pgAgent then never "
                                     "fires on the last day, which cron cannot say"));
        if (anySelected(s.weekdays))
            return Error::invalid(
                tr("the last day of the month on chosen weekdays has no cron form"));
        return Cron{QStringList{QStringLiteral("0"), minutes, hours, QStringLiteral("L"), months,
                                QStringLiteral("?")}
                        .join(QLatin1Char(' ')),
                    QStringLiteral("quartz")};
    }
    const QString days = field(s.monthdays, 1, 31);
    // Both restricted: pgAgent needs both to match, as pg_timetable's dialect does.
    const QString dialect = someDays && anySelected(s.weekdays) ? QStringLiteral("pgtimetable")
                                                                : QStringLiteral("unix");
    return Cron{QStringList{minutes, hours, days, months, weekdays}.join(QLatin1Char(' ')),
                dialect};
}

} // namespace hg
