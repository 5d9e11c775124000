#include "remotechaincanvas.h"

#include "dag/dagscene.h"
#include "dag/dagview.h"
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
    layout()->addWidget(m_view);
    return true;
}

qint64 RemoteChainCanvas::newChain()
{
    if (!ensureStore())
        return 0;
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
        task.timeoutSeconds = source.timeoutMinutes * 60;
        if (const qint64 stored = addTask(chainId, task); stored > 0)
            taskIds.insert(source.code, stored);
    }
    for (const DsRelation &relation : workflow.relations) {
        if (relation.preTaskCode != 0 && taskIds.contains(relation.preTaskCode)
            && taskIds.contains(relation.postTaskCode))
            static_cast<void>(DependencyRepository(*m_store).add(
                chainId, taskIds.value(relation.postTaskCode), taskIds.value(relation.preTaskCode),
                // A CONDITIONS task's failure branch is drawn as a failure edge; DolphinScheduler
                // runs both kinds of edge only after the task before has finished.
                relation.branch == DsRelation::Branch::OnFailure ? DependencyCondition::Failure
                                                                 : DependencyCondition::Success));
    }
    static_cast<void>(m_tasks->show(chainId));
    static_cast<void>(m_dependencies->show(chainId));
}

int RemoteChainCanvas::nodeCount() const
{
    return m_scene ? int(m_scene->taskIds().size()) : 0;
}

} // namespace hg
