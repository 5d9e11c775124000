#pragma once

#include <QAbstractTableModel>
#include <QStringList>

namespace hg {

// A flat table whose columns are named by a list of titles: the column count and the header
// that every table model here shares, written once. Subclasses give rowCount() and data().
class TableModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TableModel)

public:
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const final;

protected:
    // One title per column, in the order of the subclass's Column enum.
    TableModel(QStringList titles, QObject *parent);

private:
    const QStringList m_titles;
};

} // namespace hg
