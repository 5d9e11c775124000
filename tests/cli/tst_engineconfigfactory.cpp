#include "engineconfigfactory.h"
#include "settings/appsettings.h"
#include "store/storelocation.h"

#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// One EngineConfig for `serve`, `run --wait` and the desktop application: what differs is
// what each was asked for, nothing else.
class TestEngineConfigFactory final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void commandLine_engines_data();
    void commandLine_engines();
    void gui_followsTheSettings_data();
    void gui_followsTheSettings();
    void storeArgument_isThePathOrTheUrl_data();
    void storeArgument_isThePathOrTheUrl();

private:
    QTemporaryDir m_dir;
};

void TestEngineConfigFactory::init()
{
    qunsetenv("HOURGLASS_ENGINE_NAME");
}

void TestEngineConfigFactory::cleanup()
{
    qunsetenv("HOURGLASS_ENGINE_NAME");
}

void TestEngineConfigFactory::commandLine_engines_data()
{
    QTest::addColumn<bool>("singleRun");
    QTest::addColumn<QString>("store");
    QTest::addColumn<QString>("envName");
    QTest::addColumn<QString>("name");
    QTest::newRow("serve, default store, host name")
        << false << QString() << QString() << QString();
    QTest::newRow("serve, named") << false << QStringLiteral("/srv/h.db")
                                  << QStringLiteral("night-shift") << QStringLiteral("night-shift");
    QTest::newRow("run --wait, a name of its own")
        << true << QStringLiteral("/srv/h.db") << QString() << QStringLiteral("hourglass-run-4242");
    QTest::newRow("run --wait, named") << true << QStringLiteral("postgresql://db/h")
                                       << QStringLiteral("ci") << QStringLiteral("ci");
}

void TestEngineConfigFactory::commandLine_engines()
{
    QFETCH(bool, singleRun);
    QFETCH(QString, store);
    QFETCH(QString, envName);
    QFETCH(QString, name);
    if (!envName.isEmpty())
        qputenv("HOURGLASS_ENGINE_NAME", envName.toUtf8());
    const EngineConfig config = singleRun ? EngineConfigFactory::forSingleRun(store, 4242)
                                          : EngineConfigFactory::forServe(store);
    QCOMPARE(config.storeLocation, store);
    QCOMPARE(config.name, name);
    QCOMPARE(config.runSchedules, !singleRun);
    QCOMPARE(config.onlyHandedRuns, singleRun); // takes no other run's command
    QCOMPARE(config.slotCount, AppSettings::automaticSlotCount());
    QVERIFY(config.slotCount >= 2);
    QVERIFY(!config.schedulesPaused);
    QCOMPARE(config.defaultZone.id(), QTimeZone::systemTimeZoneId());
}

void TestEngineConfigFactory::gui_followsTheSettings_data()
{
    QTest::addColumn<int>("slots");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<bool>("paused");
    QTest::addColumn<QString>("envName");
    QTest::addColumn<int>("expectedSlots");
    QTest::addColumn<QByteArray>("expectedZone");
    const int automatic = AppSettings::automaticSlotCount();
    const QByteArray system = QTimeZone::systemTimeZoneId();
    QTest::newRow("defaults") << 0 << QString() << false << QString() << automatic << system;
    QTest::newRow("slots chosen") << 3 << QString() << false << QString() << 3 << system;
    QTest::newRow("a zone") << 0 << QStringLiteral("Asia/Tokyo") << false << QString() << automatic
                            << QByteArray("Asia/Tokyo");
    QTest::newRow("an unknown zone: the system's")
        << 0 << QStringLiteral("Nowhere/Land") << false << QString() << automatic << system;
    QTest::newRow("paused, named")
        << 8 << QString() << true << QStringLiteral("desk") << 8 << system;
}

void TestEngineConfigFactory::gui_followsTheSettings()
{
    QFETCH(int, slots);
    QFETCH(QString, zone);
    QFETCH(bool, paused);
    QFETCH(QString, envName);
    QFETCH(int, expectedSlots);
    QFETCH(QByteArray, expectedZone);
    if (!envName.isEmpty())
        qputenv("HOURGLASS_ENGINE_NAME", envName.toUtf8());
    QVERIFY(m_dir.isValid());
    AppSettings settings(
        m_dir.filePath(QStringLiteral("%1.ini").arg(QString::fromUtf8(QTest::currentDataTag()))));
    settings.setSlotCount(slots);
    settings.setDefaultZone(zone);
    settings.setSchedulesPaused(paused);
    const QString path = m_dir.filePath(QStringLiteral("store.db"));
    const EngineConfig config =
        EngineConfigFactory::forGui(StoreLocation::parse(path).value(), settings);
    QCOMPARE(config.storeLocation, path);
    QCOMPARE(config.slotCount, expectedSlots);
    QCOMPARE(config.defaultZone.id(), expectedZone);
    QCOMPARE(config.schedulesPaused, paused);
    QVERIFY(config.runSchedules);
    QCOMPARE(config.name, envName);
}

void TestEngineConfigFactory::storeArgument_isThePathOrTheUrl_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("argument");
    QTest::newRow("sqlite") << QStringLiteral("/var/lib/h.db") << QStringLiteral("/var/lib/h.db");
    QTest::newRow("postgresql") << QStringLiteral("postgresql://u@db:5433/h")
                                << QStringLiteral("postgresql://u@db:5433/h");
}

void TestEngineConfigFactory::storeArgument_isThePathOrTheUrl()
{
    QFETCH(QString, text);
    QFETCH(QString, argument);
    const Result<StoreLocation> location = StoreLocation::parse(text);
    QVERIFY(location);
    QCOMPARE(EngineConfigFactory::storeArgument(location.value()), argument);
}

QTEST_GUILESS_MAIN(TestEngineConfigFactory)
#include "tst_engineconfigfactory.moc"
