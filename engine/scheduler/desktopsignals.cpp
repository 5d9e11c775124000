#include "desktopsignals.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QNetworkInformation>
#include <QtGlobal>
#include <QThread>
#include <QTimer>

#include <unistd.h>

namespace hg {
namespace {

const QString login1 = QStringLiteral("org.freedesktop.login1");
const QString login1Path = QStringLiteral("/org/freedesktop/login1");
const QString login1Manager = QStringLiteral("org.freedesktop.login1.Manager");
const QString login1Session = QStringLiteral("org.freedesktop.login1.Session");
const QString upower = QStringLiteral("org.freedesktop.UPower");
const QString upowerPath = QStringLiteral("/org/freedesktop/UPower");
const QString properties = QStringLiteral("org.freedesktop.DBus.Properties");
const QString propertiesChanged = QStringLiteral("PropertiesChanged");
const QString networkManager = QStringLiteral("org.freedesktop.NetworkManager");
const QString networkManagerPath = QStringLiteral("/org/freedesktop/NetworkManager");

// Two sources of one event report it this far apart at most (logind's PrepareForSleep and
// the engine's own look at the clocks, which may come a while later on a busy machine; the
// screen saver's ActiveChanged and logind's LockedHint, seconds apart).
qint64 sameEventWindowMs(DesktopEvent event)
{
    return event == DesktopEvent::Resume ? 60'000 : 15'000;
}

// A service that is there but did not answer in time: asked again later, not given up on.
bool noAnswer(const QDBusError &error)
{
    return error.type() == QDBusError::NoReply || error.type() == QDBusError::Timeout
           || error.type() == QDBusError::TimedOut;
}

constexpr int askAgainMs = 60'000;

QDBusPendingCallWatcher *ask(const QDBusConnection &bus, const QString &service,
                             const QString &path, const QString &interface, const QString &method,
                             const QVariantList &arguments, QObject *parent)
{
    QDBusMessage message = QDBusMessage::createMethodCall(service, path, interface, method);
    message.setArguments(arguments);
    // Asked, never waited for: a hung service must not hold the engine (25 s is D-Bus's own
    // default; 5 s is plenty for a local service).
    return new QDBusPendingCallWatcher(bus.asyncCall(message, 5000), parent);
}

} // namespace

DesktopSignals::DesktopSignals(std::function<qint64()> wallMs, QObject *parent)
    : QObject(parent)
    , m_wallMs(std::move(wallMs))
{}

DesktopSignals::~DesktopSignals()
{
    if (QNetworkInformation *network = QNetworkInformation::instance(); network && m_networkWatched)
        disconnect(network, nullptr, this, nullptr);
}

void DesktopSignals::start(bool network)
{
    if (network && !m_networkWatched)
        watchNetwork();
    if (m_started)
        return;
    m_started = true;
    QDBusConnection system = QDBusConnection::systemBus();
    if (!system.isConnected()) {
        const QString why = tr("no system bus (D-Bus) to ask logind and UPower");
        setMissing(DesktopEvent::Unlock, why);
        setMissing(DesktopEvent::Idle, why);
        setMissing(DesktopEvent::AcPower, why);
    } else {
        system.connect(login1, login1Path, login1Manager, QStringLiteral("PrepareForSleep"), this,
                       SLOT(sleepPrepared(bool)));
        findSession();
        system.connect(upower, upowerPath, properties, propertiesChanged, this,
                       SLOT(powerPropertiesChanged(QString, QVariantMap, QStringList)));
        readPower();
        // Started after the engine (or again after a crash): asked again as they come.
        auto *services = new QDBusServiceWatcher(this);
        services->setConnection(system);
        services->setWatchMode(QDBusServiceWatcher::WatchForRegistration);
        services->setWatchedServices({login1, upower});
        connect(services, &QDBusServiceWatcher::serviceRegistered, this,
                [this](const QString &service) {
                    if (service == login1)
                        findSession();
                    else
                        readPower();
                });
    }
    QDBusConnection session = QDBusConnection::sessionBus();
    if (session.isConnected()) {
        // Any sender: KDE's, Xfce's and GNOME's screen savers say it under two names.
        session.connect(QString(), QStringLiteral("/org/freedesktop/ScreenSaver"),
                        QStringLiteral("org.freedesktop.ScreenSaver"),
                        QStringLiteral("ActiveChanged"), this,
                        SLOT(screenSaverActiveChanged(bool)));
        session.connect(QString(), QStringLiteral("/org/gnome/ScreenSaver"),
                        QStringLiteral("org.gnome.ScreenSaver"), QStringLiteral("ActiveChanged"),
                        this, SLOT(screenSaverActiveChanged(bool)));
    }
}

void DesktopSignals::findSession()
{
    // The session this process runs in; a serve started by systemd --user is in none, then
    // the one XDG_SESSION_ID names (a desktop session's environment has it).
    auto *byPid = ask(QDBusConnection::systemBus(), login1, login1Path, login1Manager,
                      QStringLiteral("GetSessionByPID"), {quint32(::getpid())}, this);
    connect(byPid, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<QDBusObjectPath> reply = *w;
        if (!reply.isError()) {
            watchSession(reply.value().path());
            return;
        }
        if (noAnswer(reply.error())) {
            const QString why = tr("logind does not answer; asked again in a minute");
            setMissing(DesktopEvent::Unlock, why);
            setMissing(DesktopEvent::Idle, why);
            QTimer::singleShot(askAgainMs, this, &DesktopSignals::findSession);
            return;
        }
        const QByteArray id = qgetenv("XDG_SESSION_ID");
        if (id.isEmpty()) {
            const QString why = reply.error().type() == QDBusError::ServiceUnknown
                                    ? tr("no login manager (logind) on the system bus")
                                    : tr("this engine runs in no login session (logind: %1)")
                                          .arg(reply.error().message().left(200));
            setMissing(DesktopEvent::Unlock, why);
            setMissing(DesktopEvent::Idle, why);
            return;
        }
        auto *byId = ask(QDBusConnection::systemBus(), login1, login1Path, login1Manager,
                         QStringLiteral("GetSession"), {QString::fromLocal8Bit(id)}, this);
        connect(byId, &QDBusPendingCallWatcher::finished, this,
                [this](QDBusPendingCallWatcher *w2) {
                    w2->deleteLater();
                    const QDBusPendingReply<QDBusObjectPath> second = *w2;
                    if (second.isError()) {
                        const QString why = tr("logind knows no session of this engine (%1)")
                                                .arg(second.error().message().left(200));
                        setMissing(DesktopEvent::Unlock, why);
                        setMissing(DesktopEvent::Idle, why);
                        return;
                    }
                    watchSession(second.value().path());
                });
    });
}

