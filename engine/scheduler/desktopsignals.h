#pragma once

#include "domain/desktoptriggerspec.h"

#include <QDBusConnection>
#include <QDBusObjectPath>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVariantMap>

#include <functional>
#include <memory>
#include <optional>

class QDBusError;
class QDBusPendingCallWatcher;

namespace hg {

// What the desktop says happened, from the sources a Linux desktop has: logind on the system
// bus (the session's LockedHint and IdleHint, PrepareForSleep), the session bus's screen saver
// (ActiveChanged, KDE's and GNOME's), UPower (OnBattery) and QNetworkInformation (reachability,
// NetworkManager's or GLib's). A source that is not there is said (missing()), never waited
// for: D-Bus is asked asynchronously, so a hung service holds nothing up. The same event from
// two sources (logind and the screen saver both saying "unlocked") is one event. A bus that
// goes away (its daemon restarted) is connected to again within seconds.
class DesktopSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopSignals)

public:
    explicit DesktopSignals(std::function<qint64()> wallMs, QObject *parent = nullptr);
    ~DesktopSignals() override;

    // Connects to the sources; the network only when asked (QNetworkInformation loads a
    // backend for the whole process, once).
    void start(bool network);
    // The engine's own look at the clocks saw a sleep (it does without logind).
    void noteResumed(qint64 atMs);
    // Why an event cannot be seen here, "" when its source answered (or is still asked).
    QString missing(DesktopEvent event) const;
    // Idle since (wall ms) as the desktop says; nullopt: not idle.
    std::optional<qint64> idleSince() const { return m_idleSinceMs; }

Q_SIGNALS:
    void happened(hg::DesktopEvent event, qint64 atMs);
    void idleChanged();
    void sourcesChanged(); // what missing() says changed

private Q_SLOTS:
    void sleepPrepared(bool beforeSleep);
    void sessionPropertiesChanged(const QString &interfaceName, const QVariantMap &changed,
                                  const QStringList &invalidated);
    void powerPropertiesChanged(const QString &interfaceName, const QVariantMap &changed,
                                const QStringList &invalidated);
    void screenSaverActiveChanged(bool active);
    void sessionsChanged(const QString &id, const QDBusObjectPath &path);

private:
    static constexpr int askAgainMs = 60'000;
    // A service that is there but did not answer in time: asked again later.
    static bool noAnswer(const QDBusError &error);
    static QDBusPendingCallWatcher *ask(const QDBusConnection &bus, const QString &service,
                                        const QString &path, const QString &interface,
                                        const QString &method, const QVariantList &arguments,
                                        QObject *parent);
    void connectSystem();
    void connectSession();
    void checkBuses();
    QDBusConnection connectBus(QDBusConnection::BusType type);
    // A signal this object listens to on a bus, kept to stop listening before the bus is
    // let go of (see drop()).
    struct Listening
    {
        QString service;
        QString path;
        QString interface;
        QString name;
        const char *slot = nullptr;
    };
    void listen(QDBusConnection &bus, QList<Listening> &listens, const QString &service,
                const QString &path, const QString &interface, const QString &name,
                const char *slot);
    void drop(QDBusConnection &bus, QList<Listening> &listens);
    void unwatchSession();
    void findSession();
    // No session of this process: the user's graphical one, else `why` is said.
    void findUserDisplay(const QString &why);
    static QString sessionOf(const QVariant &display);
    void watchSession(const QString &path);
    void readSession();
    // fromChange: a PropertiesChanged (an idle period seen beginning) rather than the first
    // read (one that may have begun, and fired, before this engine).
    void applySession(const QVariantMap &properties, bool fromChange);
    void readPower();
    void applyPower(const QVariantMap &properties);
    void watchNetwork();
    void loadNetworkBackend();
    void lookAtInterfaces(); // where Qt's backend cannot say the network came up
    void connectNetwork();
    // Which service said it: the same event said by two within the window is one; said
    // twice by one, it happened twice.
    enum class Source { Logind, ScreenSaver, Clock, Power, Network, Interfaces };
    void emitOnce(DesktopEvent event, qint64 atMs, Source source);
    void watchServices();
    void setMissing(DesktopEvent event, const QString &why);

    std::function<qint64()> m_wallMs;
    QDBusConnection m_system{QString()};
    QDBusConnection m_session{QString()};
    QList<Listening> m_systemListens;
    QList<Listening> m_sessionListens;
    std::unique_ptr<QObject> m_systemAsks; // parent of what is asked on m_system
    QTimer m_busCheck;
    int m_round = 0;
    QString m_sessionPath;
    std::optional<bool> m_locked;
    std::optional<bool> m_onBattery;
    std::optional<qint64> m_idleSinceMs;
    int m_reachability = -1; // QNetworkInformation::Reachability, -1 not yet known
    QHash<DesktopEvent, QString> m_missing;
    struct Said
    {
        Source source = Source::Logind;
        qint64 atMs = 0;
    };
    QHash<DesktopEvent, Said> m_last;
    bool m_started = false;
    bool m_networkWatched = false;
    bool m_presenceWatched = false;
    bool m_presenceOnline = false;
};

} // namespace hg
