#pragma once

#include "store/runrepository.h"
#include "tablemodel.h"

#include <QList>

namespace hg {

// The Overview's chains: each with its path and its last runs (a sparkline), one row per
// chain, for a view that paints only the rows it shows (10,000 chains, one model).
class OverviewChainsModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OverviewChainsModel)

public:
    enum Column { ChainColumn, RunsColumn, LastColumn, ColumnCount };
    Q_ENUM(Column)
    // RunsRole: QList<RunSummary>, oldest first.
    enum Role { ChainIdRole = Qt::UserRole + 1, RunsRole };
    Q_ENUM(Role)

    struct Row
    {
        qint64 chainId = 0;
        QString path; // PROJECT/CHAIN
        QList<RunSummary> runs;
    };

    explicit OverviewChainsModel(QObject *parent = nullptr);

    void show(QList<Row> rows);
    const QList<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QList<Row> m_rows;
};

} // namespace hg
