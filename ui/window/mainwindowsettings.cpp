// MainWindow's settings, layout and closing: what applies a setting, what is kept between
// sessions, and whether closing quits or keeps running. mainwindow.cpp holds the rest.
#include "chain/chaineditor.h"
#include "mainwindow.h"
#include "notify/notificationsdialog.h"
#include "overview/overviewpage.h"
#include "scheduler/enginehost.h"
#include "settings/colorscheme.h"
#include "settings/settingsdialog.h"
#include "settings/xdgautostart.h"
#include "store/chainrepository.h"
#include "store/store.h"
#include "tray/traycontroller.h"
#include "upcoming/upcomingpage.h"
#include "window/keeprunningprompt.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDataStream>
#include <QMessageBox>
#include <QSplitter>

namespace hg {

void MainWindow::setSettings(AppSettings *settings)
{
    m_settings = settings;
    m_openSettings->setEnabled(settings != nullptr);
    if (!settings)
        return;
    connect(settings, &AppSettings::changed, this, &MainWindow::applySetting);
    for (const AppSettings::Key key : {AppSettings::Key::CloseToTray, AppSettings::Key::DefaultZone,
                                       AppSettings::Key::Notifications})
        applySetting(key);
    // The engine started paused already (EngineConfig): only the action follows.
    const QSignalBlocker quiet(m_pauseSchedules);
    m_pauseSchedules->setChecked(settings->schedulesPaused());
    m_upcoming->setSchedulesPaused(settings->schedulesPaused());
    m_overview->setSchedulesPaused(settings->schedulesPaused());
    restoreLayout();
}

void MainWindow::restoreLayout()
{
    if (!m_settings->windowGeometry().isEmpty())
        restoreGeometry(m_settings->windowGeometry());
    // Every named splitter's state, by name (a splitter added later is simply not in it).
    QMap<QString, QByteArray> splitters;
    QDataStream in(m_settings->windowState());
    in >> splitters;
    for (QSplitter *splitter : findChildren<QSplitter *>()) {
        if (const QByteArray state = splitters.value(splitter->objectName()); !state.isEmpty())
            splitter->restoreState(state);
    }
    if (const qint64 chainId = m_settings->selectedChain(); chainId > 0)
        selectChain(chainId); // a chain deleted since is simply not found
}

void MainWindow::saveLayout()
{
    if (!m_settings)
        return;
    m_settings->setWindowGeometry(saveGeometry());
    QMap<QString, QByteArray> splitters;
    for (const QSplitter *splitter : findChildren<QSplitter *>()) {
        if (!splitter->objectName().isEmpty())
            splitters.insert(splitter->objectName(), splitter->saveState());
    }
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << splitters;
    m_settings->setWindowState(state);
    m_settings->setSelectedChain(selectedChainId());
}

void MainWindow::quit()
{
    // Unapplied edits first, as on a close: Quit dropped them in silence (helper-13).
    if (m_chainEditor->hasUnappliedEdits()) {
        if (isHidden())
            showNormal();
        m_chainEditor->settleUnappliedEdits([this] { quit(); });
        return;
    }
    m_quitting = true;
    saveLayout();
    close();
    QApplication::quit();
}

void MainWindow::applySetting(AppSettings::Key key)
{
    switch (key) {
    case AppSettings::Key::CloseToTray:
        m_closeToTray = m_settings->closeToTray();
        // Hidden in the tray is still running: the application ends on Quit, not on a close.
        if (m_tray && m_tray->hasTray())
            QApplication::setQuitOnLastWindowClosed(!m_closeToTray);
        break;
    case AppSettings::Key::Notifications:
        if (m_tray)
            m_tray->setNotificationsEnabled(m_settings->notifications());
        break;
    case AppSettings::Key::DefaultZone:
        m_chainEditor->setDefaultZone(m_settings->defaultTimeZone());
        break;
    case AppSettings::Key::SchedulesPaused:
        // Pausing here writes the setting, which comes back: act only on a real difference.
        if (m_pauseSchedules->isChecked() != m_settings->schedulesPaused())
            m_pauseSchedules->setChecked(m_settings->schedulesPaused());
        break;
    case AppSettings::Key::StoreLocation:
    case AppSettings::Key::SlotCount:
    case AppSettings::Key::StartAtLogin:
    case AppSettings::Key::ExampleInstalled:
    case AppSettings::Key::AskOnClose:
    case AppSettings::Key::WindowGeometry:
    case AppSettings::Key::WindowState:
    case AppSettings::Key::ColorScheme:
        ColorScheme::apply(m_settings->colorScheme());
        break;
    case AppSettings::Key::SelectedChain:
    case AppSettings::Key::DailyBackups: // the application's backup keeper follows it
    case AppSettings::Key::ApiEnabled:   // and its RemoteAccess the API's settings
    case AppSettings::Key::ApiListen:
    case AppSettings::Key::ApiCertificate:
    case AppSettings::Key::ApiKey:
    case AppSettings::Key::ApiInsecure:
    case AppSettings::Key::ApiMetricsOpen:
        break; // at the next start or close, or nothing to show
    }
}

void MainWindow::openSettings()
{
    if (!m_settings)
        return;
    auto *dialog = new SettingsDialog(*m_settings, this);
    dialog->setStoreInUse(m_store.location().displayName());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        dialog->applyTo(*m_settings); // what changed applies through AppSettings::changed
        report(XdgAutostart::setEnabled(m_settings->startAtLogin(),
                                        QCoreApplication::applicationFilePath()));
    });
    dialog->open();
}

void MainWindow::openNotifications(qint64 chainId)
{
    auto *dialog = new NotificationsDialog(m_store, m_reader, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (chainId > 0) {
        if (const Result<ChainPath> path = ChainRepository(m_store).pathOf(chainId))
            dialog->setChosenScope(path->toString());
        dialog->showPage(NotificationsDialog::Page::Routes);
    }
    dialog->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    if (m_quitting) {
        QMainWindow::closeEvent(event);
        return;
    }
    // Unapplied edits first: asked about, never dropped in silence.
    if (m_chainEditor->hasUnappliedEdits()) {
        event->ignore();
        m_chainEditor->settleUnappliedEdits([this] { close(); });
        return;
    }
    const bool hasTray = m_tray && m_tray->hasTray();
    // To the tray, when there is one to come back from.
    if (m_closeToTray && hasTray) {
        hide();
        event->ignore();
        return;
    }
    // No tray: closing the last window would end the engine and every schedule with it.
    if (m_engine && !hasTray) {
        event->ignore();
        if (m_settings && !m_settings->askOnClose())
            return m_closeToTray ? keepRunningInBackground() : quit();
        askOnClose();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::askOnClose()
{
    if (m_closePrompt)
        return;
    using Choice = KeepRunningPrompt::Choice;
    m_closePrompt = KeepRunningPrompt::open(this, [this](Choice choice, bool remember) {
        if (m_settings && remember) {
            m_settings->setAskOnClose(false);
            m_settings->setCloseToTray(choice == Choice::KeepRunning);
        }
        if (choice == Choice::KeepRunning)
            keepRunningInBackground();
        else
            quit();
    });
}

void MainWindow::keepRunningInBackground()
{
    QApplication::setQuitOnLastWindowClosed(false);
    hide();
    if (m_tray)
        m_tray->showMessage(Run(), tr("Hourglass keeps running"),
                            tr("Schedules go on. Start Hourglass again to bring the window back."));
}

void MainWindow::bringForward()
{
    showNormal();
    raise();
    activateWindow();
}

} // namespace hg
