#include "connectionscontroller.h"

#include "base/waitingworkpool.h"
#include "common/questionbox.h"
#include "connectiondialog.h"
#include "importers/foreignimport.h"
#include "notify/channelsecrets.h"
#include "projecttreemodel.h"
#include "remote/connectionsecrets.h"
#include "remote/dolphinschedulercatalog.h"
#include "remote/pgagentcatalog.h"
#include "remote/pgagentconverter.h"
#include "remote/pgtimetablecatalog.h"
#include "remote/pgtimetableconverter.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "remotejob.h"
#include "store/connectionprofilerepository.h"
#include "store/projectimporter.h"

#include <QAction>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QJsonDocument>
#include <QMenu>
#include <QMessageBox>
#include <QtConcurrent>

namespace hg {
namespace {

// Runs in a pool thread: connects with the profile's password, reads what the remote holds.
ConnectionCheck checkRemote(const ConnectionProfile &profile)
{
    const auto failed = [](const Error &error) {
        return ConnectionCheck{ConnectionCheck::State::Failed, error.message, {}};
    };
    const Result<QString> password = ConnectionSecrets().lookup(profile);
    if (!password)
        return failed(password.error());
    Result<std::unique_ptr<RemoteDatabase>> remote =
        RemoteDatabase::open(profile, password.value());
    if (!remote)
        return failed(remote.error());
    RemoteInfo info;
    QStringList chains;
    if (profile.kind == ConnectionKind::PgTimetable) {
        const Result<PgTimetableCatalog> catalog = PgTimetableCatalog::open(*remote.value());
        if (!catalog)
            return failed(catalog.error());
        info = catalog->info();
        const Result<QList<PgtChain>> listed = catalog->chains();
        if (!listed)
            return failed(listed.error());
        for (const PgtChain &chain : listed.value())
            chains << chain.name;
    } else if (profile.kind == ConnectionKind::DolphinScheduler) {
        const Result<DolphinSchedulerCatalog> catalog =
            DolphinSchedulerCatalog::open(*remote.value());
        if (!catalog)
            return failed(catalog.error());
        info = catalog->info();
        const Result<QList<DsWorkflow>> listed = catalog->workflows();
        if (!listed)
            return failed(listed.error());
        for (const DsWorkflow &workflow : listed.value())
            chains << workflow.path();
    } else if (profile.kind == ConnectionKind::PgAgent) {
        const Result<PgAgentCatalog> catalog = PgAgentCatalog::open(*remote.value());
        if (!catalog)
            return failed(catalog.error());
        info = catalog->info();
        const Result<QList<PgAgentJob>> listed = catalog->jobs();
        if (!listed)
            return failed(listed.error());
        for (const PgAgentJob &job : listed.value())
            chains << job.name;
    } else {
        const Result<RemoteInfo> inspected = RemoteProbe::inspect(*remote.value());
        if (!inspected)
            return failed(inspected.error());
        info = inspected.value();
    }
    // The summary says the warning itself.
    if (info.readOnly)
        return {ConnectionCheck::State::ReadOnly, info.summary(profile), chains};
    return {ConnectionCheck::State::Connected, info.summary(profile), chains};
}

} // namespace

ConnectionsController::ConnectionsController(Store &store, ProjectTreeModel *model, QWidget *window)
    : QObject(window)
    , m_store(store)
    , m_model(model)
    , m_window(window)
    , m_add(new QAction(tr("Add &connection…"), window))
    , m_refresh(new QAction(tr("Check connections &again"), window))
{
    m_add->setStatusTip(tr("Connect to a pg_timetable, DolphinScheduler or pgAgent database, or "
                           "to a database for SQL tasks"));
    connect(m_add, &QAction::triggered, this, &ConnectionsController::addConnection);
    connect(m_refresh, &QAction::triggered, this, [this] { checkConnections(true); });
}

void ConnectionsController::checkConnections(bool all)
{
    for (const ConnectionProfile &profile : m_model->connections()) {
        if (all || !m_checked.contains(profile.name))
            check(profile);
    }
}

void ConnectionsController::check(const ConnectionProfile &profile)
{
    m_checked.insert(profile.name);
    m_model->setConnectionCheck(profile.name, {});
    const quint64 ask = ++m_asks;
    m_latestAsk.insert(profile.name, ask);
    ++m_pending;
    auto *watcher = new QFutureWatcher<ConnectionCheck>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, ask, profile] {
        watcher->deleteLater();
        --m_pending;
        if (m_latestAsk.value(profile.name) == ask)
            m_model->setConnectionCheck(profile.name, watcher->result());
        if (m_pending == 0)
            Q_EMIT checksDone();
    });
    watcher->setFuture(
        QtConcurrent::run(waitingWorkPool(), [profile] { return checkRemote(profile); }));
}