void DesktopSignals::watchSession(const QString &path)
{
    m_sessionPath = path;
    QDBusConnection::systemBus().connect(
        login1, path, properties, propertiesChanged, this,
        SLOT(sessionPropertiesChanged(QString, QVariantMap, QStringList)));
    readSession();
}

void DesktopSignals::readSession()
{
    auto *all = ask(QDBusConnection::systemBus(), login1, m_sessionPath, properties,
                    QStringLiteral("GetAll"), {login1Session}, this);
    connect(all, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<QVariantMap> reply = *w;
        if (reply.isError()) {
            const QString why = tr("logind did not say the session's state (%1)")
                                    .arg(reply.error().message().left(200));
            setMissing(DesktopEvent::Unlock, why);
            setMissing(DesktopEvent::Idle, why);
            return;
        }
        setMissing(DesktopEvent::Unlock, {});
        setMissing(DesktopEvent::Idle, {});
        applySession(reply.value(), false);
    });
}

void DesktopSignals::sessionPropertiesChanged(const QString &interfaceName,
                                              const QVariantMap &changed,
                                              const QStringList &invalidated)
{
    if (interfaceName != login1Session)
        return;
    applySession(changed, true);
    if (invalidated.contains(QLatin1String("LockedHint"))
        || invalidated.contains(QLatin1String("IdleHint")))
        readSession(); // said changed without the value: asked again
}

void DesktopSignals::applySession(const QVariantMap &changed, bool fromChange)
{
    const qint64 now = m_wallMs();
    if (const auto locked = changed.constFind(QStringLiteral("LockedHint"));
        locked != changed.cend()) {
        const bool nowLocked = locked->toBool();
        if (m_locked.value_or(false) && !nowLocked)
            emitOnce(DesktopEvent::Unlock, now, Source::Logind);
        m_locked = nowLocked;
    }
    const auto idle = changed.constFind(QStringLiteral("IdleHint"));
    if (idle == changed.cend())
        return;
    std::optional<qint64> since;
    if (idle->toBool()) {
        // IdleSinceHint is CLOCK_REALTIME in microseconds. One the desktop did not say (0),
        // in the future or absurd is no moment to key a run by: an idle period seen
        // beginning is keyed by now; one found at the first read is left alone — it may
        // have fired before this engine, and a new key would fire it twice.
        const qulonglong sinceUs = changed.value(QStringLiteral("IdleSinceHint")).toULongLong();
        if (sinceUs > 0 && sinceUs / 1000 <= qulonglong(now))
            since = qint64(sinceUs / 1000);
        else if (fromChange)
            since = now;
        else
            return;
    }
    if (since.has_value() != m_idleSinceMs.has_value()) {
        m_idleSinceMs = since;
        Q_EMIT idleChanged();
    }
}

