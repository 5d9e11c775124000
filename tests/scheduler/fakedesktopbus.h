#pragma once

#include <QDBusConnection>
#include <QDBusVirtualObject>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QVariantMap>

namespace hg::test {

// A D-Bus of its own (a real dbus-daemon on a socket in a temporary folder), named the
// system and the session bus of this process, and on it what a Linux desktop answers there:
// logind (the manager, one user and one session with LockedHint/IdleHint/IdleSinceHint,
// PrepareForSleep), UPower (OnBattery), NetworkManager (State) and the screen saver
// (ActiveChanged). The daemon and the protocol are real; the services are the test's, speaking
// their published interfaces, since no container has a desktop session to lock. start() must come
// before anything in the process opens a bus.
class FakeDesktopBus final : public QDBusVirtualObject
{
public:
    static constexpr const char *sessionPath = "/org/freedesktop/login1/session/_1";

    FakeDesktopBus();
    ~FakeDesktopBus() override;

    bool start();
    bool restart(); // the daemon killed and started again, on the same address
    QString failure() const { return m_failure; }

    // Sets properties and says so (PropertiesChanged), as the service would.
    void setSession(const QVariantMap &changed);
    void setOnBattery(bool onBattery);
    void setNetworkState(uint state); // NetworkManager's NMState: 20 down, 70 up
    void prepareForSleep(bool beforeSleep);
    void screenSaverActive(bool active);
    // GetSessionByPID answers an error (a serve outside any session, as systemd --user
    // starts it); the user's graphical session (User.Display) is the session, or none.
    void setNoSession(bool none, bool userDisplay = false)
    {
        const QMutexLocker lock(&m_mutex);
        m_noSession = none;
        m_userDisplay = userDisplay;
    }
    void sessionNew(); // logind's SessionNew: someone logged in
    // How often a method was asked for ("GetAll /org/freedesktop/login1/session/_1").
    int asked(const QString &what) const
    {
        const QMutexLocker lock(&m_mutex);
        return m_asked.value(what);
    }

    QString introspect(const QString &path) const override;
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override;

private:
    void changed(const QString &path, const QString &interface, const QVariantMap &values);

    QTemporaryDir m_folder;
    QProcess m_daemon;
    QString m_failure;
    QDBusConnection m_bus{QString()};
    mutable QMutex m_mutex;                   // the bus may ask from its own thread
    QHash<QString, QVariantMap> m_properties; // path + " " + interface
    QHash<QString, int> m_asked;
    bool m_noSession = false;
    bool m_userDisplay = false;
};

} // namespace hg::test
