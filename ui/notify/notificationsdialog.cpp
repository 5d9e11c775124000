#include "notificationsdialog.h"

#include "base/terminaltext.h"
#include "base/waitingworkpool.h"
#include "channeldialog.h"
#include "common/questionbox.h"
#include "notify/channelsecrets.h"
#include "notify/notificationmessage.h"
#include "notify/smtpsender.h"
#include "notify/webhooksender.h"
#include "store/chainrepository.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/outboxrepository.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "storereader.h"

#include <QComboBox>
#include <QDateTime>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSysInfo>
#include <QTableWidget>
#include <QTabWidget>
#include <QtConcurrent>
#include <QTimer>
#include <QUuid>
#include <QVBoxLayout>

namespace hg {
namespace {

QTableWidget *makeTable(QWidget *parent, const QString &name, const QStringList &headers)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    table->setTabKeyNavigation(false); // Tab leaves the table, as in every other list
    return table;
}

// The id of the selected row, or 0.
qint64 selectedId(const QTableWidget *table)
{
    const QList<QTableWidgetItem *> items = table->selectedItems();
    return items.isEmpty() ? 0 : items.first()->data(Qt::UserRole).toLongLong();
}

// After the rows were written again: the row of that id selected again (wherever it moved
// to), and the list where it was scrolled.
void keepSelection(QTableWidget *table, qint64 id, int scrolled)
{
    table->clearSelection();
    for (int row = 0; id > 0 && row < table->rowCount(); ++row)
        if (table->item(row, 0)->data(Qt::UserRole).toLongLong() == id) {
            table->selectRow(row);
            break;
        }
    table->verticalScrollBar()->setValue(scrolled);
}

void setRow(QTableWidget *table, int row, const QStringList &cells, qint64 id)
{
    for (int column = 0; column < cells.size(); ++column) {
        // Names and answers come from outside: control characters shown, never obeyed.
        auto *item = new QTableWidgetItem(terminaltext::escaped(cells.at(column)).left(500));
        item->setData(Qt::UserRole, id);
        table->setItem(row, column, item);
    }
}

QString eventsText(const QList<NotifyEvent> &events)
{
    QStringList names;
    for (const NotifyEvent event : events)
        names << enumName(event);
    return names.join(QStringLiteral(", "));
}

} // namespace

