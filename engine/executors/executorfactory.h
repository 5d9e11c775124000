#pragma once

#include "base/result.h"
#include "domain/engineconfig.h"
#include "domain/run.h"
#include "domain/task.h"
#include "taskexecutor.h"

#include <memory>

namespace hg {

class Store;
class SubchainLauncher;

// Everything an attempt's executor is made from. The task's command, arguments and
// environment values are already substituted (${run.id} and so on).
struct ExecutorContext
{
    Task task;
    Run run;
    QString chainName;
    int attempt = 1;
    const EngineConfig *config = nullptr;
    Store *store = nullptr;                // connection profiles of SQL tasks
    SubchainLauncher *subchains = nullptr; // SUBCHAIN tasks
};

// Picks and builds the executor for one attempt of a task, or says why it cannot run (a bad
// builtin argument, an unknown connection, …): that becomes the attempt's error.
class ExecutorFactory final
{
public:
    static Result<std::unique_ptr<TaskExecutor>> create(const ExecutorContext &context);
};

} // namespace hg
