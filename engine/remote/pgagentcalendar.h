#pragma once

#include "base/result.h"
#include "pgagenttypes.h"

#include <QCoreApplication>
#include <QTimeZone>

namespace hg {

// A pgAgent schedule's fire times and its cron form. The fire times follow
// pgagent.pga_next_schedule(): a minute fires when its month, day, weekday, hour and minute
// are each selected (an array with nothing selected means any), it is not an exception, and
// it lies within start and end. pgAgent's "last day" flag counts only when it is the one day
// selected (the function's own check), which this keeps, and a schedule with nothing selected
// fires two minutes on, not one. Each fire after the first is the one the agent computes when
// the one before fires.
class PgAgentCalendar final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgAgentCalendar)

public:
    struct Cron
    {
        QString expression;
        QString dialect; // unix, or pgtimetable when weekday and day must both match
    };

    // Up to COUNT fire times after AFTER (exclusive, to the minute), in ZONE (the server's).
    static QList<QDateTime> next(const PgAgentSchedule &schedule, const QDateTime &after,
                                 const QTimeZone &zone, int count);
    // The cron expression firing at the same minutes, or why there is none.
    static Result<Cron> toCron(const PgAgentSchedule &schedule);

private:
    static bool dayMatches(const PgAgentSchedule &schedule, QDate date);
};

} // namespace hg
