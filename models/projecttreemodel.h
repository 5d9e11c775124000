#pragma once

#include "base/result.h"
#include "domain/chain.h"
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
// failed chains carries a badge.
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
        FailedChainsRole
    };
    Q_ENUM(Role)

    explicit ProjectTreeModel(Store &store, QObject *parent = nullptr);

    Status reload();
    // A run changed (engine event): its chain's icon follows the newest run.
    void applyRun(const hg::Run &run);
    // The row of a project (isChain false) or chain, for keeping the selection over a reload.
    QModelIndex indexOf(bool isChain, qint64 id) const;
    std::optional<Chain> chainAt(const QModelIndex &index) const;

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

    QString chainStatus(const Chain &chain) const;
    int failedChains(const ProjectNode &node) const;

    Store &m_store;
    QList<ProjectNode> m_projects;
    QHash<qint64, std::pair<qint64, RunState>> m_latest; // chain → newest run and its state
};

} // namespace hg
