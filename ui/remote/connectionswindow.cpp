#include "connectionswindow.h"

#include "connectiondialog.h"
#include "pgtimetablechainpage.h"
#include "remote/connectionsecrets.h"
#include "remote/pgtimetablecatalog.h"
#include "remote/pgtimetableconverter.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "remotejob.h"
#include "store/connectionprofilerepository.h"
#include "store/projectimporter.h"

#include <QApplication>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QtConcurrent>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hg {
namespace {

enum ItemRole { NameRole = Qt::UserRole, ChainRole };

// What one check found: the remote's info and, for pg_timetable, its chains.
struct Checked
{
    RemoteInfo info;
    QStringList chains;
};

} // namespace

ConnectionsWindow::ConnectionsWindow(Store &store, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
{
    setWindowTitle(tr("Connections"));
    resize(1200, 800);
    auto *layout = new QVBoxLayout(this);
    auto *splitter = new QSplitter(this);
    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_tree = new QTreeWidget(left);
    m_tree->setHeaderHidden(true);
    m_tree->setAccessibleName(tr("Connections"));
    leftLayout->addWidget(m_tree);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("&Add…"), left);
    auto *edit = new QPushButton(tr("&Edit…"), left);
    auto *remove = new QPushButton(tr("&Remove"), left);
    auto *again = new QPushButton(tr("Re&fresh"), left);
    for (QPushButton *b : {add, edit, remove, again})
        buttons->addWidget(b);
    leftLayout->addLayout(buttons);
    m_stack = new QStackedWidget(splitter);
    m_hint = new QLabel(tr("Add a connection to a pg_timetable, DolphinScheduler or pgAgent "
                           "database, or to a database for SQL tasks. Select a pg_timetable "
                           "chain to see and edit it."),
                        m_stack);
    m_hint->setWordWrap(true);
    m_hint->setAlignment(Qt::AlignCenter);
    m_page = new PgTimetableChainPage(m_stack);
    m_stack->addWidget(m_hint);
    m_stack->addWidget(m_page);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter);
    connect(add, &QPushButton::clicked, this, &ConnectionsWindow::addConnection);
    connect(edit, &QPushButton::clicked, this, &ConnectionsWindow::editConnection);
    connect(remove, &QPushButton::clicked, this, &ConnectionsWindow::removeConnection);
    connect(again, &QPushButton::clicked, this, &ConnectionsWindow::refresh);
    connect(m_tree, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *item) { currentChanged(item); });
    connect(m_page, &PgTimetableChainPage::importRequested, this, &ConnectionsWindow::importChain);
    connect(m_page, &PgTimetableChainPage::chainDeleted, this, [this] {
        m_stack->setCurrentWidget(m_hint);
        refresh();
    });
    refresh();
}

ConnectionProfile ConnectionsWindow::profileOf(const QTreeWidgetItem *item) const
{
    while (item && item->parent())
        item = item->parent();
    if (!item)
        return {};
    const Result<ConnectionProfile> profile =
        ConnectionProfileRepository(m_store).byName(item->data(0, NameRole).toString());
    return profile ? profile.value() : ConnectionProfile();
}

void ConnectionsWindow::refresh()
{
    ++m_generation;
    m_tree->clear();
    const Result<QList<ConnectionProfile>> profiles = ConnectionProfileRepository(m_store).list();
    if (!profiles) {
        m_hint->setText(profiles.error().message);
        return;
    }
    for (const ConnectionProfile &profile : profiles.value()) {
        auto *item = new QTreeWidgetItem(m_tree, {profile.name});
        item->setData(0, NameRole, profile.name);
        check(item, profile);
    }
}

