#pragma once

#include "base/result.h"
#include "crondialect.h"
#include "cronspec.h"

#include <QDateTime>
#include <QStringList>
#include <QTimeZone>

#include <optional>

namespace hg {

class ZoneRules;

// A schedule expression of any dialect, parsed once and then asked for fire times.
//
// DST policy (what cronie does; the README repeats it):
//  - A fire time that falls into a spring-forward gap runs once, at the first instant
//    after the gap.
//  - In a fall-back overlap, a schedule whose hour field is '*' or a step runs in both
//    hours; any other (fixed-time) schedule runs once, in the first of the two hours.
class CronExpression final
{
public:
    enum class Kind {
        Cron,   // calendar fields
        Every,  // pg_timetable @every INTERVAL: repeatedly, INTERVAL apart
        After,  // pg_timetable @after INTERVAL: INTERVAL after the previous run ends
        Reboot, // @reboot: once when the engine starts
    };

    // Parses text in the given dialect (Auto picks one and says so in detectionNote()).
    // Errors read like "cron: hour field (column 5): 24 is out of range 0-23".
    static Result<CronExpression> parse(const QString &text,
                                        CronDialect dialect = CronDialect::Auto);

    QString text() const { return m_text; }
    CronDialect dialect() const { return m_dialect; }
    Kind kind() const { return m_kind; }
    qint64 intervalSeconds() const { return m_intervalSeconds; }
    const CronSpec &spec() const { return m_spec; }
    // The fields as written (after macro expansion), seconds first when the dialect has them.
    const QStringList &fields() const { return m_fields; }
    QString detectionNote() const { return m_detectionNote; }

    // The first fire time strictly after `after`, as a time in `zone`; nullopt when there is
    // none before 2200 (or the kind has no fixed times: @after and @reboot need the engine).
    std::optional<QDateTime> next(const QDateTime &after, const QTimeZone &zone) const;
    // The last fire time strictly before `before`.
    std::optional<QDateTime> previous(const QDateTime &before, const QTimeZone &zone) const;

    // Seconds-since-epoch forms of next()/previous(), for the engine's hot path.
    std::optional<qint64> nextSeconds(qint64 afterUtc, const ZoneRules &zone) const;
    std::optional<qint64> previousSeconds(qint64 beforeUtc, const ZoneRules &zone) const;

    // Wall-clock ("naive") search: the first matching local time strictly after / the last
    // strictly before `naive`, in seconds as if local time were UTC.
    std::optional<qint64> nextNaive(qint64 naive) const;
    std::optional<qint64> previousNaive(qint64 naive) const;
    bool dayMatches(int year, int month, int day) const;

private:
    friend class CronParser;
    CronExpression() = default;
    // Day matching from the month's length and the weekday of the day (0 = Sunday).
    static bool dayMatchesShape(const CronSpec &spec, int daysInMonth, int weekday, int day);

    QString m_text;
    CronDialect m_dialect = CronDialect::Unix;
    Kind m_kind = Kind::Cron;
    qint64 m_intervalSeconds = 0;
    CronSpec m_spec;
    QStringList m_fields;
    QString m_detectionNote;
};

} // namespace hg
