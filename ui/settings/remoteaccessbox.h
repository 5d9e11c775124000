#pragma once

#include <QGroupBox>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace hg {

class AppSettings;

// Settings → Remote access: the local API (REST, /metrics, webhooks), off until turned on;
// this machine only unless another address is named, which needs HTTPS (a certificate and
// its key) or plain HTTP chosen knowingly. A problem with what is typed is said below it.
class RemoteAccessBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteAccessBox)

public:
    explicit RemoteAccessBox(const AppSettings &settings, QWidget *parent = nullptr);
    void applyTo(AppSettings &settings) const;
    // Empty when the settings can be served; else what is wrong, in a sentence.
    QString problem() const;

private:
    void check();

    QLineEdit *m_listen = nullptr;
    QLineEdit *m_certificate = nullptr;
    QLineEdit *m_key = nullptr;
    QCheckBox *m_insecure = nullptr;
    QCheckBox *m_metricsOpen = nullptr;
    QLabel *m_problem = nullptr;
};

} // namespace hg
