#include "backendtests.h"
#include "base/epochtime.h"
#include "dailybackupkeeper.h"
#include "fixtures.h"
#include "guiapplication.h"
#include "projecttreemodel.h"
#include "runcounter.h"
#include "scheduler/enginehost.h"
#include "scheduler/runcontrol.h"
#include "settings/appsettings.h"
#include "store/dailybackups.h"
#include "store/enginesessionrepository.h"
#include "store/exampleproject.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/storerestore.h"
#include "storedamage.h"
#include "testservers.h"
#include "teststore.h"
#include "tray/traycontroller.h"
#include "window/mainwindow.h"
#include "window/storebanner.h"
#include "window/storefileactions.h"

#include <QAction>
#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace hg;

// The desktop application as the composition root builds it: one run counter behind the
// status bar and the tray, the window following the settings, the example project once.
class TestGuiApplication final : public QObject
{
    Q_OBJECT
    // Functions for one backend only: not run (nor skipped) on the other.
    Q_CLASSINFO("sqliteOnly",
                "damagedStore_opensReadOnlyWithTheDamageOnTop, engineElsewhere_theBannerNamesIt, "
                "dailyBackup_isTakenAtStartAndFollowsTheSetting")

private Q_SLOTS:
    void oneCounter_feedsTheStatusBarAndTheTray_data();
    void oneCounter_feedsTheStatusBarAndTheTray();
    void schedulesPaused_followsTheSettingsBothWays_data();
    void schedulesPaused_followsTheSettingsBothWays();
    void example_isInstalledOnceIntoAnEmptyStore_data();
    void example_isInstalledOnceIntoAnEmptyStore();
    void damagedStore_opensReadOnlyWithTheDamageOnTop();
    void engineElsewhere_theBannerNamesIt();
    void dailyBackup_isTakenAtStartAndFollowsTheSetting();

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
    QCOMPARE(GuiApplication::installExampleOnce(t.store(), settings), installed);
    const bool present =
        bool(ProjectRepository(t.store()).byName(QString::fromLatin1(ExampleProject::projectName)));
    QCOMPARE(present, installed);
    QCOMPARE(settings.exampleInstalled(), offeredBefore || installed);
}

void TestGuiApplication::damagedStore_opensReadOnlyWithTheDamageOnTop()
{
    HG_TEST_STORE(t);
    const Chain chain =
        test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("nightly"));
    {
        QSqlQuery fill(t.store().database());
        QVERIFY(fill.exec(
            QStringLiteral(
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999) "
                "INSERT INTO run (chain_id, trigger, scheduled_for, state, created_at) SELECT %1, "
                "'manual', n.i, 'succeeded', 0 FROM n")
                .arg(chain.id)));
    }
    t.close();
    const QString path = t.location().sqlitePath();
    QCOMPARE(test::damageTablePage(path, QStringLiteral("run")), QString());
    const QByteArray before = test::storeFilesHash(path);
    const QString exported = m_dir.filePath(QStringLiteral("rescue.json"));
    {
        Store::Options options;
        options.readOnlyWhenDamaged = true;
        Result<std::unique_ptr<Store>> store =
            Store::open(t.location(), QStringLiteral("gui"), options);
        QVERIFY(store);
        QFile::remove(iniFile());
        AppSettings settings(iniFile());
        GuiApplication gui(std::move(store.value()), settings, test::engineConfig(t));
        QSignalSpy started(gui.engine(), &EngineHost::started);
        QSignalSpy failed(gui.engine(), &EngineHost::startFailed);
        gui.start(false);
        QVERIFY(QTest::qWaitForWindowExposed(gui.window()));
        // The damage on top: the file, what SQLite found, and the two ways out.
        StoreBanner *banner = gui.window()->storeBanner();
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(path), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QLatin1String("On tree page 19")),
                 qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QLatin1String("read-only")), qPrintable(banner->text()));
        QVERIFY(banner->exportButton()->isVisible());
        QVERIFY(banner->restoreButton()->isVisible());
        QVERIFY(gui.window()->storeFileActions()->restoreAction()->isEnabled());
        // Nothing runs on it and nothing copies it.
        QVERIFY2(gui.window()->engineStateText().contains(QLatin1String("read-only")),
                 qPrintable(gui.window()->engineStateText()));
        QTest::qWait(200);
        QCOMPARE(started.size() + failed.size(), 0); // the engine was not even asked to start
        QCOMPARE(gui.backups(), nullptr);
        // What the damage spares is shown and can be exported.
        QCOMPARE(gui.window()->treeModel()->rowCount(), 1);
        const Result<QStringList> saved = gui.window()->storeFileActions()->exportTo(exported);
        QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().message));
    }
    QFile document(exported);
    QVERIFY(document.open(QIODevice::ReadOnly));
    QVERIFY(document.readAll().contains("nightly"));
    QCOMPARE(test::storeFilesHash(path), before); // never written, not even on close
}