NotificationsDialog::NotificationsDialog(Store &store, StoreReader *reader, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_reader(reader)
    , m_tabs(new QTabWidget(this))
    , m_stateFilter(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_poll(new QTimer(this))
    , m_cancel(std::make_shared<CancelToken>())
{
    setWindowTitle(tr("Notifications"));
    setObjectName(QStringLiteral("notificationsDialog"));

    auto *channelsPage = new QWidget(m_tabs);
    m_channels = makeTable(channelsPage, QStringLiteral("notify.channels"),
                           {tr("Name"), tr("Kind"), tr("Where"), tr("At most"), tr("Default")});
    m_channels->setAccessibleName(tr("Channels"));
    auto *add = new QPushButton(tr("&Add…"), channelsPage);
    add->setObjectName(QStringLiteral("notify.addChannel"));
    m_edit = new QPushButton(tr("&Change…"), channelsPage);
    m_edit->setObjectName(QStringLiteral("notify.editChannel"));
    m_test = new QPushButton(tr("&Test"), channelsPage);
    m_test->setObjectName(QStringLiteral("notify.testChannel"));
    m_test->setToolTip(tr("Send a test message and show the server's answer"));
    m_removeChannel = new QPushButton(tr("&Remove…"), channelsPage);
    m_removeChannel->setObjectName(QStringLiteral("notify.removeChannel"));
    auto *channelButtons = new QHBoxLayout;
    for (QPushButton *button : {add, m_edit, m_test, m_removeChannel})
        channelButtons->addWidget(button);
    channelButtons->addStretch(1);
    auto *channelsLayout = new QVBoxLayout(channelsPage);
    channelsLayout->addWidget(m_channels);
    channelsLayout->addLayout(channelButtons);
    m_tabs->addTab(channelsPage, tr("C&hannels"));

    auto *routesPage = new QWidget(m_tabs);
    m_routes = makeTable(routesPage, QStringLiteral("notify.routes"),
                         {tr("For"), tr("Channel"), tr("On"), tr("To")});
    m_routes->setAccessibleName(tr("Routes"));
    auto *addRouteButton = new QPushButton(tr("&Add…"), routesPage);
    addRouteButton->setObjectName(QStringLiteral("notify.addRoute"));
    m_removeRoute = new QPushButton(tr("Re&move"), routesPage);
    m_removeRoute->setObjectName(QStringLiteral("notify.removeRoute"));
    auto *routeButtons = new QHBoxLayout;
    routeButtons->addWidget(addRouteButton);
    routeButtons->addWidget(m_removeRoute);
    routeButtons->addStretch(1);
    auto *routesLayout = new QVBoxLayout(routesPage);
    routesLayout->addWidget(m_routes);
    routesLayout->addLayout(routeButtons);
    m_tabs->addTab(routesPage, tr("R&outes"));

    auto *deliveriesPage = new QWidget(m_tabs);
    m_deliveries = makeTable(deliveriesPage, QStringLiteral("notify.deliveries"),
                             {tr("Id"), tr("Channel"), tr("Event"), tr("Run"), tr("State"),
                              tr("Attempts"), tr("Last answer")});
    m_deliveries->setAccessibleName(tr("Deliveries"));
    m_stateFilter->setObjectName(QStringLiteral("notify.stateFilter"));
    m_stateFilter->setAccessibleName(tr("Show deliveries"));
    m_stateFilter->addItem(tr("all"), QString());
    for (const DeliveryState state :
         {DeliveryState::Queued, DeliveryState::Sent, DeliveryState::Failed, DeliveryState::Held,
          DeliveryState::Skipped})
        m_stateFilter->addItem(enumName(state), enumName(state));
    auto *filterLabel = new QLabel(tr("&Show:"), deliveriesPage);
    filterLabel->setBuddy(m_stateFilter);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(filterLabel);
    filterRow->addWidget(m_stateFilter);
    filterRow->addStretch(1);
    auto *deliveriesLayout = new QVBoxLayout(deliveriesPage);
    deliveriesLayout->addLayout(filterRow);
    deliveriesLayout->addWidget(m_deliveries);
    m_tabs->addTab(deliveriesPage, tr("&Deliveries"));

    m_status->setObjectName(QStringLiteral("notify.status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *close = new QPushButton(tr("Close"), this);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    layout->addLayout(bottom);

    connect(add, &QPushButton::clicked, this, &NotificationsDialog::addChannel);
    connect(m_edit, &QPushButton::clicked, this, &NotificationsDialog::editChannel);
    connect(m_test, &QPushButton::clicked, this, &NotificationsDialog::testChannel);
    connect(m_removeChannel, &QPushButton::clicked, this, &NotificationsDialog::removeChannel);
    connect(addRouteButton, &QPushButton::clicked, this, &NotificationsDialog::addRoute);
    connect(m_removeRoute, &QPushButton::clicked, this, &NotificationsDialog::removeRoute);
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, &NotificationsDialog::refresh);
    connect(m_channels, &QTableWidget::itemSelectionChanged, this, [this] {
        const bool chosen = selectedChannel().has_value();
        m_edit->setEnabled(chosen);
        m_test->setEnabled(chosen);
        m_removeChannel->setEnabled(chosen);
    });
    connect(m_routes, &QTableWidget::itemSelectionChanged, this,
            [this] { m_removeRoute->setEnabled(!m_routes->selectedItems().isEmpty()); });
    for (QPushButton *button : {m_edit, m_test, m_removeChannel, m_removeRoute})
        button->setEnabled(false);
    // The outbox changes as engines send: read again while the dialog is open.
    m_poll->setInterval(5000);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (isVisible() && m_reading == 0)
            refresh();
    });
    m_poll->start();
    resize(820, 460);
    refresh();
}

NotificationsDialog::~NotificationsDialog()
{
    m_cancel->cancel(); // a test still sending ends now, not at its 30 s timeout
}

template<typename T>
void NotificationsDialog::read(std::function<Result<T>(Store &)> work,
                               std::function<void(const Result<T> &)> done)
{
    ++m_reading;
    auto finished = [this, done = std::move(done)](const Result<T> &result) {
        --m_reading;
        done(result);
    };
    if (m_reader)
        m_reader->read<T>(this, std::move(work), std::move(finished));
    else
        finished(work(m_store));
}

void NotificationsDialog::showPage(Page page)
{
    m_tabs->setCurrentIndex(int(page));
}

void NotificationsDialog::refresh()
{
    const QString state = m_stateFilter->currentData().toString();
    read<Snapshot>(
        [state](Store &store) -> Result<Snapshot> {
            Snapshot snapshot;
            const Result<QList<NotifyChannel>> channels = NotifyChannelRepository(store).list();
            if (!channels)
                return channels.error();
            snapshot.channels = channels.value();
            const Result<QList<NotifyRoute>> routes = NotifyRouteRepository(store).list();
            if (!routes)
                return routes.error();
            snapshot.routes = routes.value();
            const Result<QList<Delivery>> deliveries = OutboxRepository(store).list(
                state.isEmpty() ? std::nullopt : enumFromString<DeliveryState>(state), 200);
            if (!deliveries)
                return deliveries.error();
            snapshot.deliveries = deliveries.value();
            const Result<QList<Delivery>> failed =
                OutboxRepository(store).list(DeliveryState::Failed, 1000);
            snapshot.failed = failed ? int(failed->size()) : 0;
            return snapshot;
        },
        [this](const Result<Snapshot> &snapshot) {
            if (!snapshot) {
                report(tr("Could not read the notifications: %1").arg(snapshot.error().message));
                return;
            }
            showSnapshot(snapshot.value());
        });
}

void NotificationsDialog::showSnapshot(const Snapshot &snapshot)
{
    // Selections follow their rows by id: a row added or removed elsewhere must not move a
    // selection onto another route, whose Remove would then remove the wrong one.
    QHash<QTableWidget *, std::pair<qint64, int>> kept;
    for (QTableWidget *table : {m_channels, m_routes, m_deliveries})
        kept.insert(table, {selectedId(table), table->verticalScrollBar()->value()});
    m_shown = snapshot;
    m_channels->setRowCount(int(snapshot.channels.size()));
    for (int row = 0; row < snapshot.channels.size(); ++row) {
        const NotifyChannel &c = snapshot.channels.at(row);
        QString where = c.url;
        if (c.kind == ChannelKind::Email)
            where = tr("%1 → %2").arg(c.url, c.to.join(QStringLiteral(", ")));
        else if (c.kind == ChannelKind::Desktop)
            where = c.url.isEmpty() ? tr("the tray of any desktop of this store")
                                    : tr("the tray of %1").arg(c.url);
        else if (c.urlIsSecret)
            where = tr("(URL kept as a secret)");
        const QString flood = c.floodLimit > 0
                                  ? tr("%1 in %2 s").arg(c.floodLimit).arg(c.floodWindowSeconds)
                                  : tr("no limit");
        const QString cap = c.dailyCap > 0 ? tr("%1 a day").arg(c.dailyCap) : tr("no cap");
        setRow(m_channels, row,
               {c.name, enumName(c.kind), where, flood + QStringLiteral(", ") + cap,
                c.isDefault ? tr("default") : QString()},
               c.id);
    }
    m_routes->setRowCount(int(snapshot.routes.size()));
    for (int row = 0; row < snapshot.routes.size(); ++row) {
        const NotifyRoute &r = snapshot.routes.at(row);
        setRow(m_routes, row,
               {r.scope.isEmpty() ? tr("every chain") : r.scope,
                r.channelId == 0 ? tr("(default e-mail)") : r.channelName, eventsText(r.events),
                r.recipients.join(QStringLiteral(", "))},
               r.id);
    }
    m_deliveries->setRowCount(int(snapshot.deliveries.size()));
    for (int row = 0; row < snapshot.deliveries.size(); ++row) {
        const Delivery &d = snapshot.deliveries.at(row);
        setRow(m_deliveries, row,
               {QString::number(d.id), d.channelName, d.event,
                d.runId > 0 ? QString::number(d.runId) : QString(), enumName(d.state),
                QString::number(d.attempts), d.lastAnswer},
               d.id);
        // The whole answer (a server's may be long), and when it is tried next.
        QString tip = terminaltext::escaped(d.lastAnswer).left(2000);
        if (d.state == DeliveryState::Queued && d.nextAttemptAt.isValid())
            tip +=
                QLatin1Char('\n')
                + tr("Next attempt: %1")
                      .arg(QLocale().toString(d.nextAttemptAt.toLocalTime(), QLocale::ShortFormat));
        m_deliveries->item(row, 6)->setToolTip(tip.trimmed());
    }
    // A message that could not be delivered is itself news: the tab says how many.
    m_tabs->setTabText(int(Page::Deliveries),
                       snapshot.failed > 0 ? tr("&Deliveries (%n failed)", nullptr, snapshot.failed)
                                           : tr("&Deliveries"));
    // To their contents, but for the last (a long answer or address list would push the
    // rest out of sight): it takes the room left.
    for (QTableWidget *table : {m_channels, m_routes, m_deliveries}) {
        for (int column = 0; column + 1 < table->columnCount(); ++column)
            table->resizeColumnToContents(column);
        keepSelection(table, kept.value(table).first, kept.value(table).second);
    }
    // Opened for one chain: its routes in sight.
    if (!m_chosenScope.isEmpty() && !m_scrolledToScope) {
        for (int row = 0; row < m_routes->rowCount(); ++row)
            if (m_routes->item(row, 0)->text() == terminaltext::escaped(m_chosenScope)) {
                m_routes->scrollToItem(m_routes->item(row, 0), QAbstractItemView::PositionAtTop);
                break;
            }
        m_scrolledToScope = true;
    }
}

void NotificationsDialog::report(const QString &message)
{
    // Names and answers from outside: a right-to-left override must not turn the line around.
    m_status->setText(terminaltext::escaped(message));
}

std::optional<NotifyChannel> NotificationsDialog::selectedChannel() const
{
    const QList<QTableWidgetItem *> items = m_channels->selectedItems();
    if (items.isEmpty())
        return std::nullopt;
    const qint64 id = items.first()->data(Qt::UserRole).toLongLong();
    for (const NotifyChannel &channel : m_shown.channels)
        if (channel.id == id)
            return channel;
    return std::nullopt;
}

void NotificationsDialog::addChannel()
{
    auto *dialog = new ChannelDialog(NotifyChannel(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QSet<QString> names;
    for (const NotifyChannel &channel : std::as_const(m_shown.channels))
        names.insert(channel.name);
    dialog->setTakenNames(names);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        NotifyChannel channel = dialog->channel();
        const QJsonObject secrets = dialog->secrets();
        ChannelSecrets keeper;
        QString keptIn;
        if (!secrets.isEmpty()) {
            channel.secretKey = ChannelSecrets::newKey(channel.name);
            const Result<QString> kept = keeper.store(channel.secretKey, secrets);
            if (!kept) {
                report(tr("Nothing was added: %1").arg(kept.error().message));
                return;
            }
            keptIn = kept.value();
        }
        const Result<NotifyChannel> added = NotifyChannelRepository(m_store).add(channel);
        if (!added) {
            (void)keeper.forget(channel.secretKey);
            report(tr("Nothing was added: %1").arg(added.error().message));
            return;
        }
        report(
            keptIn.isEmpty()
                ? tr("Channel '%1' added.").arg(channel.name)
                : tr("Channel '%1' added; its secrets are kept in %2.").arg(channel.name, keptIn));
        refresh();
    });
    dialog->open();
}

void NotificationsDialog::editChannel()
{
    const std::optional<NotifyChannel> chosen = selectedChannel();
    if (!chosen)
        return;
    auto *dialog = new ChannelDialog(*chosen, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const NotifyChannel channel = dialog->channel();
        if (Status written = NotifyChannelRepository(m_store).updateSettings(channel); !written) {
            report(tr("Nothing was changed: %1").arg(written.error().message));
            return;
        }
        report(tr("Channel '%1' changed.").arg(channel.name));
        refresh();
    });
    dialog->open();
}

