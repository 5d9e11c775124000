#include "settings/appsettings.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;
using Key = AppSettings::Key;

// The desktop application's preferences: typed, with their defaults, kept under the keys
// users' files already hold, and a change announced once.
class TestAppSettings final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void defaults_whenNothingIsStored_data();
    void defaults_whenNothingIsStored();
    void value_roundTripsThroughTheFile_data();
    void value_roundTripsThroughTheFile();
    void changed_firesOncePerRealChange_data();
    void changed_firesOncePerRealChange();
    void garbage_inTheFile_readsAsTheDefault_data();
    void garbage_inTheFile_readsAsTheDefault();
    void defaultTimeZone_fallsBackToTheSystemZone_data();
    void defaultTimeZone_fallsBackToTheSystemZone();
    void reset_returnsToTheDefault();

private:
    QString iniFile() const { return m_dir->filePath(QStringLiteral("hourglass.ini")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

// Through the typed API, so each getter and setter is shown to use its own key.
void setTyped(AppSettings &settings, Key key, const QVariant &value)
{
    switch (key) {
    case Key::StoreLocation:
        return settings.setStoreLocation(value.toString());
    case Key::SlotCount:
        return settings.setSlotCount(value.toInt());
    case Key::DefaultZone:
        return settings.setDefaultZone(value.toString());
    case Key::Notifications:
        return settings.setNotifications(value.toBool());
    case Key::CloseToTray:
        return settings.setCloseToTray(value.toBool());
    case Key::StartAtLogin:
        return settings.setStartAtLogin(value.toBool());
    case Key::SchedulesPaused:
        return settings.setSchedulesPaused(value.toBool());
    case Key::ExampleInstalled:
        return settings.setExampleInstalled(value.toBool());
    case Key::AskOnClose:
        return settings.setAskOnClose(value.toBool());
    case Key::WindowGeometry:
        return settings.setWindowGeometry(QByteArray::fromBase64(value.toString().toLatin1()));
    case Key::WindowState:
        return settings.setWindowState(QByteArray::fromBase64(value.toString().toLatin1()));
    case Key::SelectedChain:
        return settings.setSelectedChain(value.toLongLong());
    case Key::ColorScheme:
        return settings.setColorScheme(value.toString());
    case Key::DailyBackups:
        return settings.setDailyBackups(value.toInt());
    case Key::ApiEnabled:
        return settings.setApiEnabled(value.toBool());
    case Key::ApiListen:
        return settings.setApiListen(value.toString());
    case Key::ApiCertificate:
        return settings.setApiCertificate(value.toString());
    case Key::ApiKey:
        return settings.setApiKey(value.toString());
    case Key::ApiInsecure:
        return settings.setApiInsecure(value.toBool());
    case Key::ApiMetricsOpen:
        return settings.setApiMetricsOpen(value.toBool());
    }
}

QVariant typed(const AppSettings &settings, Key key)
{
    switch (key) {
    case Key::StoreLocation:
        return settings.storeLocation();
    case Key::SlotCount:
        return settings.slotCount();
    case Key::DefaultZone:
        return settings.defaultZone();
    case Key::Notifications:
        return settings.notifications();
    case Key::CloseToTray:
        return settings.closeToTray();
    case Key::StartAtLogin:
        return settings.startAtLogin();
    case Key::SchedulesPaused:
        return settings.schedulesPaused();
    case Key::ExampleInstalled:
        return settings.exampleInstalled();
    case Key::AskOnClose:
        return settings.askOnClose();
    case Key::WindowGeometry:
        return QString::fromLatin1(settings.windowGeometry().toBase64());
    case Key::WindowState:
        return QString::fromLatin1(settings.windowState().toBase64());
    case Key::SelectedChain:
        return settings.selectedChain();
    case Key::ColorScheme:
        return settings.colorScheme();
    case Key::DailyBackups:
        return settings.dailyBackups();
    case Key::ApiEnabled:
        return settings.apiEnabled();
    case Key::ApiListen:
        return settings.apiListen();
    case Key::ApiCertificate:
        return settings.apiCertificate();
    case Key::ApiKey:
        return settings.apiKey();
    case Key::ApiInsecure:
        return settings.apiInsecure();
    case Key::ApiMetricsOpen:
        return settings.apiMetricsOpen();
    }
    return {};
}

// Every key with a value that is not its default and the name it is stored under.
void everyKey()
{
    QTest::addColumn<Key>("key");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("storedAs");
    QTest::newRow("store location")
        << Key::StoreLocation << QVariant(QStringLiteral("postgresql://db/hourglass"))
        << QStringLiteral("store/location");
    QTest::newRow("slots") << Key::SlotCount << QVariant(12) << QStringLiteral("engine/slots");
    QTest::newRow("default zone") << Key::DefaultZone << QVariant(QStringLiteral("Asia/Tokyo"))
                                  << QStringLiteral("engine/defaultZone");
    QTest::newRow("notifications")
        << Key::Notifications << QVariant(false) << QStringLiteral("tray/notifications");
    QTest::newRow("close to tray")
        << Key::CloseToTray << QVariant(false) << QStringLiteral("tray/closeToTray");
    QTest::newRow("start at login")
        << Key::StartAtLogin << QVariant(true) << QStringLiteral("session/startAtLogin");
    QTest::newRow("schedules paused")
        << Key::SchedulesPaused << QVariant(true) << QStringLiteral("engine/schedulesPaused");
    QTest::newRow("example installed")
        << Key::ExampleInstalled << QVariant(true) << QStringLiteral("firstStart/exampleInstalled");
    QTest::newRow("ask on close") << Key::AskOnClose << QVariant(false)
                                  << QStringLiteral("window/askOnClose");
    // Stored as base64 text; the typed accessors hand the bytes back.
    QTest::newRow("window geometry") << Key::WindowGeometry << QVariant(QStringLiteral("AdnQyw=="))
                                     << QStringLiteral("window/geometry");
    QTest::newRow("window state") << Key::WindowState << QVariant(QStringLiteral("c3RhdGU="))
                                  << QStringLiteral("window/state");
    QTest::newRow("selected chain")
        << Key::SelectedChain << QVariant(qint64(42)) << QStringLiteral("window/selectedChain");
    QTest::newRow("color scheme") << Key::ColorScheme << QVariant(QStringLiteral("dark"))
                                  << QStringLiteral("window/colorScheme");
    QTest::newRow("daily backups")
        << Key::DailyBackups << QVariant(0) << QStringLiteral("store/dailyBackups");
    QTest::newRow("api on") << Key::ApiEnabled << QVariant(true) << QStringLiteral("api/enabled");
    QTest::newRow("api listen") << Key::ApiListen << QVariant(QStringLiteral("[::1]:9000"))
                                << QStringLiteral("api/listen");
    QTest::newRow("api certificate") << Key::ApiCertificate << QVariant(QStringLiteral("/a.crt"))
                                     << QStringLiteral("api/certificate");
    QTest::newRow("api key") << Key::ApiKey << QVariant(QStringLiteral("/a.key"))
                             << QStringLiteral("api/key");
    QTest::newRow("api insecure") << Key::ApiInsecure << QVariant(true)
                                  << QStringLiteral("api/insecure");
    QTest::newRow("api metrics open")
        << Key::ApiMetricsOpen << QVariant(true) << QStringLiteral("api/metricsOpen");
}

} // namespace

void TestAppSettings::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestAppSettings::defaults_whenNothingIsStored_data()
{
    QTest::addColumn<Key>("key");
    QTest::addColumn<QVariant>("expected");
    QTest::newRow("store location: the default store") << Key::StoreLocation << QVariant(QString());
    QTest::newRow("slots: automatic") << Key::SlotCount << QVariant(0);
    QTest::newRow("default zone: the system's") << Key::DefaultZone << QVariant(QString());
    QTest::newRow("notifications on") << Key::Notifications << QVariant(true);
    QTest::newRow("close to tray on") << Key::CloseToTray << QVariant(true);
    QTest::newRow("start at login off") << Key::StartAtLogin << QVariant(false);
    QTest::newRow("schedules running") << Key::SchedulesPaused << QVariant(false);
    QTest::newRow("example not yet offered") << Key::ExampleInstalled << QVariant(false);
    QTest::newRow("asks on close") << Key::AskOnClose << QVariant(true);
    QTest::newRow("no window geometry") << Key::WindowGeometry << QVariant(QString());
    QTest::newRow("no window state") << Key::WindowState << QVariant(QString());
    QTest::newRow("no chain selected") << Key::SelectedChain << QVariant(qint64(0));
    QTest::newRow("the desktop's colours")
        << Key::ColorScheme << QVariant(QStringLiteral("system"));
    QTest::newRow("a week of daily backups") << Key::DailyBackups << QVariant(7);
    QTest::newRow("remote access off") << Key::ApiEnabled << QVariant(false);
    QTest::newRow("api on loopback")
        << Key::ApiListen << QVariant(QStringLiteral("127.0.0.1:8080"));
    QTest::newRow("no certificate") << Key::ApiCertificate << QVariant(QString());
    QTest::newRow("no key") << Key::ApiKey << QVariant(QString());
    QTest::newRow("never plain HTTP on the network") << Key::ApiInsecure << QVariant(false);
    QTest::newRow("metrics need a token") << Key::ApiMetricsOpen << QVariant(false);
}

void TestAppSettings::defaults_whenNothingIsStored()
{
    QFETCH(Key, key);
    QFETCH(QVariant, expected);
    const AppSettings settings(iniFile());
    QCOMPARE(settings.value(key), expected);
    QCOMPARE(typed(settings, key), expected);
    QCOMPARE(AppSettings::defaultValue(key), expected);
}

void TestAppSettings::value_roundTripsThroughTheFile_data()
{
    everyKey();
}

void TestAppSettings::value_roundTripsThroughTheFile()
{
    QFETCH(Key, key);
    QFETCH(QVariant, value);
    QFETCH(QString, storedAs);
    {
        AppSettings settings(iniFile());
        setTyped(settings, key, value);
        QCOMPARE(typed(settings, key), value);
    }
    // Another instance on the same file, as at the next start.
    const AppSettings again(iniFile());
    QCOMPARE(again.value(key), value);
    QCOMPARE(typed(again, key), value);
    // Under the name users' settings files already have.
    QCOMPARE(AppSettings::keyName(key), storedAs);
    const QSettings file(iniFile(), QSettings::IniFormat);
    QCOMPARE(file.value(storedAs).toString(), value.toString());
}

void TestAppSettings::changed_firesOncePerRealChange_data()
{
    everyKey();
}

void TestAppSettings::changed_firesOncePerRealChange()
{
    QFETCH(Key, key);
    QFETCH(QVariant, value);
    AppSettings settings(iniFile());
    QSignalSpy changed(&settings, &AppSettings::changed);
    // The default again is no change.
    QVERIFY(settings.setValue(key, AppSettings::defaultValue(key)));
    QCOMPARE(changed.count(), 0);
    setTyped(settings, key, value);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<Key>(), key);
    setTyped(settings, key, value);
    QCOMPARE(changed.count(), 1);
    // Given as text, as from a line edit, the same value is still no change.
    QVERIFY(settings.setValue(key, value.toString()));
    QCOMPARE(changed.count(), 1);
    QVERIFY(settings.setValue(key, AppSettings::defaultValue(key)));
    QCOMPARE(changed.count(), 2);
    QCOMPARE(settings.value(key), AppSettings::defaultValue(key));
}