void ConnectionsWindow::check(QTreeWidgetItem *item, const ConnectionProfile &profile)
{
    item->setIcon(0, style()->standardIcon(QStyle::SP_BrowserReload));
    item->setToolTip(0, tr("%1: checking…").arg(enumName(profile.kind)));
    ++m_pending;
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<std::shared_ptr<Result<Checked>>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, item, generation, profile] {
                watcher->deleteLater();
                --m_pending;
                if (generation == m_generation) {
                    const Result<Checked> &checked = *watcher->result();
                    if (!checked) {
                        item->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxCritical));
                        item->setToolTip(0, checked.error().message);
                    } else {
                        const RemoteInfo &info = checked->info;
                        item->setIcon(0, style()->standardIcon(info.readOnly
                                                                   ? QStyle::SP_MessageBoxWarning
                                                                   : QStyle::SP_DialogApplyButton));
                        item->setToolTip(0, info.readOnly ? info.summary(profile)
                                                                + QLatin1Char('\n') + info.warning
                                                          : info.summary(profile));
                        for (const QString &chain : checked->chains) {
                            auto *child = new QTreeWidgetItem(item, {chain});
                            child->setData(0, ChainRole, chain);
                        }
                        item->setExpanded(true);
                    }
                }
                if (m_pending == 0)
                    Q_EMIT checksDone();
            });
    watcher->setFuture(QtConcurrent::run([profile] {
        const Result<QString> password = ConnectionSecrets().lookup(profile);
        if (!password)
            return std::make_shared<Result<Checked>>(password.error());
        Result<std::unique_ptr<RemoteDatabase>> remote =
            RemoteDatabase::open(profile, password.value());
        if (!remote)
            return std::make_shared<Result<Checked>>(remote.error());
        Checked checked;
        if (profile.kind == ConnectionKind::PgTimetable) {
            const Result<PgTimetableCatalog> catalog = PgTimetableCatalog::open(*remote.value());
            if (!catalog)
                return std::make_shared<Result<Checked>>(catalog.error());
            checked.info = catalog->info();
            const Result<QList<PgtChain>> chains = catalog->chains();
            if (!chains)
                return std::make_shared<Result<Checked>>(chains.error());
            for (const PgtChain &chain : chains.value())
                checked.chains << chain.name;
        } else {
            const Result<RemoteInfo> info = RemoteProbe::inspect(*remote.value());
            if (!info)
                return std::make_shared<Result<Checked>>(info.error());
            checked.info = info.value();
        }
        return std::make_shared<Result<Checked>>(checked);
    }));
}

void ConnectionsWindow::currentChanged(QTreeWidgetItem *item)
{
    if (!item || !item->parent()) {
        m_stack->setCurrentWidget(m_hint);
        return;
    }
    m_page->showChain(profileOf(item), item->data(0, ChainRole).toString());
    m_stack->setCurrentWidget(m_page);
}

void ConnectionsWindow::addConnection()
{
    ConnectionDialog dialog(m_store, {}, this);
    if (dialog.exec() == QDialog::Accepted)
        refresh();
}

void ConnectionsWindow::editConnection()
{
    const ConnectionProfile profile = profileOf(m_tree->currentItem());
    if (profile.name.isEmpty())
        return;
    ConnectionDialog dialog(m_store, profile.name, this);
    if (dialog.exec() == QDialog::Accepted)
        refresh();
}

void ConnectionsWindow::removeConnection()
{
    const ConnectionProfile profile = profileOf(m_tree->currentItem());
    if (profile.name.isEmpty())
        return;
    if (QMessageBox::question(this, tr("Remove connection"),
                              tr("Remove connection '%1' and forget its password? Nothing on "
                                 "the remote changes.")
                                  .arg(profile.name))
        != QMessageBox::Yes)
        return;
    if (const Status removed = ConnectionProfileRepository(m_store).remove(profile.name);
        !removed) {
        QMessageBox::warning(this, tr("Remove connection"), removed.error().message);
        return;
    }
    if (const Status forgotten = ConnectionSecrets().forget(profile); !forgotten)
        QMessageBox::warning(this, tr("Remove connection"), forgotten.error().message);
    refresh();
}

void ConnectionsWindow::importChain(const QString &remoteName, const QString &chainName)
{
    bool ok = false;
    const QString project =
        QInputDialog::getText(this, tr("Import chain"), tr("Into the local project:"),
                              QLineEdit::Normal, remoteName, &ok);
    if (!ok || project.trimmed().isEmpty())
        return;
    const Result<ConnectionProfile> profile =
        ConnectionProfileRepository(m_store).byName(remoteName);
    if (!profile)
        return;
    auto *watcher = new QFutureWatcher<RemoteAnswer<QJsonObject>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, chainName, project] {
        watcher->deleteLater();
        const Result<QJsonObject> &document = *watcher->result();
        // The store belongs to this thread: the import runs here, in one transaction.
        const Result<ProjectImporter::Summary> imported =
            document
                ? ProjectImporter(m_store).importDocument(QJsonDocument(document.value()).toJson())
                : Result<ProjectImporter::Summary>(document.error());
        if (!imported) {
            QMessageBox::warning(this, tr("Import chain"), imported.error().message);
            return;
        }
        QMessageBox::information(
            this, tr("Import chain"),
            tr("'%1' is now a local chain in project '%2'.").arg(chainName, project.trimmed()));
        Q_EMIT chainImported();
    });
    const QString into = project.trimmed();
    watcher->setFuture(onPgTimetable<QJsonObject>(
        profile.value(),
        [chainName, into, remoteName](const PgTimetableCatalog &catalog) -> Result<QJsonObject> {
            const Result<PgtChain> chain = catalog.chain(chainName);
            if (!chain)
                return chain.error();
            return PgTimetableConverter::toDocument(chain.value(), into, remoteName,
                                                    catalog.info().timeZone);
        }));
}

} // namespace hg
