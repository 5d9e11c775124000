#include "routedialog.h"

#include "base/terminaltext.h"
#include "store/notifychannelrepository.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hg {

RouteDialog::RouteDialog(const QList<Scope> &scopes, const QList<NotifyChannel> &channels,
                         const QString &chosenScope, QWidget *parent)
    : QDialog(parent)
    , m_scopes(scopes)
    , m_channels(channels)
    , m_scope(new QComboBox(this))
    , m_channel(new QComboBox(this))
    , m_to(new QLineEdit(this))
    , m_problem(new QLabel(this))
{
    setWindowTitle(tr("Add a notification route"));
    setObjectName(QStringLiteral("routeDialog"));
    m_scope->setObjectName(QStringLiteral("route.scope"));
    // Names from outside: shown escaped (a right-to-left override would turn one around).
    for (int i = 0; i < m_scopes.size(); ++i)
        m_scope->addItem(terminaltext::escaped(m_scopes.at(i).label), i);
    // Thousands of chains: type any part of a name to find one.
    m_scope->setEditable(true);
    m_scope->setInsertPolicy(QComboBox::NoInsert);
    m_scope->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_scope->completer()->setFilterMode(Qt::MatchContains);
    m_scope->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_scope->setCurrentIndex(std::max(0, m_scope->findText(terminaltext::escaped(chosenScope))));
    // Typing replaces the scope shown, rather than adding to it.
    m_scope->lineEdit()->selectAll();
    m_channel->setObjectName(QStringLiteral("route.channel"));
    for (const NotifyChannel &channel : m_channels)
        m_channel->addItem(terminaltext::escaped(channel.name), channel.id);
    m_channel->addItem(tr("the default e-mail channel (whichever it is)"), qint64(0));

    auto *events = new QGridLayout;
    const QList<std::pair<NotifyEvent, QString>> eventLabels{
        {NotifyEvent::Failure, tr("fail&ure")},
        {NotifyEvent::Recovery, tr("&recovery (the first success after one)")},
        {NotifyEvent::Success, tr("&success")},
        {NotifyEvent::Output, tr("&output (it printed anything, as cron mails)")},
        {NotifyEvent::Alert, tr("a&lert (late, too long, a deadline)")},
        {NotifyEvent::Missed, tr("&missed fire times")},
        {NotifyEvent::Engine,
         tr("&engine events (for every chain: a lease lost, the store away)")}};
    for (qsizetype i = 0; i < eventLabels.size(); ++i) {
        auto *box = new QCheckBox(eventLabels.at(i).second, this);
        box->setObjectName(QStringLiteral("route.on.") + enumName(eventLabels.at(i).first));
        box->setChecked(eventLabels.at(i).first == NotifyEvent::Failure
                        || eventLabels.at(i).first == NotifyEvent::Recovery);
        m_events.insert(eventLabels.at(i).first, box);
        events->addWidget(box, int(i / 2), int(i % 2));
    }
    m_to->setObjectName(QStringLiteral("route.to"));
    m_to->setPlaceholderText(tr("the channel's own recipients"));
    m_problem->setObjectName(QStringLiteral("route.problem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("&For:"), m_scope);
    form->addRow(tr("&Channel:"), m_channel);
    form->addRow(tr("On:"), events);
    form->addRow(tr("&To:"), m_to);
    auto *note = new QLabel(tr("A chain's own routes replace its project's; a project's replace "
                               "the ones for every chain."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Add"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RouteDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RouteDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    connect(m_channel, &QComboBox::currentIndexChanged, this, &RouteDialog::channelChosen);
    // A problem shown goes as soon as what it was about is changed.
    connect(m_scope, &QComboBox::editTextChanged, m_problem, &QLabel::hide);
    connect(m_to, &QLineEdit::textEdited, m_problem, &QLabel::hide);
    channelChosen();
}

void RouteDialog::channelChosen()
{
    const qint64 id = m_channel->currentData().toLongLong();
    bool email = id == 0;
    for (const NotifyChannel &channel : std::as_const(m_channels))
        if (channel.id == id)
            email = channel.kind == ChannelKind::Email;
    m_to->setEnabled(email);
}

NotifyRoute RouteDialog::route() const
{
    NotifyRoute route;
    const int found = m_scope->findText(m_scope->currentText());
    if (found >= 0) {
        const Scope &scope = m_scopes.at(m_scope->itemData(found).toInt());
        route.projectId = scope.projectId;
        route.chainId = scope.chainId;
        route.scope = scope.label;
    }
    route.channelId = m_channel->currentData().toLongLong();
    route.channelName = m_channel->currentText();
    for (auto box = m_events.cbegin(); box != m_events.cend(); ++box)
        if (box.value()->isChecked())
            route.events << box.key();
    if (m_to->isEnabled())
        for (const QString &address : m_to->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            route.recipients << address.trimmed();
    route.recipients = NotifyChannelRepository::distinctAddresses(route.recipients);
    return route;
}

void RouteDialog::accept()
{
    QString problem;
    if (m_scope->findText(m_scope->currentText()) < 0)
        problem = tr("'%1' is no chain or project here.").arg(m_scope->currentText());
    const NotifyRoute r = route();
    if (problem.isEmpty() && r.events.isEmpty())
        problem = tr("Choose one event at least.");
    if (problem.isEmpty() && r.recipients.size() > NotifyChannelRepository::maxRecipients)
        problem = tr("%1 recipients; %2 at most.")
                      .arg(r.recipients.size())
                      .arg(NotifyChannelRepository::maxRecipients);
    for (const QString &address : r.recipients)
        if (problem.isEmpty() && !NotifyChannelRepository::isMailAddress(address))
            problem = tr("'%1' is not an e-mail address.").arg(address);
    if (!problem.isEmpty()) {
        m_problem->setText(problem);
        m_problem->show();
        return;
    }
    QDialog::accept();
}

} // namespace hg
