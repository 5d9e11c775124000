#pragma once

#include "base/error.h"
#include "dependency.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

namespace hg {

// The DAG of one chain, used to refuse an edge that would close a cycle and to name it.
class DependencyGraph final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DependencyGraph)

public:
    DependencyGraph(const QHash<qint64, QString> &taskNames, const QList<Dependency> &edges);

    // Empty when upstream -> task keeps the graph acyclic; otherwise the cycle it would
    // close as names, first name repeated at the end: {a, b, c, a}.
    QStringList cycleIfAdded(qint64 taskId, qint64 upstreamId) const;

    // The whole graph's first cycle, if any (used to validate imported documents).
    QStringList findCycle() const;

    static QString describeCycle(const QStringList &names);
    // The refusal of an edge that would close this cycle, naming it.
    static Error cycleError(const QStringList &names);

private:
    QList<qint64> pathBetween(qint64 from, qint64 to) const;

    QHash<qint64, QString> m_names;
    QHash<qint64, QList<qint64>> m_downstream; // upstream id -> ids that depend on it
};

} // namespace hg
