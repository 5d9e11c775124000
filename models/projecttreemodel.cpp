#include "projecttreemodel.h"

#include "base/enumnames.h"
#include "base/terminaltext.h"
#include "scheduler/missedrunsinbox.h"
#include "stateicon.h"
#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/connectionprofilerepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"

#include <QBrush>
#include <QPalette>
#include <QSet>

#include <algorithm>

namespace hg {

namespace {

// internalId: 0 for a top-level row (a project, the Connections node); 1 + the parent's row
// for a chain or a connection; remoteChainTag + the connection's row for a remote chain.
constexpr quintptr remoteChainTag = quintptr(1) << 30;

} // namespace

ProjectTreeModel::ProjectTreeModel(Store &store, QObject *parent)
    : QAbstractItemModel(parent)
    , m_store(store)
{}

Result<ProjectTreeModel::Contents> ProjectTreeModel::read(Store &store)
{
    Contents contents;
    const Result<QList<Project>> projects = ProjectRepository(store).list();
    if (!projects)
        return projects.error();
    contents.projects = projects.value();
    const Result<QList<Chain>> chains = ChainRepository(store).list();
    if (!chains)
        return chains.error();
    contents.chains = chains.value();
    const Result<QList<ConnectionProfile>> profiles = ConnectionProfileRepository(store).list();
    if (!profiles)
        return profiles.error();
    contents.connections = profiles.value();
    const Result<QHash<qint64, std::pair<qint64, RunState>>> latest =
        RunRepository(store).latestPerChain();
    if (!latest)
        return latest.error();
    contents.latest = latest.value();
    const Result<QList<MissedRunsInbox::Waiting>> waiting = MissedRunsInbox(store).waiting();
    if (!waiting)
        return waiting.error();
    for (const MissedRunsInbox::Waiting &entry : waiting.value())
        contents.missed.insert(entry.chainId, entry.count);
    return contents;
}

void ProjectTreeModel::show(const Contents &contents)
{
    QHash<qint64, qsizetype> rowOfProject;
    QList<ProjectNode> nodes;
    for (const Project &project : contents.projects) {
        rowOfProject.insert(project.id, nodes.size());
        nodes << ProjectNode{project, {}};
    }
    for (const Chain &chain : contents.chains) {
        if (const auto row = rowOfProject.constFind(chain.projectId); row != rowOfProject.cend())
            nodes[row.value()].chains << chain;
    }
    QList<ConnectionNode> connections;
    for (const ConnectionProfile &profile : contents.connections)
        connections << ConnectionNode{profile, m_checks.value(profile.name)};
    beginResetModel();
    m_projects = std::move(nodes);
    m_connections = std::move(connections);
    m_latest = contents.latest;
    m_missed = contents.missed;
    endResetModel();
}

Status ProjectTreeModel::reload()
{
    const Result<Contents> contents = read(m_store);
    if (!contents)
        return contents.error();
    show(contents.value());
    return {};
}

Status ProjectTreeModel::reloadMissedRuns()
{
    const Result<QList<MissedRunsInbox::Waiting>> waiting = MissedRunsInbox(m_store).waiting();
    if (!waiting)
        return waiting.error();
    QHash<qint64, qint64> missed;
    for (const MissedRunsInbox::Waiting &entry : waiting.value())
        missed.insert(entry.chainId, entry.count);
    QSet<qint64> changed;
    for (auto it = missed.cbegin(); it != missed.cend(); ++it) {
        if (m_missed.value(it.key()) != it.value())
            changed.insert(it.key());
    }
    for (auto it = m_missed.cbegin(); it != m_missed.cend(); ++it) {
        if (!missed.contains(it.key()))
            changed.insert(it.key());
    }
    m_missed = std::move(missed);
    for (qint64 chainId : std::as_const(changed)) {
        const QModelIndex chain = indexOf(true, chainId);
        if (chain.isValid())
            Q_EMIT dataChanged(
                chain, chain,
                {Qt::DisplayRole, Qt::ToolTipRole, Qt::AccessibleDescriptionRole, MissedRunsRole});
    }
    return {};
}

qint64 ProjectTreeModel::missedRuns() const
{
    qint64 total = 0;
    for (qint64 count : m_missed)
        total += count;
    return total;
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
    if (parent.internalId() == 0)
        return createIndex(row, column, quintptr(parent.row()) + 1);
    return createIndex(row, column, remoteChainTag + quintptr(parent.row()));
}

QModelIndex ProjectTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    if (child.internalId() >= remoteChainTag)
        return createIndex(int(child.internalId() - remoteChainTag), 0,
                           quintptr(connectionsRow()) + 1);
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ProjectTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_projects.size()) + (m_connections.isEmpty() ? 0 : 1);
    if (parent.column() != 0)
        return 0;
    switch (kindOf(parent)) {
    case NodeKind::Project:
        return int(m_projects.at(parent.row()).chains.size());
    case NodeKind::Connections:
        return int(m_connections.size());
    case NodeKind::Connection:
        return int(m_connections.at(parent.row()).check.chains.size());
    case NodeKind::Chain:
    case NodeKind::RemoteChain:
        return 0;
    }
    return 0;
}

int ProjectTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

ProjectTreeModel::NodeKind ProjectTreeModel::kindOf(const QModelIndex &index)
{
    const auto *model = qobject_cast<const ProjectTreeModel *>(index.model());
    if (!model || !index.isValid())
        return NodeKind::Project;
    const quintptr id = index.internalId();
    const int connections = model->connectionsRow();
    if (id == 0)
        return index.row() == connections ? NodeKind::Connections : NodeKind::Project;
    if (id >= remoteChainTag)
        return NodeKind::RemoteChain;
    return int(id - 1) == connections ? NodeKind::Connection : NodeKind::Chain;
}

QVariant ProjectTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const NodeKind kind = kindOf(index);
    if (role == NodeKindRole)
        return int(kind);
    switch (kind) {
    case NodeKind::Project:
        return projectData(m_projects.at(index.row()), role);
    case NodeKind::Chain:
        return chainData(m_projects.at(int(index.internalId() - 1)).chains.at(index.row()), role);
    case NodeKind::Connections:
        switch (role) {
        case Qt::DisplayRole:
            return tr("Connections");
        case Qt::ToolTipRole:
        case Qt::AccessibleDescriptionRole:
            return tr("Remote schedulers and databases: %n connection(s)", nullptr,
                      int(m_connections.size()));
        case IsChainRole:
            return false;
        default:
            return {};
        }
    case NodeKind::Connection:
        return connectionData(m_connections.at(index.row()), role);
    case NodeKind::RemoteChain:
        return remoteChainData(m_connections.at(int(index.internalId() - remoteChainTag)),
                               index.row(), role);
    }
    return {};
}

