#include "overviewchainsmodel.h"

#include "runsummarytext.h"
#include "statepresentation.h"

#include <algorithm>

namespace hg {

OverviewChainsModel::OverviewChainsModel(QObject *parent)
    : TableModel({tr("Chain"), tr("Last runs"), tr("Last result")}, parent)
{}

void OverviewChainsModel::show(QList<Row> rows)
{
    // The same chains in the same order (a refresh as runs end): the rows that changed say
    // so, and the view keeps its scroll and current row without laying out 10,000 rows again.
    const bool sameChains =
        rows.size() == m_rows.size()
        && std::equal(rows.cbegin(), rows.cend(), m_rows.cbegin(),
                      [](const Row &a, const Row &b) { return a.chainId == b.chainId; });
    if (!sameChains) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    for (qsizetype i = 0; i < rows.size(); ++i) {
        Row &row = m_rows[i];
        if (row.path == rows.at(i).path && row.runs == rows.at(i).runs)
            continue;
        row = std::move(rows[i]);
        Q_EMIT dataChanged(index(int(i), 0), index(int(i), columnCount() - 1));
    }
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
