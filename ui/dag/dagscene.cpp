#include "dagscene.h"

#include "dag/daglayout.h"
#include "dag/dependencyedgeitem.h"
#include "dag/tasknodeitem.h"
#include "dependenciesmodel.h"
#include "tasksmodel.h"

#include <QGraphicsLineItem>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QPalette>
#include <QTimer>

#include <cmath>

namespace hg {

DagScene::DagScene(TasksModel *tasks, DependenciesModel *dependencies, QObject *parent)
    : QGraphicsScene(parent)
    , m_tasks(tasks)
    , m_dependencies(dependencies)
{
    // The window's own base colour, light or dark; the nodes keep their pastel state fills.
    setBackgroundBrush(QGuiApplication::palette().color(QPalette::Base));
    // Deferred: a reset may come from an edit made inside one of this scene's own mouse
    // handlers, which must not see their items deleted under them.
    const auto scheduleRebuild = [this] {
        if (m_rebuildPending)
            return;
        m_rebuildPending = true;
        QTimer::singleShot(0, this, &DagScene::rebuild);
    };
    connect(tasks, &QAbstractItemModel::modelReset, this, scheduleRebuild);
    connect(dependencies, &QAbstractItemModel::modelReset, this, scheduleRebuild);
    connect(tasks, &QAbstractItemModel::dataChanged, this, &DagScene::refreshStates);
    connect(this, &QGraphicsScene::selectionChanged, this, &DagScene::reportSelection);
    rebuild();
}

DependencyEdgeItem *DagScene::edge(qint64 taskId, qint64 upstreamId) const
{
    for (DependencyEdgeItem *item : m_edges) {
        if (item->dependency().taskId == taskId && item->dependency().upstreamId == upstreamId)
            return item;
    }
    return nullptr;
}

QList<qint64> DagScene::selectedTaskIds() const
{
    QList<qint64> ids;
    for (QGraphicsItem *item : selectedItems()) {
        if (auto *node = qgraphicsitem_cast<TaskNodeItem *>(item))
            ids << node->taskId();
    }
    return ids;
}

QHash<qint64, QPointF> DagScene::automaticLayout() const
{
    QList<qint64> ids;
    for (const Task &task : m_tasks->tasks())
        ids << task.id;
    return DagLayout::place(ids, m_dependencies->dependencies());
}

DagScene::~DagScene()
{
    // QGraphicsScene's destructor deletes the items, which changes the selection: silent, or
    // reportSelection would run on a half-destroyed scene and the editor would redraw a form
    // that is going too (a crash seen about one run in six).
    blockSignals(true);
}

QList<qint64> DagScene::taskIds() const
{
    QList<qint64> ids = m_nodes.keys();
    std::sort(ids.begin(), ids.end());
    return ids;
}

void DagScene::selectTask(qint64 taskId)
{
    clearSelection();
    if (TaskNodeItem *item = m_nodes.value(taskId))
        item->setSelected(true);
}

void DagScene::rebuild()
{
    m_rebuildPending = false;
    const QList<qint64> selected = selectedTaskIds();
    QSignalBlocker quiet(this); // clearing is not a selection change the user made
    m_connectFrom = nullptr;
    m_rubberBand = nullptr;
    m_nodes.clear();
    m_edges.clear();
    clear();
    const QHash<qint64, QPointF> automatic = automaticLayout();
    for (const Task &task : m_tasks->tasks()) {
        auto *item = new TaskNodeItem(task, m_tasks->lastState(task.id));
        item->setPos(task.position.value_or(automatic.value(task.id)));
        addItem(item);
        m_nodes.insert(task.id, item);
    }
    for (const Dependency &dependency : m_dependencies->dependencies()) {
        TaskNodeItem *upstream = m_nodes.value(dependency.upstreamId);
        TaskNodeItem *task = m_nodes.value(dependency.taskId);
        if (!upstream || !task)
            continue;
        auto *item = new DependencyEdgeItem(dependency, upstream, task);
        addItem(item);
        m_edges << item;
    }
    for (qint64 id : selected) {
        if (TaskNodeItem *item = m_nodes.value(id))
            item->setSelected(true);
    }
    setSceneRect(itemsBoundingRect().adjusted(-80, -60, 80, 60));
    quiet.unblock();
    Q_EMIT rebuilt();
}

void DagScene::refreshStates()
{
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
        it.value()->setLastState(m_tasks->lastState(it.key()));
}

TaskNodeItem *DagScene::nodeAt(const QPointF &scenePos) const
{
    for (QGraphicsItem *item : items(scenePos)) {
        if (auto *node = qgraphicsitem_cast<TaskNodeItem *>(item))
            return node;
    }
    return nullptr;
}

void DagScene::reportSelection()
{
    const QList<qint64> ids = selectedTaskIds();
    Q_EMIT currentTaskChanged(ids.size() == 1 ? ids.constFirst() : 0);
}

void DagScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        TaskNodeItem *node = nodeAt(event->scenePos());
        if (node && node->isOnPort(event->scenePos())) {
            m_connectFrom = node;
            m_rubberBand = addLine(QLineF(node->outPort(), event->scenePos()),
                                   QPen(QColor(0x1a, 0x73, 0xe8), 2, Qt::DashLine));
            m_rubberBand->setZValue(2);
            event->accept();
            return;
        }
    }
    QGraphicsScene::mousePressEvent(event);
    m_pressPositions.clear();
    for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
        m_pressPositions.insert(it.key(), it.value()->pos());
}

void DagScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_connectFrom) {
        m_rubberBand->setLine(QLineF(m_connectFrom->outPort(), event->scenePos()));
        event->accept();
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void DagScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_connectFrom) {
        TaskNodeItem *from = m_connectFrom;
        m_connectFrom = nullptr;
        delete m_rubberBand;
        m_rubberBand = nullptr;
        event->accept();
        TaskNodeItem *target = nodeAt(event->scenePos());
        if (target && target != from)
            Q_EMIT connectRequested(target->taskId(), from->taskId());
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    QHash<qint64, QPointF> moved;
    for (auto it = m_pressPositions.begin(); it != m_pressPositions.end(); ++it) {
        const TaskNodeItem *node = m_nodes.value(it.key());
        if (node && node->pos() != it.value())
            moved.insert(it.key(), node->pos());
    }
    m_pressPositions.clear();
    if (!moved.isEmpty())
        Q_EMIT tasksMoved(moved);
}

void DagScene::contextMenuEvent(QGraphicsSceneContextMenuEvent *event)
{
    for (QGraphicsItem *item : items(event->scenePos())) {
        if (auto *edgeItem = qgraphicsitem_cast<DependencyEdgeItem *>(item)) {
            const Dependency dependency = edgeItem->dependency();
            QMenu menu;
            menu.setTitle(tr("%1 → %2").arg(dependency.upstreamName, dependency.taskName));
            for (DependencyCondition condition :
                 {DependencyCondition::Success, DependencyCondition::Completion,
                  DependencyCondition::Failure}) {
                static const QStringList labels{tr("Run when it &succeeds"),
                                                tr("Run when it &completes (either way)"),
                                                tr("Run when it &fails")};
                QAction *choice = menu.addAction(labels.at(int(condition)));
                choice->setCheckable(true);
                choice->setChecked(condition == dependency.condition);
                connect(choice, &QAction::triggered, this, [this, dependency, condition] {
                    Q_EMIT conditionRequested(dependency.taskId, dependency.upstreamId, condition);
                });
            }
            menu.addSeparator();
            connect(menu.addAction(tr("&Delete dependency")), &QAction::triggered, this,
                    [this, dependency] {
                        Q_EMIT removeEdgeRequested(dependency.taskId, dependency.upstreamId);
                    });
            menu.exec(event->screenPos());
            event->accept();
            return;
        }
        if (auto *node = qgraphicsitem_cast<TaskNodeItem *>(item)) {
            QMenu menu;
            const qint64 id = node->taskId();
            connect(menu.addAction(tr("&Delete task %1").arg(node->task().name)),
                    &QAction::triggered, this, [this, id] { Q_EMIT removeTaskRequested(id); });
            menu.exec(event->screenPos());
            event->accept();
            return;
        }
    }
    QGraphicsScene::contextMenuEvent(event);
}

