#include "chainopening.h"

#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/connectionprofilerepository.h"
#include "store/dependencyrepository.h"
#include "store/schedulerepository.h"

namespace hg {

Result<ChainOpening> ChainOpening::read(Store &store, qint64 chainId)
{
    ChainOpening opening;
    Result<Chain> chain = ChainRepository(store).byId(chainId);
    if (!chain)
        return chain.error();
    opening.chain = std::move(chain.value());
    if (const Result<QList<ConnectionProfile>> profiles =
            ConnectionProfileRepository(store).list()) {
        for (const ConnectionProfile &profile : profiles.value())
            opening.connections << profile.name;
    }
    Result<TasksModel::Read> tasks = TasksModel::read(store, chainId);
    if (!tasks)
        return tasks.error();
    opening.tasks = std::move(tasks.value());
    Result<QList<Dependency>> dependencies = DependencyRepository(store).list(chainId);
    if (!dependencies)
        return dependencies.error();
    opening.dependencies = std::move(dependencies.value());
    Result<QList<Schedule>> schedules = ScheduleRepository(store).list(chainId);
    if (!schedules)
        return schedules.error();
    opening.schedules = std::move(schedules.value());
    Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(store).list(chainId);
    if (!triggers)
        return triggers.error();
    opening.triggers = std::move(triggers.value());
    return opening;
}

} // namespace hg
