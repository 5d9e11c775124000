#pragma once

#include "base/result.h"
#include "pgagenttypes.h"

#include <QCoreApplication>
#include <QTimeZone>

#include <optional>

namespace hg {

// A pgAgent schedule's fire times and its cron form. The fire times are
// pgagent.pga_next_schedule()'s, ported with its quirks: a minute fires when its month, day,
// weekday, hour and minute are each selected (an array with nothing selected means any), it is
// not an exception and lies within start and end, as that function finds it, which is not
// always the first such minute (see nextAfter()). Each fire after the first is the one the
// agent computes when the one before fires.
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
    // pga_next_schedule() itself: the fire it returns when its now() is NOW.
    static std::optional<QDateTime> nextAfter(const PgAgentSchedule &schedule, const QDateTime &now,
                                              const QTimeZone &zone);
};

} // namespace hg
