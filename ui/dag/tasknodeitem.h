#pragma once

#include "domain/enums.h"
#include "domain/task.h"

#include <QGraphicsItem>

#include <optional>

namespace hg {

class DependencyEdgeItem;

// One task on the DAG canvas: a rounded box in the colour of its last state, with an output
// port on its right edge; dragging from the port to another task adds a dependency.
class TaskNodeItem final : public QGraphicsItem
{
public:
    static constexpr qreal width = 150;
    static constexpr qreal height = 54;
    static constexpr qreal portRadius = 7;
    enum { Type = UserType + 1 };

    explicit TaskNodeItem(const Task &task, std::optional<RunState> lastState);

    int type() const override { return Type; }
    qint64 taskId() const { return m_task.id; }
    const Task &task() const { return m_task; }
    void setLastState(std::optional<RunState> state);
    std::optional<RunState> lastState() const { return m_lastState; }
    void addEdge(DependencyEdgeItem *edge) { m_edges << edge; }
    // The second line of the box: "kind · last state" unless set (a remote node shows its own
    // attributes there instead).
    void setDetail(const QString &detail);
    QString detail() const;

    // Scene positions where edges leave and arrive.
    QPointF outPort() const { return mapToScene(QPointF(width, height / 2)); }
    QPointF inPort() const { return mapToScene(QPointF(0, height / 2)); }
    bool isOnPort(const QPointF &scenePos) const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant &value) override;

private:
    Task m_task;
    std::optional<RunState> m_lastState;
    QString m_detail;
    QList<DependencyEdgeItem *> m_edges;
};

} // namespace hg
