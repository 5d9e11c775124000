#include "fakedesktopbus.h"

#include <QDBusArgument>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDeadlineTimer>
#include <QFile>

namespace hg::test {
namespace {

const QString login1Path = QStringLiteral("/org/freedesktop/login1");
const QString sessionInterface = QStringLiteral("org.freedesktop.login1.Session");
const QString userPath = QStringLiteral("/org/freedesktop/login1/user/_0");
const QString upowerPath = QStringLiteral("/org/freedesktop/UPower");
const QString nmPath = QStringLiteral("/org/freedesktop/NetworkManager");
const QString nm = QStringLiteral("org.freedesktop.NetworkManager");
const QString propertiesInterface = QStringLiteral("org.freedesktop.DBus.Properties");

QString key(const QString &path, const QString &interface)
{
    return path + QLatin1Char(' ') + interface;
}

} // namespace

FakeDesktopBus::FakeDesktopBus()
{
    m_properties.insert(key(QString::fromLatin1(sessionPath), sessionInterface),
                        {{QStringLiteral("LockedHint"), false},
                         {QStringLiteral("IdleHint"), false},
                         {QStringLiteral("IdleSinceHint"), qulonglong(0)}});
    m_properties.insert(key(upowerPath, QStringLiteral("org.freedesktop.UPower")),
                        {{QStringLiteral("OnBattery"), false}});
    m_properties.insert(key(nmPath, nm), {{QStringLiteral("State"), uint(70)},
                                          {QStringLiteral("Connectivity"), uint(4)}});
}

FakeDesktopBus::~FakeDesktopBus()
{
    if (m_bus.isConnected())
        QDBusConnection::disconnectFromBus(m_bus.name());
    m_daemon.kill();
    m_daemon.waitForFinished(5000);
}

bool FakeDesktopBus::start()
{
    const QString address = QStringLiteral("unix:path=") + m_folder.filePath(QStringLiteral("bus"));
    m_daemon.start(QStringLiteral("dbus-daemon"),
                   {QStringLiteral("--session"), QStringLiteral("--nofork"),
                    QStringLiteral("--nopidfile"), QStringLiteral("--address=") + address,
                    QStringLiteral("--print-address=1")});
    // The daemon prints its address once it listens.
    if (!m_daemon.waitForStarted(10000) || !m_daemon.waitForReadyRead(10000)) {
        m_failure = QStringLiteral("dbus-daemon did not start: ") + m_daemon.errorString()
                    + QString::fromLocal8Bit(m_daemon.readAllStandardError());
        return false;
    }
    qputenv("DBUS_SYSTEM_BUS_ADDRESS", address.toLocal8Bit());
    qputenv("DBUS_SESSION_BUS_ADDRESS", address.toLocal8Bit());
    m_bus = QDBusConnection::connectToBus(address, QStringLiteral("fake-desktop"));
    if (!m_bus.isConnected()) {
        m_failure = QStringLiteral("cannot connect: ") + m_bus.lastError().message();
        return false;
    }
    for (const QString &path :
         {login1Path, QString::fromLatin1(sessionPath), userPath, upowerPath, nmPath})
        if (!m_bus.registerVirtualObject(path, this)) {
            m_failure = QStringLiteral("cannot register ") + path;
            return false;
        }
    for (const QString &service :
         {QStringLiteral("org.freedesktop.login1"), QStringLiteral("org.freedesktop.UPower"), nm})
        if (!m_bus.registerService(service)) {
            m_failure = QStringLiteral("cannot own ") + service;
            return false;
        }
    return true;
}

bool FakeDesktopBus::restart()
{
    // The daemon killed, as a crash or `systemctl restart dbus` would, and started again at
    // the same address, its services with it.
    QDBusConnection::disconnectFromBus(m_bus.name());
    m_bus = QDBusConnection(QString());
    m_daemon.kill();
    m_daemon.waitForFinished(5000);
    QFile::remove(m_folder.filePath(QStringLiteral("bus")));
    return start();
}

QString FakeDesktopBus::introspect(const QString &) const
{
    return {};
}

bool FakeDesktopBus::handleMessage(const QDBusMessage &message, const QDBusConnection &connection)
{
    const QMutexLocker lock(&m_mutex);
    ++m_asked[message.member() + QLatin1Char(' ') + message.path()];
    if (message.member() == QLatin1String("GetSessionByPID")) {
        connection.send(m_noSession ? message.createErrorReply(
                            QStringLiteral("org.freedesktop.login1.NoSessionForPID"),
                            QStringLiteral("PID is not part of any session"))
                                    : message.createReply(QVariant::fromValue(
                                        QDBusObjectPath(QString::fromLatin1(sessionPath)))));
        return true;
    }
    if (message.member() == QLatin1String("GetUser")) {
        connection.send(message.createReply(QVariant::fromValue(QDBusObjectPath(userPath))));
        return true;
    }
    if (message.path() == userPath && message.member() == QLatin1String("Get")) {
        // User.Display, (so): the graphical session, or ("", "/") for none.
        QDBusArgument display;
        display.beginStructure();
        display << (m_userDisplay ? QStringLiteral("1") : QString())
                << QDBusObjectPath(m_userDisplay ? QString::fromLatin1(sessionPath)
                                                 : QStringLiteral("/"));
        display.endStructure();
        connection.send(
            message.createReply(QVariant::fromValue(QDBusVariant(QVariant::fromValue(display)))));
        return true;
    }
    if (message.interface() == propertiesInterface && !message.arguments().isEmpty()) {
        const QString interface = message.arguments().constFirst().toString();
        const auto found = m_properties.constFind(key(message.path(), interface));
        if (found == m_properties.cend()) {
            connection.send(message.createErrorReply(QDBusError::UnknownInterface, interface));
            return true;
        }
        if (message.member() == QLatin1String("GetAll")) {
            connection.send(message.createReply(QVariant::fromValue(found.value())));
            return true;
        }
        if (message.member() == QLatin1String("Get") && message.arguments().size() > 1) {
            connection.send(message.createReply(QVariant::fromValue(
                QDBusVariant(found->value(message.arguments().at(1).toString())))));
            return true;
        }
    }
    return false;
}

void FakeDesktopBus::changed(const QString &path, const QString &interface,
                             const QVariantMap &values)
{
    {
        const QMutexLocker lock(&m_mutex);
        QVariantMap &stored = m_properties[key(path, interface)];
        for (auto it = values.cbegin(); it != values.cend(); ++it)
            stored.insert(it.key(), it.value());
    }
    QDBusMessage signal =
        QDBusMessage::createSignal(path, propertiesInterface, QStringLiteral("PropertiesChanged"));
    signal << interface << values << QStringList();
    m_bus.send(signal);
}

void FakeDesktopBus::setSession(const QVariantMap &changedValues)
{
    changed(QString::fromLatin1(sessionPath), sessionInterface, changedValues);
}

void FakeDesktopBus::setOnBattery(bool onBattery)
{
    changed(upowerPath, QStringLiteral("org.freedesktop.UPower"),
            {{QStringLiteral("OnBattery"), onBattery}});
}

void FakeDesktopBus::setNetworkState(uint state)
{
    changed(nmPath, nm, {{QStringLiteral("State"), state}});
}

void FakeDesktopBus::prepareForSleep(bool beforeSleep)
{
    QDBusMessage signal =
        QDBusMessage::createSignal(login1Path, QStringLiteral("org.freedesktop.login1.Manager"),
                                   QStringLiteral("PrepareForSleep"));
    signal << beforeSleep;
    m_bus.send(signal);
}

void FakeDesktopBus::sessionNew()
{
    QDBusMessage signal = QDBusMessage::createSignal(
        login1Path, QStringLiteral("org.freedesktop.login1.Manager"), QStringLiteral("SessionNew"));
    signal << QStringLiteral("1")
           << QVariant::fromValue(QDBusObjectPath(QString::fromLatin1(sessionPath)));
    m_bus.send(signal);
}

void FakeDesktopBus::screenSaverActive(bool active)
{
    QDBusMessage signal = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/ScreenSaver"),
                                                     QStringLiteral("org.freedesktop.ScreenSaver"),
                                                     QStringLiteral("ActiveChanged"));
    signal << active;
    m_bus.send(signal);
}

} // namespace hg::test