void ConnectionsController::fillMenu(QMenu &menu, const QModelIndex &index)
{
    menu.addAction(m_add);
    const QString name = index.data(ProjectTreeModel::ConnectionNameRole).toString();
    if (!name.isEmpty()) {
        menu.addAction(tr("&Edit connection…"), this, [this, name] { editConnection(name); });
        menu.addAction(tr("&Test connection"), this, [this, name] {
            if (const Result<ConnectionProfile> profile =
                    ConnectionProfileRepository(m_store).byName(name))
                check(profile.value());
        });
        menu.addAction(tr("&Remove connection…"), this, [this, name] { removeConnection(name); });
    }
    menu.addSeparator();
    menu.addAction(m_refresh);
}

void ConnectionsController::addConnection()
{
    editInDialog({});
}

void ConnectionsController::editConnection(const QString &name)
{
    editInDialog(name);
}

void ConnectionsController::editInDialog(const QString &name)
{
    auto *dialog = new ConnectionDialog(m_store, name, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("connectionDialog"));
    connect(dialog, &QDialog::accepted, this, [this, name] {
        // The saved profile is asked about anew: its URL or password may have changed.
        m_checked.remove(name);
        Q_EMIT connectionsChanged();
    });
    dialog->open();
}

void ConnectionsController::removeConnection(const QString &name)
{
    QMessageBox *box = QuestionBox::create(
        m_window, QStringLiteral("removeConnectionQuestion"), tr("Remove connection"),
        tr("Remove connection '%1' and forget its password? Nothing on the remote changes.")
            .arg(name),
        {}, QMessageBox::Yes | QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, box, name] {
        if (box->standardButton(box->clickedButton()) != QMessageBox::Yes)
            return;
        const Result<ConnectionProfile> profile = ConnectionProfileRepository(m_store).byName(name);
        if (!profile)
            return Q_EMIT reported(profile.error().message);
        if (const Status removed = ConnectionProfileRepository(m_store).remove(name); !removed)
            return Q_EMIT reported(removed.error().message);
        if (const Status forgotten = ConnectionSecrets().forget(profile.value()); !forgotten)
            Q_EMIT reported(forgotten.error().message);
        m_checked.remove(name);
        Q_EMIT connectionsChanged();
    });
    box->open();
}

void ConnectionsController::importChain(const QString &remoteName, const QString &chainName)
{
    const Result<ConnectionProfile> profile =
        ConnectionProfileRepository(m_store).byName(remoteName);
    if (!profile)
        return Q_EMIT reported(profile.error().message);
    bool ok = false;
    const QString project =
        QInputDialog::getText(m_window, tr("Import chain"), tr("Into the local project:"),
                              QLineEdit::Normal, remoteName, &ok)
            .trimmed();
    if (!ok || project.isEmpty())
        return;
    if (profile->kind == ConnectionKind::PgAgent)
        importPgAgentJob(profile.value(), chainName, project);
    else
        importPgTimetableChain(profile.value(), chainName, project);
}

