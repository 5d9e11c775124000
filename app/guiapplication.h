#pragma once

#include "domain/engineconfig.h"
#include "store/storelocation.h"

#include <QLocale>
#include <QObject>
#include <QStringList>

#include <memory>

namespace hg {

class AppSettings;
class DailyBackupKeeper;
class DelivererThread;
class EngineEventRecorder;
class EngineHost;
class MainWindow;
class RemoteAccess;
class RunCounter;
class SingleInstance;
class Store;
class TrayController;

// The desktop application's composition root: the store, the engine in its own thread, the
// one run counter, the main window and the tray, wired together and following the
// settings. Widgets only show; what is built and who hears whom is decided here.
class GuiApplication final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuiApplication)

public:
    // `settings` must outlive this; `config` is usually EngineConfigFactory::forGui().
    GuiApplication(std::unique_ptr<Store> store, AppSettings &settings, EngineConfig config,
                   QObject *parent = nullptr);
    // Stops the engine (its tasks too) before the windows and the store go.
    ~GuiApplication() override;

    // Starts the engine and the daily backups and shows the window, or only the tray when
    // minimized and there is one. On a damaged store (open read-only) neither starts, and the
    // window shows, with the damage on top.
    void start(bool minimized);

    Store &store() const { return *m_store; }
    EngineHost *engine() const { return m_engine.get(); }
    RunCounter *runCounter() const { return m_counter.get(); }
    MainWindow *window() const { return m_window.get(); }
    TrayController *tray() const { return m_tray.get(); }
    RemoteAccess *remoteAccess() const { return m_remoteAccess.get(); }
    DailyBackupKeeper *backups() const { return m_backups.get(); }

    // Creates the QApplication, opens the store named by --db / the settings / HOURGLASS_DB /
    // the default, offers the example project on the first start and runs the event loop.
    // Returns the exit code.
    static int run(int &argc, char **argv, const QStringList &arguments);
    // On the first start with an empty store: the example project, so nobody meets an empty
    // window. Once only: deleting it later is respected. True when installed now (the first
    // start: the status bar then points at Help → Getting started).
    static bool installExampleOnce(Store &store, AppSettings &settings);
    // Hourglass's own translation for the locale (built in, :/i18n) and Qt's for its standard
    // buttons and dialogs (from the system, when installed). True when Hourglass's was found;
    // English needs none.
    static bool installTranslations(const QLocale &locale);

private:
    // One pass of run(): the store opened, the windows built, the event loop run. Sets
    // `restoreFrom` when the user asked to restore a backup: run() then closes everything,
    // restores, and goes round again.
    static int runOnce(const StoreLocation &location, AppSettings &settings, bool minimized,
                       SingleInstance &instance, QString &restoreFrom);
    static void restoreBackup(const StoreLocation &location, const QString &backupFile);

    // Declared in the order they are built; destroyed the other way round.
    std::unique_ptr<Store> m_store;
    std::unique_ptr<EngineHost> m_engine;
    std::unique_ptr<RunCounter> m_counter;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<TrayController> m_tray;
    std::unique_ptr<DailyBackupKeeper> m_backups;        // null for a read-only or PostgreSQL store
    std::unique_ptr<DelivererThread> m_notifications;    // e-mail and webhooks from the outbox
    std::unique_ptr<EngineEventRecorder> m_engineEvents; // a lease lost, the store away
    std::unique_ptr<RemoteAccess> m_remoteAccess;        // the local API, as Settings say
};

} // namespace hg
