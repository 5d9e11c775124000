#pragma once

#include "settings/appsettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace hg {

class RemoteAccessBox;

// Preferences: store location, daily backups, engine slots, default time zone, notifications,
// close to tray, start at login, remote access (the local API). applyTo() writes what the user
// chose; the settings announce each change to whoever follows them.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    explicit SettingsDialog(const AppSettings &settings, QWidget *parent = nullptr);

    void applyTo(AppSettings &settings) const;
    // The store this window has open (its display name). When it is not the one the Store
    // setting names (--db gave another), a line under the field says so.
    void setStoreInUse(const QString &displayName);

private:
    QString chosenZone() const;

    QLineEdit *m_store;
    QSpinBox *m_dailyBackups;
    QSpinBox *m_slots;
    QComboBox *m_zone;
    QCheckBox *m_notifications;
    QCheckBox *m_closeToTray;
    QLabel *m_desktopNote = nullptr; // shown where desktop notifications cannot be shown
    QLabel *m_storeInUse = nullptr;  // shown when the window's store is not the setting's
    QCheckBox *m_startAtLogin;
    QComboBox *m_colorScheme;
    RemoteAccessBox *m_remoteAccess;
};

} // namespace hg