void NotificationsDialog::testChannel()
{
    const std::optional<NotifyChannel> chosen = selectedChannel();
    if (!chosen)
        return;
    const NotifyChannel &channel = *chosen;
    if (m_testing.contains(channel.id))
        return; // one test at a time per channel
    if (channel.kind == ChannelKind::Desktop) {
        // Shown the way its messages are: queued, then taken by the engine of a desktop.
        const NotificationMessage message =
            NotificationMessage::test(channel, QSysInfo::machineHostName());
        const Result<qint64> queued =
            OutboxRepository(m_store).addTest(channel.id, message.subject, message.bodyForStore(),
                                              QDateTime::currentMSecsSinceEpoch());
        report(queued ? tr("A test message for '%1' is queued: the tray of %2 shows it in a "
                           "moment (see Deliveries).")
                            .arg(channel.name, channel.url.isEmpty() ? tr("a desktop of this store")
                                                                     : channel.url)
                      : tr("Not queued for '%1': %2").arg(channel.name, queued.error().message));
        refresh();
        return;
    }
    m_testing.insert(channel.id);
    report(tr("Sending a test message to '%1'…").arg(channel.name));
    m_test->setEnabled(false);
    // The keychain and the server may take seconds to answer: never on the window's thread.
    auto *watcher = new QFutureWatcher<SendOutcome>(this);
    connect(watcher, &QFutureWatcher<SendOutcome>::finished, this, [this, watcher, channel] {
        watcher->deleteLater();
        const SendOutcome outcome = watcher->result();
        m_testing.remove(channel.id);
        m_test->setEnabled(selectedChannel().has_value());
        report(outcome.delivered ? tr("Sent to '%1': %2").arg(channel.name, outcome.answer)
                                 : tr("Not sent to '%1': %2").arg(channel.name, outcome.answer));
    });
    watcher->setFuture(
        QtConcurrent::run(waitingWorkPool(), [channel, cancel = m_cancel]() -> SendOutcome {
            const Result<QJsonObject> secrets = ChannelSecrets().lookup(channel.secretKey);
            if (!secrets)
                return SendOutcome{false, true, false, secrets.error().message};
            const NotificationMessage message =
                NotificationMessage::test(channel, QSysInfo::machineHostName());
            const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
            constexpr int timeoutMs = 30000;
            return channel.kind == ChannelKind::Email
                       ? SmtpSender::send(channel, secrets.value(), message, id, {}, timeoutMs,
                                          cancel.get())
                       : WebhookSender::send(channel, secrets.value(), message, id, timeoutMs,
                                             cancel.get());
        }));
}

