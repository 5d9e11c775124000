#include "fixtures.h"
#include "guiapplication.h"
#include "runcounter.h"
#include "scheduler/enginehost.h"
#include "scheduler/runcontrol.h"
#include "settings/appsettings.h"
#include "store/exampleproject.h"
#include "store/projectrepository.h"
#include "testservers.h"
#include "teststore.h"
#include "tray/traycontroller.h"
#include "window/mainwindow.h"

#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// The desktop application as the composition root builds it: one run counter behind the
// status bar and the tray, the window following the settings, the example project once.
class TestGuiApplication final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneCounter_feedsTheStatusBarAndTheTray_data();
    void oneCounter_feedsTheStatusBarAndTheTray();
    void schedulesPaused_followsTheSettingsBothWays_data();
    void schedulesPaused_followsTheSettingsBothWays();
    void example_isInstalledOnceIntoAnEmptyStore_data();
    void example_isInstalledOnceIntoAnEmptyStore();

private:
    QString iniFile() const { return m_dir.filePath(QStringLiteral("hourglass.ini")); }
    QTemporaryDir m_dir;
};

void TestGuiApplication::oneCounter_feedsTheStatusBarAndTheTray_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<TrayController::IconState>("afterwards");
    QTest::addColumn<int>("failed");
    QTest::newRow("succeeds") << QStringLiteral("sleep 1") << TrayController::IconState::Idle << 0;
    QTest::newRow("fails") << QStringLiteral("sleep 1; exit 3") << TrayController::IconState::Failed
                           << 1;
}

void TestGuiApplication::oneCounter_feedsTheStatusBarAndTheTray()
{
    QFETCH(QString, script);
    QFETCH(TrayController::IconState, afterwards);
    QFETCH(int, failed);
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("c"));
    QVERIFY(test::addTask(t.store(), chain.id, QStringLiteral("work"), TaskKind::Shell, script).id
            > 0);
    QFile::remove(iniFile());
    AppSettings settings(iniFile());
    GuiApplication gui(t.openAnother(QStringLiteral("gui")), settings, test::engineConfig(t));
    gui.start(false);
    QVERIFY(QTest::qWaitForWindowExposed(gui.window()));
    QTRY_VERIFY2(gui.window()->engineStateText().contains(QLatin1String("0 active")),
                 qPrintable(gui.window()->engineStateText()));
    QCOMPARE(gui.tray()->iconState(), TrayController::IconState::Idle);

    QVERIFY(RunControl(t.store()).start(chain.id));
    QTRY_COMPARE_WITH_TIMEOUT(gui.runCounter()->counts().active, 1, 10000);
    // The same count, in both places.
    QTRY_VERIFY2(gui.window()->engineStateText().contains(QLatin1String("1 active")),
                 qPrintable(gui.window()->engineStateText()));
    QCOMPARE(gui.tray()->iconState(), TrayController::IconState::Running);

    QTRY_COMPARE_WITH_TIMEOUT(gui.runCounter()->counts().active, 0, 15000);
    QTRY_VERIFY2(gui.window()->engineStateText().contains(QLatin1String("0 active")),
                 qPrintable(gui.window()->engineStateText()));
    QCOMPARE(gui.tray()->iconState(), afterwards);
    QCOMPARE(gui.runCounter()->counts().failed, failed);
}

void TestGuiApplication::schedulesPaused_followsTheSettingsBothWays_data()
{
    QTest::addColumn<bool>("fromTheWindow");
    QTest::addColumn<bool>("paused");
    QTest::newRow("settings pause the window") << false << true;
    QTest::newRow("settings resume the window") << false << false;
    QTest::newRow("the window pauses, remembered") << true << true;
    QTest::newRow("the window resumes, remembered") << true << false;
}

void TestGuiApplication::schedulesPaused_followsTheSettingsBothWays()
{
    QFETCH(bool, fromTheWindow);
    QFETCH(bool, paused);
    HG_TEST_STORE(t);
    QFile::remove(iniFile());
    AppSettings settings(iniFile());
    settings.setSchedulesPaused(!paused);
    GuiApplication gui(t.openAnother(QStringLiteral("gui")), settings, test::engineConfig(t));
    QCOMPARE(gui.window()->schedulesPaused(), !paused); // as the last session left it
    if (fromTheWindow)
        gui.window()->setSchedulesPaused(paused);
    else
        settings.setSchedulesPaused(paused);
    QCOMPARE(gui.window()->schedulesPaused(), paused);
    QCOMPARE(settings.schedulesPaused(), paused);
}

void TestGuiApplication::example_isInstalledOnceIntoAnEmptyStore_data()
{
    QTest::addColumn<bool>("emptyStore");
    QTest::addColumn<bool>("offeredBefore");
    QTest::addColumn<bool>("installed");
    QTest::newRow("first start") << true << false << true;
    QTest::newRow("deleted after the first start") << true << true << false;
    QTest::newRow("a store with projects") << false << false << false;
}

void TestGuiApplication::example_isInstalledOnceIntoAnEmptyStore()
{
    QFETCH(bool, emptyStore);
    QFETCH(bool, offeredBefore);
    QFETCH(bool, installed);
    HG_TEST_STORE(t);
    if (!emptyStore)
        test::makeChain(t.store(), QStringLiteral("mine"), QStringLiteral("c"));
    QFile::remove(iniFile());
    AppSettings settings(iniFile());
    settings.setExampleInstalled(offeredBefore);
    GuiApplication::installExampleOnce(t.store(), settings);
    const bool present =
        bool(ProjectRepository(t.store()).byName(QString::fromLatin1(ExampleProject::projectName)));
    QCOMPARE(present, installed);
    QCOMPARE(settings.exampleInstalled(), offeredBefore || installed);
}

QTEST_MAIN(TestGuiApplication)
#include "tst_guiapplication.moc"