void TestGuiApplication::engineElsewhere_theBannerNamesIt()
{
    HG_TEST_STORE(t);
    const Chain chain =
        test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("nightly"));
    // `hourglass serve` elsewhere on this machine, as its session row says (this very
    // process stands in for it: alive, with a command line of its own).
    EngineSession serving;
    serving.name = QStringLiteral("serve-elsewhere");
    serving.host = QSysInfo::machineHostName();
    serving.pid = QCoreApplication::applicationPid();
    const QDateTime since = QDateTime::currentDateTimeUtc().addSecs(-300);
    serving.leaseUntil = since.addSecs(3600);
    QVERIFY(EngineSessionRepository(t.store()).acquire(serving, since));
    QFile::remove(iniFile());
    AppSettings settings(iniFile());
    GuiApplication gui(t.openAnother(QStringLiteral("gui")), settings, test::engineConfig(t));
    gui.start(false);
    QVERIFY(QTest::qWaitForWindowExposed(gui.window()));
    StoreBanner *banner = gui.window()->storeBanner();
    QTRY_VERIFY(banner->isVisible());
    const QString text = banner->text();
    QVERIFY2(text.contains(QLatin1String("Another engine already serves")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("'serve-elsewhere', pid %1 on %2 (tst_guiapplication")
                               .arg(serving.pid)
                               .arg(serving.host)),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("serving since ")
                           + since.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))),
             qPrintable(text));
    QVERIFY(!banner->exportButton()->isVisible());
    QVERIFY(gui.window()->engineStateText().contains(QLatin1String("not running here")));

    // The window still queues runs, for the engine that serves the store: Ctrl+R on a chain.
    QTreeView *tree = gui.window()->projectTree();
    QModelIndex chainIndex;
    QTRY_VERIFY((chainIndex = tree->model()->index(0, 0, tree->model()->index(0, 0))).isValid());
    tree->setCurrentIndex(chainIndex);
    QTest::keyClick(gui.window(), Qt::Key_R, Qt::ControlModifier);
    const auto runs = [&t] {
        const Result<QList<Run>> listed = RunRepository(t.store()).list(RunFilter());
        return listed ? listed.value() : QList<Run>();
    };
    QTRY_COMPARE(runs().size(), 1);
    QCOMPARE(runs().first().state, RunState::Queued);
    QCOMPARE(runs().first().chainId, chain.id);
}

void TestGuiApplication::dailyBackup_isTakenAtStartAndFollowsTheSetting()
{
    HG_TEST_STORE(t);
    test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("nightly"));
    const QString today = DailyBackups::pathFor(t.location(), QDate::currentDate());
    QFile::remove(iniFile());
    AppSettings settings(iniFile());
    settings.setDailyBackups(0);
    GuiApplication gui(t.openAnother(QStringLiteral("gui")), settings, test::engineConfig(t));
    gui.start(false);
    QVERIFY(gui.backups());
    QTest::qWait(200);
    QVERIFY(!QFileInfo::exists(today)); // off
    QSignalSpy taken(gui.backups(), &DailyBackupKeeper::backupTaken);
    settings.setDailyBackups(3); // turned on: today's is taken at once
    QTRY_COMPARE(taken.size(), 1);
    QCOMPARE(taken.first().first().toString(), today);
    QVERIFY(StoreRestore::check(today));
    // The first backup of a store is not announced: a new store greeted its user with it.
    QVERIFY2(!gui.window()->statusBar()->currentMessage().contains(QLatin1String("backup")),
             qPrintable(gui.window()->statusBar()->currentMessage()));
    QVERIFY(!gui.backups()->backUpIfDue()); // once a day
}

HG_BACKEND_TEST_MAIN(TestGuiApplication)
#include "tst_guiapplication.moc"
