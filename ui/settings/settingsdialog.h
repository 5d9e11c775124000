#pragma once

#include "settings/appsettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace hg {

// Preferences: store location, engine slots, default time zone, notifications, close to
// tray, start at login. settings() is what the user chose; the caller saves and applies it.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    explicit SettingsDialog(const AppSettings &settings, QWidget *parent = nullptr);

    AppSettings settings() const;

private:
    AppSettings m_original;
    QLineEdit *m_store;
    QSpinBox *m_slots;
    QComboBox *m_zone;
    QCheckBox *m_notifications;
    QCheckBox *m_closeToTray;
    QCheckBox *m_startAtLogin;
};

} // namespace hg
