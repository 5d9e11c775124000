#pragma once

#include <QStyledItemDelegate>

namespace hg {

// Paints a cell's runs (OverviewChainsModel::RunsRole) as duration bars: the Overview's
// sparklines, one per row of a view that paints only the rows it shows.
class SparklineDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SparklineDelegate)

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace hg
