#include "chainflowview.h"

#include "dag/daglayout.h"
#include "statepresentation.h"

#include <QFontMetrics>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainterPath>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace hg {
namespace {

constexpr double boxWidth = 200.0;
constexpr double boxHeight = 44.0;
constexpr int ChainIdKey = 0;

QString stateWords(const QString &onState)
{
    if (onState == QLatin1String("failed"))
        return ChainFlowView::tr("when it failed");
    if (onState == QLatin1String("finished"))
        return ChainFlowView::tr("when it finished");
    return ChainFlowView::tr("when it succeeded");
}

// The edge's label.
QString stateLabel(const QString &onState)
{
    if (onState == QLatin1String("failed"))
        return ChainFlowView::tr("failed");
    if (onState == QLatin1String("finished"))
        return ChainFlowView::tr("finished");
    return ChainFlowView::tr("succeeded");
}

} // namespace

ChainFlowView::ChainFlowView(QWidget *parent)
    : QGraphicsView(parent)
{
    setObjectName(QStringLiteral("overview.flow"));
    setScene(new QGraphicsScene(this));
    setRenderHint(QPainter::Antialiasing);
    setFocusPolicy(Qt::StrongFocus);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setAccessibleName(tr("Chains started by other chains"));
    setToolTip(tr("Arrow keys move between chains; Enter or a double click opens one"));
}

void ChainFlowView::show(const QList<OverviewSnapshot::Link> &links,
                         const QHash<qint64, RunState> &lastState)
{
    const qint64 keep = m_current;
    scene()->clear();
    m_boxes.clear();
    m_order.clear();
    m_edgeTexts.clear();
    m_current = 0;

    QHash<qint64, QString> paths;
    for (const OverviewSnapshot::Link &link : links) {
        paths.insert(link.upstreamId, link.upstreamPath);
        paths.insert(link.downstreamId, link.downstreamPath);
    }
    QList<qint64> ids = paths.keys();
    std::sort(ids.begin(), ids.end(),
              [&](qint64 a, qint64 b) { return paths.value(a) < paths.value(b); });
    m_leftOut = int(std::max<qsizetype>(0, ids.size() - mostChains));
    ids.resize(std::min<qsizetype>(ids.size(), mostChains));
    m_order = ids;
    QList<Dependency> edges;
    for (const OverviewSnapshot::Link &link : links)
        edges << Dependency{
            link.downstreamId, link.upstreamId, DependencyCondition::Success, {}, {}};
    const QHash<qint64, QPointF> at = DagLayout::place(ids, edges);

    const QFontMetrics metrics(font());
    for (qint64 id : std::as_const(ids)) {
        const QPointF origin = at.value(id);
        auto *box = scene()->addRect(QRectF(origin, QSizeF(boxWidth, boxHeight)));
        const auto state = lastState.constFind(id);
        const QColor fill = state == lastState.cend() ? palette().color(QPalette::Base)
                                                      : StatePresentation::fill(*state);
        box->setBrush(fill);
        box->setPen(QPen(palette().color(QPalette::Mid), 1.0));
        box->setData(ChainIdKey, id);
        box->setToolTip(
            state == lastState.cend()
                ? paths.value(id)
                : tr("%1 — last run %2").arg(paths.value(id), StatePresentation::label(*state)));
        auto *text = new QGraphicsSimpleTextItem(
            metrics.elidedText(paths.value(id), Qt::ElideMiddle, int(boxWidth) - 16), box);
        text->setBrush(palette().color(QPalette::Text));
        text->setPos(origin + QPointF(8, (boxHeight - metrics.height()) / 2));
        m_boxes.insert(id, box);
    }
    double bottom = 0;
    for (const QGraphicsRectItem *box : std::as_const(m_boxes))
        bottom = std::max(bottom, box->rect().bottom());
    int lane = 0;
    for (const OverviewSnapshot::Link &link : links) {
        m_edgeTexts << tr("%1 starts %2 %3%4")
                           .arg(link.upstreamPath, link.downstreamPath, stateWords(link.onState),
                                link.paused ? tr(" (paused)") : QString());
        QGraphicsRectItem *from = m_boxes.value(link.upstreamId);
        QGraphicsRectItem *to = m_boxes.value(link.downstreamId);
        if (!from || !to)
            continue;
        // Past the next column, or back, an edge would cross the boxes between: it runs in
        // a lane of its own below them.
        const bool adjacent = to->rect().left() > from->rect().right()
                              && to->rect().left() - from->rect().right() < DagLayout::columnWidth;
        drawEdge(scene(), from->rect(), to->rect(), link,
                 adjacent ? std::optional<double>() : bottom + 22.0 * ++lane);
    }
    if (m_leftOut > 0)
        m_edgeTexts << tr("%n more chain(s) linked by triggers are not drawn", nullptr, m_leftOut);
    scene()->setSceneRect(scene()->itemsBoundingRect().adjusted(-8, -8, 8, 8));
    // A screen reader hears the edges; the first 30 say enough to find the rest in the tree.
    setAccessibleDescription(QStringList(m_edgeTexts.mid(0, 30)).join(QStringLiteral("; ")));
    if (m_boxes.contains(keep))
        setCurrentChain(keep);
}

