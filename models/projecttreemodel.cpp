#include "projecttreemodel.h"

#include "stateicon.h"
#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"

#include <QBrush>
#include <QPalette>

#include <algorithm>

namespace hg {

// internalId: 0 for a project row; 1 + project row for a chain row.
ProjectTreeModel::ProjectTreeModel(Store &store, QObject *parent)
    : QAbstractItemModel(parent)
    , m_store(store)
{}

Status ProjectTreeModel::reload()
{
    const Result<QList<Project>> projects = ProjectRepository(m_store).list();
    if (!projects)
        return projects.error();
    const Result<QList<Chain>> chains = ChainRepository(m_store).list();
    if (!chains)
        return chains.error();
    QList<ProjectNode> nodes;
    for (const Project &project : projects.value()) {
        ProjectNode node{project, {}};
        for (const Chain &chain : chains.value()) {
            if (chain.projectId == project.id)
                node.chains << chain;
        }
        nodes << node;
    }
    const Result<QHash<qint64, std::pair<qint64, RunState>>> latest =
        RunRepository(m_store).latestPerChain();
    beginResetModel();
    m_projects = std::move(nodes);
    m_latest = latest ? latest.value() : QHash<qint64, std::pair<qint64, RunState>>();
    endResetModel();
    return latest ? Status() : Status(latest.error());
}

void ProjectTreeModel::applyRun(const Run &run)
{
    const auto known = m_latest.constFind(run.chainId);
    if (known != m_latest.constEnd() && known->first > run.id)
        return; // an older run: the icon shows the newest
    m_latest.insert(run.chainId, {run.id, run.state});
    const QModelIndex chain = indexOf(true, run.chainId);
    if (!chain.isValid())
        return;
    Q_EMIT dataChanged(chain, chain, {Qt::DecorationRole, Qt::ToolTipRole, LastStateRole});
    const QModelIndex project = chain.parent();
    Q_EMIT dataChanged(project, project, {Qt::DecorationRole, Qt::ToolTipRole, FailedChainsRole});
}

int ProjectTreeModel::failedChains(const ProjectNode &node) const
{
    return int(std::count_if(node.chains.cbegin(), node.chains.cend(), [this](const Chain &chain) {
        const auto latest = m_latest.constFind(chain.id);
        return chain.enabled && latest != m_latest.constEnd() && isTerminal(latest->second)
               && latest->second != RunState::Succeeded && latest->second != RunState::Cancelled;
    }));
}

QString ProjectTreeModel::chainStatus(const Chain &chain) const
{
    if (!chain.enabled)
        return tr("switched off");
    const auto latest = m_latest.constFind(chain.id);
    if (latest == m_latest.constEnd())
        return tr("never ran");
    return tr("last run %1: %2").arg(latest->first).arg(StatePresentation::label(latest->second));
}

QModelIndex ProjectTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex ProjectTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ProjectTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_projects.size());
    if (parent.internalId() == 0 && parent.column() == 0)
        return int(m_projects.at(parent.row()).chains.size());
    return 0;
}

int ProjectTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant ProjectTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == 0) {
        const Project &project = m_projects.at(index.row()).project;
        switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            return project.name;
        case Qt::ToolTipRole: {
            const int failed = failedChains(m_projects.at(index.row()));
            const QString status =
                failed > 0 ? tr("%n chain(s) failed", nullptr, failed) : QString();
            return QStringList{project.description, status}.join(QLatin1Char('\n')).trimmed();
        }
        case Qt::DecorationRole:
            return failedChains(m_projects.at(index.row())) > 0 ? StateIcon::failureBadge()
                                                                : QVariant();
        case FailedChainsRole:
            return failedChains(m_projects.at(index.row()));
        case Qt::AccessibleDescriptionRole: {
            const int failed = failedChains(m_projects.at(index.row()));
            return failed > 0 ? tr("project, %n chain(s) failed", nullptr, failed) : tr("project");
        }
        case IdRole:
            return project.id;
        case IsChainRole:
            return false;
        case EnabledRole:
            return true;
        default:
            return {};
        }
    }
    const Chain &chain = m_projects.at(int(index.internalId() - 1)).chains.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return chain.name;
    case Qt::ToolTipRole:
        return QString((chain.description.isEmpty() ? chain.name : chain.description)
                       + QLatin1Char('\n') + chainStatus(chain));
    case Qt::AccessibleDescriptionRole:
        return tr("chain, %1").arg(chainStatus(chain));
    case Qt::DecorationRole: {
        const auto latest = m_latest.constFind(chain.id);
        return StateIcon::forChain(
            latest == m_latest.constEnd() ? std::nullopt : std::optional<RunState>(latest->second),
            chain.enabled);
    }
    case LastStateRole: {
        const auto latest = m_latest.constFind(chain.id);
        return latest == m_latest.constEnd() ? QVariant() : QVariant(int(latest->second));
    }
    case Qt::ForegroundRole:
        // A disabled chain stays visible but reads as switched off.
        return chain.enabled ? QVariant()
                             : QVariant(QPalette().brush(QPalette::Disabled, QPalette::Text));
    case IdRole:
        return chain.id;
    case IsChainRole:
        return true;
    case EnabledRole:
        return chain.enabled;
    default:
        return {};
    }
}

QModelIndex ProjectTreeModel::indexOf(bool isChain, qint64 id) const
{
    for (int row = 0; row < m_projects.size(); ++row) {
        const ProjectNode &node = m_projects.at(row);
        if (!isChain && node.project.id == id)
            return index(row, 0);
        for (int chainRow = 0; isChain && chainRow < node.chains.size(); ++chainRow) {
            if (node.chains.at(chainRow).id == id)
                return index(chainRow, 0, index(row, 0));
        }
    }
    return {};
}

std::optional<Chain> ProjectTreeModel::chainAt(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || index.internalId() == 0)
        return std::nullopt;
    return m_projects.at(int(index.internalId() - 1)).chains.at(index.row());
}

Qt::ItemFlags ProjectTreeModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return QAbstractItemModel::flags(index);
    return QAbstractItemModel::flags(index) | Qt::ItemIsEditable;
}

bool ProjectTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty() || name == index.data(Qt::DisplayRole).toString())
        return false;
    Q_EMIT renameRequested(index.data(IsChainRole).toBool(), index.data(IdRole).toLongLong(), name);
    return true;
}

QHash<int, QByteArray> ProjectTreeModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(IdRole, "id");
    names.insert(IsChainRole, "isChain");
    names.insert(EnabledRole, "enabled");
    return names;
}

} // namespace hg
