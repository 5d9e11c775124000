#include "fixtures.h"
#include "runcounter.h"
#include "settings/xdgautostart.h"
#include "statementrecorder.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "storereader.h"
#include "testservers.h"
#include "teststore.h"
#include "tray/traycontroller.h"
#include "window/notificationbell.h"

#include <QMenu>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace hg;

// Tray notifications by each chain's policy, the tray icon's state, and start at login.
class TestTray final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void notifications_followTheChainsPolicy();
    void notifications_withAReaderReadNothingOnTheWindowsConnection();
    void iconState_followsTheRuns();
    void storeAwayLongerThanTheNotice_isToldThenBack();
    void autostart_writesAndRemovesAValidDesktopEntry();
    void bell_keepsNotificationsUntilSeenAndOpensTheirRun();

private:
    static Run finishedRun(Store &store, qint64 chainId, RunState state);
};

Run TestTray::finishedRun(Store &store, qint64 chainId, RunState state)
{
    const Run run = test::queueRun(store, chainId);
    const Status set =
        RunRepository(store).setState(run.id, state, QDateTime::currentDateTimeUtc());
    if (!set)
        qWarning() << set.error().message;
    return RunRepository(store).byId(run.id).value();
}

void TestTray::notifications_followTheChainsPolicy()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("backup"));
    TrayController tray(t.store());
    QSignalSpy notified(&tray, &TrayController::notified);

    // failure (the default): failures, and the first success after one.
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::Succeeded));
    QCOMPARE(notified.count(), 0);
    const Run failed = finishedRun(t.store(), chain.id, RunState::Failed);
    tray.applyRun(failed);
    QCOMPARE(notified.count(), 1);
    QCOMPARE(notified.at(0).at(0).toString(), QStringLiteral("ops/backup failed"));
    QCOMPARE(notified.at(0).at(2).toLongLong(), failed.id);
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::Succeeded));
    QCOMPARE(notified.count(), 2);
    QCOMPARE(notified.at(1).at(0).toString(), QStringLiteral("ops/backup recovered"));
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::Succeeded));
    QCOMPARE(notified.count(), 2);

    chain.notify = NotifyPolicy::None;
    QVERIFY(ChainRepository(t.store()).update(chain));
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::Failed));
    QCOMPARE(notified.count(), 2);

    chain.notify = NotifyPolicy::Success;
    QVERIFY(ChainRepository(t.store()).update(chain));
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::TimedOut));
    QCOMPARE(notified.count(), 2);
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::Succeeded));
    QCOMPARE(notified.count(), 3);
    QCOMPARE(notified.at(2).at(0).toString(), QStringLiteral("ops/backup recovered"));

    chain.notify = NotifyPolicy::All;
    QVERIFY(ChainRepository(t.store()).update(chain));
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::TimedOut));
    QCOMPARE(notified.count(), 4);
    QVERIFY(notified.at(3).at(1).toString().contains(QLatin1String("timed out")));
    // A cancelled run is neither a failure nor a success.
    tray.applyRun(finishedRun(t.store(), chain.id, RunState::Cancelled));
    QCOMPARE(notified.count(), 4);
}

// In the application the tray decides on the window's reader thread: runs ending by the
// dozen on a store across a network held the window three round trips each.
void TestTray::notifications_withAReaderReadNothingOnTheWindowsConnection()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("backup"));
    StoreReader reader(t.store().location(), true);
    TrayController tray(t.store());
    tray.setReader(&reader);
    QSignalSpy notified(&tray, &TrayController::notified);
    const Run failed = finishedRun(t.store(), chain.id, RunState::Failed);
    const Run recovered = finishedRun(t.store(), chain.id, RunState::Succeeded);
    const Run quiet = finishedRun(t.store(), chain.id, RunState::Succeeded);
    const test::StatementRecorder onTheWindows(t.store());
    for (const Run &run : {failed, recovered, quiet})
        tray.applyRun(run);
    QTRY_COMPARE(notified.size(), 2);
    QCOMPARE(notified.at(0).at(0).toString(), QStringLiteral("ops/backup failed"));
    QCOMPARE(notified.at(1).at(0).toString(), QStringLiteral("ops/backup recovered"));
    QCOMPARE(onTheWindows.statements(), QStringList());
    // The third read done, its answer (queued before the reader counted it done) delivered:
    // no third notification.
    QTRY_COMPARE(reader.pending(), 0);
    QCoreApplication::processEvents();
    QCOMPARE(notified.size(), 2);
}

void TestTray::iconState_followsTheRuns()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("c"));
    TrayController tray(t.store());
    // The icon shows the run counter's counts, as wired by the application.
    RunCounter counter;
    connect(&counter, &RunCounter::countsChanged, &tray, &TrayController::applyCounts);
    const auto apply = [&](const Run &changed) {
        counter.applyRun(changed);
        tray.applyRun(changed);
    };
    QCOMPARE(tray.iconState(), TrayController::IconState::Idle);
    Run run = test::queueRun(t.store(), chain.id);
    run.state = RunState::Running;
    apply(run);
    QCOMPARE(tray.iconState(), TrayController::IconState::Running);
    run.state = RunState::Failed;
    apply(run);
    QCOMPARE(tray.iconState(), TrayController::IconState::Failed);
    Run next = test::queueRun(t.store(), chain.id);
    next.state = RunState::Succeeded;
    apply(next);
    QCOMPARE(tray.iconState(), TrayController::IconState::Idle);
}

