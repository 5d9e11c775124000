#include "dependencyrepository.h"

#include "domain/dependencygraph.h"
#include "store.h"
#include "storequery.h"
#include "taskrepository.h"

#include <QHash>

namespace hg {

Status DependencyRepository::add(qint64 chainId, qint64 taskId, qint64 upstreamId,
                                 DependencyCondition condition)
{
    return m_store.transaction([&]() -> Status {
        const Result<QList<Task>> tasks = TaskRepository(m_store).list(chainId);
        if (!tasks)
            return tasks.error();
        QHash<qint64, QString> names;
        for (const Task &task : tasks.value())
            names.insert(task.id, task.name);
        if (!names.contains(taskId) || !names.contains(upstreamId))
            return Error::invalid(tr("a dependency joins two tasks of the same chain"));
        const Result<QList<Dependency>> edges = list(chainId);
        if (!edges)
            return edges.error();
        for (const Dependency &edge : edges.value()) {
            if (edge.taskId == taskId && edge.upstreamId == upstreamId)
                return Error::exists(tr("'%1' already depends on '%2'")
                                         .arg(names.value(taskId), names.value(upstreamId)));
        }
        const QStringList cycle =
            DependencyGraph(names, edges.value()).cycleIfAdded(taskId, upstreamId);
        if (!cycle.isEmpty())
            return DependencyGraph::cycleError(cycle);
        StoreQuery q(m_store, QStringLiteral("INSERT INTO dependency (task_id, upstream_id, "
                                             "condition) VALUES (?, ?, ?)"));
        q.bind(taskId).bind(upstreamId).bind(enumName(condition));
        return q.exec(tr("add dependency"));
    });
}

Status DependencyRepository::remove(qint64 taskId, qint64 upstreamId)
{
    StoreQuery q(m_store,
                 QStringLiteral("DELETE FROM dependency WHERE task_id = ? AND upstream_id = ?"));
    q.bind(taskId).bind(upstreamId);
    if (Status s = q.exec(tr("remove dependency")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("no such dependency"));
    return {};
}

Result<QList<Dependency>> DependencyRepository::list(qint64 chainId) const
{
    StoreQuery q(
        m_store,
        QStringLiteral(
            "SELECT d.task_id, d.upstream_id, d.condition, t.name, u.name FROM dependency d "
            "JOIN task t ON t.id = d.task_id JOIN task u ON u.id = d.upstream_id "
            "WHERE t.chain_id = ? ORDER BY t.name, u.name"));
    q.bind(chainId);
    if (Status s = q.exec(tr("list dependencies")); !s)
        return s.error();
    QList<Dependency> edges;
    while (q.next()) {
        edges << Dependency{
            q.int64(0), q.int64(1),
            enumFromString<DependencyCondition>(q.text(2)).value_or(DependencyCondition::Success),
            q.text(3), q.text(4)};
    }
    return edges;
}

} // namespace hg
