#include "tablemodel.h"

namespace hg {

TableModel::TableModel(QStringList titles, QObject *parent)
    : QAbstractTableModel(parent)
    , m_titles(std::move(titles))
{}

int TableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_titles.size());
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= m_titles.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    return m_titles.at(section);
}

} // namespace hg
