#include "guiapplication.h"

#include "dailybackupkeeper.h"
#include "engineconfigfactory.h"
#include "notify/delivererthread.h"
#include "notify/engineeventrecorder.h"
#include "remoteaccess.h"
#include "runcounter.h"
#include "scheduler/enginehost.h"
#include "settings/appsettings.h"
#include "settings/colorscheme.h"
#include "settings/focusframestyle.h"
#include "signalwatcher.h"
#include "singleinstance.h"
#include "store/dailybackups.h"
#include "store/exampleproject.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "store/storerestore.h"
#include "storeopencheck.h"
#include "tray/traycontroller.h"
#include "window/apistatusbutton.h"
#include "window/mainwindow.h"
#include "window/storefileactions.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QSysInfo>
#include <QTranslator>

namespace hg {

GuiApplication::GuiApplication(std::unique_ptr<Store> store, AppSettings &settings,
                               EngineConfig config, QObject *parent)
    : QObject(parent)
    , m_store(std::move(store))
    , m_engine(std::make_unique<EngineHost>(std::move(config)))
    , m_counter(std::make_unique<RunCounter>())
    , m_window(std::make_unique<MainWindow>(*m_store, m_engine.get()))
    , m_tray(std::make_unique<TrayController>(*m_store))
{
    // The counter hears a run change before the tray does, so a failure's notification
    // already carries the failed look.
    m_counter->follow(m_engine.get());
    connect(m_counter.get(), &RunCounter::countsChanged, m_window.get(), &MainWindow::applyCounts);
    connect(m_counter.get(), &RunCounter::countsChanged, m_tray.get(),
            &TrayController::applyCounts);
    Engine *engine = m_engine->engine();
    connect(engine, &Engine::runChanged, m_tray.get(), &TrayController::applyRun);
    connect(engine, &Engine::notificationRequested, m_tray.get(), &TrayController::showMessage);
    connect(engine, &Engine::clockJumped, m_tray.get(),
            [tray = m_tray.get()](const QString &summary) {
                tray->showMessage(Run{}, tr("Hourglass"), summary);
            });
    connect(engine, &Engine::fileTriggerNoted, m_tray.get(),
            [tray = m_tray.get()](const QString &message) {
                tray->showMessage(Run{}, tr("Hourglass"), message);
            });
    connect(engine, &Engine::storeReachabilityChanged, m_tray.get(),
            [tray = m_tray.get()](qint64 sinceMs) { tray->setStoreLost(sinceMs); });
    // E-mail and webhooks (the channels and routes of `hourglass channel`/`notify`), sent
    // from a thread of their own as the outbox fills; the tray follows each chain's policy.
    m_notifications = std::make_unique<DelivererThread>();
    connect(engine, &Engine::runChanged, m_notifications.get(),
            [notifications = m_notifications.get()](const Run &run) {
                if (isTerminal(run.state))
                    notifications->lookSoon();
            });
    // Engine events for the global `engine` routes, written on the window's connection.
    m_engineEvents =
        std::make_unique<EngineEventRecorder>(*m_store,
                                              QStringLiteral("%1/%2/desktop")
                                                  .arg(QSysInfo::machineHostName())
                                                  .arg(QCoreApplication::applicationPid()),
                                              qint64(5) * 60000);
    connect(engine, &Engine::leaseLost, m_engineEvents.get(), &EngineEventRecorder::leaseLost);
    connect(engine, &Engine::storeReachabilityChanged, m_engineEvents.get(),
            &EngineEventRecorder::reachabilityChanged);
    connect(m_engineEvents.get(), &EngineEventRecorder::recorded, m_notifications.get(),
            &DelivererThread::lookSoon);
    // A message that could not be delivered for good is itself shown.
    connect(m_notifications.get(), &DelivererThread::settled, m_tray.get(),
            [tray = m_tray.get()](const Delivery &delivery, const SendOutcome &) {
                if (delivery.state == DeliveryState::Failed)
                    tray->showMessage(Run{}, tr("A notification was not delivered"),
                                      tr("To '%1': %2 (see `hourglass deliveries`)")
                                          .arg(delivery.channelName, delivery.lastAnswer));
            });
    m_window->attachTray(m_tray.get());
    m_window->setSettings(&settings);
    // The local API (Settings → Remote access), on a thread of its own; its state in the
    // status bar.
    auto *apiButton = new ApiStatusButton(m_window.get());
    m_window->statusBar()->insertPermanentWidget(0, apiButton);
    m_remoteAccess =
        std::make_unique<RemoteAccess>(settings, m_store->location(), engine, apiButton);
    if (m_store->backend() != StoreBackend::Sqlite || m_store->isReadOnly())
        return;
    m_backups = std::make_unique<DailyBackupKeeper>(m_store->location(), settings.dailyBackups());
    connect(&settings, &AppSettings::changed, m_backups.get(),
            [backups = m_backups.get(), &settings](AppSettings::Key key) {
                if (key == AppSettings::Key::DailyBackups)
                    backups->setKeep(settings.dailyBackups());
            });
    // Said from the second on: a brand-new store's first start greeted the user with "Daily
    // backup saved" before anything was in it (issue 34).
    connect(m_backups.get(), &DailyBackupKeeper::backupTaken, m_window.get(),
            [window = m_window.get(), location = m_store->location()](const QString &path) {
                if (DailyBackups::existing(location).size() > 1)
                    window->statusBar()->showMessage(tr("Daily backup saved: %1").arg(path), 10000);
            });
    // A backup that fails must not go unnoticed: the tray says so even when hidden.
    connect(m_backups.get(), &DailyBackupKeeper::backupFailed, m_window.get(),
            [window = m_window.get(), tray = m_tray.get()](const QString &why) {
                const QString message = tr("The daily backup failed: %1").arg(why);
                window->statusBar()->showMessage(message);
                tray->showMessage(Run{}, tr("Backup failed"), message);
            });
}

GuiApplication::~GuiApplication()
{
    m_remoteAccess.reset(); // its clients are cut off first: nothing answers for a closing store
    m_notifications.reset();
    // The engine's thread first: its queued events must not reach a half-destroyed window.
    m_engine.reset();
}

void GuiApplication::start(bool minimized)
{
    if (m_store->isReadOnly()) { // nothing may run on it; the window tells why
        m_window->show();
        return;
    }
    m_engine->start();
    m_remoteAccess->apply();
    Deliverer::Options notifying;
    notifying.engineName = QStringLiteral("%1/%2/desktop")
                               .arg(QSysInfo::machineHostName())
                               .arg(QCoreApplication::applicationPid());
    // Desktop channels' messages, shown in this window's tray (queued to its thread).
    notifying.showOnDesktop = [tray = m_tray.get()](const NotificationMessage &message,
                                                    qint64 runId) {
        QString title = message.subject;
        if (const QLatin1String prefix("[Hourglass] "); title.startsWith(prefix))
            title.remove(0, prefix.size());
        QStringList lines;
        for (const QString &line : message.text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            if (lines.size() == 3)
                break;
            lines << line.left(200);
        }
        QMetaObject::invokeMethod(
            tray,
            [tray, title, body = lines.join(QLatin1Char('\n')), runId] {
                Run run;
                run.id = runId;
                tray->showMessage(run, title, body);
            },
            Qt::QueuedConnection);
    };
    m_notifications->start(m_store->location(), notifying);
    if (m_backups)
        m_backups->start();
    if (!(minimized && m_tray->hasTray()))
        m_window->show();
}

bool GuiApplication::installExampleOnce(Store &store, AppSettings &settings)
{
    if (settings.exampleInstalled())
        return false;
    const Result<QList<Project>> projects = ProjectRepository(store).list();
    if (projects && projects->isEmpty() && ExampleProject::install(store)) {
        settings.setExampleInstalled(true);
        return true;
    }
    return false;
}

bool GuiApplication::installTranslations(const QLocale &locale)
{
    // Owned by the application: they stay as long as it runs.
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    auto *own = new QTranslator(QCoreApplication::instance());
    if (!own->load(locale, QStringLiteral("hourglass"), QStringLiteral("_"),
                   QStringLiteral(":/i18n")))
        return false;
    return QCoreApplication::installTranslator(own);
}

int GuiApplication::run(int &argc, char **argv, const QStringList &arguments)
{
    QApplication app(argc, argv);
    installTranslations(QLocale::system());
    QApplication::setApplicationDisplayName(QStringLiteral("Hourglass"));
    QApplication::setDesktopFileName(QStringLiteral("org.hourglass.Hourglass"));

    QCommandLineParser parser;
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Store"),
                                QStringLiteral("PATH|URL"));
    const QCommandLineOption minimized(QStringLiteral("minimized"),
                                       QStringLiteral("Start in the tray"));
    parser.addOptions({db, minimized});
    parser.parse(arguments); // unknown options were refused by CommandLine already

