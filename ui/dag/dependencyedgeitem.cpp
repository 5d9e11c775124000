#include "dependencyedgeitem.h"

#include "dag/tasknodeitem.h"

#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace hg {

DependencyEdgeItem::DependencyEdgeItem(const Dependency &dependency, TaskNodeItem *upstream,
                                       TaskNodeItem *task)
    : m_dependency(dependency)
    , m_upstream(upstream)
    , m_task(task)
{
    setFlags(ItemIsSelectable);
    setZValue(0);
    setToolTip(
        QStringLiteral("%1 → %2: runs on %3")
            .arg(dependency.upstreamName, dependency.taskName, enumName(dependency.condition)));
    upstream->addEdge(this);
    task->addEdge(this);
    adjust();
}

void DependencyEdgeItem::adjust()
{
    prepareGeometryChange();
    const QPointF from = m_upstream->outPort() + QPointF(TaskNodeItem::portRadius, 0);
    const QPointF to = m_task->inPort();
    const qreal bend = std::max<qreal>(40, std::abs(to.x() - from.x()) / 2);
    QPainterPath path(from);
    path.cubicTo(from + QPointF(bend, 0), to - QPointF(bend, 0), to);
    setPath(path);
    // The arrow head follows the curve's last direction.
    const QPointF tip = to;
    const QPointF back = path.pointAtPercent(0.97);
    const qreal angle = std::atan2(tip.y() - back.y(), tip.x() - back.x());
    const qreal size = 9;
    m_arrow =
        QPolygonF({tip, tip - QPointF(std::cos(angle - 0.45) * size, std::sin(angle - 0.45) * size),
                   tip - QPointF(std::cos(angle + 0.45) * size, std::sin(angle + 0.45) * size)});
}

void DependencyEdgeItem::setLabel(const QString &label, const QColor &color)
{
    m_label = label;
    m_labelColor = color;
    update();
}

QString DependencyEdgeItem::label() const
{
    if (!m_label.isEmpty())
        return m_label;
    return m_dependency.condition == DependencyCondition::Success
               ? QString()
               : QString(enumName(m_dependency.condition));
}

QRectF DependencyEdgeItem::boundingRect() const
{
    // Room for the arrow head and the condition label at the middle of the curve.
    return path().boundingRect().united(m_arrow.boundingRect()).adjusted(-50, -14, 50, 14);
}

QPainterPath DependencyEdgeItem::shape() const
{
    // A wide stroke, so the thin line is easy to click.
    QPainterPathStroker stroker;
    stroker.setWidth(12);
    QPainterPath wide = stroker.createStroke(path());
    wide.addPolygon(m_arrow);
    return wide;
}

void DependencyEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    QColor color(0x5f, 0x63, 0x68);
    Qt::PenStyle style = Qt::SolidLine;
    switch (m_dependency.condition) {
    case DependencyCondition::Success:
        break;
    case DependencyCondition::Completion:
        style = Qt::DashLine;
        break;
    case DependencyCondition::Failure:
        color = QColor(0xc5, 0x22, 0x1f);
        style = Qt::DashLine;
        break;
    }
    if (m_labelColor.isValid())
        color = m_labelColor;
    const bool selected = option->state & QStyle::State_Selected;
    if (selected)
        color = QColor(0x1a, 0x73, 0xe8);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(color, selected ? 2.5 : 1.6, style));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
    painter->setPen(QPen(color, 1));
    painter->setBrush(color);
    painter->drawPolygon(m_arrow);
    if (const QString label = this->label(); !label.isEmpty()) {
        const QPointF middle = path().pointAtPercent(0.5);
        QFont small = painter->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        painter->setFont(small);
        const QRectF box = painter->fontMetrics().boundingRect(label).adjusted(-4, -1, 4, 1);
        const QRectF placed = box.translated(middle - box.center());
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 230));
        painter->drawRoundedRect(placed, 3, 3);
        painter->setPen(color);
        painter->drawText(placed, Qt::AlignCenter, label);
    }
}

} // namespace hg
