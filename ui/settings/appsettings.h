#pragma once

#include <QObject>
#include <QString>
#include <QTimeZone>
#include <QVariant>

#include <memory>

class QSettings;

namespace hg {

// The desktop application's preferences, kept with QSettings (~/.config/hourglass/). The
// one place that knows their keys and defaults. Each setter writes at once and announces a
// real change with changed(key), so whoever shows a preference follows it; store location
// and slots apply at the next start, the rest at once. Built by the composition root and
// handed to who needs it: not a singleton.
class AppSettings final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AppSettings)

public:
    enum class Key {
        StoreLocation,    // as for --db; empty: the default store
        SlotCount,        // 0: automaticSlotCount()
        DefaultZone,      // IANA id; empty: the system's zone
        Notifications,    // notify finished runs as each chain asks
        CloseToTray,      // closing the window keeps running in the tray
        StartAtLogin,     // the XDG autostart entry
        SchedulesPaused,  // "pause all schedules", kept across restarts
        ExampleInstalled, // the example project was offered once, on the first start
        AskOnClose,       // without a tray: ask on close whether to keep running or quit
        WindowGeometry,   // the main window's saveGeometry()
        WindowState,      // its splitters and bars: saveState() and splitter sizes
        SelectedChain,    // the chain selected when the window closed (0: none)
        ColorScheme,      // "system", "light" or "dark" (ColorScheme)
        DailyBackups,     // daily backups of a SQLite store kept beside it; 0: none taken
        ApiEnabled,       // Settings → Remote access: serve the local API (off by default)
        ApiListen,        // its ADDRESS:PORT
        ApiCertificate,   // HTTPS: the certificate's PEM file (with ApiKey)
        ApiKey,           // HTTPS: the private key's PEM file
        ApiInsecure,      // plain HTTP on an address other machines reach, as asked
        ApiMetricsOpen    // loopback clients read /metrics without a token
    };
    Q_ENUM(Key)

    // The user's settings (organisation and application name of the QCoreApplication).
    explicit AppSettings(QObject *parent = nullptr);
    // Settings in an INI file of their own: tests, or a portable installation.
    explicit AppSettings(const QString &iniFile, QObject *parent = nullptr);
    ~AppSettings() override;

    static QString keyName(Key key);
    static QVariant defaultValue(Key key);
    // Tasks at once when SlotCount is 0: twice the processor count, at least two.
    static int automaticSlotCount();

    // Typed as defaultValue(key); a value of another type is converted or refused (false).
    QVariant value(Key key) const;
    bool setValue(Key key, const QVariant &value);
    // Back to the default; changed() if that is a change.
    void reset(Key key);

    QString storeLocation() const;
    void setStoreLocation(const QString &location);
    int slotCount() const;
    void setSlotCount(int count);
    QString defaultZone() const;
    void setDefaultZone(const QString &ianaId);
    // defaultZone() as a zone: the system's when empty or unknown.
    QTimeZone defaultTimeZone() const;
    bool notifications() const;
    void setNotifications(bool enabled);
    bool closeToTray() const;
    void setCloseToTray(bool enabled);
    bool askOnClose() const;
    void setAskOnClose(bool ask);
    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);
    QString colorScheme() const;
    void setColorScheme(const QString &scheme);
    qint64 selectedChain() const;
    void setSelectedChain(qint64 chainId);
    bool startAtLogin() const;
    void setStartAtLogin(bool enabled);
    bool schedulesPaused() const;
    void setSchedulesPaused(bool paused);
    bool exampleInstalled() const;
    void setExampleInstalled(bool installed);
    int dailyBackups() const;
    void setDailyBackups(int count);
    bool apiEnabled() const;
    void setApiEnabled(bool enabled);
    QString apiListen() const;
    void setApiListen(const QString &listen);
    QString apiCertificate() const;
    void setApiCertificate(const QString &file);
    QString apiKey() const;
    void setApiKey(const QString &file);
    bool apiInsecure() const;
    void setApiInsecure(bool insecure);
    bool apiMetricsOpen() const;
    void setApiMetricsOpen(bool open);

Q_SIGNALS:
    void changed(hg::AppSettings::Key key);

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace hg
