#include "settingsdialog.h"

#include "settings/colorscheme.h"
#include "settings/remoteaccessbox.h"
#include "store/storelocation.h"
#include "tray/desktopnotifier.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTimeZone>

namespace hg {

SettingsDialog::SettingsDialog(const AppSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_store(new QLineEdit(settings.storeLocation(), this))
    , m_dailyBackups(new QSpinBox(this))
    , m_slots(new QSpinBox(this))
    , m_zone(new QComboBox(this))
    , m_notifications(new QCheckBox(tr("Show a notification when a run ends, as each chain "
                                       "asks"),
                                    this))
    , m_closeToTray(
          new QCheckBox(tr("Closing the window keeps Hourglass running in the tray"), this))
    , m_startAtLogin(new QCheckBox(tr("Start Hourglass when I log in"), this))
    , m_colorScheme(new QComboBox(this))
    , m_remoteAccess(new RemoteAccessBox(settings, this))
{
    setWindowTitle(tr("Settings"));
    m_store->setObjectName(QStringLiteral("settings.store"));
    m_slots->setObjectName(QStringLiteral("settings.slots"));
    m_zone->setObjectName(QStringLiteral("settings.zone"));
    m_notifications->setObjectName(QStringLiteral("settings.notifications"));
    m_closeToTray->setObjectName(QStringLiteral("settings.closeToTray"));
    // The real path of the default store, not a description of where it might be.
    m_store->setPlaceholderText(StoreLocation::defaultSqlitePath());
    m_store->setToolTip(tr("Empty: the default store, %1").arg(StoreLocation::defaultSqlitePath()));
    m_dailyBackups->setObjectName(QStringLiteral("settings.dailyBackups"));
    m_dailyBackups->setRange(0, 365);
    m_dailyBackups->setSpecialValueText(tr("none"));
    m_dailyBackups->setValue(settings.dailyBackups());
    m_dailyBackups->setToolTip(
        tr("Once a day Hourglass copies a SQLite store beside it (NAME-daily-DATE.db) and keeps "
           "this many of those copies; 0 takes none. A PostgreSQL store is backed up with "
           "pg_dump."));
    m_slots->setRange(0, 1024);
    m_slots->setSpecialValueText(tr("automatic (%1)").arg(AppSettings::automaticSlotCount()));
    m_slots->setValue(settings.slotCount());
    m_zone->addItem(tr("system (%1)").arg(QString::fromUtf8(QTimeZone::systemTimeZoneId())),
                    QString());
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zone->addItem(QString::fromUtf8(id), QString::fromUtf8(id));
    m_zone->setCurrentIndex(std::max(0, m_zone->findData(settings.defaultZone())));
    // Searchable: type any part of a zone's name ("tokyo", "Berlin").
    m_zone->setEditable(true);
    m_zone->setInsertPolicy(QComboBox::NoInsert);
    m_zone->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_zone->completer()->setFilterMode(Qt::MatchContains);
    m_zone->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_zone->lineEdit()->setPlaceholderText(tr("Type to search, e.g. Berlin"));
    m_notifications->setChecked(settings.notifications());
    m_closeToTray->setChecked(settings.closeToTray());
    // Offer only what this desktop has: a tray to keep running in, a way to show notifications.
    if (!QSystemTrayIcon::isSystemTrayAvailable()) {
        m_closeToTray->setChecked(false);
        m_closeToTray->setEnabled(false);
        m_closeToTray->setToolTip(tr("This desktop has no system tray."));
    }
    m_desktopNote = new QLabel(tr("Desktop notifications are not available here: there is no "
                                  "system tray and no notification service on the session bus. "
                                  "The window keeps every notification under Notifications in "
                                  "its status bar."),
                               this);
    m_desktopNote->setObjectName(QStringLiteral("settings.desktopNotificationsMissing"));
    m_desktopNote->setWordWrap(true);
    m_desktopNote->setVisible(!QSystemTrayIcon::isSystemTrayAvailable()
                              && !DesktopNotifier::isAvailable());
    m_startAtLogin->setObjectName(QStringLiteral("settings.startAtLogin"));
    m_startAtLogin->setChecked(settings.startAtLogin());
    m_colorScheme->setObjectName(QStringLiteral("settings.colorScheme"));
    m_colorScheme->addItem(tr("the desktop's colours"), ColorScheme::system());
    m_colorScheme->addItem(tr("light"), ColorScheme::light());
    m_colorScheme->addItem(tr("dark"), ColorScheme::dark());
    m_colorScheme->setCurrentIndex(std::max(0, m_colorScheme->findData(settings.colorScheme())));

    auto *browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Store file"), m_store->text(), tr("SQLite store (*.db *.sqlite)"), nullptr,
            QFileDialog::DontConfirmOverwrite);
        if (!file.isEmpty())
            m_store->setText(file);
    });
    auto *storeRow = new QHBoxLayout;
    storeRow->addWidget(m_store, 1);
    storeRow->addWidget(browse);
    auto *note = new QLabel(tr("A store is a SQLite file or a postgresql:// URL. The store and "
                               "the number of tasks at once take effect at the next start."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);

    m_storeInUse = new QLabel(this);
    m_storeInUse->setObjectName(QStringLiteral("settings.storeInUse"));
    m_storeInUse->setWordWrap(true);
    m_storeInUse->setTextFormat(Qt::PlainText); // a path may look like HTML
    m_storeInUse->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_storeInUse->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Store:"), storeRow);
    form->addRow(QString(), m_storeInUse);
    form->addRow(QString(), note);
    form->addRow(tr("Daily &backups kept:"), m_dailyBackups);
    form->addRow(tr("Tasks at &once:"), m_slots);
    form->addRow(tr("Default time &zone:"), m_zone);
    form->addRow(tr("&Appearance:"), m_colorScheme);
    form->addRow(QString(), m_notifications);
    form->addRow(QString(), m_desktopNote);
    form->addRow(QString(), m_closeToTray);
    form->addRow(QString(), m_startAtLogin);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    // Remote access that cannot be served is not taken: what is wrong stays said in its box.
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_remoteAccess->problem().isEmpty())
            accept();
        else
            m_remoteAccess->setFocus();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_remoteAccess);
    layout->addWidget(buttons);
    resize(620, sizeHint().height());
}

