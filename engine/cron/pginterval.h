#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// PostgreSQL interval text as pg_timetable's @every/@after take it ("10 seconds",
// "2 hours 30 minutes", "1 day 02:00:00", "1h30m", "P1DT2H", "@ 5 mins"), turned into whole
// seconds. As in PostgreSQL's interval-to-epoch, a month is 30 days and a year 365.25 days.
class PgInterval final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgInterval)

public:
    static Result<qint64> parseSeconds(const QString &text);
};

} // namespace hg
