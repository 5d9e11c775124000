#include "daglayout.h"

#include <algorithm>

namespace hg {

QHash<qint64, QPointF> DagLayout::place(const QList<qint64> &taskIds,
                                        const QList<Dependency> &edges)
{
    QHash<qint64, QList<qint64>> upstreams;
    for (const Dependency &edge : edges) {
        if (taskIds.contains(edge.taskId) && taskIds.contains(edge.upstreamId))
            upstreams[edge.taskId] << edge.upstreamId;
    }
    // Longest path from a source, by repeated relaxation: a DAG settles within n passes, and
    // the pass limit keeps a (refused, but imported) cycle from looping forever.
    QHash<qint64, int> layer;
    for (qint64 id : taskIds)
        layer.insert(id, 0);
    for (qsizetype pass = 0; pass < taskIds.size(); ++pass) {
        bool moved = false;
        for (qint64 id : taskIds) {
            for (qint64 upstream : upstreams.value(id)) {
                if (layer.value(upstream) + 1 > layer.value(id)) {
                    layer.insert(id, layer.value(upstream) + 1);
                    moved = true;
                }
            }
        }
        if (!moved)
            break;
    }
    int columns = 0;
    for (qint64 id : taskIds)
        columns = std::max(columns, layer.value(id) + 1);

    QHash<qint64, double> row;
    QHash<qint64, QPointF> positions;
    for (int column = 0; column < columns; ++column) {
        QList<qint64> members;
        for (qint64 id : taskIds) {
            if (layer.value(id) == column)
                members << id;
        }
        // Barycenter of the upstreams' rows; sources keep their given order.
        QHash<qint64, double> weight;
        for (qsizetype i = 0; i < members.size(); ++i) {
            const QList<qint64> ups = upstreams.value(members.at(i));
            double sum = 0;
            for (qint64 upstream : ups)
                sum += row.value(upstream);
            weight.insert(members.at(i), ups.isEmpty() ? double(i) : sum / double(ups.size()));
        }
        std::stable_sort(members.begin(), members.end(),
                         [&](qint64 a, qint64 b) { return weight.value(a) < weight.value(b); });
        for (qsizetype i = 0; i < members.size(); ++i) {
            row.insert(members.at(i), double(i));
            positions.insert(members.at(i), QPointF(column * columnWidth, double(i) * rowHeight));
        }
    }
    return positions;
}

} // namespace hg
