#include "fixtures.h"

#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "teststore.h"

#include <QDebug>

namespace hg::test {

Chain makeChain(Store &store, const QString &project, const QString &chain)
{
    ProjectRepository projects(store);
    Result<Project> stored = projects.byName(project);
    if (!stored)
        stored = projects.add(project);
    if (!stored)
        return {};
    Chain c;
    c.projectId = stored->id;
    c.name = chain;
    const Result<Chain> added = ChainRepository(store).add(c);
    return added ? added.value() : Chain{};
}

Task makeTask(Store &store, qint64 chainId, const QString &name, const QString &command)
{
    return addTask(store, chainId, name, TaskKind::Program, command);
}

Task addTask(Store &store, qint64 chainId, const QString &name, TaskKind kind,
             const QString &command, const QStringList &arguments)
{
    Task task;
    task.chainId = chainId;
    task.name = name;
    task.kind = kind;
    task.command = command;
    task.arguments = arguments;
    const Result<Task> added = TaskRepository(store).add(task);
    if (!added)
        qWarning() << "cannot add task" << name << ':' << added.error().message;
    return added ? added.value() : Task{};
}

EngineConfig engineConfig(const TestStore &store, const QString &name)
{
    EngineConfig config;
    config.storeLocation = store.location().backend() == StoreBackend::Sqlite
                               ? store.location().sqlitePath()
                               : store.location().url().toString();
    config.name = name;
    config.slotCount = 4;
    config.graceMs = 500;
    config.commandPollMs = 50;
    return config;
}

Run queueRun(Store &store, qint64 chainId, const QJsonObject &parameters)
{
    Run run;
    run.chainId = chainId;
    run.parameters = parameters;
    const Result<Run> inserted = RunRepository(store).insert(run);
    return inserted ? inserted.value() : Run{};
}

qint64 endRun(Store &store, qint64 chainId, RunState state)
{
    const Run run = queueRun(store, chainId);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (!RunRepository(store).setState(run.id, RunState::Running, now, QStringLiteral("e1"))
        || !RunRepository(store).setState(run.id, state, now.addMSecs(5), QStringLiteral("e1")))
        return 0;
    return run.id;
}

} // namespace hg::test
