#include "cronexpression.h"

#include "civiltime.h"
#include "cronparser.h"
#include "zonerules.h"

#include <bit>

namespace hg {
namespace {

using civil::secondsPerDay;
using civil::secondsPerHour;
using civil::secondsPerMinute;

// Fire times are looked for up to this year; beyond it a schedule counts as finished.
constexpr int searchYearLimit = 2200;

// The lowest set bit at or above `from` (or -1); the highest at or below (or -1).
int nextBit(std::uint64_t bits, int from)
{
    if (from > 63)
        return -1;
    const std::uint64_t masked = bits & (~std::uint64_t(0) << from);
    return masked ? std::countr_zero(masked) : -1;
}

int previousBit(std::uint64_t bits, int from)
{
    if (from < 0)
        return -1;
    const std::uint64_t masked = from >= 63 ? bits : bits & ((std::uint64_t(2) << from) - 1);
    return masked ? 63 - std::countl_zero(masked) : -1;
}

// The weekday nearest `day` inside the month (Quartz W): Saturday moves to Friday, Sunday to
// Monday, but never across the month's edge.
int nearestWeekdayOf(int day, int daysInMonth, int weekdayOfDay)
{
    if (weekdayOfDay == 6)
        return day == 1 ? day + 2 : day - 1;
    if (weekdayOfDay == 0)
        return day == daysInMonth ? day - 2 : day + 1;
    return day;
}

struct Clock
{
    std::int64_t days; // days since 1970-01-01
    int year, month, day, hour, minute, second;

    static Clock fromSeconds(std::int64_t seconds)
    {
        const std::int64_t days = civil::floorDiv(seconds, secondsPerDay);
        const int inDay = int(seconds - days * secondsPerDay);
        const civil::Date date = civil::civilFromDays(days);
        return {days, date.year, date.month, date.day, inDay / 3600, inDay / 60 % 60, inDay % 60};
    }
    static std::int64_t toSeconds(int year, int month, int day, int hour, int minute, int second)
    {
        return civil::daysFromCivil(year, month, day) * secondsPerDay + hour * secondsPerHour
               + minute * secondsPerMinute + second;
    }
};

} // namespace

Result<CronExpression> CronExpression::parse(const QString &text, CronDialect dialect)
{
    return CronParser::parse(text, dialect);
}

bool CronExpression::dayMatchesShape(const CronSpec &spec, int daysInMonth, int weekday, int day)
{
    const auto dayOfMonthMatches = [&] {
        if (spec.lastDayOfMonth || spec.nearestWeekday) {
            int target = spec.lastDayOfMonth ? daysInMonth - spec.lastDayOffset
                                             : std::countr_zero(spec.daysOfMonth);
            if (target < 1 || target > daysInMonth)
                return false;
            if (spec.nearestWeekday) {
                const int targetWeekday = ((weekday + target - day) % 7 + 7) % 7;
                target = nearestWeekdayOf(target, daysInMonth, targetWeekday);
            }
            return day == target;
        }
        return (spec.daysOfMonth >> day & 1) != 0;
    };
    const auto dayOfWeekMatches = [&] {
        if (!(spec.daysOfWeek >> weekday & 1))
            return false;
        if (spec.nthWeekday > 0)
            return (day - 1) / 7 + 1 == spec.nthWeekday;
        if (spec.lastWeekdayOfMonth)
            return day + 7 > daysInMonth;
        return true;
    };
    switch (spec.dayRule) {
    case CronSpec::DayRule::Either:
        return dayOfMonthMatches() || dayOfWeekMatches();
    case CronSpec::DayRule::Both:
        return dayOfMonthMatches() && dayOfWeekMatches();
    case CronSpec::DayRule::DayOfMonthOnly:
        return dayOfMonthMatches();
    case CronSpec::DayRule::DayOfWeekOnly:
        return dayOfWeekMatches();
    }
    return false;
}

bool CronExpression::dayMatches(int year, int month, int day) const
{
    const std::int64_t days = civil::daysFromCivil(year, month, day);
    return dayMatchesShape(m_spec, civil::daysInMonth(year, month), civil::weekdayFromDays(days),
                           day);
}

std::optional<qint64> CronExpression::nextNaive(qint64 naive) const
{
    if (m_kind != Kind::Cron)
        return std::nullopt;
    const CronSpec &s = m_spec;
    Clock c = Clock::fromSeconds(naive + 1);
    // Each step either accepts the current unit or moves to the start of the next candidate
    // unit and starts over; every restart moves strictly forward.
    for (;;) {
        if (c.year > searchYearLimit)
            return std::nullopt;
        if (!s.yearAllowed(c.year)) {
            if (!s.anyYear && c.year >= CronSpec::lastYear)
                return std::nullopt;
            c = Clock::fromSeconds(Clock::toSeconds(c.year + 1, 1, 1, 0, 0, 0));
            continue;
        }
        const int month = nextBit(s.months, c.month);
        if (month != c.month) {
            c = month < 0 ? Clock::fromSeconds(Clock::toSeconds(c.year + 1, 1, 1, 0, 0, 0))
                          : Clock::fromSeconds(Clock::toSeconds(c.year, month, 1, 0, 0, 0));
            continue;
        }
        if (!dayMatches(c.year, c.month, c.day)) {
            const int length = civil::daysInMonth(c.year, c.month);
            int day = c.day + 1;
            while (day <= length && !dayMatches(c.year, c.month, day))
                ++day;
            c = day > length ? Clock::fromSeconds(Clock::toSeconds(c.year, c.month, length, 0, 0, 0)
                                                  + secondsPerDay)
                             : Clock::fromSeconds(Clock::toSeconds(c.year, c.month, day, 0, 0, 0));
            continue;
        }
        const std::int64_t dayStart = c.days * secondsPerDay;
        const int hour = nextBit(s.hours, c.hour);
        if (hour < 0) {
            c = Clock::fromSeconds(dayStart + secondsPerDay);
            continue;
        }
        if (hour != c.hour) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour);
            continue;
        }
        const int minute = nextBit(s.minutes, c.minute);
        if (minute < 0) {
            c = Clock::fromSeconds(dayStart + (hour + 1) * secondsPerHour);
            continue;
        }
        if (minute != c.minute) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour + minute * secondsPerMinute);
            continue;
        }
        const int second = nextBit(s.seconds, c.second);
        if (second < 0) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour
                                   + (minute + 1) * secondsPerMinute);
            continue;
        }
        return dayStart + hour * secondsPerHour + minute * secondsPerMinute + second;
    }
}