void DesktopSignals::readPower()
{
    auto *all = ask(QDBusConnection::systemBus(), upower, upowerPath, properties,
                    QStringLiteral("GetAll"), {upower}, this);
    connect(all, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<QVariantMap> reply = *w;
        if (reply.isError() && noAnswer(reply.error())) {
            setMissing(DesktopEvent::AcPower,
                       tr("UPower does not answer; asked again in a minute"));
            QTimer::singleShot(askAgainMs, this, &DesktopSignals::readPower);
            return;
        }
        if (reply.isError()) {
            setMissing(
                DesktopEvent::AcPower,
                tr("no UPower on the system bus (%1)").arg(reply.error().message().left(200)));
            return;
        }
        setMissing(DesktopEvent::AcPower, {});
        applyPower(reply.value());
    });
}

void DesktopSignals::powerPropertiesChanged(const QString &interfaceName,
                                            const QVariantMap &changed,
                                            const QStringList &invalidated)
{
    if (interfaceName != upower)
        return;
    applyPower(changed);
    if (invalidated.contains(QLatin1String("OnBattery")))
        readPower();
}

void DesktopSignals::applyPower(const QVariantMap &changed)
{
    const auto onBattery = changed.constFind(QStringLiteral("OnBattery"));
    if (onBattery == changed.cend())
        return;
    const bool nowOnBattery = onBattery->toBool();
    if (m_onBattery.value_or(false) && !nowOnBattery)
        emitOnce(DesktopEvent::AcPower, m_wallMs(), Source::Power);
    m_onBattery = nowOnBattery;
}

void DesktopSignals::sleepPrepared(bool beforeSleep)
{
    if (!beforeSleep)
        emitOnce(DesktopEvent::Resume, m_wallMs(), Source::Logind);
}

void DesktopSignals::noteResumed(qint64 atMs)
{
    emitOnce(DesktopEvent::Resume, atMs, Source::Clock);
}

void DesktopSignals::screenSaverActiveChanged(bool active)
{
    if (!active)
        emitOnce(DesktopEvent::Unlock, m_wallMs(), Source::ScreenSaver);
}

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
    auto *probe = ask(QDBusConnection::systemBus(), networkManager, networkManagerPath, properties,
                      QStringLiteral("GetAll"), {networkManager}, this);
    connect(probe, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusError error = w->error();
        if (noAnswer(error)) {
            setMissing(DesktopEvent::Network,
                       tr("NetworkManager does not answer; asked again in a minute"));
            QTimer::singleShot(askAgainMs, this, &DesktopSignals::watchNetwork);
            return;
        }
        if (!QNetworkInformation::instance() && !QNetworkInformation::loadDefaultBackend())
            QNetworkInformation::loadBackendByFeatures(QNetworkInformation::Feature::Reachability);
        connectNetwork();
    });
}

void DesktopSignals::connectNetwork()
{
    QNetworkInformation *network = QNetworkInformation::instance();
    if (!network || !network->supports(QNetworkInformation::Feature::Reachability)) {
        setMissing(DesktopEvent::Network,
                   tr("no network information here (Qt found no backend: %1)")
                       .arg(QNetworkInformation::availableBackends().join(QLatin1String(", "))));
        return;
    }
    setMissing(DesktopEvent::Network, {});
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

void DesktopSignals::emitOnce(DesktopEvent event, qint64 atMs, Source source)
{
    const auto last = m_last.constFind(event);
    if (last != m_last.cend() && last->source != source
        && std::llabs(atMs - last->atMs) < sameEventWindowMs(event))
        return; // the other service saying the same
    m_last.insert(event, Said{source, atMs});
    Q_EMIT happened(event, atMs);
}

QString DesktopSignals::missing(DesktopEvent event) const
{
    return m_missing.value(event);
}

void DesktopSignals::setMissing(DesktopEvent event, const QString &why)
{
    if (m_missing.value(event) == why)
        return;
    if (why.isEmpty())
        m_missing.remove(event);
    else
        m_missing.insert(event, why);
    Q_EMIT sourcesChanged();
}

} // namespace hg
