#pragma once

#include "domain/connectionprofile.h"

#include <QDialog>

class QLabel;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace hg {

class PgTimetableChainPage;
class Store;

// Every connection with its state — checking, connected (system and version), read-only (the
// warning), error (the exact message) — as an icon and tooltip; a pg_timetable remote's chains
// under it, each opening its chain page. Checks run off the GUI thread.
class ConnectionsWindow final : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectionsWindow(Store &store, QWidget *parent = nullptr);

    void refresh();
    QTreeWidget *tree() const { return m_tree; }
    PgTimetableChainPage *chainPage() const { return m_page; }
    int pendingChecks() const { return m_pending; }

Q_SIGNALS:
    void chainImported(); // a remote chain became a local one: the project tree reloads
    void checksDone();

private:
    void check(QTreeWidgetItem *item, const ConnectionProfile &profile);
    void currentChanged(QTreeWidgetItem *item);
    void addConnection();
    void editConnection();
    void removeConnection();
    void importChain(const QString &remoteName, const QString &chainName);
    ConnectionProfile profileOf(const QTreeWidgetItem *item) const;

    Store &m_store;
    QTreeWidget *m_tree = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_hint = nullptr;
    PgTimetableChainPage *m_page = nullptr;
    int m_pending = 0;
    quint64 m_generation = 0;
};

} // namespace hg