QString SettingsDialog::chosenZone() const
{
    // The typed text decides: a listed entry, or a zone id typed whole; else the last choice.
    const QString typed = m_zone->currentText().trimmed();
    if (const int listed = m_zone->findText(typed); listed >= 0)
        return m_zone->itemData(listed).toString();
    if (QTimeZone::isTimeZoneIdAvailable(typed.toUtf8()))
        return typed;
    return m_zone->currentData().toString();
}

void SettingsDialog::setStoreInUse(const QString &displayName)
{
    const Result<StoreLocation> chosen = StoreLocation::resolve(m_store->text().trimmed());
    const bool other = !chosen || chosen->displayName() != displayName;
    m_storeInUse->setText(tr("This window has %1 open (given with --db); the store above is the "
                             "one Hourglass opens when started without it.")
                              .arg(displayName));
    m_storeInUse->setVisible(other);
}

void SettingsDialog::applyTo(AppSettings &settings) const
{
    settings.setStoreLocation(m_store->text().trimmed());
    settings.setDailyBackups(m_dailyBackups->value());
    settings.setSlotCount(m_slots->value());
    settings.setDefaultZone(chosenZone());
    settings.setNotifications(m_notifications->isChecked());
    if (m_closeToTray->isEnabled()) // kept for a desktop that has a tray
        settings.setCloseToTray(m_closeToTray->isChecked());
    settings.setStartAtLogin(m_startAtLogin->isChecked());
    settings.setColorScheme(m_colorScheme->currentData().toString());
    m_remoteAccess->applyTo(settings);
}

} // namespace hg
