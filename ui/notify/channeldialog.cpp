#include "channeldialog.h"

#include "base/terminaltext.h"
#include "store/notifychannelrepository.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace hg {

ChannelDialog::ChannelDialog(const NotifyChannel &existing, QWidget *parent)
    : QDialog(parent)
    , m_existing(existing)
    , m_name(new QLineEdit(existing.name, this))
    , m_kind(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_smtpUrl(new QLineEdit(this))
    , m_tls(new QComboBox(this))
    , m_ca(new QLineEdit(existing.caFile, this))
    , m_from(new QLineEdit(existing.from, this))
    , m_to(new QLineEdit(existing.to.join(QStringLiteral(", ")), this))
    , m_password(new QLineEdit(this))
    , m_default(
          new QCheckBox(tr("The default e-mail channe&l (crontab MAILTO routes go to it)"), this))
    , m_hookUrl(new QLineEdit(this))
    , m_urlIsSecret(
          new QCheckBox(tr("The URL &is a secret (Slack's and Teams' carry a token)"), this))
    , m_format(new QComboBox(this))
    , m_signingSecret(new QLineEdit(this))
    , m_desktopHost(new QLineEdit(this))
    , m_flood(new QSpinBox(this))
    , m_window(new QSpinBox(this))
    , m_cap(new QSpinBox(this))
    , m_problem(new QLabel(this))
{
    const bool editing = existing.id > 0;
    setWindowTitle(editing ? tr("Channel %1").arg(terminaltext::escaped(existing.name))
                           : tr("Add a channel"));
    setObjectName(QStringLiteral("channelDialog"));
    m_name->setObjectName(QStringLiteral("channel.name"));
    m_kind->setObjectName(QStringLiteral("channel.kind"));
    m_kind->addItem(tr("E-mail (SMTP)"), int(ChannelKind::Email));
    m_kind->addItem(tr("Webhook (HTTP POST)"), int(ChannelKind::Webhook));
    m_kind->addItem(tr("Desktop (the tray of Hourglass's window)"), int(ChannelKind::Desktop));
    m_kind->setCurrentIndex(m_kind->findData(int(existing.kind)));

    // E-mail page
    m_smtpUrl->setObjectName(QStringLiteral("channel.smtpUrl"));
    m_smtpUrl->setPlaceholderText(QStringLiteral("smtp://user@mail.example.org:587"));
    m_tls->setObjectName(QStringLiteral("channel.tls"));
    m_tls->addItem(tr("STARTTLS"), int(SmtpSecurity::StartTls));
    m_tls->addItem(tr("implicit TLS"), int(SmtpSecurity::Implicit));
    m_tls->addItem(tr("none (this machine only)"), int(SmtpSecurity::None));
    m_tls->setCurrentIndex(m_tls->findData(int(existing.security)));
    m_ca->setObjectName(QStringLiteral("channel.ca"));
    m_ca->setPlaceholderText(tr("the system's certificates"));
    m_from->setObjectName(QStringLiteral("channel.from"));
    m_to->setObjectName(QStringLiteral("channel.to"));
    m_to->setPlaceholderText(tr("ops@example.org, dba@example.org"));
    m_password->setObjectName(QStringLiteral("channel.password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("none: no login"));
    m_default->setObjectName(QStringLiteral("channel.default"));
    m_default->setChecked(existing.isDefault);
    auto *mail = new QWidget(m_pages);
    auto *mailForm = new QFormLayout(mail);
    mailForm->setContentsMargins(0, 0, 0, 0);
    mailForm->addRow(tr("Se&rver:"), m_smtpUrl);
    mailForm->addRow(tr("&Encryption:"), m_tls);
    mailForm->addRow(tr("&CA file:"), m_ca);
    mailForm->addRow(tr("&From:"), m_from);
    mailForm->addRow(tr("&To:"), m_to);
    mailForm->addRow(tr("&Password:"), m_password);
    mailForm->addRow(QString(), m_default);
    m_pages->addWidget(mail);

    // Webhook page
    m_hookUrl->setObjectName(QStringLiteral("channel.webhookUrl"));
    m_hookUrl->setPlaceholderText(QStringLiteral("https://hooks.example.org/hourglass"));
    m_urlIsSecret->setObjectName(QStringLiteral("channel.urlIsSecret"));
    connect(m_urlIsSecret, &QCheckBox::toggled, this, [this](bool secret) {
        m_hookUrl->setEchoMode(secret ? QLineEdit::Password : QLineEdit::Normal);
    });
    m_format->setObjectName(QStringLiteral("channel.format"));
    for (const WebhookFormat format :
         {WebhookFormat::Json, WebhookFormat::Slack, WebhookFormat::Discord, WebhookFormat::Teams,
          WebhookFormat::Ntfy})
        m_format->addItem(enumName(format), int(format));
    m_format->setCurrentIndex(m_format->findData(int(existing.format)));
    m_signingSecret->setObjectName(QStringLiteral("channel.secret"));
    m_signingSecret->setEchoMode(QLineEdit::Password);
    m_signingSecret->setPlaceholderText(tr("none: unsigned"));
    auto *hook = new QWidget(m_pages);
    auto *hookForm = new QFormLayout(hook);
    hookForm->setContentsMargins(0, 0, 0, 0);
    hookForm->addRow(tr("&URL:"), m_hookUrl);
    hookForm->addRow(QString(), m_urlIsSecret);
    hookForm->addRow(tr("&Body:"), m_format);
    hookForm->addRow(tr("Si&gning secret:"), m_signingSecret);
    m_pages->addWidget(hook);

    // Desktop page
    m_desktopHost->setObjectName(QStringLiteral("channel.host"));
    m_desktopHost->setPlaceholderText(tr("any desktop of this store"));
    auto *desktop = new QWidget(m_pages);
    auto *desktopForm = new QFormLayout(desktop);
    desktopForm->setContentsMargins(0, 0, 0, 0);
    desktopForm->addRow(tr("Shown on (&host):"), m_desktopHost);
    auto *desktopNote = new QLabel(tr("Shown by the window's engine on that machine; on a shared "
                                      "store, name the host so others' desktops leave it."),
                                   desktop);
    desktopNote->setWordWrap(true);
    desktopNote->setForegroundRole(QPalette::PlaceholderText);
    desktopForm->addRow(desktopNote);
    m_pages->addWidget(desktop);

    if (editing) {
        // Where it goes and its secrets stay as they are: a changed server is a new channel.
        if (!existing.secretKey.isEmpty()) {
            m_password->setPlaceholderText(tr("kept in the keychain"));
            m_signingSecret->setPlaceholderText(tr("kept in the keychain"));
        }
        m_smtpUrl->setText(existing.url);
        m_hookUrl->setText(existing.urlIsSecret ? tr("(kept as a secret)") : existing.url);
        if (existing.kind == ChannelKind::Desktop)
            m_desktopHost->setText(existing.url);
        for (QWidget *fixed : std::initializer_list<QWidget *>{
                 m_name, m_kind, m_smtpUrl, m_tls, m_ca, m_password, m_default, m_hookUrl,
                 m_urlIsSecret, m_format, m_signingSecret, m_desktopHost})
            fixed->setEnabled(false);
    }

    m_flood->setObjectName(QStringLiteral("channel.flood"));
    m_flood->setRange(0, 100000);
    m_flood->setSpecialValueText(tr("no limit"));
    m_flood->setValue(existing.floodLimit);
    m_window->setObjectName(QStringLiteral("channel.floodWindow"));
    m_window->setRange(1, 86400);
    m_window->setSuffix(tr(" s"));
    m_window->setValue(existing.floodWindowSeconds);
    m_cap->setObjectName(QStringLiteral("channel.dailyCap"));
    m_cap->setRange(0, 1000000);
    m_cap->setSpecialValueText(tr("no cap"));
    m_cap->setValue(existing.dailyCap);
    auto *flood = new QFormLayout;
    flood->addRow(tr("At most (&messages):"), m_flood);
    flood->addRow(tr("… in (&window):"), m_window);
    flood->addRow(tr("At most a &day:"), m_cap);
    auto *floodNote = new QLabel(tr("Past either limit, messages wait and one digest tells of "
                                    "them."),
                                 this);
    floodNote->setWordWrap(true);
    floodNote->setForegroundRole(QPalette::PlaceholderText);

    m_problem->setObjectName(QStringLiteral("channel.problem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->hide();

    auto *top = new QFormLayout;
    top->addRow(tr("&Name:"), m_name);
    top->addRow(tr("&Kind:"), m_kind);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(editing ? tr("&Save") : tr("&Add"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ChannelDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ChannelDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_pages);
    layout->addLayout(flood);
    layout->addWidget(floodNote);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ChannelDialog::kindChosen);
    kindChosen();
    resize(std::max(sizeHint().width(), 520), sizeHint().height());
}

void ChannelDialog::kindChosen()
{
    m_pages->setCurrentIndex(m_kind->currentIndex());
}

NotifyChannel ChannelDialog::channel() const
{
    NotifyChannel c = m_existing;
    c.name = m_name->text().trimmed();
    c.kind = ChannelKind(m_kind->currentData().toInt());
    c.floodLimit = m_flood->value();
    c.floodWindowSeconds = m_window->value();
    c.dailyCap = m_cap->value();
    c.to.clear();
    for (const QString &address : m_to->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        c.to << address.trimmed();
    c.to = NotifyChannelRepository::distinctAddresses(c.to);
    if (c.kind == ChannelKind::Email)
        c.from = m_from->text().trimmed();
    if (m_existing.id > 0)
        return c;
    if (c.kind == ChannelKind::Email) {
        c.url = m_smtpUrl->text().trimmed();
        c.security = SmtpSecurity(m_tls->currentData().toInt());
        c.caFile = m_ca->text().trimmed();
        if (!c.caFile.isEmpty())
            c.caFile = QFileInfo(c.caFile).absoluteFilePath(); // serve may run elsewhere
        c.isDefault = m_default->isChecked();
    } else if (c.kind == ChannelKind::Desktop) {
        c.url = m_desktopHost->text().trimmed();
        c.to.clear();
    } else {
        c.urlIsSecret = m_urlIsSecret->isChecked();
        c.url = c.urlIsSecret ? QString() : m_hookUrl->text().trimmed();
        c.format = WebhookFormat(m_format->currentData().toInt());
        c.to.clear();
    }
    return c;
}

QJsonObject ChannelDialog::secrets() const
{
    QJsonObject secrets;
    if (m_existing.id > 0)
        return secrets;
    if (m_kind->currentData().toInt() == int(ChannelKind::Email)) {
        if (!m_password->text().isEmpty())
            secrets.insert(QStringLiteral("password"), m_password->text());
    } else if (m_kind->currentData().toInt() == int(ChannelKind::Webhook)) {
        if (!m_signingSecret->text().isEmpty())
            secrets.insert(QStringLiteral("secret"), m_signingSecret->text());
        if (m_urlIsSecret->isChecked())
            secrets.insert(QStringLiteral("url"), m_hookUrl->text().trimmed());
    }
    return secrets;
}

void ChannelDialog::accept()
{
    const NotifyChannel c = channel();
    Status valid = NotifyChannelRepository::validate(c);
    if (valid && m_existing.id == 0 && m_takenNames.contains(c.name))
        valid = Error::exists(tr("a channel named '%1' exists").arg(c.name));
    // Slack's, Discord's and Teams' URLs carry their token: only as a secret (as add() says).
    if (valid && m_existing.id == 0 && c.kind == ChannelKind::Webhook && !c.urlIsSecret
        && (c.format == WebhookFormat::Slack || c.format == WebhookFormat::Discord
            || c.format == WebhookFormat::Teams))
        valid = Error::invalidField(QStringLiteral("url"), 0,
                                    tr("a %1 webhook's URL is itself a secret (its token is in "
                                       "the path): check 'The URL is a secret'")
                                        .arg(enumName(c.format)));
    if (valid && c.kind == ChannelKind::Webhook && c.urlIsSecret && m_existing.id == 0)
        valid = NotifyChannelRepository::validateWebhookUrl(m_hookUrl->text().trimmed(), true);
    if (valid && c.kind == ChannelKind::Email && m_existing.id == 0 && !m_password->text().isEmpty()
        && QUrl(c.url).userName().isEmpty())
        valid = Error::invalidField(QStringLiteral("url"), 0,
                                    tr("a password needs a user to log in as: "
                                       "smtp://USER@HOST"));
    if (valid && c.kind == ChannelKind::Email && !c.caFile.isEmpty() && m_existing.id == 0) {
        // A regular file only: a FIFO would be opened and waited on for good.
        QFile pem(c.caFile);
        if (!QFileInfo(c.caFile).isFile() || !pem.open(QIODevice::ReadOnly)
            || !pem.read(qint64(64) * 1024).contains("-----BEGIN CERTIFICATE-----"))
            valid = Error::invalidField(
                QStringLiteral("ca"), 0,
                tr("'%1' is not a readable PEM file of certificates").arg(c.caFile));
    }
    if (!valid) {
        // The shared checks speak of the command line's options: here, of this dialog's fields.
        QString why = valid.error().message;
        for (const auto &[option, field] :
             {std::pair(QStringLiteral("--password-stdin"), tr("the Password field")),
              std::pair(QStringLiteral("--secret-url-stdin"), tr("'The URL is a secret'")),
              std::pair(QStringLiteral("--tls none"), tr("Encryption none")),
              std::pair(QStringLiteral("--url"), tr("The URL")),
              std::pair(QStringLiteral("--from"), tr("From")),
              std::pair(QStringLiteral("--to"), tr("To")),
              std::pair(QStringLiteral("--ca"), tr("The CA file")),
              std::pair(QStringLiteral("--host"), tr("Shown on"))})
            why.replace(option, field);
        m_problem->setText(terminaltext::escaped(why));
        m_problem->show();
        return;
    }
    QDialog::accept();
}

} // namespace hg
