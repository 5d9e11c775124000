#include "sparklinedelegate.h"

#include "overviewchainsmodel.h"
#include "runs/durationbars.h"

#include <QApplication>
#include <QPainter>

namespace hg {

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const
{
    // The cell's background and focus as the style draws them, without its text.
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    cell.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);
    const auto runs = index.data(OverviewChainsModel::RunsRole).value<QList<RunSummary>>();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    DurationBars::paintBars(*painter, QRectF(option.rect).adjusted(4, 2, -4, -2), runs);
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem &option,
                                  const QModelIndex &index) const
{
    return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(220, 20));
}

} // namespace hg