void NotificationsDialog::removeChannel()
{
    const std::optional<NotifyChannel> chosen = selectedChannel();
    if (!chosen)
        return;
    const NotifyChannel &channel = *chosen;
    const Result<int> waiting = OutboxRepository(m_store).waiting(channel.id);
    QMessageBox *box = QuestionBox::create(
        this, QStringLiteral("notify.removeChannelQuestion"), tr("Remove channel"),
        waiting && waiting.value() > 0
            ? tr("Remove channel '%1'? Its routes and the %n message(s) still waiting for it go "
                 "with it.",
                 nullptr, waiting.value())
                  .arg(channel.name)
            : tr("Remove channel '%1' and its routes?").arg(channel.name),
        QString(), QMessageBox::Yes | QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, channel](int answer) {
        if (answer != QMessageBox::Yes)
            return;
        if (Status removed = NotifyChannelRepository(m_store).remove(channel.name); !removed) {
            report(tr("Not removed: %1").arg(removed.error().message));
            return;
        }
        if (Status forgotten = ChannelSecrets().forget(channel.secretKey); !forgotten)
            report(tr("Channel '%1' removed, but not its secrets: %2")
                       .arg(channel.name, forgotten.error().message));
        else
            report(tr("Channel '%1' removed.").arg(channel.name));
        refresh();
    });
    box->open();
}

