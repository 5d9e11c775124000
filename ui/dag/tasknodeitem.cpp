#include "tasknodeitem.h"

#include "dag/dependencyedgeitem.h"
#include "statepresentation.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace hg {

TaskNodeItem::TaskNodeItem(const Task &task, std::optional<RunState> lastState)
    : m_task(task)
    , m_lastState(lastState)
{
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges | ItemIsFocusable);
    setAcceptHoverEvents(true);
    setZValue(1);
    setToolTip(QStringLiteral("%1 (%2)\n%3\nlast state: %4")
                   .arg(task.name, enumName(task.kind),
                        (QStringList{task.command} + task.arguments).join(QLatin1Char(' ')),
                        lastState ? enumName(*lastState) : QStringLiteral("never ran")));
}

void TaskNodeItem::setLastState(std::optional<RunState> state)
{
    if (state == m_lastState)
        return;
    m_lastState = state;
    update();
}

void TaskNodeItem::setDetail(const QString &detail)
{
    m_detail = detail;
    update();
}

QString TaskNodeItem::detail() const
{
    // The state as the rest of the window says it ("timed out", "never ran"), never a storage name.
    return m_detail.isEmpty() ? enumName(m_task.kind) + QStringLiteral(" · ")
                                    + StatePresentation::label(m_lastState)
                              : m_detail;
}

bool TaskNodeItem::isOnPort(const QPointF &scenePos) const
{
    const QPointF local = mapFromScene(scenePos);
    const QPointF port(width, height / 2);
    return QLineF(local, port).length() <= portRadius + 3;
}

QRectF TaskNodeItem::boundingRect() const
{
    return QRectF(-2, -2, width + portRadius + 4, height + 4);
}

void TaskNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const bool selected = option->state & QStyle::State_Selected;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(
        QPen(selected ? QColor(0x1a, 0x73, 0xe8) : QColor(0x5f, 0x63, 0x68), selected ? 2.5 : 1.2));
    painter->setBrush(StatePresentation::fill(m_lastState));
    painter->drawRoundedRect(QRectF(0, 0, width, height), 8, 8);

    QFont nameFont = painter->font();
    nameFont.setBold(true);
    painter->setFont(nameFont);
    painter->setPen(QColor(0x20, 0x21, 0x24));
    const QRectF nameRect(10, 6, width - 20, height / 2 - 4);
    painter->drawText(
        nameRect, Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(nameFont).elidedText(m_task.name, Qt::ElideRight, nameRect.width()));
    QFont detailFont = painter->font();
    detailFont.setBold(false);
    detailFont.setPointSizeF(detailFont.pointSizeF() * 0.85);
    painter->setFont(detailFont);
    painter->setPen(QColor(0x3c, 0x40, 0x43));
    const QRectF detailRect(10, height / 2, width - 20, height / 2 - 6);
    const QString detail = this->detail();
    painter->drawText(
        detailRect, Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(detailFont).elidedText(detail, Qt::ElideRight, detailRect.width()));

    painter->setPen(QPen(QColor(0x5f, 0x63, 0x68), 1.2));
    painter->setBrush(QColor(0xff, 0xff, 0xff)); // the port sits on the pastel node, both themes
    painter->drawEllipse(QPointF(width, height / 2), portRadius, portRadius);
}

QVariant TaskNodeItem::itemChange(GraphicsItemChange change, const QVariant &value)
{
    if (change == ItemPositionHasChanged) {
        for (DependencyEdgeItem *edge : std::as_const(m_edges))
            edge->adjust();
    }
    return QGraphicsItem::itemChange(change, value);
}

} // namespace hg
