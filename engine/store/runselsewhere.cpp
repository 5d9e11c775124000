#include "runselsewhere.h"

#include "storequery.h"

namespace hg {

QString RunsElsewhere::condition(const QList<qint64> &alsoRuns)
{
    return QStringLiteral("(run_id IN (SELECT id FROM run WHERE state IN ('running', 'waiting', "
                          "'paused') AND owner_session IS DISTINCT FROM ?)%1)")
        .arg(alsoRuns.isEmpty()
                 ? QString()
                 : QStringLiteral(" OR run_id IN (%1)").arg(StoreQuery::idList(alsoRuns)));
}

QString RunsElsewhere::lineCondition(const QList<qint64> &alsoRuns)
{
    // By the attempt's primary key, line by line: only lines newer than the last look are
    // tested, never every attempt ever hosted.
    return QStringLiteral("(%1 OR EXISTS (SELECT 1 FROM task_run t WHERE t.id = "
                          "log_line.task_run_id AND t.worker_session IS NOT NULL AND "
                          "t.worker_session <> ?))")
        .arg(condition(alsoRuns));
}

} // namespace hg
