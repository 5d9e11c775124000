#include "removedruns.h"

#include "base/enumnames.h"
#include "store.h"
#include "storequery.h"

#include <QDateTime>

namespace hg {

Status RemovedRuns::keep(const Store &store, RunsInFlight::Scope scope, qint64 id)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    StoreQuery prune(store, QStringLiteral("DELETE FROM removed_run WHERE removed_at < ?"));
    prune.bind(now - keptForMs);
    if (Status s = prune.exec(tr("prune the ends of removed runs")); !s)
        return s;
    const QString chains = scope == RunsInFlight::Scope::Chain
                               ? QStringLiteral("SELECT id FROM chain WHERE id = ?")
                               : QStringLiteral("SELECT id FROM chain WHERE project_id = ?");
    StoreQuery q(store, QStringLiteral("INSERT INTO removed_run (run_id, chain_id, state, "
                                       "finished_at, removed_at) SELECT id, chain_id, state, "
                                       "finished_at, ? FROM run WHERE chain_id IN (%1) AND "
                                       "finished_at >= ? ON CONFLICT (run_id) DO NOTHING")
                            .arg(chains));
    q.bind(now).bind(id).bind(now - endedWithinMs);
    return q.exec(tr("keep the ends of removed runs"));
}

Result<std::optional<Run>> RemovedRuns::end(const Store &store, qint64 runId)
{
    StoreQuery q(store, QStringLiteral("SELECT chain_id, state, finished_at FROM removed_run "
                                       "WHERE run_id = ?"));
    q.bind(runId);
    if (Status s = q.exec(tr("read the end of a removed run")); !s)
        return s.error();
    if (!q.next())
        return std::optional<Run>{};
    const std::optional<RunState> state = enumFromString<RunState>(q.text(1));
    if (!state)
        return std::optional<Run>{};
    Run run;
    run.id = runId;
    run.chainId = q.int64(0);
    run.state = *state;
    run.finishedAt = q.time(2);
    return std::optional<Run>{run};
}

} // namespace hg