qint64 DagScene::neighbour(qint64 from, Qt::Key direction) const
{
    // The nearest node whose centre lies in that direction (within a 45° cone, ties by
    // distance), so arrows walk the canvas as it is drawn.
    const TaskNodeItem *origin = m_nodes.value(from);
    if (!origin)
        return m_nodes.isEmpty() ? 0 : firstTask();
    const QPointF start = origin->sceneBoundingRect().center();
    qint64 best = 0;
    qreal bestDistance = 0;
    for (const TaskNodeItem *node : m_nodes) {
        if (node == origin)
            continue;
        const QPointF d = node->sceneBoundingRect().center() - start;
        const bool inCone = direction == Qt::Key_Right  ? d.x() > 0 && std::abs(d.y()) <= d.x()
                            : direction == Qt::Key_Left ? d.x() < 0 && std::abs(d.y()) <= -d.x()
                            : direction == Qt::Key_Down ? d.y() > 0 && std::abs(d.x()) <= d.y()
                                                        : d.y() < 0 && std::abs(d.x()) <= -d.y();
        const qreal distance = std::hypot(d.x(), d.y());
        if (inCone && (best == 0 || distance < bestDistance)) {
            best = node->taskId();
            bestDistance = distance;
        }
    }
    return best;
}

qint64 DagScene::firstTask() const
{
    // The top-left node: where reading the canvas starts.
    const TaskNodeItem *first = nullptr;
    for (const TaskNodeItem *node : m_nodes) {
        const QPointF at = node->scenePos();
        if (!first || at.x() < first->scenePos().x()
            || (at.x() == first->scenePos().x() && at.y() < first->scenePos().y()))
            first = node;
    }
    return first ? first->taskId() : 0;
}

void DagScene::keyPressEvent(QKeyEvent *event)
{
    const QList<qint64> selected = selectedTaskIds();
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
        // Keypad arrows carry KeypadModifier: they walk the canvas too.
        if ((event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier) {
            const qint64 from = selected.size() == 1 ? selected.constFirst() : 0;
            if (const qint64 to = neighbour(from, Qt::Key(event->key())); to > 0) {
                selectTask(to);
                if (TaskNodeItem *node = m_nodes.value(to); node && !views().isEmpty())
                    views().constFirst()->ensureVisible(node);
            }
            event->accept();
            return;
        }
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (selected.size() == 1) {
            Q_EMIT editRequested(selected.constFirst());
            event->accept();
            return;
        }
        break;
    default:
        break;
    }
    if (event->matches(QKeySequence::Delete) || event->key() == Qt::Key_Backspace) {
        QList<QPair<qint64, qint64>> edges;
        QList<qint64> tasks;
        for (QGraphicsItem *item : selectedItems()) {
            if (auto *edgeItem = qgraphicsitem_cast<DependencyEdgeItem *>(item))
                edges << qMakePair(edgeItem->dependency().taskId,
                                   edgeItem->dependency().upstreamId);
            else if (auto *node = qgraphicsitem_cast<TaskNodeItem *>(item))
                tasks << node->taskId();
        }
        // Collected first: each request may rebuild the scene.
        for (const auto &[taskId, upstreamId] : edges)
            Q_EMIT removeEdgeRequested(taskId, upstreamId);
        for (qint64 taskId : tasks)
            Q_EMIT removeTaskRequested(taskId);
        event->accept();
        return;
    }
    QGraphicsScene::keyPressEvent(event);
}

} // namespace hg
