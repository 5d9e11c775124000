#include "desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QGuiApplication>

namespace hg {
namespace {

const QString service = QStringLiteral("org.freedesktop.Notifications");
const QString path = QStringLiteral("/org/freedesktop/Notifications");

} // namespace

DesktopNotifier::DesktopNotifier(QObject *parent, const QDBusConnection &bus)
    : QObject(parent)
    , m_bus(bus)
{
    if (isAvailable(m_bus))
        m_bus.connect(service, path, service, QStringLiteral("ActionInvoked"), this,
                      SLOT(onActionInvoked(uint, QString)));
}

bool DesktopNotifier::isAvailable(const QDBusConnection &bus)
{
    if (!bus.isConnected() || !bus.interface())
        return false;
    // Running, or started by the bus at the first call (a daemon installed but not yet
    // running: D-Bus activation). Asking only for a running one dropped every notification
    // of a desktop whose daemon starts on demand.
    return bus.interface()->isServiceRegistered(service).value()
           || bus.interface()->activatableServiceNames().value().contains(service);
}

void DesktopNotifier::notify(const QString &title, const QString &body, qint64 key)
{
    if (!isAvailable(m_bus))
        return;
    QDBusMessage call =
        QDBusMessage::createMethodCall(service, path, service, QStringLiteral("Notify"));
    call << QGuiApplication::applicationDisplayName() << uint(0)
         << QStringLiteral("org.hourglass.Hourglass") << title << body
         << QStringList{QStringLiteral("default"), tr("Open")} << QVariantMap() << int(-1);
    // Asynchronous: a slow notification daemon never blocks the GUI thread.
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, key](QDBusPendingCallWatcher *finished) {
                const QDBusPendingReply<uint> reply = *finished;
                if (!reply.isError())
                    m_keys.insert(reply.value(), key);
                finished->deleteLater();
            });
}

void DesktopNotifier::onActionInvoked(uint id, const QString &)
{
    const auto found = m_keys.constFind(id);
    if (found != m_keys.constEnd())
        Q_EMIT activated(found.value());
}

} // namespace hg
