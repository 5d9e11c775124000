#include "remotechaincanvas.h"

#include "dag/dagscene.h"
#include "dag/dagview.h"
#include "dag/dependencyedgeitem.h"
#include "dag/tasknodeitem.h"
#include "dependenciesmodel.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "store/storelocation.h"
#include "store/taskrepository.h"
#include "tasksmodel.h"

#include <QHash>
#include <QVBoxLayout>

namespace hg {
namespace {

TaskKind kindOf(const QString &pgKind)
{
    if (pgKind == QLatin1String("SQL"))
        return TaskKind::Sql;
    if (pgKind == QLatin1String("BUILTIN"))
        return TaskKind::Builtin;
    return TaskKind::Program;
}

// DolphinScheduler's Priority, by code, as its UI names them.
QString priorityName(int priority)
{
    switch (priority) {
    case 0:
        return RemoteChainCanvas::tr("highest");
    case 1:
        return RemoteChainCanvas::tr("high");
    case 2:
        return RemoteChainCanvas::tr("medium");
    case 3:
        return RemoteChainCanvas::tr("low");
    case 4:
        return RemoteChainCanvas::tr("lowest");
    default:
        return RemoteChainCanvas::tr("priority %1").arg(priority);
    }
}

} // namespace

RemoteChainCanvas::RemoteChainCanvas(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    setMinimumHeight(160);
}

RemoteChainCanvas::~RemoteChainCanvas()
{
    // The view and models read the store: they go first.
    delete m_view;
    delete m_scene;
    delete m_tasks;
    delete m_dependencies;
}

bool RemoteChainCanvas::ensureStore()
{
    if (m_store)
        return true;
    if (!m_dir.isValid())
        return false;
    const Result<StoreLocation> location =
        StoreLocation::parse(m_dir.filePath(QStringLiteral("canvas.db")));
    if (!location)
        return false;
    Result<std::unique_ptr<Store>> opened = Store::open(
        location.value(), QStringLiteral("remote-canvas-%1").arg(reinterpret_cast<quintptr>(this)));
    if (!opened)
        return false;
    m_store = std::move(opened.value());
    m_tasks = new TasksModel(*m_store, this);
    m_dependencies = new DependenciesModel(*m_store, this);
    m_scene = new DagScene(m_tasks, m_dependencies, this);
    m_view = new DagView(m_scene, this);
    m_view->setInteractive(false); // the remote is edited in the task table, not here
    m_view->setAccessibleName(tr("Chain canvas"));
    connect(m_scene, &DagScene::rebuilt, this, &RemoteChainCanvas::annotate);
    layout()->addWidget(m_view);
    return true;
}

qint64 RemoteChainCanvas::newChain()
{
    if (!ensureStore())
        return 0;
    m_nodeNotes.clear();
    m_edgeNotes.clear();
    // One chain at a time: the previous one goes with its project.
    static_cast<void>(ProjectRepository(*m_store).remove(QStringLiteral("remote"), true));
    const Result<Project> project = ProjectRepository(*m_store).add(QStringLiteral("remote"));
    if (!project)
        return 0;
    Chain chain;
    chain.projectId = project->id;
    chain.name = QStringLiteral("chain");
    const Result<Chain> added = ChainRepository(*m_store).add(chain);
    return added ? added->id : 0;
}

qint64 RemoteChainCanvas::addTask(qint64 chainId, Task task)
{
    task.chainId = chainId;
    Result<Task> stored = TaskRepository(*m_store).add(task);
    if (!stored) { // a kind of the remote's own: drawn as a program of that name
        task.kind = TaskKind::Program;
        stored = TaskRepository(*m_store).add(task);
    }
    return stored ? stored->id : 0;
}

void RemoteChainCanvas::showChain(const PgtChain &remote)
{
    const qint64 chainId = newChain();
    if (chainId == 0)
        return;
    qint64 previous = 0;
    bool previousIgnoresErrors = false;
    for (qsizetype i = 0; i < remote.tasks.size(); ++i) {
        const PgtTask &source = remote.tasks.at(i);
        Task task;
        task.name = source.name.isEmpty() ? QStringLiteral("%1. %2").arg(i + 1).arg(source.kind)
                                          : source.name;
        task.kind = kindOf(source.kind);
        task.command = source.command;
        task.ignoreError = source.ignoreError;
        const qint64 stored = addTask(chainId, task);
        if (stored == 0)
            continue;
        if (previous > 0)
            static_cast<void>(DependencyRepository(*m_store).add(
                chainId, stored, previous,
                previousIgnoresErrors ? DependencyCondition::Completion
                                      : DependencyCondition::Success));
        previous = stored;
        previousIgnoresErrors = source.ignoreError;
    }
    static_cast<void>(m_tasks->show(chainId));
    static_cast<void>(m_dependencies->show(chainId));
}

void RemoteChainCanvas::showWorkflow(const DsWorkflow &workflow)
{
    const qint64 chainId = newChain();
    if (chainId == 0)
        return;
    QHash<qint64, qint64> taskIds; // DolphinScheduler's task code -> the scratch task's id
    for (const DsTask &source : workflow.tasks) {
        Task task;
        task.name = source.name;
        const QString type = source.type.toUpper();
        task.kind = type == QLatin1String("SHELL")  ? TaskKind::Shell
                    : type == QLatin1String("SQL")  ? TaskKind::Sql
                    : type == QLatin1String("HTTP") ? TaskKind::Http
                                                    : TaskKind::Program;
        task.command = source.type; // what it is; its parameters stay in DolphinScheduler
        task.maxRetries = source.retries;
        task.retryDelaySeconds = source.retryIntervalMinutes * 60;
        task.timeoutSeconds = source.timeoutMinutes * 60;
        const qint64 stored = addTask(chainId, task);
        if (stored == 0)
            continue;
        taskIds.insert(source.code, stored);
        // As the local canvas shows a task's kind on its box and its details in the tooltip:
        // DolphinScheduler's task type, retries and their interval, timeout, priority and
        // worker group.
        const QString retries = source.retries > 0
                                    ? tr("%n retries", nullptr, source.retries) + QLatin1Char(' ')
                                          + tr("every %n min", nullptr, source.retryIntervalMinutes)
                                    : tr("no retries");
        const QString timeout = source.timeoutMinutes > 0
                                    ? tr("timeout %n min", nullptr, source.timeoutMinutes)
                                    : tr("no timeout");
        const QString group =
            source.workerGroup.isEmpty() ? QStringLiteral("default") : source.workerGroup;
        NodeNote note;
        note.detail = QStringList{source.type, priorityName(source.priority), group}.join(
            QStringLiteral(" · "));
        note.toolTip = tr("%1 (%2)\n%3\n%4\npriority: %5\nworker group: %6")
                           .arg(source.name, source.type, retries, timeout,
                                priorityName(source.priority), group);
        if (!source.description.isEmpty())
            note.toolTip += QLatin1Char('\n') + source.description;
        m_nodeNotes.insert(stored, note);
    }
    QHash<qint64, QString> names;
    for (const DsTask &source : workflow.tasks)
        names.insert(source.code, source.name);
    for (const DsRelation &relation : workflow.relations) {
        if (relation.preTaskCode != 0 && taskIds.contains(relation.preTaskCode)
            && taskIds.contains(relation.postTaskCode)) {
            const qint64 upstream = taskIds.value(relation.preTaskCode);
            const qint64 task = taskIds.value(relation.postTaskCode);
            static_cast<void>(DependencyRepository(*m_store).add(
                chainId, task, upstream,
                // A CONDITIONS task's failure branch is drawn as a failure edge; DolphinScheduler
                // runs both kinds of edge only after the task before has finished.
                relation.branch == DsRelation::Branch::OnFailure ? DependencyCondition::Failure
                                                                 : DependencyCondition::Success));
            // Each edge says what kind it is: a CONDITIONS task's branch (green when its
            // dependence holds, red when not) and the relation's condition type (judge, delay).
            QStringList kinds;
            EdgeNote note;
            if (relation.branch == DsRelation::Branch::OnSuccess) {
                kinds << tr("if true");
                note.color = QColor(0x18, 0x80, 0x38);
            } else if (relation.branch == DsRelation::Branch::OnFailure) {
                kinds << tr("if false");
            }
            if (relation.conditionType == 1)
                kinds << tr("judge");
            else if (relation.conditionType == 2)
                kinds << tr("delay");
            else if (relation.conditionType != 0)
                kinds << tr("condition %1").arg(relation.conditionType);
            note.label = kinds.join(QStringLiteral(", "));
            note.toolTip = note.label.isEmpty()
                               ? tr("%1 → %2: runs after it")
                                     .arg(names.value(relation.preTaskCode),
                                          names.value(relation.postTaskCode))
                               : tr("%1 → %2: %3")
                                     .arg(names.value(relation.preTaskCode),
                                          names.value(relation.postTaskCode), note.label);
            m_edgeNotes.insert(qMakePair(upstream, task), note);
        }
    }
    static_cast<void>(m_tasks->show(chainId));
    static_cast<void>(m_dependencies->show(chainId));
}

int RemoteChainCanvas::nodeCount() const
{
    return m_scene ? int(m_scene->taskIds().size()) : 0;
}

void RemoteChainCanvas::annotate()
{
    if (!m_scene)
        return;
    for (auto note = m_nodeNotes.cbegin(); note != m_nodeNotes.cend(); ++note) {
        if (TaskNodeItem *node = m_scene->node(note.key())) {
            node->setDetail(note->detail);
            node->setToolTip(note->toolTip);
        }
    }
    for (auto note = m_edgeNotes.cbegin(); note != m_edgeNotes.cend(); ++note) {
        if (DependencyEdgeItem *edge = m_scene->edge(note.key().second, note.key().first)) {
            edge->setLabel(note->label, note->color);
            edge->setToolTip(note->toolTip);
        }
    }
}

TaskNodeItem *RemoteChainCanvas::nodeNamed(const QString &taskName) const
{
    if (!m_scene)
        return nullptr;
    for (const qint64 id : m_scene->taskIds()) {
        if (TaskNodeItem *node = m_scene->node(id); node && node->task().name == taskName)
            return node;
    }
    return nullptr;
}

QString RemoteChainCanvas::nodeDetail(const QString &taskName) const
{
    const TaskNodeItem *node = nodeNamed(taskName);
    return node ? node->detail() : QString();
}

QString RemoteChainCanvas::nodeToolTip(const QString &taskName) const
{
    const TaskNodeItem *node = nodeNamed(taskName);
    return node ? node->toolTip() : QString();
}

QString RemoteChainCanvas::edgeLabel(const QString &fromTask, const QString &toTask) const
{
    const TaskNodeItem *from = nodeNamed(fromTask);
    const TaskNodeItem *to = nodeNamed(toTask);
    if (!from || !to)
        return {};
    const DependencyEdgeItem *edge = m_scene->edge(to->taskId(), from->taskId());
    return edge ? edge->label() : QString();
}

} // namespace hg
