#include "appsettings.h"

#include "store/dailybackups.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QThread>

namespace hg {

namespace {

// Earlier builds set no organisation name, so Qt kept the settings under "Unknown
// Organization": the first start of this one moves that file to where it now looks.
void adoptUnnamedOrganisationFile(const QSettings &settings)
{
    const QFileInfo current(settings.fileName());
    if (current.exists() || QCoreApplication::organizationName().isEmpty())
        return;
    const QString configDir = QFileInfo(current.absolutePath()).absolutePath();
    const QString old = configDir + QStringLiteral("/Unknown Organization/") + current.fileName();
    if (QFileInfo::exists(old)) {
        QDir().mkpath(current.absolutePath());
        QFile::rename(old, current.absoluteFilePath());
    }
}

} // namespace

AppSettings::AppSettings(QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>())
{
    adoptUnnamedOrganisationFile(*m_settings);
    m_settings->sync();
}

AppSettings::AppSettings(const QString &iniFile, QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>(iniFile, QSettings::IniFormat))
{}

AppSettings::~AppSettings() = default;

QString AppSettings::keyName(Key key)
{
    // These names are in users' settings files: never rename one.
    switch (key) {
    case Key::StoreLocation:
        return QStringLiteral("store/location");
    case Key::SlotCount:
        return QStringLiteral("engine/slots");
    case Key::DefaultZone:
        return QStringLiteral("engine/defaultZone");
    case Key::Notifications:
        return QStringLiteral("tray/notifications");
    case Key::CloseToTray:
        return QStringLiteral("tray/closeToTray");
    case Key::StartAtLogin:
        return QStringLiteral("session/startAtLogin");
    case Key::SchedulesPaused:
        return QStringLiteral("engine/schedulesPaused");
    case Key::ExampleInstalled:
        return QStringLiteral("firstStart/exampleInstalled");
    case Key::AskOnClose:
        return QStringLiteral("window/askOnClose");
    case Key::WindowGeometry:
        return QStringLiteral("window/geometry");
    case Key::WindowState:
        return QStringLiteral("window/state");
    case Key::SelectedChain:
        return QStringLiteral("window/selectedChain");
    case Key::ColorScheme:
        return QStringLiteral("window/colorScheme");
    case Key::DailyBackups:
        return QStringLiteral("store/dailyBackups");
    case Key::ApiEnabled:
        return QStringLiteral("api/enabled");
    case Key::ApiListen:
        return QStringLiteral("api/listen");
    case Key::ApiCertificate:
        return QStringLiteral("api/certificate");
    case Key::ApiKey:
        return QStringLiteral("api/key");
    case Key::ApiInsecure:
        return QStringLiteral("api/insecure");
    case Key::ApiMetricsOpen:
        return QStringLiteral("api/metricsOpen");
    }
    Q_UNREACHABLE();
    return {};
}

QVariant AppSettings::defaultValue(Key key)
{
    switch (key) {
    case Key::StoreLocation:
    case Key::DefaultZone:
    case Key::ApiCertificate:
    case Key::ApiKey:
        return QString();
    case Key::SlotCount:
        return 0;
    case Key::Notifications:
    case Key::CloseToTray:
    case Key::AskOnClose:
        return true;
    case Key::StartAtLogin:
    case Key::SchedulesPaused:
    case Key::ExampleInstalled:
    case Key::ApiEnabled:
    case Key::ApiInsecure:
    case Key::ApiMetricsOpen:
        return false;
    case Key::ApiListen:
        return QStringLiteral("127.0.0.1:8080");
    case Key::WindowGeometry:
    case Key::WindowState:
        return QString(); // base64: binary survives every settings format unchanged
    case Key::SelectedChain:
        return qint64(0);
    case Key::ColorScheme:
        return QStringLiteral("system");
    case Key::DailyBackups:
        return DailyBackups::defaultKeep;
    }
    Q_UNREACHABLE();
    return {};
}

int AppSettings::automaticSlotCount()
{
    return std::max(2, 2 * QThread::idealThreadCount());
}

QVariant AppSettings::value(Key key) const
{
    const QVariant fallback = defaultValue(key);
    QVariant stored = m_settings->value(keyName(key), fallback);
    // An INI file gives every value back as text; a hand-edited one may hold nonsense.
    if (!stored.convert(fallback.metaType()))
        return fallback;
    return stored;
}

bool AppSettings::setValue(Key key, const QVariant &value)
{
    QVariant typed = value;
    if (!typed.convert(defaultValue(key).metaType()))
        return false;
    if (typed == this->value(key))
        return true;
    m_settings->setValue(keyName(key), typed);
    Q_EMIT changed(key);
    return true;
}

void AppSettings::reset(Key key)
{
    const bool differs = value(key) != defaultValue(key);
    m_settings->remove(keyName(key));
    if (differs)
        Q_EMIT changed(key);
}

bool AppSettings::askOnClose() const
{
    return value(Key::AskOnClose).toBool();
}

void AppSettings::setAskOnClose(bool ask)
{
    setValue(Key::AskOnClose, ask);
}

QByteArray AppSettings::windowGeometry() const
{
    return QByteArray::fromBase64(value(Key::WindowGeometry).toString().toLatin1());
}

void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    setValue(Key::WindowGeometry, QString::fromLatin1(geometry.toBase64()));
}

