#include "desktopsignals.h"

#include <QCoreApplication>
#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QNetworkInformation>
#include <QtGlobal>
#include <QTimer>

#include <unistd.h>

namespace hg {
namespace {

const QString login1 = QStringLiteral("org.freedesktop.login1");
const QString login1Path = QStringLiteral("/org/freedesktop/login1");
const QString login1Manager = QStringLiteral("org.freedesktop.login1.Manager");
const QString login1Session = QStringLiteral("org.freedesktop.login1.Session");
const QString login1User = QStringLiteral("org.freedesktop.login1.User");
const QString upower = QStringLiteral("org.freedesktop.UPower");
const QString upowerPath = QStringLiteral("/org/freedesktop/UPower");
const QString properties = QStringLiteral("org.freedesktop.DBus.Properties");
const QString propertiesChanged = QStringLiteral("PropertiesChanged");

// Two sources of one event report it this far apart at most (logind's PrepareForSleep and
// the engine's own look at the clocks, which may come a while later on a busy machine; the
// screen saver's ActiveChanged and logind's LockedHint, seconds apart).
qint64 sameEventWindowMs(DesktopEvent event)
{
    return event == DesktopEvent::Resume ? 60'000 : 15'000;
}

// How often the buses are looked at: one that went away is connected to again.
constexpr int busCheckMs = 5000;

} // namespace

bool DesktopSignals::noAnswer(const QDBusError &error)
{
    return error.type() == QDBusError::NoReply || error.type() == QDBusError::Timeout
           || error.type() == QDBusError::TimedOut;
}

QDBusPendingCallWatcher *DesktopSignals::ask(const QDBusConnection &bus, const QString &service,
                                             const QString &path, const QString &interface,
                                             const QString &method, const QVariantList &arguments,
                                             QObject *parent)
{
    QDBusMessage message = QDBusMessage::createMethodCall(service, path, interface, method);
    message.setArguments(arguments);
    // Asked, never waited for: a hung service must not hold the engine (25 s is D-Bus's own
    // default; 5 s is plenty for a local service).
    return new QDBusPendingCallWatcher(bus.asyncCall(message, 5000), parent);
}

DesktopSignals::DesktopSignals(std::function<qint64()> wallMs, QObject *parent)
    : QObject(parent)
    , m_wallMs(std::move(wallMs))
{}

DesktopSignals::~DesktopSignals()
{
    if (QNetworkInformation *network = QNetworkInformation::instance(); network && m_networkWatched)
        disconnect(network, nullptr, this, nullptr);
    m_systemAsks.reset();
    drop(m_system, m_systemListens);
    drop(m_session, m_sessionListens);
}

void DesktopSignals::listen(QDBusConnection &bus, QList<Listening> &listens, const QString &service,
                            const QString &path, const QString &interface, const QString &name,
                            const char *slot)
{
    if (bus.connect(service, path, interface, name, this, slot))
        listens << Listening{service, path, interface, name, slot};
}

void DesktopSignals::drop(QDBusConnection &bus, QList<Listening> &listens)
{
    // In this order: no more deliveries for this object, none queued (each holds the
    // connection), then the connection closed. Closed with deliveries still queued, Qt 6.4
    // crashed as they were deleted with this object.
    for (const Listening &listening : std::as_const(listens))
        bus.disconnect(listening.service, listening.path, listening.interface, listening.name, this,
                       listening.slot);
    listens.clear();
    if (bus.name().isEmpty())
        return; // never connected: nothing of it can be queued (and nothing else is dropped)
    QCoreApplication::removePostedEvents(this, QEvent::MetaCall);
    QDBusConnection::disconnectFromBus(bus.name());
    bus = QDBusConnection(QString());
}

void DesktopSignals::start(bool network)
{
    if (network && !m_networkWatched)
        watchNetwork();
    if (m_started)
        return;
    m_started = true;
    connectSystem();
    connectSession();
    connect(&m_busCheck, &QTimer::timeout, this, &DesktopSignals::checkBuses);
    m_busCheck.start(busCheckMs);
}

void DesktopSignals::checkBuses()
{
    // A bus that went away (its daemon restarted) does not come back by itself: connected
    // to again, and everything asked again, as at start.
    if (!m_system.isConnected())
        connectSystem();
    if (!m_session.isConnected())
        connectSession();
    lookAtInterfaces();
}

QDBusConnection DesktopSignals::connectBus(QDBusConnection::BusType type)
{
    // A connection of its own, named by this object and its round: Qt's shared one stays
    // dead once its bus went away.
    const QString name = QStringLiteral("hourglass-desktop-%1-%2-%3")
                             .arg(type == QDBusConnection::SystemBus ? QLatin1String("system")
                                                                     : QLatin1String("session"))
                             .arg(quintptr(this), 0, 16)
                             .arg(++m_round);
    QDBusConnection bus = QDBusConnection::connectToBus(type, name);
    if (!bus.isConnected()) {
        QDBusConnection::disconnectFromBus(name);
        return QDBusConnection(QString());
    }
    return bus;
}

void DesktopSignals::connectSystem()
{
    drop(m_system, m_systemListens); // the session's PropertiesChanged among them
    m_system = connectBus(QDBusConnection::SystemBus);
    // What was asked on the bus before is not waited for: answers of a dead connection.
    m_systemAsks = std::make_unique<QObject>();
    m_sessionPath.clear();
    m_locked.reset();
    m_onBattery.reset();
    if (!m_system.isConnected()) {
        const QString why = tr("no system bus (D-Bus) to ask logind and UPower");
        setMissing(DesktopEvent::Unlock, why);
        setMissing(DesktopEvent::Idle, why);
        setMissing(DesktopEvent::AcPower, why);
        return;
    }
    listen(m_system, m_systemListens, login1, login1Path, login1Manager,
           QStringLiteral("PrepareForSleep"), SLOT(sleepPrepared(bool)));
    for (const QString &signal : {QStringLiteral("SessionNew"), QStringLiteral("SessionRemoved")})
        listen(m_system, m_systemListens, login1, login1Path, login1Manager, signal,
               SLOT(sessionsChanged(QString, QDBusObjectPath)));
    findSession();
    listen(m_system, m_systemListens, upower, upowerPath, properties, propertiesChanged,
           SLOT(powerPropertiesChanged(QString, QVariantMap, QStringList)));
    readPower();
    // Started after the engine (or again after a crash): asked again as they come.
    auto *services = new QDBusServiceWatcher(m_systemAsks.get());
    services->setConnection(m_system);
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

void DesktopSignals::connectSession()
{
    drop(m_session, m_sessionListens);
    m_session = connectBus(QDBusConnection::SessionBus);
    if (!m_session.isConnected())
        return;
    // Any sender: KDE's, Xfce's and GNOME's screen savers say it under two names.
    listen(m_session, m_sessionListens, QString(), QStringLiteral("/org/freedesktop/ScreenSaver"),
           QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("ActiveChanged"),
           SLOT(screenSaverActiveChanged(bool)));
    listen(m_session, m_sessionListens, QString(), QStringLiteral("/org/gnome/ScreenSaver"),
           QStringLiteral("org.gnome.ScreenSaver"), QStringLiteral("ActiveChanged"),
           SLOT(screenSaverActiveChanged(bool)));
}

void DesktopSignals::findSession()
{
    // The session this process runs in; a serve started by systemd --user is in none: then
    // the one XDG_SESSION_ID names (a desktop session's environment has it), else the
    // user's graphical session (logind's User.Display), the one a person unlocks.
    auto *byPid = ask(m_system, login1, login1Path, login1Manager,
                      QStringLiteral("GetSessionByPID"), {quint32(::getpid())}, m_systemAsks.get());
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
        if (reply.error().type() == QDBusError::ServiceUnknown) {
            const QString why = tr("no login manager (logind) on the system bus");
            setMissing(DesktopEvent::Unlock, why);
            setMissing(DesktopEvent::Idle, why);
            return;
        }
        const QString why = tr("this engine runs in no login session (logind: %1)")
                                .arg(reply.error().message().left(200));
        const QByteArray id = qgetenv("XDG_SESSION_ID");
        if (id.isEmpty()) {
            findUserDisplay(why);
            return;
        }
        auto *byId = ask(m_system, login1, login1Path, login1Manager, QStringLiteral("GetSession"),
                         {QString::fromLocal8Bit(id)}, m_systemAsks.get());
        connect(byId, &QDBusPendingCallWatcher::finished, this,
                [this](QDBusPendingCallWatcher *w2) {
                    w2->deleteLater();
                    const QDBusPendingReply<QDBusObjectPath> second = *w2;
                    if (second.isError())
                        findUserDisplay(tr("logind knows no session of this engine (%1)")
                                            .arg(second.error().message().left(200)));
                    else
                        watchSession(second.value().path());
                });
    });
}

