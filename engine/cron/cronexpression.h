#pragma once

#include "base/result.h"
#include "crondialect.h"
#include "cronspec.h"
#include "dstpolicy.h"

#include <QDateTime>
#include <QStringList>
#include <QTimeZone>

#include <optional>

namespace hg {

class ZoneRules;

// A schedule expression of any dialect, parsed once and then asked for fire times.
//
// DST, as DstPolicy chooses per schedule (the README repeats it). By default:
//  - A fire time that falls into a spring-forward gap runs once, at the first instant
//    after the gap (however many the gap removed); DstPolicy::Gap::Skip drops them.
//  - In a fall-back overlap, a schedule whose hour field is '*' or a step runs in both
//    hours; any other (fixed-time) schedule runs once, in the first of the two hours.
//    DstPolicy::Overlap::Both runs every matching wall time at both instants.
// DstPolicy::cronie() does what cronie's src/cron.c does (find_jobs, and the "medium" and
// "negative" time jumps of its main loop): a job whose minute or hour field starts with '*' is
// a wildcard job, any other a fixed-time job.
//  - Gap: the fixed-time job runs right after it once for each skipped minute it matches, in
//    order, then for the gap's end minute if it matches that too; cronie runs them one after
//    another, here they are one second apart (the first at the gap's end) so that each is a
//    fire time of its own. A wildcard job does not run for the skipped minutes.
//  - Overlap: wildcard jobs run in both passes, fixed-time jobs in the first only.
// cronie counts in minutes: the validator allows the cronie policy on whole-minute
// expressions only.
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
    std::optional<QDateTime> next(const QDateTime &after, const QTimeZone &zone,
                                  DstPolicy dst = {}) const;
    // The last fire time strictly before `before`.
    std::optional<QDateTime> previous(const QDateTime &before, const QTimeZone &zone,
                                      DstPolicy dst = {}) const;

    // Seconds-since-epoch forms of next()/previous(), for the engine's hot path.
    std::optional<qint64> nextSeconds(qint64 afterUtc, const ZoneRules &zone,
                                      DstPolicy dst = {}) const;
    std::optional<qint64> previousSeconds(qint64 beforeUtc, const ZoneRules &zone,
                                          DstPolicy dst = {}) const;

    // How DST changes treat this expression under a policy.
    enum class GapRule { RunAfter, Skip, Slots }; // Slots: cronie's fixed-time catch-up
    GapRule gapRule(DstPolicy dst) const;
    bool repeatsInOverlap(DstPolicy dst) const;

    // Wall-clock ("naive") search: the first matching local time strictly after / the last
    // strictly before `naive`, in seconds as if local time were UTC.
    std::optional<qint64> nextNaive(qint64 naive) const;
    std::optional<qint64> previousNaive(qint64 naive) const;
    bool dayMatches(int year, int month, int day) const;

private:
    friend class CronParser;
    CronExpression() = default;
    // cronie's catch-up after a gap whose wall times [gapStartLocal, gapEndLocal) never
    // happened and whose end is the instant `at`: each match in [gapStartLocal, gapEndLocal]
    // takes the next second from `at`. The first such fire time after / last before the limit.
    std::optional<qint64> gapSlotAfter(qint64 gapStartLocal, qint64 gapEndLocal, qint64 at,
                                       qint64 after) const;
    std::optional<qint64> gapSlotBefore(qint64 gapStartLocal, qint64 gapEndLocal, qint64 at,
                                        qint64 before) const;
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