void ConnectionsController::importPgTimetableChain(const ConnectionProfile &profile,
                                                   const QString &chainName, const QString &project)
{
    const QString remoteName = profile.name;
    // What the conversion says (a SendMail password kept apart), told with the result.
    const auto notes = std::make_shared<QStringList>();
    const auto keptKeys = std::make_shared<QStringList>(); // forgotten should the import fail
    runRemoteJob<PgTimetableCatalog, QJsonObject>(
        this, profile,
        [chainName, project, remoteName, notes,
         keptKeys](const PgTimetableCatalog &catalog) -> Result<QJsonObject> {
            const Result<PgtChain> chain = catalog.chain(chainName);
            if (!chain)
                return chain.error();
            PgTimetableConverter::ImportOptions options;
            options.notes = notes.get();
            options.keepPassword = [&chainName, &keptKeys](const QString &password) {
                Result<QString> key = ChannelSecrets().keepPassword(
                    QStringLiteral("sendmail %1").arg(chainName), password);
                if (key)
                    *keptKeys << key.value();
                return key;
            };
            return PgTimetableConverter::toDocument(chain.value(), project, remoteName,
                                                    catalog.info().timeZone, options);
        },
        [this, chainName, project, notes, keptKeys](const Result<QJsonObject> &document) {
            // The store belongs to this thread: the import runs here, in one transaction.
            ProjectImporter importer(m_store);
            importer.takePasswordKeys(true); // the converter's, for the passwords it just kept
            const Result<ProjectImporter::Summary> imported =
                document ? importer.importDocument(QJsonDocument(document.value()).toJson())
                         : Result<ProjectImporter::Summary>(document.error());
            if (!imported) {
                for (const QString &key : std::as_const(*keptKeys))
                    (void)ChannelSecrets().forget(key);
                QMessageBox::warning(m_window, tr("Import chain"), imported.error().message);
                return;
            }
            Q_EMIT reported(tr("'%1' is now a local chain in project '%2'.").arg(chainName, project)
                            + (notes->isEmpty()
                                   ? QString()
                                   : QLatin1Char(' ') + notes->join(QLatin1Char(' '))));
            Q_EMIT chainImported();
        });
}

void ConnectionsController::importPgAgentJob(const ConnectionProfile &profile,
                                             const QString &jobName, const QString &project)
{
    struct Fetched
    {
        PgAgentJob job;
        QTimeZone zone;
    };
    runRemoteJob<PgAgentCatalog, Fetched>(
        this, profile,
        [jobName](const PgAgentCatalog &catalog) -> Result<Fetched> {
            Result<PgAgentJob> job = catalog.job(jobName);
            if (!job)
                return job.error();
            return Fetched{job.value(), catalog.serverZone()};
        },
        [this, profile, jobName, project](const Result<Fetched> &fetched) {
            const auto tell = [this](const QString &text, const QString &details) {
                QMessageBox *box =
                    QuestionBox::create(m_window, QStringLiteral("importJobReport"),
                                        tr("Import job"), text, details, QMessageBox::Ok);
                box->open();
            };
            if (!fetched)
                return tell(fetched.error().message, {});
            // Converted and written here, where the store belongs, in one transaction.
            const Result<QSet<QString>> taken = ForeignImport::takenChainNames(m_store, project);
            if (!taken)
                return tell(taken.error().message, {});
            const ImportedDefinitions imported = PgAgentConverter::toChain(
                fetched->job, profile, fetched->zone, project, taken.value());
            if (const Status written = ForeignImport::write(m_store, imported, false); !written)
                return tell(tr("Nothing was imported: %1").arg(written.error().message), {});
            Q_EMIT chainImported();
            if (imported.report.leftSomethingOut()) {
                // What could not come along is said where it cannot be missed.
                return tell(tr("pgAgent job '%1' is now a local chain in project '%2', but not "
                               "all of it came along.")
                                .arg(jobName, project),
                            imported.report.toText(project, false));
            }
            Q_EMIT reported(
                tr("pgAgent job '%1' is now a local chain in project '%2'.").arg(jobName, project));
        });
}

} // namespace hg
