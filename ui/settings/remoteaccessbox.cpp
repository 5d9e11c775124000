#include "remoteaccessbox.h"

#include "api/apiserver.h"
#include "settings/appsettings.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace hg {
namespace {

// The edit with its Browse button beside it; the button is returned in `button`.
QWidget *withBrowse(QLineEdit *edit, const QString &title, QWidget *parent, QWidget *&button)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *browse = new QPushButton(RemoteAccessBox::tr("Browse…"), row);
    browse->setAccessibleName(title);
    QObject::connect(browse, &QPushButton::clicked, edit, [edit, title] {
        const QString file = QFileDialog::getOpenFileName(
            edit, title, edit->text(),
            RemoteAccessBox::tr("PEM files (*.pem *.crt *.key);;All files (*)"));
        if (!file.isEmpty())
            edit->setText(file);
    });
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    button = browse;
    return row;
}

} // namespace

RemoteAccessBox::RemoteAccessBox(const AppSettings &settings, QWidget *parent)
    : QGroupBox(tr("Remote &access: serve the local API (REST, /metrics, webhooks)"), parent)
    , m_listen(new QLineEdit(settings.apiListen(), this))
    , m_certificate(new QLineEdit(settings.apiCertificate(), this))
    , m_key(new QLineEdit(settings.apiKey(), this))
    , m_insecure(new QCheckBox(tr("Allow plain HTTP on an address other machines reach "
                                  "(tokens cross the network unencrypted)"),
                               this))
    , m_metricsOpen(new QCheckBox(tr("Programs on this computer may read /metrics without a "
                                     "token"),
                                  this))
    , m_problem(new QLabel(this))
{
    setObjectName(QStringLiteral("settings.remoteAccess"));
    setCheckable(true);
    setChecked(settings.apiEnabled());
    m_listen->setObjectName(QStringLiteral("settings.apiListen"));
    m_listen->setPlaceholderText(QStringLiteral("127.0.0.1:8080"));
    m_listen->setToolTip(tr("ADDRESS:PORT. 127.0.0.1 is this computer only; 0.0.0.0 or a "
                            "network address lets other machines in."));
    m_certificate->setObjectName(QStringLiteral("settings.apiCertificate"));
    m_certificate->setPlaceholderText(tr("none: plain HTTP"));
    m_key->setObjectName(QStringLiteral("settings.apiKey"));
    m_key->setPlaceholderText(tr("none"));
    m_insecure->setObjectName(QStringLiteral("settings.apiInsecure"));
    m_insecure->setChecked(settings.apiInsecure());
    m_metricsOpen->setObjectName(QStringLiteral("settings.apiMetricsOpen"));
    m_metricsOpen->setChecked(settings.apiMetricsOpen());
    m_problem->setObjectName(QStringLiteral("settings.apiProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    auto *note = new QLabel(tr("Scripts call it with a token: hourglass token add NAME --role "
                               "read|operate|admin. It takes effect when you press OK."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Listen on:"), m_listen);
    QWidget *certificateBrowse = nullptr;
    QWidget *keyBrowse = nullptr;
    form->addRow(tr("HTTPS &certificate:"),
                 withBrowse(m_certificate, tr("Certificate"), this, certificateBrowse));
    form->addRow(tr("HTTPS &key:"), withBrowse(m_key, tr("Private key"), this, keyBrowse));
    form->addRow(QString(), m_insecure);
    form->addRow(QString(), m_metricsOpen);
    form->addRow(QString(), m_problem);
    form->addRow(QString(), note);
    // Tab goes down the form, each Browse right after its field.
    setTabOrder(m_listen, m_certificate);
    setTabOrder(m_certificate, certificateBrowse);
    setTabOrder(certificateBrowse, m_key);
    setTabOrder(m_key, keyBrowse);
    setTabOrder(keyBrowse, m_insecure);
    setTabOrder(m_insecure, m_metricsOpen);
    for (QLineEdit *edit : {m_listen, m_certificate, m_key})
        connect(edit, &QLineEdit::textChanged, this, &RemoteAccessBox::check);
    connect(m_insecure, &QCheckBox::toggled, this, &RemoteAccessBox::check);
    connect(this, &QGroupBox::toggled, this, &RemoteAccessBox::check);
    check();
}

QString RemoteAccessBox::problem() const
{
    if (!isChecked())
        return {};
    const QString listen = m_listen->text().trimmed();
    const auto parsed =
        ApiServer::parseListen(listen.isEmpty() ? m_listen->placeholderText() : listen);
    if (!parsed)
        return parsed.error().message;
    const bool tls = !m_certificate->text().trimmed().isEmpty();
    if (tls != !m_key->text().trimmed().isEmpty())
        return tr("HTTPS needs both a certificate and its key.");
    if (!parsed->first.isLoopback() && !tls && !m_insecure->isChecked())
        return tr("%1 is reachable from other machines: give a certificate and key for HTTPS, "
                  "or allow plain HTTP.")
            .arg(parsed->first.toString());
    return {};
}

void RemoteAccessBox::check()
{
    const QString text = problem();
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
}

void RemoteAccessBox::applyTo(AppSettings &settings) const
{
    settings.setApiListen(m_listen->text().trimmed().isEmpty() ? m_listen->placeholderText()
                                                               : m_listen->text().trimmed());
    settings.setApiCertificate(m_certificate->text().trimmed());
    settings.setApiKey(m_key->text().trimmed());
    settings.setApiInsecure(m_insecure->isChecked());
    settings.setApiMetricsOpen(m_metricsOpen->isChecked());
    // Last: whoever follows it reads the rest already changed.
    settings.setApiEnabled(isChecked());
}

} // namespace hg
