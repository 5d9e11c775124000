#include "notificationbell.h"

#include <QFont>
#include <QLocale>
#include <QMenu>

namespace hg {

NotificationBell::NotificationBell(QWidget *parent)
    : QToolButton(parent)
    , m_menu(new QMenu(this))
{
    setObjectName(QStringLiteral("window.notifications"));
    setAutoRaise(true);
    setPopupMode(QToolButton::InstantPopup);
    setMenu(m_menu);
    connect(m_menu, &QMenu::aboutToShow, this, [this] {
        fillMenu();
        markRead();
    });
    refresh();
}

void NotificationBell::add(const QString &title, const QString &body, qint64 runId)
{
    m_entries.prepend(Entry{title, body, runId, QDateTime::currentDateTime()});
    if (m_entries.size() > kept)
        m_entries.removeLast();
    ++m_unread;
    refresh();
}

void NotificationBell::markRead()
{
    m_unread = 0;
    refresh();
}

void NotificationBell::refresh()
{
    setText(m_unread > 0 ? tr("Notifications (%1)").arg(m_unread) : tr("Notifications"));
    QFont bold = font();
    bold.setBold(m_unread > 0); // news stands out
    setFont(bold);
    const QString said = m_entries.isEmpty()
                             ? tr("Notifications: none yet")
                             : tr("Notifications: %n not seen yet", nullptr, m_unread);
    setToolTip(said);
    setAccessibleName(said);
}

void NotificationBell::fillMenu()
{
    m_menu->clear();
    if (m_entries.isEmpty()) {
        m_menu->addAction(tr("No notifications yet"))->setEnabled(false);
        return;
    }
    const QLocale locale;
    for (const Entry &entry : std::as_const(m_entries)) {
        const QString when = locale.toString(entry.at, QLocale::ShortFormat);
        QString line =
            entry.body.isEmpty() ? entry.title : entry.title + QStringLiteral(": ") + entry.body;
        if (line.size() > 120)
            line = line.left(119) + QChar(0x2026);
        QAction *action = m_menu->addAction(QStringLiteral("%1  %2").arg(when, line));
        const qint64 runId = entry.runId;
        connect(action, &QAction::triggered, this, [this, runId] {
            if (runId > 0)
                Q_EMIT runRequested(runId);
            else
                Q_EMIT missedRunsRequested();
        });
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("Clear"), this, [this] {
        m_entries.clear();
        markRead();
    });
}

} // namespace hg
