#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

// Removing a definition whose runs have not ended would pull the rows from under the engine
// running them (the runs and their attempts cascade with their chain): so a project, chain or
// task is removed only while none of its runs is queued, waiting, running or paused, and the
// refusal names them. Called inside the removal's transaction, with the chain rows locked on
// PostgreSQL so no engine queues a run between the check and the delete.
class RunsInFlight final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunsInFlight)

public:
    enum class Scope { Project, Chain };

    static Status refuseRemoval(const Store &store, Scope scope, qint64 id, const QString &what);
    // The run ids of `scope` that have not ended, oldest first (at most `limit`).
    static Result<QList<qint64>> ids(const Store &store, Scope scope, qint64 id, int limit = 20);
};

} // namespace hg
