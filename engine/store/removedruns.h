#pragma once

#include "base/result.h"
#include "domain/run.h"
#include "runsinflight.h"

#include <QCoreApplication>

#include <optional>

namespace hg {

class Store;

// The ends of runs removed with their chain or project. A self-destructing chain removes
// itself (and its runs) after a success, at once when its engine stops: a `run --wait` that
// saw the run running then finds nothing, and without this could not say how it ended. Kept
// for the runs that ended within the hour before the removal, for a day.
class RemovedRuns final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RemovedRuns)

public:
    static constexpr qint64 endedWithinMs = qint64(3600) * 1000;
    static constexpr qint64 keptForMs = qint64(24) * 3600 * 1000;

    // Inside the removal's transaction, before the delete: the recent ends of `scope`'s runs
    // (all ended: RunsInFlight refused the removal otherwise), and the old ones pruned.
    static Status keep(const Store &store, RunsInFlight::Scope scope, qint64 id);
    // The run's end, when it was removed with its chain; nothing when it was not (or long ago).
    static Result<std::optional<Run>> end(const Store &store, qint64 runId);
};

} // namespace hg
