#include "pgagentcalendar.h"

#include <QStringList>

#include <algorithm>
#include <optional>

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

// "0,15,30" or "1-5" from the selected indices plus OFFSET, "*" when none is selected. Three
// or more in a row become a range, as a person writes them.
template<std::size_t N>
QString field(const std::array<bool, N> &values, int offset, std::size_t count = N)
{
    QStringList items;
    for (std::size_t i = 0; i < count; ++i) {
        if (!values.at(i))
            continue;
        std::size_t last = i;
        while (last + 1 < count && values.at(last + 1))
            ++last;
        const QString first = QString::number(int(i) + offset);
        if (last >= i + 2) {
            items << first + QLatin1Char('-') + QString::number(int(last) + offset);
            i = last;
        } else {
            items << first;
        }
    }
    return items.isEmpty() ? QStringLiteral("*") : items.join(QLatin1Char(','));
}

} // namespace

QList<QDateTime> PgAgentCalendar::next(const PgAgentSchedule &s, const QDateTime &after,
                                       const QTimeZone &zone, int count)
{
    // Each next one as the agent computes it: when the one before fires.
    QList<QDateTime> fires;
    QDateTime from = after;
    while (fires.size() < count) {
        const std::optional<QDateTime> fire = nextAfter(s, from, zone);
        if (!fire)
            break;
        fires << *fire;
        from = *fire;
    }
    return fires;
}

