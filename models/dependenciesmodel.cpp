#include "dependenciesmodel.h"

#include "store/dependencyrepository.h"

namespace hg {

DependenciesModel::DependenciesModel(Store &store, QObject *parent)
    : TableModel({tr("After"), tr("Task"), tr("When")}, parent)
    , m_store(store)
{}

Status DependenciesModel::show(qint64 chainId)
{
    QList<Dependency> edges;
    if (chainId > 0) {
        Result<QList<Dependency>> read = DependencyRepository(m_store).list(chainId);
        if (!read)
            return read.error();
        edges = read.value();
    }
    show(chainId, std::move(edges));
    return {};
}

void DependenciesModel::show(qint64 chainId, QList<Dependency> edges)
{
    beginResetModel();
    m_chainId = chainId;
    m_edges = std::move(edges);
    endResetModel();
}

int DependenciesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_edges.size());
}

QVariant DependenciesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Dependency &edge = m_edges.at(index.row());
    switch (role) {
    case TaskIdRole:
        return edge.taskId;
    case UpstreamIdRole:
        return edge.upstreamId;
    case ConditionRole:
        return int(edge.condition);
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case UpstreamColumn:
            return edge.upstreamName;
        case TaskColumn:
            return edge.taskName;
        case ConditionColumn:
            return enumName(edge.condition);
        case ColumnCount:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

} // namespace hg
