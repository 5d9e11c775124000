#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QString>
#include <QTimeZone>

namespace hg {

// How times, dates and durations read on screen, in one place for every view and the status
// bar, so a run's start reads the same in the runs table, the attempts and the log. Times
// show in the local zone unless a zone is given; day and month names follow the locale.
class DisplayFormat final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DisplayFormat)

public:
    DisplayFormat() = delete;

    // "14:03:07"
    static QString timeOfDay(const QDateTime &time);
    // "14:03:07.250": attempts that start within the same second stay apart.
    static QString preciseTimeOfDay(const QDateTime &time);
    // "2026-11-23 14:03:07"
    static QString dateTime(const QDateTime &time);
    // "2026-11-23 14:03:07.250"
    static QString preciseDateTime(const QDateTime &time);
    // "Mon 2026-11-23 14:03:07": fire times, where the weekday is what a schedule is about.
    static QString weekdayDateTime(const QDateTime &time);
    // "Mon 2026-11-23 06:30:00 CET": in the schedule's own zone, named.
    static QString zonedDateTime(const QDateTime &time, const QTimeZone &zone);
    // "Mon 14:03:07" within the coming six days, else "Mon 2026-12-07 14:03:07".
    static QString soon(const QDateTime &time, const QDateTime &now);
    // As soon(), in time's own zone, named: "Mon 06:30:00 CET" (a schedule in another zone).
    static QString soonZoned(const QDateTime &time, const QDateTime &now);
    // A time in a list of runs, as short as it can be unambiguous: "14:03:07" today,
    // "Mon 14:03:07" within six days of now, else "2026-11-16 14:03:07".
    static QString recent(const QDateTime &time, const QDateTime &now);
    // "Mon 23 Nov": a day heading.
    static QString day(QDate date);
    // "in 5 min 03 s", "2 h 01 min ago", "now" (under a second away).
    static QString relative(const QDateTime &time, const QDateTime &now);
    // "850 ms", "4.2 s", "3 min 07 s", "1 h 02 min", "2 d 03 h"; a negative span gets a "-".
    static QString duration(qint64 ms);

    // Every text above is empty for an invalid time.
};

} // namespace hg
