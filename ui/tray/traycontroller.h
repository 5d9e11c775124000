#pragma once

#include "domain/run.h"
#include "runcounts.h"

#include <QObject>
#include <QTimer>

#include <optional>

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace hg {

class DesktopNotifier;
class Store;
class StoreReader;

// The tray icon (idle / running / failed), its menu (show, pause all schedules, quit) and
// the notifications for finished runs, by each chain's notify policy: none, success, failure
// (failures and the first success after one: "recovered"), or all. Clicking a notification
// asks to open its run. The icon shows the RunCounter's counts (applyCounts), the same the
// status bar shows. Without a system tray, notifications go to the desktop's
// notification service over D-Bus, and the application works as before.
class TrayController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrayController)

public:
    enum class IconState { Idle, Running, Failed };
    Q_ENUM(IconState)
    struct Notification
    {
        QString title;
        QString body;
        qint64 runId = 0;
    };

    explicit TrayController(Store &store, QObject *parent = nullptr);
    ~TrayController() override;

    bool hasTray() const { return m_tray != nullptr; }
    IconState iconState() const { return m_state; }
    void setNotificationsEnabled(bool enabled) { m_notificationsEnabled = enabled; }
    void setSchedulesPaused(bool paused);
    // The engine's store went away (a shared server restarting; sinceMs -1: it is back):
    // the tooltip says so until it is back.
    // Away longer than `storeLostNoticeMs` (5 min; the engine routes' setting), a
    // notification says so at once, and another when it is back: the engine routes' e-mail
    // and webhooks can only be written to the store's outbox once it is.
    void setStoreLost(qint64 sinceMs);
    void setStoreLostNoticeAfter(qint64 ms) { m_storeLostNoticeMs = ms; }
    // Fire times waiting in the missed-runs inbox: a dot on the icon, a line in the tooltip, a
    // menu entry, and a notification when the count grows.
    void setMissedRuns(qint64 count);
    qint64 missedRuns() const { return m_missedRuns; }
    // What finishing this run should tell the user, if anything (the chain's policy decides).
    std::optional<Notification> notificationFor(const Run &run) const;
    static std::optional<Notification> notificationFor(Store &store, const Run &run);
    // Where the decision reads the store (the chain's policy and path, the run before):
    // the window's reader thread, so that runs ending by the dozen on a store across a network
    // never hold up the window (three round trips a run). Without one, on this thread.
    void setReader(StoreReader *reader) { m_reader = reader; }

public Q_SLOTS:
    // A run changed: a finished one may be worth a notification.
    void applyRun(const hg::Run &run);
    void applyCounts(const hg::RunCounts &counts);
    // A Notify task's message.
    void showMessage(const hg::Run &run, const QString &title, const QString &message);

Q_SIGNALS:
    void showRequested();
    void quitRequested();
    void pauseSchedulesRequested(bool paused);
    void openRunRequested(qint64 runId);
    void missedRunsRequested();
    void notified(const QString &title, const QString &body, qint64 runId);

private:
    void deliver(const Notification &notification);
    void updateIcon();

    Store &m_store;
    StoreReader *m_reader = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_missed = nullptr;
    DesktopNotifier *m_notifier = nullptr;
    IconState m_state = IconState::Idle;
    RunCounts m_counts;
    bool m_storeLost = false;
    bool m_storeLostNoticed = false;
    qint64 m_storeLostNoticeMs = qint64(5) * 60000;
    QTimer m_storeLostNotice;
    bool m_notificationsEnabled = true;
    qint64 m_lastNotifiedRun = 0;
    bool m_lastNotifiedMissed = false;
    qint64 m_missedRuns = 0;
};

} // namespace hg