    const auto showError = [](const QString &message) {
        QMessageBox::critical(nullptr, QStringLiteral("Hourglass"), message);
        return 1;
    };
    AppSettings settings;
    if (settings.colorScheme() != ColorScheme::system())
        ColorScheme::apply(settings.colorScheme());
    else
        FocusFrameStyle::install(nullptr); // the desktop's style, with a focus one can see
    // --db wins over the store chosen in Settings, which wins over the default.
    const Result<StoreLocation> location =
        StoreLocation::resolve(parser.isSet(db) ? parser.value(db) : settings.storeLocation());
    if (!location)
        return showError(location.error().message);
    // A second start on the same store brings the first one's window forward and ends.
    SingleInstance instance(location->displayName());
    if (!instance.claim()) {
        qInfo("Hourglass is already running on %s; its window was brought forward.",
              qPrintable(location->displayName()));
        return 0;
    }
    // Restoring a backup closes everything, replaces the store and opens it again.
    QString restoreFrom;
    bool minimizedStart = parser.isSet(minimized);
    for (;;) {
        const int code = runOnce(location.value(), settings, minimizedStart, instance, restoreFrom);
        if (restoreFrom.isEmpty())
            return code;
        restoreBackup(location.value(), restoreFrom);
        restoreFrom.clear();
        minimizedStart = false;
        // The closed window may have asked the application to quit: not this time.
        QCoreApplication::removePostedEvents(nullptr, QEvent::Quit);
    }
}

