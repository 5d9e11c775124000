#include "occurrencestrip.h"

#include "occurrencesmodel.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace hg {
namespace {

constexpr int cellWidth = 14;
constexpr int cellGap = 2;
constexpr int stripHeight = 22;

} // namespace

OccurrenceStrip::OccurrenceStrip(QAbstractItemModel *occurrences, QWidget *parent)
    : QWidget(parent)
    , m_occurrences(occurrences)
{
    setObjectName(QStringLiteral("occurrenceStrip"));
    setAccessibleName(tr("Recent occurrences"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(occurrences, &QAbstractItemModel::modelReset, this, [this] {
        if (auto *model = qobject_cast<OccurrencesModel *>(m_occurrences))
            setAccessibleDescription(model->summary());
        update();
    });
}

QSize OccurrenceStrip::sizeHint() const
{
    return {40 * (cellWidth + cellGap), stripHeight};
}

QSize OccurrenceStrip::minimumSizeHint() const
{
    return {10 * (cellWidth + cellGap), stripHeight};
}

int OccurrenceStrip::visibleCells() const
{
    return std::max(1, (width() + cellGap) / (cellWidth + cellGap));
}

int OccurrenceStrip::firstVisibleRow() const
{
    return std::max(0, m_occurrences->rowCount() - visibleCells());
}

QRect OccurrenceStrip::cellRect(int cell) const
{
    return {cell * (cellWidth + cellGap), 2, cellWidth, height() - 4};
}

int OccurrenceStrip::rowAt(const QPoint &pos) const
{
    const int cell = pos.x() / (cellWidth + cellGap);
    const int row = firstVisibleRow() + cell;
    if (pos.x() < 0 || row >= m_occurrences->rowCount() || !cellRect(cell).contains(pos))
        return -1;
    return row;
}

bool OccurrenceStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = rowAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(),
                               m_occurrences->index(row, 0).data(Qt::ToolTipRole).toString(), this,
                               cellRect(row - firstVisibleRow()));
        }
        return true;
    }
    return QWidget::event(event);
}

void OccurrenceStrip::mouseReleaseEvent(QMouseEvent *event)
{
    const int row = rowAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || row < 0)
        return;
    const QModelIndex index = m_occurrences->index(row, 0);
    if (!index.data(OccurrencesModel::UnrunRole).toBool())
        Q_EMIT runActivated(index.data(OccurrencesModel::RunIdRole).toLongLong());
}

void OccurrenceStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const int rows = m_occurrences->rowCount();
    if (rows == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignVCenter | Qt::AlignLeft,
                         tr("No fire time in the last 24 hours."));
        return;
    }
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.75));
    painter.setFont(small);
    const int first = firstVisibleRow();
    for (int row = first; row < rows; ++row) {
        const QModelIndex index = m_occurrences->index(row, 0);
        const QRect cell = cellRect(row - first);
        const QColor fill = index.data(OccurrencesModel::FillRole).value<QColor>();
        painter.fillRect(cell, fill);
        if (index.data(OccurrencesModel::UnrunRole).toBool())
            painter.fillRect(cell, QBrush(fill.darker(160), Qt::BDiagPattern));
        painter.setPen(fill.darker(150));
        painter.setBrush(Qt::NoBrush); // an alert's corner before left its brush set
        painter.drawRect(cell.adjusted(0, 0, -1, -1));
        if (!index.data(OccurrencesModel::AlertRole).toString().isEmpty()) {
            // An alert: a red corner, and the tooltip says which.
            const QPolygon corner{cell.topRight() + QPoint(1, 0), cell.topRight() + QPoint(-6, 0),
                                  cell.topRight() + QPoint(1, 7)};
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(0xc5, 0x22, 0x1f));
            painter.drawPolygon(corner);
        }
        const qint64 count = index.data(OccurrencesModel::CountRole).toLongLong();
        if (count > 1) {
            painter.setPen(fill.lightness() > 128 ? Qt::black : Qt::white);
            painter.drawText(cell, Qt::AlignCenter,
                             count > 99 ? QStringLiteral("+") : QString::number(count));
        }
    }
}

} // namespace hg
