#include "connectiondialog.h"

#include "base/waitingworkpool.h"
#include "common/letterwidth.h"
#include "domain/connectionurl.h"
#include "remote/connectionsecrets.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "store/connectionprofilerepository.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QtConcurrent>

#include <memory>

namespace hg {

ConnectionDialog::ConnectionDialog(Store &store, const QString &existing, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
{
    setWindowTitle(existing.isEmpty() ? tr("Add connection") : tr("Edit connection"));
    auto *form = new QFormLayout(this);
    m_name = new QLineEdit(this);
    m_kind = new QComboBox(this);
    for (const ConnectionKind kind :
         {ConnectionKind::PgTimetable, ConnectionKind::DolphinScheduler, ConnectionKind::PgAgent,
          ConnectionKind::PostgreSql, ConnectionKind::MySql})
        m_kind->addItem(enumName(kind), int(kind));
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(QStringLiteral("postgresql://user@host:5432/database"));
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(existing.isEmpty() ? tr("kept in the OS keychain")
                                                      : tr("unchanged"));
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("connection.result"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("&Password:"), m_password);
    form->addRow(m_result);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    m_test = buttons->addButton(tr("&Test"), QDialogButtonBox::ActionRole);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_test, &QPushButton::clicked, this, &ConnectionDialog::test);
    // Room for a URL and a server's answer: the Test result was cut mid-sentence (issue 34).
    setMinimumWidth(letterWidth(fontMetrics()) * 72);

    if (!existing.isEmpty()) {
        if (const Result<ConnectionProfile> profile =
                ConnectionProfileRepository(m_store).byName(existing)) {
            m_original = profile.value();
            m_name->setText(m_original.name);
            m_kind->setCurrentIndex(m_kind->findData(int(m_original.kind)));
            m_url->setText(ConnectionUrl::format(m_original));
        }
    }
}

QString ConnectionDialog::resultText() const
{
    return m_result->text();
}

void ConnectionDialog::showResult(const QString &text, bool error)
{
    m_result->setText(text);
    m_result->setStyleSheet(error ? QStringLiteral("color: palette(highlight);") : QString());
    // Taller for a longer answer, never cut: a shown dialog does not grow by itself.
    if (QLayout *form = layout())
        form->activate();
    resize(width(), std::max(height(), sizeHint().height()));
}

bool ConnectionDialog::profileFromFields(ConnectionProfile &profile)
{
    const auto kind = ConnectionKind(m_kind->currentData().toInt());
    const Result<ConnectionProfile> parsed =
        ConnectionUrl::parse(m_name->text().trimmed(), kind, m_url->text());
    if (!parsed) {
        showResult(parsed.error().message, true);
        return false;
    }
    profile = parsed.value();
    profile.id = m_original.id;
    profile.keychainKey = m_original.keychainKey;
    return true;
}

void ConnectionDialog::test()
{
    ConnectionProfile profile;
    if (!profileFromFields(profile))
        return;
    showResult(tr("Connecting…"), false);
    m_testing = true;
    m_test->setEnabled(false);
    const QString typed = m_password->text();
    // Off the GUI thread: a host that does not answer costs the timeout there, not here.
    auto *watcher = new QFutureWatcher<std::shared_ptr<Result<RemoteInfo>>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, profile] {
        watcher->deleteLater();
        const Result<RemoteInfo> &info = *watcher->result();
        m_testing = false;
        m_test->setEnabled(true);
        if (info)
            showResult(info->summary(profile), info->readOnly);
        else
            showResult(info.error().message, true);
    });
    watcher->setFuture(QtConcurrent::run(waitingWorkPool(), [profile, typed] {
        QString password = typed;
        if (password.isEmpty()) {
            const Result<QString> kept = ConnectionSecrets().lookup(profile);
            if (!kept)
                return std::make_shared<Result<RemoteInfo>>(kept.error());
            password = kept.value();
        }
        Result<std::unique_ptr<RemoteDatabase>> remote = RemoteDatabase::open(profile, password);
        if (!remote)
            return std::make_shared<Result<RemoteInfo>>(remote.error());
        return std::make_shared<Result<RemoteInfo>>(RemoteProbe::inspect(*remote.value()));
    }));
}

void ConnectionDialog::save()
{
    ConnectionProfile profile;
    if (!profileFromFields(profile))
        return;
    // A taken name is refused before a password is kept under it.
    if (profile.name != m_original.name
        && ConnectionProfileRepository(m_store).byName(profile.name)) {
        showResult(tr("A connection named '%1' exists already.").arg(profile.name), true);
        return;
    }
    if (!m_password->text().isEmpty()) {
        const Result<QString> kept = ConnectionSecrets().store(profile, m_password->text());
        if (!kept) {
            showResult(kept.error().message, true);
            return;
        }
    }
    ConnectionProfileRepository repository(m_store);
    Status saved;
    if (m_original.id > 0) {
        saved = repository.update(profile);
    } else if (const Result<ConnectionProfile> added = repository.add(profile); !added) {
        saved = added.error();
    }
    if (!saved) {
        showResult(saved.error().message, true);
        return;
    }
    accept();
}

} // namespace hg