int GuiApplication::runOnce(const StoreLocation &location, AppSettings &settings, bool minimized,
                            SingleInstance &instance, QString &restoreFrom)
{
    // A damaged store opens read-only: the window shows what can be read and the way out.
    Store::Options options;
    options.readOnlyWhenDamaged = true;
    // Checked (and migrated) first on a thread of its own, the GUI thread painting a window
    // that says so if it takes long. A damaged file is opened again below, read-only, to
    // show what can be read; any other failure is told as it is (a server that did not
    // answer is not waited for twice).
    StoreOpenCheck check(location);
    options.alreadyChecked = check.run();
    if (check.cancelled())
        return 0; // the user closed the window that said the store is being checked
    if (!options.alreadyChecked && check.error().error().kind != ErrorKind::Damaged) {
        QMessageBox::critical(nullptr, QStringLiteral("Hourglass"), check.error().error().message);
        return 1;
    }
    Result<std::unique_ptr<Store>> store = Store::open(location, QStringLiteral("gui"), options);
    if (!store && store.error().kind == ErrorKind::Damaged) {
        // Too damaged to show anything: a backup is the one way out.
        QMessageBox box(QMessageBox::Critical, QStringLiteral("Hourglass"),
                        tr("The store cannot be read.\n\n%1").arg(store.error().message));
        QPushButton *restore = box.addButton(tr("Restore from backup…"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Close);
        box.exec();
        if (box.clickedButton() == restore)
            restoreFrom = StoreFileActions::chooseBackup(nullptr, location);
        return 1;
    }
    if (!store) {
        QMessageBox::critical(nullptr, QStringLiteral("Hourglass"), store.error().message);
        return 1;
    }
    const bool firstStart =
        !store.value()->isReadOnly() && installExampleOnce(*store.value(), settings);

    // The engine runs in its own thread on the same store, with a connection of its own.
    EngineConfig config = EngineConfigFactory::forGui(location, settings);
    config.storeChecked = !store.value()->isReadOnly(); // it passed the check just made
    GuiApplication gui(std::move(store.value()), settings, std::move(config));
    QObject::connect(&instance, &SingleInstance::activationRequested, gui.window(),
                     &MainWindow::bringForward);
    if (firstStart) // said until something else is
        gui.window()->statusBar()->showMessage(
            tr("New to Hourglass? Help → Getting started (F1) shows the first steps."));
    QObject::connect(gui.window(), &MainWindow::restoreRequested, &gui,
                     [&restoreFrom](const QString &backupFile) {
                         restoreFrom = backupFile;
                         QApplication::exit(0);
                     });
    // SIGTERM (a logout, systemd, kill) quits as Quit does, without asking about unapplied
    // edits: the engine stops its tasks within their grace and cancels their statements.
    SignalWatcher terminations;
    // exit(), not quit(): quit() asks the windows to close, and a window that closes to the
    // tray refuses, so SIGTERM did nothing at all.
    QObject::connect(&terminations, &SignalWatcher::terminationRequested, &gui,
                     [] { QApplication::exit(0); });
    gui.start(minimized);
    return QApplication::exec();
}

void GuiApplication::restoreBackup(const StoreLocation &location, const QString &backupFile)
{
    const Result<StoreRestore::Restored> restored = StoreRestore::restore(location, backupFile);
    if (!restored) {
        QMessageBox::warning(
            nullptr, tr("Restore from backup"),
            tr("The backup was not restored.\n\n%1").arg(restored.error().message));
        return;
    }
    QMessageBox::information(
        nullptr, tr("Restore from backup"),
        restored->keptAs.isEmpty()
            ? tr("%1 was restored from %2.").arg(location.displayName(), backupFile)
            : tr("%1 was restored from %2.\n\nThe store it replaced is kept as %3.")
                  .arg(location.displayName(), backupFile, restored->keptAs));
}

} // namespace hg
