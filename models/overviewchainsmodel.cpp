#include "overviewchainsmodel.h"

#include "runsummarytext.h"
#include "statepresentation.h"

namespace hg {

OverviewChainsModel::OverviewChainsModel(QObject *parent)
    : TableModel({tr("Chain"), tr("Last runs"), tr("Last result")}, parent)
{}

void OverviewChainsModel::show(QList<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int OverviewChainsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant OverviewChainsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case ChainIdRole:
        return row.chainId;
    case RunsRole:
        return QVariant::fromValue(row.runs);
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        switch (Column(index.column())) {
        case ChainColumn:
            return row.path;
        case RunsColumn:
            return RunSummaryText::describe(row.runs);
        case LastColumn:
            return row.runs.isEmpty() ? tr("never ran")
                                      : StatePresentation::label(row.runs.constLast().state);
        case ColumnCount:
            break;
        }
        break;
    case Qt::ToolTipRole:
        return index.column() == RunsColumn ? RunSummaryText::describe(row.runs) : QVariant();
    default:
        break;
    }
    return {};
}

} // namespace hg