void NotificationsDialog::addRoute()
{
    // Every chain and project to choose from: read on the reader's thread, then asked.
    read<QList<RouteDialog::Scope>>(
        [](Store &store) -> Result<QList<RouteDialog::Scope>> {
            QList<RouteDialog::Scope> scopes{{tr("every chain"), 0, 0}};
            const Result<QList<Project>> projects = ProjectRepository(store).list();
            if (!projects)
                return projects.error();
            QHash<qint64, QString> projectNames;
            for (const Project &project : projects.value()) {
                projectNames.insert(project.id, project.name);
                scopes << RouteDialog::Scope{tr("%1 (every chain)").arg(project.name), project.id,
                                             0};
            }
            const Result<QList<Chain>> chains = ChainRepository(store).list();
            if (!chains)
                return chains.error();
            for (const Chain &chain : chains.value())
                scopes << RouteDialog::Scope{projectNames.value(chain.projectId) + QLatin1Char('/')
                                                 + chain.name,
                                             0, chain.id};
            return scopes;
        },
        [this](const Result<QList<RouteDialog::Scope>> &scopes) {
            if (!scopes) {
                report(tr("Could not read the chains: %1").arg(scopes.error().message));
                return;
            }
            auto *dialog = new RouteDialog(scopes.value(), m_shown.channels, m_chosenScope, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(dialog, &QDialog::accepted, this, [this, dialog] {
                const NotifyRoute route = dialog->route();
                for (const NotifyRoute &other : std::as_const(m_shown.routes))
                    if (other.chainId == route.chainId && other.projectId == route.projectId
                        && other.channelId == route.channelId && other.events == route.events
                        && other.recipients == route.recipients) {
                        report(tr("That route is there already."));
                        return;
                    }
                if (Result<NotifyRoute> added = NotifyRouteRepository(m_store).add(route); !added) {
                    report(tr("No route was added: %1").arg(added.error().message));
                    return;
                }
                bool waits = route.channelId == 0;
                for (const NotifyChannel &channel : std::as_const(m_shown.channels))
                    waits = waits && !(channel.isDefault && channel.kind == ChannelKind::Email);
                report(waits ? tr("Route added: %1 to the default e-mail channel; there is none "
                                  "yet, and the route waits for one (Add… on Channels, its "
                                  "default box ticked).")
                                   .arg(route.scope)
                             : tr("Route added: %1 to %2.").arg(route.scope, route.channelName));
                refresh();
            });
            dialog->open();
        });
}

void NotificationsDialog::removeRoute()
{
    const QList<QTableWidgetItem *> items = m_routes->selectedItems();
    if (items.isEmpty())
        return;
    const qint64 id = items.first()->data(Qt::UserRole).toLongLong();
    const int row = m_routes->row(items.first());
    const QString what = tr("%1 to %2 on %3")
                             .arg(m_routes->item(row, 0)->text(), m_routes->item(row, 1)->text(),
                                  m_routes->item(row, 2)->text());
    if (Status removed = NotifyRouteRepository(m_store).remove(id); !removed) {
        report(tr("Not removed: %1").arg(removed.error().message));
        return;
    }
    report(tr("Route removed: %1.").arg(what));
    refresh();
}

} // namespace hg
