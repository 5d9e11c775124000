#pragma once

#include "base/result.h"
#include "domain/calendar.h"

#include <QByteArray>
#include <QCoreApplication>

namespace hg {

// The days of an iCalendar file's events (public holidays, a works calendar) as calendar
// ranges, each with its summary. libical reads the file and expands recurring events
// (RRULE, RDATE, EXDATE) up to the end of `lastYear`; a timed event covers the days it
// touches in its own time. A file libical cannot read, or one without events, is an error.
class ICalendarReader final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ICalendarReader)

public:
    static Result<QList<Calendar::Range>> read(const QByteArray &ics, int lastYear = 2100);
};

} // namespace hg