void TestTray::storeAwayLongerThanTheNotice_isToldThenBack()
{
    HG_TEST_STORE(t);
    TrayController tray(t.store());
    tray.setStoreLostNoticeAfter(200);
    QStringList told;
    connect(&tray, &TrayController::notified, this,
            [&told](const QString &title, const QString &, qint64) { told << title; });
    // Away and back before the notice: nothing said.
    tray.setStoreLost(QDateTime::currentMSecsSinceEpoch());
    tray.setStoreLost(-1);
    // Away for longer: said once, then that it is back.
    tray.setStoreLost(QDateTime::currentMSecsSinceEpoch());
    tray.setStoreLost(QDateTime::currentMSecsSinceEpoch()); // the engine says it again
    QTRY_COMPARE(told, QStringList{QStringLiteral("The store is unreachable")});
    tray.setStoreLost(-1);
    QCOMPARE(told, (QStringList{QStringLiteral("The store is unreachable"),
                                QStringLiteral("The store is back")}));
}

// Where no notification service runs, a desktop notification is lost; the window's bell
// keeps each one (newest first, unread counted) until seen, and opens its run.
void TestTray::bell_keepsNotificationsUntilSeenAndOpensTheirRun()
{
    NotificationBell bell;
    QCOMPARE(bell.text(), QStringLiteral("Notifications"));
    bell.add(QStringLiteral("ops/backup failed"), QStringLiteral("exit code 2"), 7);
    bell.add(QStringLiteral("ops/report succeeded"), QString(), 8);
    QCOMPARE(bell.unread(), 2);
    QCOMPARE(bell.text(), QStringLiteral("Notifications (2)"));
    QVERIFY(bell.font().bold());
    QVERIFY2(bell.accessibleName().contains(QLatin1String("2 not seen")),
             qPrintable(bell.accessibleName()));
    QSignalSpy opened(&bell, &NotificationBell::runRequested);
    bell.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bell));
    QTimer::singleShot(0, &bell, [&bell] { // once the menu is up: it was filled and seen
        QMenu *menu = bell.menu();
        QVERIFY(menu->isVisible());
        QCOMPARE(bell.unread(), 0);
        const QList<QAction *> actions = menu->actions();
        QVERIFY(actions.size() >= 2);
        QVERIFY2(actions.at(0)->text().contains(QLatin1String("ops/report succeeded")),
                 qPrintable(actions.at(0)->text())); // newest first
        actions.at(1)->trigger();
        menu->close();
    });
    bell.showMenu(); // modal until closed above
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.at(0).at(0).toLongLong(), 7);
    QCOMPARE(bell.text(), QStringLiteral("Notifications"));
    for (int i = 0; i < NotificationBell::kept + 5; ++i)
        bell.add(QStringLiteral("n%1").arg(i), QString(), i + 1);
    QCOMPARE(bell.entries().size(), NotificationBell::kept); // the oldest go
    QCOMPARE(bell.entries().first().title, QStringLiteral("n%1").arg(NotificationBell::kept + 4));
}

void TestTray::autostart_writesAndRemovesAValidDesktopEntry()
{
    QTemporaryDir config;
    QVERIFY(config.isValid());
    qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
    QVERIFY(XdgAutostart::entryPath().startsWith(config.path()));
    QVERIFY(!XdgAutostart::isEnabled());
    QVERIFY(XdgAutostart::setEnabled(true, QStringLiteral("/opt/my \"apps\"/hourglass")));
    QVERIFY(XdgAutostart::isEnabled());
    QFile entry(XdgAutostart::entryPath());
    QVERIFY(entry.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(entry.readAll());
    QVERIFY2(text.contains(QLatin1String("Exec=\"/opt/my \\\"apps\\\"/hourglass\" --minimized")),
             qPrintable(text));
    const QString validator =
        QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
    if (!validator.isEmpty()) {
        QProcess check;
        check.start(validator, {XdgAutostart::entryPath()});
        QVERIFY(check.waitForFinished(10000));
        QVERIFY2(check.exitCode() == 0, check.readAllStandardOutput().constData());
    }
    QVERIFY(XdgAutostart::setEnabled(false, QString()));
    QVERIFY(!XdgAutostart::isEnabled());
    // Last, so that only the validation goes unchecked where the validator is missing.
    HG_REQUIRE_PART(!validator.isEmpty(),
                    "desktop-file-validate is not installed (Debian "
                    "package desktop-file-utils): the entry went unvalidated");
}

QTEST_MAIN(TestTray)
#include "tst_tray.moc"