QVariant ProjectTreeModel::projectData(const ProjectNode &node, int role) const
{
    const Project &project = node.project;
    switch (role) {
    case Qt::DisplayRole:
        // A right-to-left override in a name must not reorder what is shown after it
        // ("rtl\u202egnp.exe" read as "rtlexe.png"): shown escaped, as the command line does.
        return terminaltext::escaped(project.name);
    case Qt::EditRole:
        return project.name;
    case Qt::ToolTipRole: {
        const int failed = failedChains(node);
        const QString status = failed > 0 ? tr("%n chain(s) failed", nullptr, failed) : QString();
        return QStringList{project.description, status}.join(QLatin1Char('\n')).trimmed();
    }
    case Qt::DecorationRole:
        return failedChains(node) > 0 ? StateIcon::failureBadge() : QVariant();
    case FailedChainsRole:
        return failedChains(node);
    case Qt::AccessibleDescriptionRole: {
        const int failed = failedChains(node);
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

QVariant ProjectTreeModel::chainData(const Chain &chain, int role) const
{
    const qint64 missed = m_missed.value(chain.id);
    const QString missedText =
        missed > 0 ? tr("%n missed run(s) wait", nullptr, int(std::min<qint64>(missed, 1000000)))
                   : QString();
    switch (role) {
    case Qt::DisplayRole:
        // The badge is text: it reads the same to a screen reader as it looks.
        return missed > 0 ? tr("%1 — %n missed", nullptr, int(std::min<qint64>(missed, 1000000)))
                                .arg(terminaltext::escaped(chain.name))
                          : terminaltext::escaped(chain.name);
    case Qt::EditRole:
        return chain.name;
    case MissedRunsRole:
        return missed;
    case Qt::ToolTipRole:
        return QString((chain.description.isEmpty() ? chain.name : chain.description)
                       + QLatin1Char('\n') + chainStatus(chain)
                       + (missed > 0 ? QLatin1Char('\n') + missedText : QString()));
    case Qt::AccessibleDescriptionRole:
        return missed > 0 ? tr("chain, %1, %2").arg(chainStatus(chain), missedText)
                          : tr("chain, %1").arg(chainStatus(chain));
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

QVariant ProjectTreeModel::connectionData(const ConnectionNode &node, int role) const
{
    const ConnectionCheck &check = node.check;
    switch (role) {
    case Qt::DisplayRole:
        return node.profile.name;
    case Qt::ToolTipRole:
        return check.state == ConnectionCheck::State::Checking
                   ? tr("%1: checking…").arg(enumName(node.profile.kind))
                   : check.detail;
    case Qt::AccessibleDescriptionRole:
        switch (check.state) {
        case ConnectionCheck::State::Checking:
            return tr("connection, checking");
        case ConnectionCheck::State::Connected:
            return tr("connection, connected: %1").arg(check.detail);
        case ConnectionCheck::State::ReadOnly:
            return tr("connection, read-only: %1").arg(check.detail);
        case ConnectionCheck::State::Failed:
            return tr("connection, failed: %1").arg(check.detail);
        }
        return {};
    case Qt::DecorationRole:
        return StateIcon::forConnection(check.state);
    case ConnectionNameRole:
        return node.profile.name;
    case IsChainRole:
        return false;
    default:
        return {};
    }
}

QVariant ProjectTreeModel::remoteChainData(const ConnectionNode &node, int row, int role) const
{
    const QString &chain = node.check.chains.at(row);
    switch (role) {
    case Qt::DisplayRole:
        return chain;
    case Qt::ToolTipRole:
        return tr("pg_timetable chain on '%1'").arg(node.profile.name);
    case Qt::AccessibleDescriptionRole:
        return tr("pg_timetable chain");
    case ConnectionNameRole:
        return node.profile.name;
    case IsChainRole:
        return false;
    default:
        return {};
    }
}

QList<ConnectionProfile> ProjectTreeModel::connections() const
{
    QList<ConnectionProfile> profiles;
    for (const ConnectionNode &node : m_connections)
        profiles << node.profile;
    return profiles;
}

std::optional<ConnectionProfile> ProjectTreeModel::connection(const QString &name) const
{
    for (const ConnectionNode &node : m_connections) {
        if (node.profile.name == name)
            return node.profile;
    }
    return std::nullopt;
}

void ProjectTreeModel::setConnectionCheck(const QString &name, const ConnectionCheck &check)
{
    m_checks.insert(name, check);
    const QModelIndex connection = indexOfConnection(name);
    if (!connection.isValid())
        return;
    ConnectionNode &node = m_connections[connection.row()];
    // The chains are replaced as rows, not by a reset: the tree keeps its selection and
    // what is expanded elsewhere.
    if (!node.check.chains.isEmpty()) {
        beginRemoveRows(connection, 0, int(node.check.chains.size()) - 1);
        node.check.chains.clear();
        endRemoveRows();
    }
    if (!check.chains.isEmpty()) {
        beginInsertRows(connection, 0, int(check.chains.size()) - 1);
        node.check = check;
        endInsertRows();
    }
    node.check = check;
    Q_EMIT dataChanged(connection, connection,
                       {Qt::DecorationRole, Qt::ToolTipRole, Qt::AccessibleDescriptionRole});
}

QModelIndex ProjectTreeModel::connectionsIndex() const
{
    const int row = connectionsRow();
    return row < 0 ? QModelIndex() : index(row, 0);
}

QModelIndex ProjectTreeModel::indexOfConnection(const QString &name,
                                                const QString &remoteChain) const
{
    const QModelIndex root = connectionsIndex();
    for (int row = 0; row < m_connections.size(); ++row) {
        const ConnectionNode &node = m_connections.at(row);
        if (node.profile.name != name)
            continue;
        const QModelIndex connection = index(row, 0, root);
        if (remoteChain.isEmpty())
            return connection;
        const qsizetype chainRow = node.check.chains.indexOf(remoteChain);
        return chainRow < 0 ? QModelIndex() : index(int(chainRow), 0, connection);
    }
    return {};
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
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || kindOf(index) != NodeKind::Chain)
        return std::nullopt;
    return m_projects.at(int(index.internalId() - 1)).chains.at(index.row());
}

Qt::ItemFlags ProjectTreeModel::flags(const QModelIndex &index) const
{
    // The root is asked too (by views and the model tester): no warning for it.
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return QAbstractItemModel::flags(index);
    const NodeKind kind = kindOf(index);
    if (kind != NodeKind::Project && kind != NodeKind::Chain)
        return QAbstractItemModel::flags(index); // renamed in the connection dialog
    return QAbstractItemModel::flags(index) | Qt::ItemIsEditable;
}

bool ProjectTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty() || name == index.data(Qt::EditRole).toString())
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
    names.insert(NodeKindRole, "nodeKind");
    names.insert(ConnectionNameRole, "connectionName");
    return names;
}

} // namespace hg
