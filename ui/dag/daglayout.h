#pragma once

#include "domain/dependency.h"

#include <QHash>
#include <QList>
#include <QPointF>

namespace hg {

// A layered ("Sugiyama-style") placement of a chain's DAG, left to right: each task sits one
// column after its furthest upstream, and within a column tasks are ordered by the mean row
// of their upstreams so edges cross less. Enough for the tens of tasks a chain has; no
// library in Debian's Qt stack does this (Graphviz would be a new dependency for one call).
class DagLayout final
{
public:
    static constexpr double columnWidth = 250.0;
    static constexpr double rowHeight = 90.0;

    // Positions (top-left of each node) for the tasks, in the given order when unconstrained.
    static QHash<qint64, QPointF> place(const QList<qint64> &taskIds,
                                        const QList<Dependency> &edges);
};

} // namespace hg
