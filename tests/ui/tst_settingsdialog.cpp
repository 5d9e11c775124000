#include "settings/appsettings.h"
#include "settings/settingsdialog.h"
#include "store/storelocation.h"
#include "tray/desktopnotifier.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;
using Key = AppSettings::Key;

// The Settings dialog shows the settings and writes back only what the user changed, so
// each change is announced once and nothing else is.
class TestSettingsDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void applyTo_writesWhatChanged_data();
    void applyTo_writesWhatChanged();
    void noTray_offersNoTrayAndSaysWhereNotificationsGo();
    void storeGivenWithDb_isSaidBesideTheSetting();
};

void TestSettingsDialog::applyTo_writesWhatChanged_data()
{
    QTest::addColumn<QString>("field"); // the widget's object name; empty: nothing changed
    QTest::addColumn<QVariant>("input");
    QTest::addColumn<QList<Key>>("changed");
    QTest::addColumn<QVariant>("stored");
    QTest::newRow("nothing") << QString() << QVariant() << QList<Key>{} << QVariant();
    QTest::newRow("store, trimmed")
        << QStringLiteral("settings.store") << QVariant(QStringLiteral("  /data/h.db "))
        << QList<Key>{Key::StoreLocation} << QVariant(QStringLiteral("/data/h.db"));
    QTest::newRow("slots") << QStringLiteral("settings.slots") << QVariant(7)
                           << QList<Key>{Key::SlotCount} << QVariant(7);
    QTest::newRow("zone") << QStringLiteral("settings.zone")
                          << QVariant(QStringLiteral("Asia/Tokyo")) << QList<Key>{Key::DefaultZone}
                          << QVariant(QStringLiteral("Asia/Tokyo"));
    QTest::newRow("zone typed, searched")
        << QStringLiteral("settings.zone.typed") << QVariant(QStringLiteral("Europe/Berlin"))
        << QList<Key>{Key::DefaultZone} << QVariant(QStringLiteral("Europe/Berlin"));
    QTest::newRow("dark") << QStringLiteral("settings.colorScheme")
                          << QVariant(QStringLiteral("dark")) << QList<Key>{Key::ColorScheme}
                          << QVariant(QStringLiteral("dark"));
    QTest::newRow("notifications off")
        << QStringLiteral("settings.notifications") << QVariant(false)
        << QList<Key>{Key::Notifications} << QVariant(false);
    // Without a tray (offscreen) the box is not offered and the saved choice is kept.
    if (QSystemTrayIcon::isSystemTrayAvailable())
        QTest::newRow("close to tray off")
            << QStringLiteral("settings.closeToTray") << QVariant(false)
            << QList<Key>{Key::CloseToTray} << QVariant(false);
    else
        QTest::newRow("close to tray, no tray here")
            << QStringLiteral("settings.closeToTray") << QVariant(false) << QList<Key>{}
            << QVariant();
    QTest::newRow("start at login") << QStringLiteral("settings.startAtLogin") << QVariant(true)
                                    << QList<Key>{Key::StartAtLogin} << QVariant(true);
    QTest::newRow("daily backups off") << QStringLiteral("settings.dailyBackups") << QVariant(0)
                                       << QList<Key>{Key::DailyBackups} << QVariant(0);
    QTest::newRow("a month of daily backups")
        << QStringLiteral("settings.dailyBackups") << QVariant(30) << QList<Key>{Key::DailyBackups}
        << QVariant(30);
}

void TestSettingsDialog::applyTo_writesWhatChanged()
{
    QFETCH(QString, field);
    QFETCH(QVariant, input);
    QFETCH(QList<Key>, changed);
    QFETCH(QVariant, stored);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppSettings settings(dir.filePath(QStringLiteral("hourglass.ini")));
    settings.setSchedulesPaused(true); // not the dialog's: must stay
    SettingsDialog dialog(settings);
    if (field == QLatin1String("settings.zone.typed")) // typed into the searchable zone box
        dialog.findChild<QComboBox *>(QStringLiteral("settings.zone"))
            ->setEditText(input.toString());
    else if (auto *line = dialog.findChild<QLineEdit *>(field))
        line->setText(input.toString());
    else if (auto *spin = dialog.findChild<QSpinBox *>(field))
        spin->setValue(input.toInt());
    else if (auto *combo = dialog.findChild<QComboBox *>(field))
        combo->setCurrentIndex(combo->findData(input));
    else if (auto *check = dialog.findChild<QCheckBox *>(field))
        check->setChecked(input.toBool());
    else
        QVERIFY2(field.isEmpty(), qPrintable(field));

    QSignalSpy spy(&settings, &AppSettings::changed);
    dialog.applyTo(settings);
    QList<Key> keys;
    for (const QList<QVariant> &arguments : spy)
        keys << arguments.at(0).value<Key>();
    QCOMPARE(keys, changed);
    if (!changed.isEmpty())
        QCOMPARE(settings.value(changed.constFirst()), stored);
    QVERIFY(settings.schedulesPaused());
}

// A desktop without a tray (here: offscreen) and, where the session bus has none, without a
// notification service: Settings does not offer the tray, and says where notifications go.
void TestSettingsDialog::noTray_offersNoTrayAndSaysWhereNotificationsGo()
{
    if (QSystemTrayIcon::isSystemTrayAvailable())
        QSKIP("this platform has a tray; the test is for one without");
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("hourglass.ini")));
    SettingsDialog dialog(settings);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *closeToTray = dialog.findChild<QCheckBox *>(QStringLiteral("settings.closeToTray"));
    QVERIFY(!closeToTray->isEnabled());
    QVERIFY(!closeToTray->isChecked());
    auto *note = dialog.findChild<QLabel *>(QStringLiteral("settings.desktopNotificationsMissing"));
    QVERIFY(note);
    QCOMPARE(note->isVisible(), !DesktopNotifier::isAvailable());
    if (note->isVisible())
        QVERIFY2(note->text().contains(QLatin1String("status bar")), qPrintable(note->text()));
}

QTEST_MAIN(TestSettingsDialog)
// Settings showed the default store while the window had another open (--db; helper-13).
void TestSettingsDialog::storeGivenWithDb_isSaidBesideTheSetting()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppSettings settings(dir.filePath(QStringLiteral("hourglass.ini")));
    SettingsDialog dialog(settings);
    auto *inUse = dialog.findChild<QLabel *>(QStringLiteral("settings.storeInUse"));
    QVERIFY(inUse);
    const QString other = dir.filePath(QStringLiteral("other.db"));
    dialog.setStoreInUse(other);
    QVERIFY(inUse->isVisibleTo(&dialog));
    QVERIFY2(inUse->text().contains(other), qPrintable(inUse->text()));
    dialog.setStoreInUse(StoreLocation::resolve(QString())->displayName());
    QVERIFY(!inUse->isVisibleTo(&dialog));
}

#include "tst_settingsdialog.moc"
