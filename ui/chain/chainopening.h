#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/chaintrigger.h"
#include "domain/dependency.h"
#include "domain/schedule.h"
#include "tasksmodel.h"

#include <QStringList>

namespace hg {

class Store;

// Everything the chain editor reads to open a chain, as one value: read on the window's
// reader thread, so that opening chain after chain on a store across a network never holds
// the window a round trip per statement (seven, 180 ms at 20 ms away). The editor's own
// reads after an edit stay on its thread: the user waits for their own write anyway.
struct ChainOpening
{
    Chain chain;
    QStringList connections; // the connection profiles' names, for SQL tasks
    TasksModel::Read tasks;
    QList<Dependency> dependencies;
    QList<Schedule> schedules;
    QList<ChainTrigger> triggers;

    static Result<ChainOpening> read(Store &store, qint64 chainId);
};

} // namespace hg
