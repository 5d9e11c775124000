#pragma once

#include "base/result.h"
#include "domain/dependency.h"
#include "tablemodel.h"

namespace hg {

class Store;

// The dependencies (edges) of one chain: the canvas draws them, the edge list shows them.
class DependenciesModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DependenciesModel)

public:
    enum Column { UpstreamColumn, TaskColumn, ConditionColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role { TaskIdRole = Qt::UserRole + 1, UpstreamIdRole, ConditionRole };
    Q_ENUM(Role)

    explicit DependenciesModel(Store &store, QObject *parent = nullptr);

    Status show(qint64 chainId);
    void show(qint64 chainId, QList<Dependency> edges); // as read elsewhere
    Status reload() { return show(m_chainId); }
    qint64 chainId() const { return m_chainId; }
    const QList<Dependency> &dependencies() const { return m_edges; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    Store &m_store;
    qint64 m_chainId = 0;
    QList<Dependency> m_edges;
};

} // namespace hg
