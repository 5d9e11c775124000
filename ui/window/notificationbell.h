#pragma once

#include <QDateTime>
#include <QList>
#include <QToolButton>

class QMenu;

namespace hg {

// The window's own record of what Hourglass told the user (a run failed, recovered, a Notify
// task, missed runs): a button in the status bar, in bold with the number not yet seen, and a menu
// of the latest ones, newest first; choosing one opens its run. Desktop notifications vanish where
// no notification service runs (a minimal desktop, a tiling window manager, a remote session) and
// pass unseen where one does: here they stay until seen.
class NotificationBell final : public QToolButton
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NotificationBell)

public:
    explicit NotificationBell(QWidget *parent = nullptr);

    struct Entry
    {
        QString title;
        QString body;
        qint64 runId = 0; // 0: none (missed runs)
        QDateTime at;
    };
    static constexpr qsizetype kept = 50;

    int unread() const { return m_unread; }
    const QList<Entry> &entries() const { return m_entries; }

public Q_SLOTS:
    void add(const QString &title, const QString &body, qint64 runId);
    // Everything seen: the count goes (opening the menu does this).
    void markRead();

Q_SIGNALS:
    void runRequested(qint64 runId);
    void missedRunsRequested();

private:
    void refresh();
    void fillMenu();

    QMenu *m_menu = nullptr;
    QList<Entry> m_entries; // newest first
    int m_unread = 0;
};

} // namespace hg