std::optional<qint64> CronExpression::previousNaive(qint64 naive) const
{
    if (m_kind != Kind::Cron)
        return std::nullopt;
    const CronSpec &s = m_spec;
    Clock c = Clock::fromSeconds(naive - 1);
    // The mirror image of nextNaive(): each restart moves to the end of an earlier unit.
    for (;;) {
        if (c.year < CronSpec::firstYear - 70)
            return std::nullopt;
        if (!s.yearAllowed(c.year)) {
            if (!s.anyYear && c.year <= CronSpec::firstYear)
                return std::nullopt;
            c = Clock::fromSeconds(Clock::toSeconds(c.year, 1, 1, 0, 0, 0) - 1);
            continue;
        }
        const int month = previousBit(s.months, c.month);
        if (month != c.month) {
            c = month < 0 ? Clock::fromSeconds(Clock::toSeconds(c.year, 1, 1, 0, 0, 0) - 1)
                          : Clock::fromSeconds(Clock::toSeconds(
                              c.year, month, civil::daysInMonth(c.year, month), 23, 59, 59));
            continue;
        }
        if (!dayMatches(c.year, c.month, c.day)) {
            int day = c.day - 1;
            while (day >= 1 && !dayMatches(c.year, c.month, day))
                --day;
            c = day < 1 ? Clock::fromSeconds(Clock::toSeconds(c.year, c.month, 1, 0, 0, 0) - 1)
                        : Clock::fromSeconds(Clock::toSeconds(c.year, c.month, day, 23, 59, 59));
            continue;
        }
        const std::int64_t dayStart = c.days * secondsPerDay;
        const int hour = previousBit(s.hours, c.hour);
        if (hour < 0) {
            c = Clock::fromSeconds(dayStart - 1);
            continue;
        }
        if (hour != c.hour) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour + 3599);
            continue;
        }
        const int minute = previousBit(s.minutes, c.minute);
        if (minute < 0) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour - 1);
            continue;
        }
        if (minute != c.minute) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour + minute * secondsPerMinute
                                   + 59);
            continue;
        }
        const int second = previousBit(s.seconds, c.second);
        if (second < 0) {
            c = Clock::fromSeconds(dayStart + hour * secondsPerHour + minute * secondsPerMinute
                                   - 1);
            continue;
        }
        return dayStart + hour * secondsPerHour + minute * secondsPerMinute + second;
    }
}

