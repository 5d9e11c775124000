#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/project.h"

#include <QAbstractItemModel>
#include <QList>

#include <optional>

namespace hg {

class Store;

// Projects and their chains as a two-level tree, read from the store of the GUI thread.
class ProjectTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProjectTreeModel)

public:
    enum Role { IdRole = Qt::UserRole + 1, IsChainRole, EnabledRole };
    Q_ENUM(Role)

    explicit ProjectTreeModel(Store &store, QObject *parent = nullptr);

    Status reload();
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

    Store &m_store;
    QList<ProjectNode> m_projects;
};

} // namespace hg
