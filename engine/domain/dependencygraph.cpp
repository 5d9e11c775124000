#include "dependencygraph.h"

#include <QSet>

#include <algorithm>

namespace hg {

DependencyGraph::DependencyGraph(const QHash<qint64, QString> &taskNames,
                                 const QList<Dependency> &edges)
    : m_names(taskNames)
{
    for (const Dependency &edge : edges)
        m_downstream[edge.upstreamId].append(edge.taskId);
    // Sorted adjacency makes the reported cycle the same on every run.
    for (auto &targets : m_downstream)
        std::sort(targets.begin(), targets.end());
}

QList<qint64> DependencyGraph::pathBetween(qint64 from, qint64 to) const
{
    // Breadth-first over the downstream edges, so the reported cycle is a shortest one.
    QHash<qint64, qint64> cameFrom;
    QList<qint64> frontier{from};
    cameFrom.insert(from, from);
    for (qsizetype i = 0; i < frontier.size(); ++i) {
        const qint64 node = frontier.at(i);
        if (node == to) {
            QList<qint64> path{to};
            for (qint64 at = to; at != from;) {
                at = cameFrom.value(at);
                path.prepend(at);
            }
            return path;
        }
        for (qint64 next : m_downstream.value(node)) {
            if (!cameFrom.contains(next)) {
                cameFrom.insert(next, node);
                frontier.append(next);
            }
        }
    }
    return {};
}

QStringList DependencyGraph::cycleIfAdded(qint64 taskId, qint64 upstreamId) const
{
    // The new edge upstream -> task closes a cycle exactly when task already reaches upstream.
    const QList<qint64> path = pathBetween(taskId, upstreamId);
    if (path.isEmpty())
        return {};
    QStringList names{m_names.value(upstreamId)};
    for (qint64 id : path)
        names << m_names.value(id);
    return names;
}

QStringList DependencyGraph::findCycle() const
{
    QList<qint64> ids = m_names.keys();
    std::sort(ids.begin(), ids.end());
    for (qint64 upstream : ids) {
        for (qint64 task : m_downstream.value(upstream)) {
            const QList<qint64> back = pathBetween(task, upstream);
            if (!back.isEmpty()) {
                QStringList names{m_names.value(upstream)};
                for (qint64 id : back)
                    names << m_names.value(id);
                return names;
            }
        }
    }
    return {};
}

QString DependencyGraph::describeCycle(const QStringList &names)
{
    return names.join(QStringLiteral(" \u2192 "));
}

Error DependencyGraph::cycleError(const QStringList &names)
{
    return Error::invalid(tr("dependency would close a cycle: %1").arg(describeCycle(names)));
}

} // namespace hg
