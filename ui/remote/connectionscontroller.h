#pragma once

#include "domain/connectionprofile.h"

#include <QHash>
#include <QObject>
#include <QSet>

class QAction;
class QMenu;
class QModelIndex;
class QWidget;

namespace hg {

class ProjectTreeModel;
class Store;

// The Connections node of the project tree: checks each connection off the GUI thread (the
// remote's system and version, read-only or the exact error, a pg_timetable remote's chains)
// and hands the answers to the tree model; adds, edits, tests and removes connections; and
// imports a remote chain or pgAgent job into a local project.
class ConnectionsController final : public QObject
{
    Q_OBJECT

public:
    ConnectionsController(Store &store, ProjectTreeModel *model, QWidget *window);

    QAction *addAction() const { return m_add; }
    QAction *refreshAction() const { return m_refresh; }
    int pendingChecks() const { return m_pending; }
    // Checks every connection not checked yet (after the tree reloaded) or, with all, every one.
    void checkConnections(bool all);
    void check(const ConnectionProfile &profile);
    // The actions for a node of the Connections part of the tree.
    void fillMenu(QMenu &menu, const QModelIndex &index);
    void addConnection();
    void editConnection(const QString &name);
    void removeConnection(const QString &name);
    // A pg_timetable chain or a pgAgent job, into a local project the user names.
    void importChain(const QString &remoteName, const QString &chainName);

Q_SIGNALS:
    void connectionsChanged(); // added, edited or removed: the tree reloads
    void chainImported();      // a remote chain became a local one
    void checksDone();         // no check is pending any more
    void reported(const QString &message);

private:
    void editInDialog(const QString &name);
    void importPgTimetableChain(const ConnectionProfile &profile, const QString &chainName,
                                const QString &project);
    void importPgAgentJob(const ConnectionProfile &profile, const QString &jobName,
                          const QString &project);

    Store &m_store;
    ProjectTreeModel *m_model = nullptr;
    QWidget *m_window = nullptr;
    QAction *m_add = nullptr;
    QAction *m_refresh = nullptr;
    QSet<QString> m_checked;             // names asked about since they were last changed
    QHash<QString, quint64> m_latestAsk; // an answer to an older ask is dropped
    quint64 m_asks = 0;
    int m_pending = 0;
};

} // namespace hg
