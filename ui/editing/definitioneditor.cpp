#include "definitioneditor.h"

#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/projectexporter.h"
#include "store/projectimporter.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "storeeditcommand.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUndoStack>

#include <memory>

namespace hg {

DefinitionEditor::DefinitionEditor(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_stack(new QUndoStack(this))
{}

DefinitionEditor::~DefinitionEditor() = default;

qint64 DefinitionEditor::currentId(Entity entity, qint64 id) const
{
    const QHash<qint64, qint64> &replaced = m_replacedIds[size_t(entity)];
    // Bounded: a replaced id is never replaced by one of its own ancestors, but a store that
    // reuses ids could make a loop, and a loop must not hang the GUI.
    for (int hop = 0; hop < 64; ++hop) {
        const auto next = replaced.constFind(id);
        if (next == replaced.constEnd())
            return id;
        id = next.value();
    }
    return id;
}

void DefinitionEditor::remember(Entity entity, qint64 oldId, qint64 newId)
{
    QHash<qint64, qint64> &replaced = m_replacedIds[size_t(entity)];
    replaced.remove(newId); // a reused id names the new object from now on
    if (oldId != newId)
        replaced.insert(oldId, newId);
}

Status DefinitionEditor::perform(const QString &text, const Step &redo, const Step &undo)
{
    if (Status done = m_store.transaction(redo); !done)
        return done;
    m_stack->push(new StoreEditCommand(
        text, [this, redo] { return m_store.transaction(redo); },
        [this, undo] { return m_store.transaction(undo); },
        [this](const Status &status) {
            if (!status)
                Q_EMIT stepFailed(status.error().message);
        }));
    return {};
}

void DefinitionEditor::recordCreated(Entity entity, qint64 &firstId, qint64 newId)
{
    if (firstId == 0)
        firstId = newId;
    else
        remember(entity, firstId, newId); // made again by a redo
}

Status DefinitionEditor::treeEdited(const Status &status)
{
    if (status)
        Q_EMIT treeChanged();
    return status;
}

Status DefinitionEditor::chainEdited(qint64 chainId, const Status &status)
{
    if (status)
        Q_EMIT chainChanged(chainId);
    return status;
}

// Tasks and schedules: rows of a chain, added, edited and removed the same way.
template<typename Repository, typename Item>
Result<Item> DefinitionEditor::addToChain(Entity entity, const Item &item, const QString &text)
{
    auto created = std::make_shared<Item>(item);
    created->id = 0;
    const Step add = [this, entity, created]() -> Status {
        Item wanted = *created;
        wanted.chainId = currentId(Entity::Chain, wanted.chainId);
        Result<Item> stored = Repository(m_store).add(wanted);
        if (!stored)
            return stored.error();
        recordCreated(entity, created->id, stored->id);
        return chainEdited(stored->chainId, {});
    };
    const Step remove = [this, entity, created]() -> Status {
        return chainEdited(currentId(Entity::Chain, created->chainId),
                           Repository(m_store).remove(currentId(entity, created->id)));
    };
    if (Status s = perform(text, add, remove); !s)
        return s.error();
    return Repository(m_store).byId(created->id);
}

template<typename Repository, typename Item>
Status DefinitionEditor::updateInChain(Entity entity, const Item &item, const QString &text)
{
    const Result<Item> before = Repository(m_store).byId(item.id);
    if (!before)
        return before.error();
    const auto write = [this, entity](Item state) -> Status {
        state.id = currentId(entity, state.id);
        state.chainId = currentId(Entity::Chain, state.chainId);
        return chainEdited(state.chainId, Repository(m_store).update(state));
    };
    return perform(
        text, [write, item] { return write(item); },
        [write, before = before.value()] { return write(before); });
}

// ---- projects ----------------------------------------------------------------------------

Result<Project> DefinitionEditor::addProject(const QString &name)
{
    auto created = std::make_shared<Project>(); // its id: the first one it had
    const Step add = [this, name, created]() -> Status {
        Result<Project> project = ProjectRepository(m_store).add(name);
        if (!project)
            return project.error();
        recordCreated(Entity::Project, created->id, project->id);
        return treeEdited({});
    };
    const Step remove = [this, created]() -> Status {
        return treeEdited(removeProjectNow(currentId(Entity::Project, created->id)));
    };
    if (Status s = perform(tr("New project %1").arg(name), add, remove); !s)
        return s.error();
    return ProjectRepository(m_store).byId(created->id);
}

Status DefinitionEditor::renameProject(qint64 projectId, const QString &name)
{
    const Result<Project> before = ProjectRepository(m_store).byId(projectId);
    if (!before)
        return before.error();
    const auto rename = [this, projectId](const QString &to) -> Status {
        return treeEdited(
            ProjectRepository(m_store).rename(currentId(Entity::Project, projectId), to));
    };
    const QString oldName = before->name;
    return perform(
        tr("Rename project %1 to %2").arg(oldName, name), [rename, name] { return rename(name); },
        [rename, oldName] { return rename(oldName); });
}

Status DefinitionEditor::removeProjectNow(qint64 projectId)
{
    const Result<Project> project = ProjectRepository(m_store).byId(projectId);
    if (!project)
        return project.error();
    return ProjectRepository(m_store).remove(project->name, true);
}

Status DefinitionEditor::removeProject(qint64 projectId)
{
    const Result<Project> project = ProjectRepository(m_store).byId(projectId);
    if (!project)
        return project.error();
    const Result<QJsonObject> document = exportChains(projectId, std::nullopt);
    if (!document)
        return document.error();
    const Result<QList<Chain>> chains = ChainRepository(m_store).list(projectId);
    if (!chains)
        return chains.error();
    QList<ChainSnapshot> snapshots;
    for (const Chain &chain : chains.value()) {
        Result<ChainSnapshot> taken = snapshot(chain.id);
        if (!taken)
            return taken.error();
        snapshots << taken.value();
    }
    const QString name = project->name;
    const Step remove = [this, projectId]() -> Status {
        return treeEdited(removeProjectNow(currentId(Entity::Project, projectId)));
    };
    const Step restore = [this, projectId, name, document = document.value(),
                          snapshots]() -> Status {
        if (Status s = import(document); !s)
            return s;
        const Result<Project> again = ProjectRepository(m_store).byName(name);
        if (!again)
            return again.error();
        remember(Entity::Project, currentId(Entity::Project, projectId), again->id);
        return treeEdited(remapImported(name, snapshots));
    };
    return perform(tr("Delete project %1").arg(name), remove, restore);
}

// ---- chains ------------------------------------------------------------------------------

Result<DefinitionEditor::ChainSnapshot> DefinitionEditor::snapshot(qint64 chainId) const
{
    ChainSnapshot taken;
    Result<Chain> chain = ChainRepository(m_store).byId(chainId);
    if (!chain)
        return chain.error();
    Result<QList<Task>> tasks = TaskRepository(m_store).list(chainId);
    if (!tasks)
        return tasks.error();
    Result<QList<Schedule>> schedules = ScheduleRepository(m_store).list(chainId);
    if (!schedules)
        return schedules.error();
    return ChainSnapshot{chain.value(), tasks.value(), schedules.value()};
}

Result<QJsonObject> DefinitionEditor::exportChains(qint64 projectId,
                                                   const std::optional<QString> &chain)
{
    const Result<Project> project = ProjectRepository(m_store).byId(projectId);
    if (!project)
        return project.error();
    ProjectExporter exporter(m_store);
    exporter.keepPasswordKeys(true); // a copy within this store: its SendMail keeps its password
    return exporter.exportProject(project->name, chain);
}

Status DefinitionEditor::import(const QJsonObject &document)
{
    ProjectImporter importer(m_store);
    importer.takePasswordKeys(true); // made by exportChains, in this store
    const Result<ProjectImporter::Summary> imported =
        importer.importDocument(QJsonDocument(document).toJson());
    if (!imported)
        return imported.error();
    return {};
}

Status DefinitionEditor::remapImported(const QString &projectName,
                                       const QList<ChainSnapshot> &chains)
{
    for (const ChainSnapshot &old : chains) {
        const Result<Chain> chain = ChainRepository(m_store).byPath({projectName, old.chain.name});
        if (!chain)
            return chain.error();
        remember(Entity::Chain, currentId(Entity::Chain, old.chain.id), chain->id);
        const Result<QList<Task>> tasks = TaskRepository(m_store).list(chain->id);
        const Result<QList<Schedule>> schedules = ScheduleRepository(m_store).list(chain->id);
        if (!tasks || !schedules)
            return Error::storage(tr("cannot read the restored chain %1").arg(old.chain.name));
        for (const Task &task : old.tasks) {
            for (const Task &now : tasks.value()) {
                if (now.name == task.name)
                    remember(Entity::Task, currentId(Entity::Task, task.id), now.id);
            }
        }
        // Schedules have no names; the export keeps their order.
        for (qsizetype i = 0; i < old.schedules.size() && i < schedules->size(); ++i)
            remember(Entity::Schedule, currentId(Entity::Schedule, old.schedules.at(i).id),
                     schedules->at(i).id);
    }
    return {};
}

Result<Chain> DefinitionEditor::addChain(qint64 projectId, const QString &name)
{
    auto created = std::make_shared<Chain>(); // its id: the first one it had
    const Step add = [this, projectId, name, created]() -> Status {
        Chain chain;
        chain.projectId = currentId(Entity::Project, projectId);
        chain.name = name;
        // One run at a time, the next waiting, as in the examples: overlapping runs of the
        // same job surprise people more than a wait does.
        chain.maxInstances = 1;
        Result<Chain> stored = ChainRepository(m_store).add(chain);
        if (!stored)
            return stored.error();
        recordCreated(Entity::Chain, created->id, stored->id);
        return treeEdited({});
    };
    const Step remove = [this, created]() -> Status {
        return treeEdited(ChainRepository(m_store).remove(currentId(Entity::Chain, created->id)));
    };
    if (Status s = perform(tr("New chain %1").arg(name), add, remove); !s)
        return s.error();
    return ChainRepository(m_store).byId(created->id);
}

Status DefinitionEditor::updateChain(const Chain &chain)
{
    const Result<Chain> before = ChainRepository(m_store).byId(chain.id);
    if (!before)
        return before.error();
    const auto write = [this](Chain state) -> Status {
        state.id = currentId(Entity::Chain, state.id);
        state.projectId = currentId(Entity::Project, state.projectId);
        return chainEdited(state.id, treeEdited(ChainRepository(m_store).update(state)));
    };
    const QString text =
        before->name != chain.name ? tr("Rename chain %1 to %2").arg(before->name, chain.name)
        : before->enabled != chain.enabled
            ? (chain.enabled ? tr("Enable chain %1") : tr("Disable chain %1")).arg(chain.name)
            : tr("Edit chain %1").arg(chain.name);
    return perform(
        text, [write, chain] { return write(chain); },
        [write, before = before.value()] { return write(before); });
}

Result<Chain> DefinitionEditor::duplicateChain(qint64 chainId)
{
    const Result<Chain> original = ChainRepository(m_store).byId(chainId);
    if (!original)
        return original.error();
    const Result<Project> project = ProjectRepository(m_store).byId(original->projectId);
    if (!project)
        return project.error();
    Result<QJsonObject> document = exportChains(original->projectId, original->name);
    if (!document)
        return document.error();
    // The first free "<name> copy", "<name> copy 2", … in the project.
    QString name = tr("%1 copy").arg(original->name);
    for (int n = 2; ChainRepository(m_store).byPath({project->name, name}); ++n)
        name = tr("%1 copy %2").arg(original->name).arg(n);
    QJsonArray projects = document->value(QLatin1String("projects")).toArray();
    QJsonObject projectObject = projects.at(0).toObject();
    QJsonArray chains = projectObject.value(QLatin1String("chains")).toArray();
    QJsonObject chainObject = chains.at(0).toObject();
    chainObject.insert(QStringLiteral("name"), name);
    chains.replace(0, chainObject);
    projectObject.insert(QStringLiteral("chains"), chains);
    projects.replace(0, projectObject);
    document->insert(QStringLiteral("projects"), projects);

    auto created = std::make_shared<qint64>(0);
    const QString projectName = project->name;
    const Step add = [this, doc = document.value(), projectName, name, created]() -> Status {
        if (Status s = import(doc); !s)
            return s;
        const Result<Chain> copy = ChainRepository(m_store).byPath({projectName, name});
        if (!copy)
            return copy.error();
        recordCreated(Entity::Chain, *created, copy->id);
        return treeEdited({});
    };
    const Step remove = [this, created]() -> Status {
        return treeEdited(ChainRepository(m_store).remove(currentId(Entity::Chain, *created)));
    };
    if (Status s = perform(tr("Duplicate chain %1").arg(original->name), add, remove); !s)
        return s.error();
    return ChainRepository(m_store).byId(*created);
}

Status DefinitionEditor::removeChain(qint64 chainId)
{
    const Result<ChainSnapshot> taken = snapshot(chainId);
    if (!taken)
        return taken.error();
    const Result<Project> project = ProjectRepository(m_store).byId(taken->chain.projectId);
    if (!project)
        return project.error();
    const Result<QJsonObject> document = exportChains(project->id, taken->chain.name);
    if (!document)
        return document.error();
    const Step remove = [this, chainId]() -> Status {
        return treeEdited(ChainRepository(m_store).remove(currentId(Entity::Chain, chainId)));
    };
    const Step restore = [this, doc = document.value(), projectName = project->name,
                          snapshots = QList<ChainSnapshot>{taken.value()}]() -> Status {
        if (Status s = import(doc); !s)
            return s;
        return treeEdited(remapImported(projectName, snapshots));
    };
    return perform(tr("Delete chain %1").arg(taken->chain.name), remove, restore);
}

// ---- tasks -------------------------------------------------------------------------------

Result<Task> DefinitionEditor::addTask(const Task &task)
{
    return addToChain<TaskRepository>(Entity::Task, task, tr("New task %1").arg(task.name));
}

Status DefinitionEditor::updateTask(const Task &task)
{
    return updateInChain<TaskRepository>(Entity::Task, task, tr("Edit task %1").arg(task.name));
}

Status DefinitionEditor::moveTasks(const QHash<qint64, QPointF> &positions, const QString &text)
{
    QList<Task> before;
    for (auto it = positions.begin(); it != positions.end(); ++it) {
        Result<Task> task = TaskRepository(m_store).byId(it.key());
        if (!task)
            return task.error();
        before << task.value();
    }
    if (before.isEmpty())
        return {};
    const auto place = [this](const QList<Task> &tasks,
                              const QHash<qint64, QPointF> &to) -> Status {
        qint64 chainId = 0;
        for (const Task &original : tasks) {
            Result<Task> task = TaskRepository(m_store).byId(currentId(Entity::Task, original.id));
            if (!task)
                return task.error();
            const auto moved = to.constFind(original.id);
            task->position =
                moved != to.constEnd() ? std::optional<QPointF>(moved.value()) : original.position;
            if (Status s = TaskRepository(m_store).setPosition(task->id, task->position); !s)
                return s;
            chainId = task->chainId;
        }
        return chainEdited(chainId, {});
    };
    return perform(
        text, [place, before, positions] { return place(before, positions); },
        [place, before] { return place(before, {}); });
}

Status DefinitionEditor::removeTask(qint64 taskId)
{
    const Result<Task> task = TaskRepository(m_store).byId(taskId);
    if (!task)
        return task.error();
    const Result<QList<Dependency>> all = DependencyRepository(m_store).list(task->chainId);
    if (!all)
        return all.error();
    QList<Dependency> edges;
    for (const Dependency &edge : all.value()) {
        if (edge.taskId == taskId || edge.upstreamId == taskId)
            edges << edge;
    }
    const Step remove = [this, task = task.value()]() -> Status {
        return chainEdited(currentId(Entity::Chain, task.chainId),
                           TaskRepository(m_store).remove(currentId(Entity::Task, task.id)));
    };
    const Step restore = [this, task = task.value(), edges]() -> Status {
        Task again = task;
        again.chainId = currentId(Entity::Chain, task.chainId);
        const Result<Task> stored = TaskRepository(m_store).add(again);
        if (!stored)
            return stored.error();
        remember(Entity::Task, currentId(Entity::Task, task.id), stored->id);
        for (const Dependency &edge : edges) {
            if (Status s = DependencyRepository(m_store).add(
                    again.chainId, currentId(Entity::Task, edge.taskId),
                    currentId(Entity::Task, edge.upstreamId), edge.condition);
                !s)
                return s;
        }
        return chainEdited(again.chainId, {});
    };
    return perform(tr("Delete task %1").arg(task->name), remove, restore);
}

// ---- dependencies ------------------------------------------------------------------------

Status DefinitionEditor::addDependency(qint64 taskId, qint64 upstreamId,
                                       DependencyCondition condition)
{
    const Result<Task> task = TaskRepository(m_store).byId(taskId);
    const Result<Task> upstream = TaskRepository(m_store).byId(upstreamId);
    if (!task)
        return task.error();
    if (!upstream)
        return upstream.error();
    const qint64 chainId = task->chainId;
    const Step add = [this, chainId, taskId, upstreamId, condition]() -> Status {
        const qint64 chain = currentId(Entity::Chain, chainId);
        return chainEdited(chain, DependencyRepository(m_store).add(
                                      chain, currentId(Entity::Task, taskId),
                                      currentId(Entity::Task, upstreamId), condition));
    };
    const Step remove = [this, chainId, taskId, upstreamId]() -> Status {
        return chainEdited(
            currentId(Entity::Chain, chainId),
            DependencyRepository(m_store).remove(currentId(Entity::Task, taskId),
                                                 currentId(Entity::Task, upstreamId)));
    };
    return perform(tr("Connect %1 → %2").arg(upstream->name, task->name), add, remove);
}

Status DefinitionEditor::setDependencyCondition(qint64 taskId, qint64 upstreamId,
                                                DependencyCondition condition)
{
    const Result<Task> task = TaskRepository(m_store).byId(taskId);
    if (!task)
        return task.error();
    const Result<QList<Dependency>> edges = DependencyRepository(m_store).list(task->chainId);
    if (!edges)
        return edges.error();
    std::optional<DependencyCondition> before;
    for (const Dependency &edge : edges.value()) {
        if (edge.taskId == taskId && edge.upstreamId == upstreamId)
            before = edge.condition;
    }
    if (!before)
        return Error::notFound(tr("no such dependency"));
    const auto write = [this, chainId = task->chainId, taskId,
                        upstreamId](DependencyCondition to) -> Status {
        const qint64 chain = currentId(Entity::Chain, chainId);
        DependencyRepository dependencies(m_store);
        const qint64 downstream = currentId(Entity::Task, taskId);
        const qint64 upstream = currentId(Entity::Task, upstreamId);
        if (Status s = dependencies.remove(downstream, upstream); !s)
            return s;
        return chainEdited(chain, dependencies.add(chain, downstream, upstream, to));
    };
    return perform(
        tr("Run %1 on %2").arg(task->name, enumName(condition)),
        [write, condition] { return write(condition); },
        [write, old = *before] { return write(old); });
}

Status DefinitionEditor::removeDependency(qint64 taskId, qint64 upstreamId)
{
    const Result<Task> task = TaskRepository(m_store).byId(taskId);
    if (!task)
        return task.error();
    const Result<QList<Dependency>> edges = DependencyRepository(m_store).list(task->chainId);
    if (!edges)
        return edges.error();
    for (const Dependency &edge : edges.value()) {
        if (edge.taskId != taskId || edge.upstreamId != upstreamId)
            continue;
        const qint64 chainId = task->chainId;
        const Step remove = [this, chainId, taskId, upstreamId]() -> Status {
            return chainEdited(
                currentId(Entity::Chain, chainId),
                DependencyRepository(m_store).remove(currentId(Entity::Task, taskId),
                                                     currentId(Entity::Task, upstreamId)));
        };
        const Step add = [this, chainId, edge]() -> Status {
            const qint64 chain = currentId(Entity::Chain, chainId);
            return chainEdited(chain,
                               DependencyRepository(m_store).add(
                                   chain, currentId(Entity::Task, edge.taskId),
                                   currentId(Entity::Task, edge.upstreamId), edge.condition));
        };
        return perform(tr("Disconnect %1 → %2").arg(edge.upstreamName, edge.taskName), remove, add);
    }
    return Error::notFound(tr("no such dependency"));
}

// ---- schedules ---------------------------------------------------------------------------

Result<Schedule> DefinitionEditor::addSchedule(const Schedule &schedule)
{
    return addToChain<ScheduleRepository>(Entity::Schedule, schedule,
                                          tr("New schedule %1").arg(schedule.expression));
}

Status DefinitionEditor::updateSchedule(const Schedule &schedule)
{
    return updateInChain<ScheduleRepository>(Entity::Schedule, schedule,
                                             tr("Edit schedule %1").arg(schedule.expression));
}

Status DefinitionEditor::removeSchedule(qint64 scheduleId)
{
    const Result<Schedule> schedule = ScheduleRepository(m_store).byId(scheduleId);
    if (!schedule)
        return schedule.error();
    const Step remove = [this, schedule = schedule.value()]() -> Status {
        return chainEdited(
            currentId(Entity::Chain, schedule.chainId),
            ScheduleRepository(m_store).remove(currentId(Entity::Schedule, schedule.id)));
    };
    const Step restore = [this, schedule = schedule.value()]() -> Status {
        Schedule again = schedule;
        again.chainId = currentId(Entity::Chain, schedule.chainId);
        const Result<Schedule> stored = ScheduleRepository(m_store).add(again);
        if (!stored)
            return stored.error();
        remember(Entity::Schedule, currentId(Entity::Schedule, schedule.id), stored->id);
        return chainEdited(again.chainId, {});
    };
    return perform(tr("Delete schedule %1").arg(schedule->expression), remove, restore);
}

} // namespace hg