CronExpression::GapRule CronExpression::gapRule(DstPolicy dst) const
{
    switch (dst.gap) {
    case DstPolicy::Gap::RunAfter:
        return GapRule::RunAfter;
    case DstPolicy::Gap::Skip:
        return GapRule::Skip;
    case DstPolicy::Gap::Cronie:
        return m_spec.cronieWildcard ? GapRule::Skip : GapRule::Slots;
    }
    return GapRule::RunAfter;
}

bool CronExpression::repeatsInOverlap(DstPolicy dst) const
{
    switch (dst.overlap) {
    case DstPolicy::Overlap::Once:
        return m_spec.repeatsInOverlap;
    case DstPolicy::Overlap::Both:
        return true;
    case DstPolicy::Overlap::Cronie:
        return m_spec.cronieWildcard;
    }
    return m_spec.repeatsInOverlap;
}

namespace {
// cronie catches up at most a minute's worth of fire times after a gap: beyond 60 skipped
// matches (only a gap of more than an hour has them) the rest share the minute's last second.
constexpr int maxGapSlot = 59;
} // namespace

std::optional<qint64> CronExpression::gapSlotAfter(qint64 gapStartLocal, qint64 gapEndLocal,
                                                   qint64 at, qint64 after) const
{
    int k = 0;
    for (auto match = nextNaive(gapStartLocal - 1); match && *match <= gapEndLocal;
         match = nextNaive(*match), ++k) {
        const qint64 slot = at + std::min(k, maxGapSlot);
        if (slot > after)
            return slot;
    }
    return std::nullopt;
}

std::optional<qint64> CronExpression::gapSlotBefore(qint64 gapStartLocal, qint64 gapEndLocal,
                                                    qint64 at, qint64 before) const
{
    std::optional<qint64> last;
    int k = 0;
    for (auto match = nextNaive(gapStartLocal - 1); match && *match <= gapEndLocal;
         match = nextNaive(*match), ++k) {
        const qint64 slot = at + std::min(k, maxGapSlot);
        if (slot >= before)
            break;
        last = slot;
    }
    return last;
}