void DesktopSignals::findUserDisplay(const QString &why)
{
    const QString none = tr("%1, and its user has no graphical session").arg(why);
    const auto missingSession = [this](const QString &text) {
        setMissing(DesktopEvent::Unlock, text);
        setMissing(DesktopEvent::Idle, text);
    };
    auto *user = ask(m_system, login1, login1Path, login1Manager, QStringLiteral("GetUser"),
                     {quint32(::getuid())}, m_systemAsks.get());
    connect(user, &QDBusPendingCallWatcher::finished, this,
            [this, none, missingSession](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                const QDBusPendingReply<QDBusObjectPath> reply = *w;
                if (reply.isError()) {
                    missingSession(none);
                    return;
                }
                auto *display =
                    ask(m_system, login1, reply.value().path(), properties, QStringLiteral("Get"),
                        {login1User, QStringLiteral("Display")}, m_systemAsks.get());
                connect(display, &QDBusPendingCallWatcher::finished, this,
                        [this, none, missingSession](QDBusPendingCallWatcher *w2) {
                            w2->deleteLater();
                            const QDBusPendingReply<QDBusVariant> value = *w2;
                            const QString path =
                                value.isError() ? QString() : sessionOf(value.value().variant());
                            if (path.isEmpty())
                                missingSession(none);
                            else
                                watchSession(path);
                        });
            });
}

