#pragma once

#include "domain/enums.h"

#include <QGraphicsScene>
#include <QHash>
#include <QPointer>

class QGraphicsLineItem;

namespace hg {

class DependenciesModel;
class DependencyEdgeItem;
class TaskNodeItem;
class TasksModel;

// The DAG canvas of one chain, drawn from the tasks and dependencies models and redrawn when
// they change. It edits nothing itself: drags, drops and menu choices become requests the
// chain editor turns into undoable edits, and the models' refresh draws the result.
class DagScene final : public QGraphicsScene
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DagScene)

public:
    DagScene(TasksModel *tasks, DependenciesModel *dependencies, QObject *parent = nullptr);
    ~DagScene() override;

    TaskNodeItem *node(qint64 taskId) const { return m_nodes.value(taskId); }
    // In a stable order (by id), for the canvas's accessible children.
    QList<qint64> taskIds() const;
    QList<DependencyEdgeItem *> edges() const { return m_edges; }
    DependencyEdgeItem *edge(qint64 taskId, qint64 upstreamId) const;
    QList<qint64> selectedTaskIds() const;
    // Where every task would go in the automatic layered layout.
    QHash<qint64, QPointF> automaticLayout() const;
    void selectTask(qint64 taskId);
    // Keyboard walking: the nearest task from `from` in an arrow's direction (0: none); from
    // no task, the top-left one.
    qint64 neighbour(qint64 from, Qt::Key direction) const;
    qint64 firstTask() const;

Q_SIGNALS:
    void connectRequested(qint64 taskId, qint64 upstreamId);
    void tasksMoved(const QHash<qint64, QPointF> &positions);
    void conditionRequested(qint64 taskId, qint64 upstreamId, hg::DependencyCondition condition);
    void removeEdgeRequested(qint64 taskId, qint64 upstreamId);
    void removeTaskRequested(qint64 taskId);
    void currentTaskChanged(qint64 taskId); // 0: none
    void editRequested(qint64 taskId);      // Enter on a selected task
    void rebuilt();

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void rebuild();
    void refreshStates();
    TaskNodeItem *nodeAt(const QPointF &scenePos) const;
    void reportSelection();

    TasksModel *m_tasks;
    DependenciesModel *m_dependencies;
    QHash<qint64, TaskNodeItem *> m_nodes;
    QList<DependencyEdgeItem *> m_edges;
    // A connection being dragged from a port.
    TaskNodeItem *m_connectFrom = nullptr;
    QGraphicsLineItem *m_rubberBand = nullptr;
    // Node positions when a move started, to report only real moves.
    QHash<qint64, QPointF> m_pressPositions;
    bool m_rebuildPending = false;
};

} // namespace hg