std::optional<qint64> CronExpression::nextSeconds(qint64 after, const ZoneRules &zone,
                                                  DstPolicy dst) const
{
    if (m_kind == Kind::Every || m_kind == Kind::After)
        return after + m_intervalSeconds;
    if (m_kind == Kind::Reboot)
        return std::nullopt;
    const GapRule gaps = gapRule(dst);
    const bool repeat = repeatsInOverlap(dst);
    // Walk the zone's constant-offset periods forward from the one holding `after`. Inside a
    // period local time maps one-to-one; at its start there may be a gap (spring forward) or
    // the second pass through an overlap (fall back).
    for (qsizetype i = zone.periodIndexAt(after); i < zone.periodCount(); ++i) {
        const ZoneRules::Period &p = zone.period(i);
        const int previousOffset = i > 0 ? zone.period(i - 1).offset : p.offset;
        qint64 searchFrom = p.start > after ? p.start - 1 : after;
        if (p.offset > previousOffset) {
            // Local times in [gapStart, gapEnd) never happen; gapEnd is the instant p.start.
            const qint64 gapStart = p.start + previousOffset;
            const qint64 gapEnd = p.start + p.offset;
            if (gaps == GapRule::RunAfter && p.start > after) {
                const auto inGap = nextNaive(gapStart - 1);
                if (!inGap)
                    return std::nullopt;
                if (*inGap < gapEnd)
                    return p.start;
            } else if (gaps == GapRule::Slots && after < p.start + maxGapSlot + 1) {
                if (const auto slot = gapSlotAfter(gapStart, gapEnd, p.start, after))
                    return slot;
                // The gap's end minute was a slot of its own: the period's fires follow it.
                searchFrom = std::max<qint64>(searchFrom, p.start);
            }
        }
        std::optional<qint64> candidate = nextNaive(searchFrom + p.offset);
        while (candidate) {
            const qint64 instant = *candidate - p.offset;
            if (instant >= p.end)
                break;
            const bool secondPass =
                p.offset < previousOffset && *candidate < p.start + previousOffset;
            if (!secondPass || repeat)
                return instant;
            candidate = nextNaive(*candidate); // a fixed time already ran in the first pass
        }
        if (!candidate)
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<qint64> CronExpression::previousSeconds(qint64 before, const ZoneRules &zone,
                                                      DstPolicy dst) const
{
    if (m_kind == Kind::Every || m_kind == Kind::After)
        return before - m_intervalSeconds;
    if (m_kind == Kind::Reboot)
        return std::nullopt;
    const GapRule gaps = gapRule(dst);
    const bool repeat = repeatsInOverlap(dst);
    for (qsizetype i = zone.periodIndexAt(before - 1); i >= 0; --i) {
        const ZoneRules::Period &p = zone.period(i);
        const int previousOffset = i > 0 ? zone.period(i - 1).offset : p.offset;
        const bool gap = p.offset > previousOffset;
        const qint64 limit = std::min<qint64>(before, p.end);
        // After cronie's catch-up the period's own fires start past the gap's end minute.
        const qint64 floor = gap && gaps == GapRule::Slots ? p.start + 1 : p.start;
        std::optional<qint64> candidate = previousNaive(limit + p.offset);
        while (candidate) {
            const qint64 instant = *candidate - p.offset;
            if (instant < floor)
                break;
            const bool secondPass =
                p.offset < previousOffset && *candidate < p.start + previousOffset;
            if (!secondPass || repeat)
                return instant;
            candidate = previousNaive(*candidate);
        }
        if (gap && p.start < before) {
            const qint64 gapStart = p.start + previousOffset;
            const qint64 gapEnd = p.start + p.offset;
            if (gaps == GapRule::RunAfter) {
                const auto inGap = nextNaive(gapStart - 1);
                if (inGap && *inGap < gapEnd)
                    return p.start;
            } else if (gaps == GapRule::Slots) {
                if (const auto slot = gapSlotBefore(gapStart, gapEnd, p.start, before))
                    return slot;
            }
        }
        if (!candidate)
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<QDateTime> CronExpression::next(const QDateTime &after, const QTimeZone &zone,
                                              DstPolicy dst) const
{
    const std::shared_ptr<const ZoneRules> rules = ZoneRules::forZone(zone);
    // Whole seconds: a fire time is strictly after `after`, also when `after` has milliseconds.
    const qint64 from = civil::floorDiv(after.toMSecsSinceEpoch(), 1000);
    const std::optional<qint64> found = nextSeconds(from, *rules, dst);
    if (!found)
        return std::nullopt;
    return QDateTime::fromSecsSinceEpoch(*found, zone);
}

std::optional<QDateTime> CronExpression::previous(const QDateTime &before, const QTimeZone &zone,
                                                  DstPolicy dst) const
{
    const std::shared_ptr<const ZoneRules> rules = ZoneRules::forZone(zone);
    // Ceiling: a time with milliseconds still counts its own whole second as "before".
    const qint64 until = -civil::floorDiv(-before.toMSecsSinceEpoch(), 1000);
    const std::optional<qint64> found = previousSeconds(until, *rules, dst);
    if (!found)
        return std::nullopt;
    return QDateTime::fromSecsSinceEpoch(*found, zone);
}

} // namespace hg
