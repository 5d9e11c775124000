#pragma once

#include "domain/dependency.h"

#include <QGraphicsPathItem>

namespace hg {

class TaskNodeItem;

// One dependency on the DAG canvas: a curve from the upstream's port to the task, with an
// arrow head; the condition shows as colour, dash and a label (success is the plain line).
class DependencyEdgeItem final : public QGraphicsPathItem
{
public:
    enum { Type = UserType + 2 };

    DependencyEdgeItem(const Dependency &dependency, TaskNodeItem *upstream, TaskNodeItem *task);

    int type() const override { return Type; }
    const Dependency &dependency() const { return m_dependency; }
    void adjust();
    // A label of the edge's own kind, in its own colour (invalid: the condition's), shown in place
    // of the condition's name, even on a success edge (a remote's edge types: DolphinScheduler's
    // judge and delay relations, a CONDITIONS task's branches).
    void setLabel(const QString &label, const QColor &color = QColor());
    // What the edge says at its middle: the label, else the condition unless it is success.
    QString label() const;

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    Dependency m_dependency;
    TaskNodeItem *m_upstream;
    TaskNodeItem *m_task;
    QPolygonF m_arrow;
    QString m_label;
    QColor m_labelColor;
};

} // namespace hg
