#pragma once

#include <QDBusConnection>
#include <QHash>
#include <QObject>

namespace hg {

// Notifications through the desktop's notification service (org.freedesktop.Notifications
// over the session D-Bus), for desktops without a system tray. Without a session bus it
// reports that it is unavailable and the application carries on without notifications.
class DesktopNotifier final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopNotifier)

public:
    // bus: the session bus (another only in tests, which start their own).
    explicit DesktopNotifier(QObject *parent = nullptr,
                             const QDBusConnection &bus = QDBusConnection::sessionBus());

    // A notification service runs on the bus, or the bus can start one.
    static bool isAvailable(const QDBusConnection &bus = QDBusConnection::sessionBus());
    // Shows a notification with an "Open" action; `key` comes back through activated().
    void notify(const QString &title, const QString &body, qint64 key);

Q_SIGNALS:
    void activated(qint64 key);

private Q_SLOTS:
    void onActionInvoked(uint id, const QString &action);

private:
    QDBusConnection m_bus;
    QHash<uint, qint64> m_keys; // notification id -> key
};

} // namespace hg
