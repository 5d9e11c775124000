#pragma once

#include "base/result.h"
#include "connectioncheck.h"
#include "domain/chain.h"
#include "domain/connectionprofile.h"
#include "domain/project.h"
#include "domain/run.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QList>

#include <optional>

namespace hg {

class Store;

// Projects and their chains as a two-level tree, read from the store of the GUI thread. Each
// chain carries its status as an icon (last result, running, switched off); a project with
// failed chains carries a badge; a chain with runs waiting in the missed-runs inbox says how
// many after its name. Below the projects, once a connection exists, a Connections
// node holds each connection, its state as an icon and tooltip (set by whoever checks it,
// off the GUI thread), and under a pg_timetable remote its chains.
class ProjectTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProjectTreeModel)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        IsChainRole,
        EnabledRole,
        LastStateRole,
        FailedChainsRole,
        NodeKindRole,
        ConnectionNameRole, // on a connection and on a remote chain
        MissedRunsRole,     // on a chain: fire times waiting in the missed-runs inbox
    };
    Q_ENUM(Role)
    enum class NodeKind { Project, Chain, Connections, Connection, RemoteChain };
    Q_ENUM(NodeKind)

    explicit ProjectTreeModel(Store &store, QObject *parent = nullptr);

    // What the tree shows, read on any thread's store (the window's reader), shown by show().
    struct Contents
    {
        QList<Project> projects;
        QList<Chain> chains;
        QList<ConnectionProfile> connections;
        QHash<qint64, std::pair<qint64, RunState>> latest; // chain → newest run and its state
        QHash<qint64, qint64> missed;                      // chain → fire times in the inbox
    };
    static Result<Contents> read(Store &store);
    void show(const Contents &contents);
    // read() on this model's store and show().
    Status reload();
    // A run changed (engine event): its chain's icon follows the newest run.
    void applyRun(const hg::Run &run);
    // The missed-runs inbox changed: each chain's count ("nightly — 3 missed") is read anew.
    Status reloadMissedRuns();
    // Fire times waiting in the inbox, over every chain.
    qint64 missedRuns() const;
    // The row of a project (isChain false) or chain, for keeping the selection over a reload.
    QModelIndex indexOf(bool isChain, qint64 id) const;
    std::optional<Chain> chainAt(const QModelIndex &index) const;
    static NodeKind kindOf(const QModelIndex &index);

    // The connections as the store lists them (read by reload()); a check's answer keeps
    // each one's icon, tooltip and remote chains, also over later reloads.
    QList<ConnectionProfile> connections() const;
    std::optional<ConnectionProfile> connection(const QString &name) const;
    void setConnectionCheck(const QString &name, const ConnectionCheck &check);
    // The Connections node, a connection (empty chain) or one of its remote chains.
    QModelIndex connectionsIndex() const;
    QModelIndex indexOfConnection(const QString &name, const QString &remoteChain = {}) const;

    Qt::ItemFlags flags(const QModelIndex &index) const override;
    // Editing a name in place asks for a rename; the store changes only through the
    // definition editor (undoable, validated), which reloads this model.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    void renameRequested(bool isChain, qint64 id, const QString &name);

private:
    struct ProjectNode
    {
        Project project;
        QList<Chain> chains;
    };

    struct ConnectionNode
    {
        ConnectionProfile profile;
        ConnectionCheck check;
    };

    QString chainStatus(const Chain &chain) const;
    int failedChains(const ProjectNode &node) const;
    QVariant projectData(const ProjectNode &node, int role) const;
    QVariant chainData(const Chain &chain, int role) const;
    QVariant connectionData(const ConnectionNode &node, int role) const;
    QVariant remoteChainData(const ConnectionNode &node, int row, int role) const;
    int connectionsRow() const { return m_connections.isEmpty() ? -1 : int(m_projects.size()); }

    Store &m_store;
    QList<ProjectNode> m_projects;
    QList<ConnectionNode> m_connections;
    QHash<QString, ConnectionCheck> m_checks;            // by connection name, kept over reloads
    QHash<qint64, std::pair<qint64, RunState>> m_latest; // chain → newest run and its state
    QHash<qint64, qint64> m_missed;                      // chain → fire times in the inbox
};

} // namespace hg