QByteArray AppSettings::windowState() const
{
    return QByteArray::fromBase64(value(Key::WindowState).toString().toLatin1());
}

void AppSettings::setWindowState(const QByteArray &state)
{
    setValue(Key::WindowState, QString::fromLatin1(state.toBase64()));
}

QString AppSettings::colorScheme() const
{
    return value(Key::ColorScheme).toString();
}

void AppSettings::setColorScheme(const QString &scheme)
{
    setValue(Key::ColorScheme, scheme);
}

qint64 AppSettings::selectedChain() const
{
    return value(Key::SelectedChain).toLongLong();
}

void AppSettings::setSelectedChain(qint64 chainId)
{
    setValue(Key::SelectedChain, chainId);
}

QString AppSettings::storeLocation() const
{
    return value(Key::StoreLocation).toString();
}

void AppSettings::setStoreLocation(const QString &location)
{
    setValue(Key::StoreLocation, location);
}

int AppSettings::slotCount() const
{
    return value(Key::SlotCount).toInt();
}

void AppSettings::setSlotCount(int count)
{
    setValue(Key::SlotCount, count);
}

QString AppSettings::defaultZone() const
{
    return value(Key::DefaultZone).toString();
}

void AppSettings::setDefaultZone(const QString &ianaId)
{
    setValue(Key::DefaultZone, ianaId);
}

QTimeZone AppSettings::defaultTimeZone() const
{
    const QString id = defaultZone();
    const QTimeZone zone(id.toUtf8());
    return id.isEmpty() || !zone.isValid() ? QTimeZone::systemTimeZone() : zone;
}

bool AppSettings::notifications() const
{
    return value(Key::Notifications).toBool();
}

void AppSettings::setNotifications(bool enabled)
{
    setValue(Key::Notifications, enabled);
}

bool AppSettings::closeToTray() const
{
    return value(Key::CloseToTray).toBool();
}

void AppSettings::setCloseToTray(bool enabled)
{
    setValue(Key::CloseToTray, enabled);
}

bool AppSettings::startAtLogin() const
{
    return value(Key::StartAtLogin).toBool();
}

void AppSettings::setStartAtLogin(bool enabled)
{
    setValue(Key::StartAtLogin, enabled);
}

bool AppSettings::schedulesPaused() const
{
    return value(Key::SchedulesPaused).toBool();
}

void AppSettings::setSchedulesPaused(bool paused)
{
    setValue(Key::SchedulesPaused, paused);
}

bool AppSettings::exampleInstalled() const
{
    return value(Key::ExampleInstalled).toBool();
}

void AppSettings::setExampleInstalled(bool installed)
{
    setValue(Key::ExampleInstalled, installed);
}

int AppSettings::dailyBackups() const
{
    return std::max(0, value(Key::DailyBackups).toInt());
}

void AppSettings::setDailyBackups(int count)
{
    setValue(Key::DailyBackups, std::max(0, count));
}

bool AppSettings::apiEnabled() const
{
    return value(Key::ApiEnabled).toBool();
}

void AppSettings::setApiEnabled(bool value)
{
    setValue(Key::ApiEnabled, value);
}

QString AppSettings::apiListen() const
{
    return value(Key::ApiListen).toString();
}

void AppSettings::setApiListen(const QString &value)
{
    setValue(Key::ApiListen, value);
}

QString AppSettings::apiCertificate() const
{
    return value(Key::ApiCertificate).toString();
}

void AppSettings::setApiCertificate(const QString &value)
{
    setValue(Key::ApiCertificate, value);
}

QString AppSettings::apiKey() const
{
    return value(Key::ApiKey).toString();
}

void AppSettings::setApiKey(const QString &value)
{
    setValue(Key::ApiKey, value);
}

bool AppSettings::apiInsecure() const
{
    return value(Key::ApiInsecure).toBool();
}

void AppSettings::setApiInsecure(bool value)
{
    setValue(Key::ApiInsecure, value);
}

bool AppSettings::apiMetricsOpen() const
{
    return value(Key::ApiMetricsOpen).toBool();
}

void AppSettings::setApiMetricsOpen(bool value)
{
    setValue(Key::ApiMetricsOpen, value);
}

} // namespace hg
