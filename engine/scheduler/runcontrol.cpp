#include "runcontrol.h"

#include "store/commandrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <QJsonArray>

namespace hg {

Status RunControl::enqueue(CommandKind kind, qint64 runId, const QJsonObject &payload)
{
    Command command;
    command.kind = kind;
    command.runId = runId;
    command.payload = payload;
    const Result<Command> queued = CommandRepository(m_store).enqueue(command);
    return queued ? Status() : queued.error();
}

Result<Run> RunControl::createManual(qint64 chainId, const QJsonObject &parameters)
{
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    run.parameters = parameters;
    return RunRepository(m_store).insert(run);
}

Result<Run> RunControl::start(qint64 chainId, const QJsonObject &parameters)
{
    Run created;
    const Status done = m_store.transaction([&]() -> Status {
        const Result<Run> run = createManual(chainId, parameters);
        if (!run)
            return run.error();
        created = run.value();
        return enqueue(CommandKind::Start, created.id);
    });
    if (!done)
        return done.error();
    return created;
}

Status RunControl::control(CommandKind kind, qint64 runId)
{
    const Result<Run> run = RunRepository(m_store).byId(runId);
    if (!run)
        return run.error();
    if (isTerminal(run->state))
        return Error::invalid(
            tr("run %1 has already ended (%2)").arg(runId).arg(enumName(run->state)));
    return enqueue(kind, runId);
}

Result<Run> RunControl::rerun(qint64 runId, bool failedOnly)
{
    const Result<Run> original = RunRepository(m_store).byId(runId);
    if (!original)
        return original.error();
    if (!isTerminal(original->state))
        return Error::invalid(
            tr("run %1 has not ended yet (%2)").arg(runId).arg(enumName(original->state)));
    QJsonArray only;
    if (failedOnly) {
        const Result<QList<TaskRun>> attempts = TaskRunRepository(m_store).listForRun(runId);
        const Result<QList<Task>> tasks = TaskRepository(m_store).list(original->chainId);
        if (!attempts)
            return attempts.error();
        if (!tasks)
            return tasks.error();
        QHash<qint64, TaskRun> last;
        for (const TaskRun &attempt : attempts.value()) {
            if (!last.contains(attempt.taskId)
                || last.value(attempt.taskId).attempt < attempt.attempt)
                last.insert(attempt.taskId, attempt);
        }
        for (const Task &task : tasks.value()) {
            if (!last.contains(task.id) || last.value(task.id).state != RunState::Succeeded)
                only << task.id;
        }
        if (only.isEmpty())
            return Error::invalid(tr("run %1 has no failed or unrun task to run again").arg(runId));
    }
    Run again;
    again.chainId = original->chainId;
    again.trigger = RunTrigger::Rerun;
    again.rerunOfId = original->id;
    again.scheduledFor = original->scheduledFor;
    again.parameters = original->parameters;
    Run created;
    const Status done = m_store.transaction([&]() -> Status {
        const Result<Run> run = RunRepository(m_store).insert(again);
        if (!run)
            return run.error();
        created = run.value();
        return failedOnly ? enqueue(CommandKind::RerunFailed, created.id,
                                    {{QStringLiteral("tasks"), only}})
                          : enqueue(CommandKind::Rerun, created.id);
    });
    if (!done)
        return done.error();
    return created;
}

} // namespace hg
