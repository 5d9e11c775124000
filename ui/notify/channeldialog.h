#pragma once

#include "domain/notification.h"

#include <QDialog>
#include <QJsonObject>
#include <QSet>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace hg {

// Adds a notification channel, or changes one: an e-mail server (its URL, TLS, CA file,
// sender, recipients, password) or a webhook (its URL, body format, signing secret, or a URL
// that is itself a secret), and its flood control. Secrets are typed masked and returned
// apart (secrets()), for the caller to keep in the keychain; a channel being changed shows
// only its flood control and recipients as editable (its secrets stay as they are).
class ChannelDialog final : public QDialog
{
    Q_OBJECT

public:
    // `existing`: the channel to change; a new one when its id is 0.
    explicit ChannelDialog(const NotifyChannel &existing, QWidget *parent = nullptr);

    NotifyChannel channel() const;
    // The secrets typed (empty for a channel being changed): password, secret or url.
    QJsonObject secrets() const;

    // Names of the channels there are: a new one may not take one (said here, where what was
    // typed stays, rather than after the dialog closed).
    void setTakenNames(const QSet<QString> &names) { m_takenNames = names; }

    void accept() override;

private:
    void kindChosen();

    NotifyChannel m_existing;
    QSet<QString> m_takenNames;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    // E-mail
    QLineEdit *m_smtpUrl;
    QComboBox *m_tls;
    QLineEdit *m_ca;
    QLineEdit *m_from;
    QLineEdit *m_to;
    QLineEdit *m_password;
    QCheckBox *m_default;
    // Webhook
    QLineEdit *m_hookUrl;
    QCheckBox *m_urlIsSecret;
    QComboBox *m_format;
    QLineEdit *m_signingSecret;
    QLineEdit *m_desktopHost;
    // Flood control
    QSpinBox *m_flood;
    QSpinBox *m_window;
    QSpinBox *m_cap;
    QLabel *m_problem;
};

} // namespace hg