void TestAppSettings::garbage_inTheFile_readsAsTheDefault_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("stored");
    QTest::addColumn<Key>("key");
    QTest::addColumn<QVariant>("expected");
    QTest::newRow("slots not a number") << QStringLiteral("engine/slots") << QStringLiteral("many")
                                        << Key::SlotCount << QVariant(0);
    QTest::newRow("slots as text")
        << QStringLiteral("engine/slots") << QStringLiteral("6") << Key::SlotCount << QVariant(6);
    QTest::newRow("a flag as text") << QStringLiteral("tray/closeToTray") << QStringLiteral("false")
                                    << Key::CloseToTray << QVariant(false);
}

void TestAppSettings::garbage_inTheFile_readsAsTheDefault()
{
    QFETCH(QString, name);
    QFETCH(QString, stored);
    QFETCH(Key, key);
    QFETCH(QVariant, expected);
    {
        QSettings file(iniFile(), QSettings::IniFormat);
        file.setValue(name, stored);
    }
    const AppSettings settings(iniFile());
    QCOMPARE(settings.value(key), expected);
    QCOMPARE(typed(settings, key), expected);
}

void TestAppSettings::defaultTimeZone_fallsBackToTheSystemZone_data()
{
    QTest::addColumn<QString>("stored");
    QTest::addColumn<QByteArray>("zone");
    QTest::newRow("none") << QString() << QTimeZone::systemTimeZoneId();
    QTest::newRow("a zone") << QStringLiteral("Asia/Tokyo") << QByteArray("Asia/Tokyo");
    QTest::newRow("an unknown zone")
        << QStringLiteral("Nowhere/Land") << QTimeZone::systemTimeZoneId();
}

void TestAppSettings::defaultTimeZone_fallsBackToTheSystemZone()
{
    QFETCH(QString, stored);
    QFETCH(QByteArray, zone);
    AppSettings settings(iniFile());
    settings.setDefaultZone(stored);
    QCOMPARE(settings.defaultTimeZone().id(), zone);
}

void TestAppSettings::reset_returnsToTheDefault()
{
    AppSettings settings(iniFile());
    QSignalSpy changed(&settings, &AppSettings::changed);
    settings.reset(Key::SlotCount);
    QCOMPARE(changed.count(), 0);
    settings.setSlotCount(3);
    settings.reset(Key::SlotCount);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(settings.slotCount(), 0);
    QVERIFY(!QSettings(iniFile(), QSettings::IniFormat).contains(QStringLiteral("engine/slots")));
}

QTEST_GUILESS_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