void ChainFlowView::drawEdge(QGraphicsScene *scene, const QRectF &from, const QRectF &to,
                             const OverviewSnapshot::Link &link, std::optional<double> laneY)
{
    // From the right side of the upstream to the left of the chain it starts.
    const QPointF start(from.right(), from.center().y());
    const QPointF end(to.left(), to.center().y());
    QPainterPath path(start);
    if (laneY) {
        // Down into the lane, along it, and up into the chain it starts.
        const QPointF down(start.x() + 30, *laneY);
        const QPointF up(end.x() - 30, *laneY);
        path.cubicTo(start + QPointF(30, 0), QPointF(down.x(), start.y()), down);
        path.lineTo(up);
        path.cubicTo(QPointF(up.x(), end.y()), end - QPointF(30, 0), end);
    } else {
        const double reach = std::max(40.0, std::abs(end.x() - start.x()) / 2);
        path.cubicTo(start + QPointF(reach, 0), end - QPointF(reach, 0), end);
    }
    QPen pen(palette().color(QPalette::Text), 1.4);
    if (link.paused)
        pen.setStyle(Qt::DashLine);
    if (link.onState == QLatin1String("failed"))
        pen.setColor(StatePresentation::errorText());
    auto *line = scene->addPath(path, pen);
    line->setZValue(-1);
    // The arrowhead, pointing along the curve's end.
    const QPointF tip = end;
    const QPointF back = path.pointAtPercent(0.95);
    const double angle = std::atan2(tip.y() - back.y(), tip.x() - back.x());
    QPolygonF head;
    head << tip << tip - QPointF(std::cos(angle - 0.45) * 10, std::sin(angle - 0.45) * 10)
         << tip - QPointF(std::cos(angle + 0.45) * 10, std::sin(angle + 0.45) * 10);
    scene->addPolygon(head, pen, pen.color());
    auto *label = scene->addSimpleText(stateLabel(link.onState));
    label->setBrush(pen.color());
    const QPointF middle =
        laneY ? QPointF((start.x() + end.x()) / 2, *laneY) : path.pointAtPercent(0.5);
    label->setPos(middle + QPointF(-label->boundingRect().width() / 2, -16));
}

void ChainFlowView::setCurrentChain(qint64 chainId)
{
    if (QGraphicsRectItem *old = m_boxes.value(m_current))
        old->setPen(QPen(palette().color(QPalette::Mid), 1.0));
    m_current = m_boxes.contains(chainId) ? chainId : 0;
    if (QGraphicsRectItem *box = m_boxes.value(m_current)) {
        box->setPen(QPen(palette().color(QPalette::Highlight), 3.0));
        ensureVisible(box);
    }
}

void ChainFlowView::keyPressEvent(QKeyEvent *event)
{
    if (m_order.isEmpty())
        return QGraphicsView::keyPressEvent(event);
    const qsizetype index = m_order.indexOf(m_current);
    switch (event->key()) {
    case Qt::Key_Down:
    case Qt::Key_Right:
        setCurrentChain(m_order.at(index < 0 ? 0 : std::min(index + 1, m_order.size() - 1)));
        return;
    case Qt::Key_Up:
    case Qt::Key_Left:
        setCurrentChain(m_order.at(std::max<qsizetype>(0, index - 1)));
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_current > 0)
            Q_EMIT chainActivated(m_current);
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

qint64 ChainFlowView::chainAt(const QPoint &viewPoint) const
{
    for (QGraphicsItem *item : items(viewPoint)) {
        for (QGraphicsItem *part = item; part; part = part->parentItem()) {
            if (part->data(ChainIdKey).isValid())
                return part->data(ChainIdKey).toLongLong();
        }
    }
    return 0;
}

void ChainFlowView::mousePressEvent(QMouseEvent *event)
{
    if (const qint64 chain = chainAt(event->pos()))
        setCurrentChain(chain);
    QGraphicsView::mousePressEvent(event);
}

void ChainFlowView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (const qint64 chain = chainAt(event->pos()))
        Q_EMIT chainActivated(chain);
    else
        QGraphicsView::mouseDoubleClickEvent(event);
}

} // namespace hg