// A port of pgagent.pga_next_schedule() (pgagent--4.2.sql), step by step: it works on the
// session's wall time (timestamp without time zone) and has quirks that decide real fire
// times, so they are kept. Among them: after moving to a later hour, day or month it looks
// for minutes from the current minute on, not from 0; "the last day" counts alone only, and
// in a leap year the 28th of February counts too; with nothing selected it adds a minute.
// Wall times are carried in QDateTime's UTC spec, which has no DST: naive arithmetic.
std::optional<QDateTime> PgAgentCalendar::nextAfter(const PgAgentSchedule &s, const QDateTime &now,
                                                    const QTimeZone &zone)
{
    const auto wall = [&zone](const QDateTime &at) {
        const QDateTime local = at.toTimeZone(zone);
        return QDateTime(local.date(), QTime(local.time().hour(), local.time().minute()), Qt::UTC);
    };
    const auto instant = [&zone](const QDateTime &naive) {
        return QDateTime(naive.date(), naive.time(), zone);
    };
    const auto daysIn = [](int year, int month) {
        return QDate(year, month, 1).daysInMonth();
    };
    if (!s.start.isValid())
        return std::nullopt;
    if (s.end.isValid() && s.end < now)
        return std::nullopt;
    const QDateTime start = wall(s.start);
    const QDateTime soonest = wall(now.addSecs(60));
    QDateTime runafter = start > soonest ? start : soonest;

    bool foundval = false;
    bool daytweak = false;
    bool minutetweak = false;
    for (int round = 0; round < 1000000; ++round) {
        const QDate afterDate = runafter.date();
        const QTime afterTime = runafter.time();
        int year = afterDate.year();
        int month = afterDate.month();
        bool gotit = false;
        for (int i = month; i <= 12 && !gotit; ++i) {
            if (s.months.at(std::size_t(i - 1))) {
                month = i;
                gotit = foundval = true;
            }
        }
        for (int i = 1; i <= month - 1 && !gotit; ++i) {
            if (s.months.at(std::size_t(i - 1))) {
                month = i;
                ++year;
                gotit = foundval = true;
            }
        }
        int day = 0;
        if (year > afterDate.year() || month > afterDate.month()) {
            day = 1;
            for (int i = 1; i <= 32; ++i) {
                if (s.monthdays.at(std::size_t(i - 1))) {
                    day = i;
                    foundval = true;
                    break;
                }
            }
        } else {
            day = afterDate.day();
            gotit = false;
            for (int i = day; i <= 32 && !gotit; ++i) {
                if (s.monthdays.at(std::size_t(i - 1))) {
                    day = i;
                    gotit = foundval = true;
                }
            }
            for (int i = 1; i <= day - 1 && !gotit; ++i) {
                if (s.monthdays.at(std::size_t(i - 1))) {
                    day = i;
                    if (month == 12) {
                        ++year;
                        month = 1;
                    } else {
                        ++month;
                    }
                    gotit = foundval = true;
                }
            }
        }
        if (day == 32)
            day = daysIn(year, month);
        const auto nextDay = [&] {
            if (day == daysIn(year, month)) {
                day = 1;
                if (month == 12) {
                    ++year;
                    month = 1;
                } else {
                    ++month;
                }
            } else {
                ++day;
            }
        };
        int hour = 0;
        if (year > afterDate.year() || month > afterDate.month() || day > afterDate.day()
            || daytweak) {
            for (int i = 1; i <= 24; ++i) {
                if (s.hours.at(std::size_t(i - 1))) {
                    hour = i - 1;
                    foundval = true;
                    break;
                }
            }
        } else {
            hour = afterTime.hour();
            gotit = false;
            for (int i = hour + 1; i <= 24 && !gotit; ++i) {
                if (s.hours.at(std::size_t(i - 1))) {
                    hour = i - 1;
                    gotit = foundval = true;
                }
            }
            for (int i = 1; i <= hour && !gotit; ++i) {
                if (s.hours.at(std::size_t(i - 1))) {
                    hour = i - 1;
                    nextDay();
                    gotit = foundval = true;
                }
            }
        }
        int minute = 0;
        if (year > afterDate.year() || month > afterDate.month() || day > afterDate.day()
            || hour > afterTime.hour() || daytweak) {
            for (int i = minutetweak ? 1 : qMax(1, afterTime.minute()); i <= 60; ++i) {
                if (s.minutes.at(std::size_t(i - 1))) {
                    minute = i - 1;
                    foundval = true;
                    break;
                }
            }
        } else {
            minute = afterTime.minute();
            gotit = false;
            for (int i = minute + 1; i <= 60 && !gotit; ++i) {
                if (s.minutes.at(std::size_t(i - 1))) {
                    minute = i - 1;
                    gotit = foundval = true;
                }
            }
            for (int i = 1; i <= minute && !gotit; ++i) {
                if (s.minutes.at(std::size_t(i - 1))) {
                    minute = i - 1;
                    if (hour == 23) {
                        hour = 0;
                        nextDay();
                    } else {
                        ++hour;
                    }
                    gotit = foundval = true;
                }
            }
        }
        const QDate date(year, month, day);
        if (!date.isValid())
            return std::nullopt; // pgAgent fails here too: "date/time field value out of range"
        QDateTime nextrun(date, QTime(hour, minute), Qt::UTC);
        if (nextrun == runafter && !foundval)
            nextrun = nextrun.addSecs(60);
        if (s.end.isValid() && instant(nextrun) > s.end)
            return std::nullopt;

        const QDate d = nextrun.date();
        const bool onlyLast =
            s.monthdays.at(31) && std::count(s.monthdays.cbegin(), s.monthdays.cend(), true) == 1;
        const bool lastDay = d.month() == 2
                                 ? (QDate::isLeapYear(d.year()) && d.day() == 29) || d.day() == 28
                                 : d.day() == d.daysInMonth();
        const bool valid = selected(s.minutes, nextrun.time().minute())
                           && selected(s.hours, nextrun.time().hour())
                           && (!anySelected(s.monthdays) || s.monthdays.at(std::size_t(d.day() - 1))
                               || (onlyLast && lastDay))
                           && selected(s.months, d.month() - 1);
        if (!valid) {
            runafter = nextrun.addSecs(60);
            minutetweak = true;
            daytweak = false;
            continue;
        }
        if (!selected(s.weekdays, d.dayOfWeek() % 7)) {
            runafter = nextrun.addDays(1);
            minutetweak = false;
            daytweak = true;
            continue;
        }
        const bool excepted =
            std::any_of(s.exceptions.cbegin(), s.exceptions.cend(), [&](const auto &e) {
                return (e.date == d && e.time == nextrun.time())
                       || (e.date == d && !e.time.isValid())
                       || (!e.date.isValid() && e.time == nextrun.time());
            });
        if (excepted) {
            runafter = nextrun.addSecs(60);
            minutetweak = true;
            daytweak = false;
            continue;
        }
        return instant(nextrun);
    }
    return std::nullopt;
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
