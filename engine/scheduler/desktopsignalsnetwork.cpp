// DesktopSignals' network source: Qt's network information, loaded without waiting on a
// NetworkManager that does not answer.
#include "desktopsignals.h"
#include "networkpresence.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QNetworkInformation>
#include <QThread>
#include <QTimer>

namespace hg {

void DesktopSignals::watchNetwork()
{
    m_networkWatched = true;
    if (QNetworkInformation::instance()) {
        connectNetwork();
        return;
    }
    // Qt's NetworkManager backend asks NetworkManager once as it loads and waits for the
    // answer (25 s when it hangs, the engine held all along): asked first here, without
    // waiting; loaded once it answered (or is not there at all, when GLib's backend is).
    if (!QDBusConnection::systemBus().isConnected()) {
        // No system bus, so no NetworkManager to hang on: GLib's backend (the kernel's
        // routes) is loaded at once. (A call on a closed connection never says it finished.)
        loadNetworkBackend();
        return;
    }
    const QString networkManager = QStringLiteral("org.freedesktop.NetworkManager");
    auto *probe = ask(QDBusConnection::systemBus(), networkManager,
                      QStringLiteral("/org/freedesktop/NetworkManager"),
                      QStringLiteral("org.freedesktop.DBus.Properties"), QStringLiteral("GetAll"),
                      {networkManager}, this);
    connect(probe, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusError error = w->error();
        if (noAnswer(error)) {
            setMissing(DesktopEvent::Network,
                       tr("NetworkManager does not answer; asked again in a minute"));
            QTimer::singleShot(askAgainMs, this, &DesktopSignals::watchNetwork);
            return;
        }
        loadNetworkBackend();
    });
}

void DesktopSignals::loadNetworkBackend()
{
    if (!QNetworkInformation::instance() && !QNetworkInformation::loadDefaultBackend())
        QNetworkInformation::loadBackendByFeatures(QNetworkInformation::Feature::Reachability);
    connectNetwork();
}

void DesktopSignals::connectNetwork()
{
    QNetworkInformation *network = QNetworkInformation::instance();
    // Only NetworkManager's backend is trusted to say "online": GLib's (Qt 6.4, without
    // NetworkManager) never says a change of connectivity, and there may be none at all.
    // Then the kernel's interfaces are looked at with the buses (NetworkPresence): one up
    // with an address, from none, is the network coming up.
    m_presenceOnline = NetworkPresence::online();
    m_presenceWatched = !network || network->backendName() != QLatin1String("networkmanager")
                        || !network->supports(QNetworkInformation::Feature::Reachability);
    setMissing(DesktopEvent::Network, {});
    if (!network || !network->supports(QNetworkInformation::Feature::Reachability))
        return;
    // Loaded in the engine's thread, which ends with the engine: the instance is the
    // process's, so it lives in the application's thread (this connection is queued).
    if (QCoreApplication *app = QCoreApplication::instance();
        app && network->thread() == QThread::currentThread() && app->thread() != network->thread())
        network->moveToThread(app->thread());
    m_reachability = int(network->reachability());
    connect(network, &QNetworkInformation::reachabilityChanged, this,
            [this](QNetworkInformation::Reachability reachability) {
                const int before = m_reachability;
                m_reachability = int(reachability);
                // Up: reachable beyond the local link, from a state known not to be.
                const int online = int(QNetworkInformation::Reachability::Online);
                const int unknown = int(QNetworkInformation::Reachability::Unknown);
                if (m_reachability == online && before != online && before != unknown
                    && before != -1)
                    emitOnce(DesktopEvent::Network, m_wallMs(), Source::Network);
            });
}

} // namespace hg

namespace hg {

void DesktopSignals::lookAtInterfaces()
{
    if (!m_presenceWatched)
        return;
    const bool online = NetworkPresence::online();
    if (online && !m_presenceOnline)
        emitOnce(DesktopEvent::Network, m_wallMs(), Source::Interfaces);
    m_presenceOnline = online;
}

} // namespace hg
