#pragma once

#include <bitset>
#include <cstdint>

namespace hg {

// A parsed cron expression as bit sets, in one form for every dialect. Day-of-week is
// 0 = Sunday .. 6 = Saturday whatever the dialect wrote.
struct CronSpec
{
    // How day-of-month and day-of-week combine.
    enum class DayRule {
        Either,         // unix/seconds with both restricted (Vixie/cronie)
        Both,           // pg_timetable always; unix when either field starts with '*'
        DayOfMonthOnly, // Quartz: day-of-week is '?'
        DayOfWeekOnly,  // Quartz: day-of-month is '?'
    };

    std::uint64_t seconds = 0;     // bits 0..59
    std::uint64_t minutes = 0;     // bits 0..59
    std::uint32_t hours = 0;       // bits 0..23
    std::uint32_t daysOfMonth = 0; // bits 1..31
    std::uint16_t months = 0;      // bits 1..12
    std::uint8_t daysOfWeek = 0;   // bits 0..6

    // Quartz day-of-month specials.
    bool lastDayOfMonth = false; // L, L-n, LW
    int lastDayOffset = 0;       // n of L-n
    bool nearestWeekday = false; // nW, LW: the weekday nearest that day, within the month
    // Quartz day-of-week specials, on the single day in daysOfWeek.
    int nthWeekday = 0;              // d#n: the n-th such day of the month (1..5)
    bool lastWeekdayOfMonth = false; // dL: the last such day of the month

    DayRule dayRule = DayRule::Both;
    bool dayOfMonthStar = true; // field text starts with '*' (cronie's DOM_STAR)
    bool dayOfWeekStar = true;  // (cronie's DOW_STAR)
    // The hour field is '*' or a step: such a schedule runs in both hours of a DST overlap.
    bool repeatsInOverlap = false;
    // The minute or hour field starts with '*' (cronie's MIN_STAR | HR_STAR): a "wildcard job",
    // which cronie's DST rule treats apart from fixed-time jobs.
    bool cronieWildcard = false;
    // Every fire time is on a whole minute (the seconds field, where there is one, is 0).
    bool wholeMinutes = true;

    // Quartz years 1970..2099; anyYear when the field is absent or '*'.
    static constexpr int firstYear = 1970;
    static constexpr int lastYear = 2099;
    bool anyYear = true;
    std::bitset<lastYear - firstYear + 1> years;

    bool yearAllowed(int year) const
    {
        if (anyYear)
            return true;
        return year >= firstYear && year <= lastYear && years.test(std::size_t(year - firstYear));
    }
};

} // namespace hg
