#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/chaintrigger.h"
#include "domain/dependency.h"
#include "domain/project.h"
#include "domain/schedule.h"
#include "domain/task.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointF>

#include <array>
#include <functional>

class QUndoStack;

namespace hg {

class Store;

// Every definition edit the GUI makes (projects, chains, tasks, dependencies, schedules,
// canvas positions) goes through here: it is validated by the same repositories the command
// line uses, written to the store, and pushed on an undo stack. A refused edit returns the
// repository's message and leaves the store and the stack as they were.
//
// Undoing a delete creates the object again, with a new id. The editor remembers which id
// replaced which, so older commands on the stack still find their object.
class DefinitionEditor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DefinitionEditor)

public:
    explicit DefinitionEditor(Store &store, QObject *parent = nullptr);
    ~DefinitionEditor() override;

    QUndoStack *undoStack() const { return m_stack; }

    Result<Project> addProject(const QString &name);
    Status renameProject(qint64 projectId, const QString &name);
    // Removes the project with all its chains; undo restores their definitions (not runs).
    Status removeProject(qint64 projectId);

    Result<Chain> addChain(qint64 projectId, const QString &name);
    Status updateChain(const Chain &chain);
    Result<Chain> duplicateChain(qint64 chainId);
    Status removeChain(qint64 chainId);

    Result<Task> addTask(const Task &task);
    Status updateTask(const Task &task);
    Status removeTask(qint64 taskId);
    // Canvas positions of several tasks as one step (a drag, or the automatic layout).
    Status moveTasks(const QHash<qint64, QPointF> &positions, const QString &text);

    Status addDependency(qint64 taskId, qint64 upstreamId, DependencyCondition condition);
    Status setDependencyCondition(qint64 taskId, qint64 upstreamId, DependencyCondition condition);
    Status removeDependency(qint64 taskId, qint64 upstreamId);

    Result<Schedule> addSchedule(const Schedule &schedule);
    Status updateSchedule(const Schedule &schedule);
    Status removeSchedule(qint64 scheduleId);

    // Triggers (definitioneditortriggers.cpp): checked as the command line checks them.
    Result<ChainTrigger> addTrigger(const ChainTrigger &trigger);
    Status removeTrigger(qint64 triggerId);
    Status setTriggerPaused(qint64 triggerId, bool paused);

    // The id an object has now, given an id it had when a command was made.
    enum class Entity { Project, Chain, Task, Schedule, Trigger };
    qint64 currentId(Entity entity, qint64 id) const;

Q_SIGNALS:
    void treeChanged();                      // projects or chains were added, renamed or removed
    void chainChanged(qint64 chainId);       // a chain's tasks, dependencies or schedules changed
    void stepFailed(const QString &message); // an undo or redo the store refused

private:
    using Step = std::function<Status()>;
    struct ChainSnapshot
    {
        Chain chain;
        QList<Task> tasks;
        QList<Schedule> schedules;
    };

    Status perform(const QString &text, const Step &redo, const Step &undo);
    template<typename Repository, typename Item>
    Result<Item> addToChain(Entity entity, const Item &item, const QString &text);
    template<typename Repository, typename Item>
    Status updateInChain(Entity entity, const Item &item, const QString &text);
    void remember(Entity entity, qint64 oldId, qint64 newId);
    Result<ChainSnapshot> snapshot(qint64 chainId) const;
    // After an import re-created chains, points their old ids (and their tasks' and
    // schedules') at the new ones.
    Status remapImported(const QString &projectName, const QList<ChainSnapshot> &chains);
    Result<QJsonObject> exportChains(qint64 projectId, const std::optional<QString> &chain);
    Status import(const QJsonObject &document);
    Status removeProjectNow(qint64 projectId);
    // The first id of an object a command creates, or (when a redo creates it again) the
    // replacement of that id.
    void recordCreated(Entity entity, qint64 &firstId, qint64 newId);
    // Passes the status on, announcing the change when it succeeded.
    Status treeEdited(const Status &status);
    Status chainEdited(qint64 chainId, const Status &status);

    Store &m_store;
    QUndoStack *m_stack = nullptr;
    std::array<QHash<qint64, qint64>, 5> m_replacedIds;
};

} // namespace hg
