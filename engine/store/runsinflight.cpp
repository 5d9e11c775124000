#include "runsinflight.h"

#include "store.h"
#include "storequery.h"

#include <QStringList>

namespace hg {
namespace {

constexpr QLatin1String unfinished{"('queued', 'waiting', 'running', 'paused')"};

QString chainsOf(RunsInFlight::Scope scope)
{
    return scope == RunsInFlight::Scope::Chain
               ? QStringLiteral("SELECT id FROM chain WHERE id = ?")
               : QStringLiteral("SELECT id FROM chain WHERE project_id = ?");
}

} // namespace

Result<QList<qint64>> RunsInFlight::ids(const Store &store, Scope scope, qint64 id, int limit)
{
    StoreQuery q(store, QStringLiteral("SELECT id FROM run WHERE chain_id IN (%1) AND state IN "
                                       "%2 ORDER BY id LIMIT %3")
                            .arg(chainsOf(scope), unfinished)
                            .arg(limit));
    q.bind(id);
    if (Status s = q.exec(tr("read the runs in flight")); !s)
        return s.error();
    QList<qint64> found;
    while (q.next())
        found << q.int64(0);
    return found;
}

Status RunsInFlight::refuseRemoval(const Store &store, Scope scope, qint64 id, const QString &what)
{
    if (store.backend() == StoreBackend::PostgreSql) {
        // Held to the commit: an engine queuing a run of these chains waits, then finds them
        // gone (its foreign key fails), instead of a run cascading away unseen.
        StoreQuery lock(store, chainsOf(scope) + QStringLiteral(" FOR UPDATE"));
        lock.bind(id);
        if (Status s = lock.exec(tr("lock %1").arg(what)); !s)
            return s;
    }
    const Result<QList<qint64>> running = ids(store, scope, id);
    if (!running)
        return running.error();
    if (running->isEmpty())
        return {};
    QStringList names;
    for (const qint64 run : running.value())
        names << QString::number(run);
    return Error::invalid(tr("%1 has runs that have not ended (%2): stop them first (hourglass "
                             "stop RUN_ID) or wait for them to end")
                              .arg(what, names.join(QLatin1String(", "))));
}

} // namespace hg