QString DesktopSignals::sessionOf(const QVariant &display)
{
    // User.Display is (so): the session's id and its object path, "/" for none. Anything
    // else (a service that says another type) is no session, never a crash.
    if (display.userType() != qMetaTypeId<QDBusArgument>())
        return {};
    const QDBusArgument argument = display.value<QDBusArgument>();
    if (argument.currentSignature() != QLatin1String("(so)"))
        return {};
    QString id;
    QDBusObjectPath path;
    argument.beginStructure();
    argument >> id >> path;
    argument.endStructure();
    return path.path() == QLatin1String("/") ? QString() : path.path();
}

void DesktopSignals::sessionsChanged(const QString &, const QDBusObjectPath &path)
{
    // A session came (a login, when this engine had none) or went (its own: a logout): the
    // session to follow is looked up again.
    if (!m_sessionPath.isEmpty() && path.path() != m_sessionPath)
        return;
    unwatchSession();
    findSession();
}

void DesktopSignals::unwatchSession()
{
    for (qsizetype i = 0; i < m_systemListens.size(); ++i)
        if (m_systemListens.at(i).path == m_sessionPath) {
            const Listening listening = m_systemListens.takeAt(i);
            m_system.disconnect(listening.service, listening.path, listening.interface,
                                listening.name, this, listening.slot);
            break;
        }
    m_sessionPath.clear();
}

void DesktopSignals::watchSession(const QString &path)
{
    if (path == m_sessionPath) {
        readSession();
        return;
    }
    unwatchSession();
    // Another session's lock says nothing of this one: a login is not an unlock.
    m_locked.reset();
    m_sessionPath = path;
    listen(m_system, m_systemListens, login1, path, properties, propertiesChanged,
           SLOT(sessionPropertiesChanged(QString, QVariantMap, QStringList)));
    readSession();
}

void DesktopSignals::readSession()
{
    auto *all = ask(m_system, login1, m_sessionPath, properties, QStringLiteral("GetAll"),
                    {login1Session}, m_systemAsks.get());
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
    // A value of another type than logind's (a broken or hostile service) is not read.
    const auto isA = [](const QVariant &value, QMetaType::Type type) {
        return value.userType() == int(type);
    };
    if (const auto locked = changed.constFind(QStringLiteral("LockedHint"));
        locked != changed.cend() && isA(*locked, QMetaType::Bool)) {
        const bool nowLocked = locked->toBool();
        if (m_locked.value_or(false) && !nowLocked)
            emitOnce(DesktopEvent::Unlock, now, Source::Logind);
        m_locked = nowLocked;
    }
    const auto idle = changed.constFind(QStringLiteral("IdleHint"));
    if (idle == changed.cend() || !isA(*idle, QMetaType::Bool))
        return;
    std::optional<qint64> since;
    if (idle->toBool()) {
        // IdleSinceHint is CLOCK_REALTIME in microseconds. One the desktop did not say (0),
        // in the future or absurd is no moment to key a run by: an idle period seen
        // beginning is keyed by now; one found at the first read is left alone — it may
        // have fired before this engine, and a new key would fire it twice.
        const QVariant sinceHint = changed.value(QStringLiteral("IdleSinceHint"));
        const qulonglong sinceUs =
            isA(sinceHint, QMetaType::ULongLong) ? sinceHint.toULongLong() : 0;
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
    auto *all = ask(m_system, upower, upowerPath, properties, QStringLiteral("GetAll"), {upower},
                    m_systemAsks.get());
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
    if (onBattery == changed.cend() || onBattery->userType() != QMetaType::Bool)
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
