#include "traycontroller.h"

#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "storereader.h"
#include "tray/desktopnotifier.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QSystemTrayIcon>

namespace hg {
namespace {

// An hourglass in the colour of the state, drawn rather than shipped so it follows the state.
// With fire times waiting in the missed-runs inbox, a red dot in the corner (the tooltip and
// the menu give the count).
QIcon trayIcon(TrayController::IconState state, bool missedRunsWait)
{
    const std::optional<RunState> shown =
        state == TrayController::IconState::Running  ? std::optional(RunState::Running)
        : state == TrayController::IconState::Failed ? std::optional(RunState::Failed)
                                                     : std::nullopt;
    QIcon icon;
    for (int size : {16, 22, 32, 48, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        const qreal s = size;
        QPainterPath glass;
        glass.moveTo(0.2 * s, 0.1 * s);
        glass.lineTo(0.8 * s, 0.1 * s);
        glass.lineTo(0.5 * s, 0.5 * s);
        glass.lineTo(0.8 * s, 0.9 * s);
        glass.lineTo(0.2 * s, 0.9 * s);
        glass.lineTo(0.5 * s, 0.5 * s);
        glass.closeSubpath();
        const QColor fill = shown ? StatePresentation::fill(shown) : QColor(0x9a, 0xa0, 0xa6);
        painter.setBrush(fill);
        painter.setPen(QPen(fill.darker(170), std::max(1.0, s / 16)));
        painter.drawPath(glass);
        if (missedRunsWait) {
            painter.setBrush(QColor(0xc5, 0x22, 0x1f));
            painter.setPen(QPen(Qt::white, std::max(1.0, s / 16)));
            painter.drawEllipse(QRectF(0.55 * s, 0.0, 0.45 * s, 0.45 * s));
        }
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

TrayController::TrayController(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    m_storeLostNotice.setSingleShot(true);
    connect(&m_storeLostNotice, &QTimer::timeout, this, [this] {
        m_storeLostNoticed = true;
        deliver(Notification{
            tr("The store is unreachable"),
            tr("Hourglass has not reached its store for %n minute(s): schedules wait, and what "
               "ends meanwhile is written once it is back.",
               nullptr, int(std::max<qint64>(m_storeLostNoticeMs / 60000, 1))),
            0});
    });
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(this);
        m_menu = new QMenu;
        connect(m_menu->addAction(tr("&Show Hourglass")), &QAction::triggered, this,
                &TrayController::showRequested);
        m_missed = m_menu->addAction(QString());
        m_missed->setVisible(false);
        connect(m_missed, &QAction::triggered, this, &TrayController::missedRunsRequested);
        m_pause = m_menu->addAction(tr("&Pause all schedules"));
        m_pause->setCheckable(true);
        connect(m_pause, &QAction::toggled, this, &TrayController::pauseSchedulesRequested);
        m_menu->addSeparator();
        connect(m_menu->addAction(tr("&Quit")), &QAction::triggered, this,
                &TrayController::quitRequested);
        m_tray->setContextMenu(m_menu);
        connect(m_tray, &QSystemTrayIcon::activated, this,
                [this](QSystemTrayIcon::ActivationReason reason) {
                    if (reason == QSystemTrayIcon::Trigger
                        || reason == QSystemTrayIcon::DoubleClick)
                        Q_EMIT showRequested();
                });
        connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
            if (m_lastNotifiedMissed)
                Q_EMIT missedRunsRequested();
            else if (m_lastNotifiedRun > 0)
                Q_EMIT openRunRequested(m_lastNotifiedRun);
        });
        updateIcon();
        m_tray->show();
    } else {
        m_notifier = new DesktopNotifier(this);
        connect(m_notifier, &DesktopNotifier::activated, this, [this](qint64 runId) {
            if (runId == 0 && m_lastNotifiedMissed)
                Q_EMIT missedRunsRequested();
            else
                Q_EMIT openRunRequested(runId);
        });
    }
}

TrayController::~TrayController()
{
    delete m_menu; // a context menu has no parent
}

void TrayController::setSchedulesPaused(bool paused)
{
    if (m_pause) {
        const QSignalBlocker quiet(m_pause);
        m_pause->setChecked(paused);
    }
    updateIcon();
}

std::optional<TrayController::Notification> TrayController::notificationFor(const Run &run) const
{
    return notificationFor(m_store, run);
}

std::optional<TrayController::Notification> TrayController::notificationFor(Store &store,
                                                                            const Run &run)
{
    if (!isTerminal(run.state) || run.trigger == RunTrigger::Subchain)
        return std::nullopt;
    const Result<Chain> chain = ChainRepository(store).byId(run.chainId);
    const Result<ChainPath> path = ChainRepository(store).pathOf(run.chainId);
    if (!chain || !path)
        return std::nullopt;
    const bool failed = run.state == RunState::Failed || run.state == RunState::TimedOut;
    const bool succeeded = run.state == RunState::Succeeded;
    bool recovered = false;
    if (succeeded) {
        // The chain's run before this one, through the (chain_id, id) index.
        RunFilter previous;
        previous.chainId = run.chainId;
        previous.beforeId = run.id;
        previous.limit = 1;
        const Result<QList<Run>> before = RunRepository(store).list(previous);
        recovered = before && !before->isEmpty()
                    && (before->constFirst().state == RunState::Failed
                        || before->constFirst().state == RunState::TimedOut);
    }
    bool wanted = false;
    switch (chain->notify) {
    case NotifyPolicy::None:
        break;
    case NotifyPolicy::Success:
        wanted = succeeded;
        break;
    case NotifyPolicy::Failure:
        wanted = failed || recovered;
        break;
    case NotifyPolicy::All:
        wanted = failed || succeeded;
        break;
    }
    if (!wanted)
        return std::nullopt;
    const QString name = path->toString();
    if (failed)
        return Notification{tr("%1 failed").arg(name),
                            run.state == RunState::TimedOut
                                ? tr("Run %1 timed out.").arg(run.id)
                                : tr("Run %1 failed. Click to see its log.").arg(run.id),
                            run.id};
    return Notification{recovered ? tr("%1 recovered").arg(name) : tr("%1 succeeded").arg(name),
                        tr("Run %1 succeeded.").arg(run.id), run.id};
}

void TrayController::applyRun(const Run &run)
{
    if (!isTerminal(run.state) || run.trigger == RunTrigger::Subchain)
        return;
    if (!m_reader) {
        if (const std::optional<Notification> notification = notificationFor(run))
            deliver(*notification);
        return;
    }
    // Answers come back in the order asked: notifications keep the runs' order.
    m_reader->read<std::optional<Notification>>(
        this,
        [run](Store &store) -> Result<std::optional<Notification>> {
            return notificationFor(store, run);
        },
        [this](const Result<std::optional<Notification>> &notification) {
            if (notification && notification.value())
                deliver(*notification.value());
        });
}

void TrayController::applyCounts(const RunCounts &counts)
{
    m_counts = counts;
    updateIcon();
}

void TrayController::showMessage(const Run &run, const QString &title, const QString &message)
{
    deliver(Notification{title, message, run.id});
}

void TrayController::setMissedRuns(qint64 count)
{
    const bool grew = count > m_missedRuns;
    m_missedRuns = count;
    if (m_missed) {
        m_missed->setText(tr("%n &missed run(s) wait for a decision…", nullptr,
                             int(std::min<qint64>(count, 1000000))));
        m_missed->setVisible(count > 0);
    }
    updateIcon();
    if (grew) {
        deliver(Notification{tr("Missed runs wait"),
                             tr("%n missed run(s) wait for your decision: run them, run the "
                                "latest, or dismiss them.",
                                nullptr, int(std::min<qint64>(count, 1000000))),
                             0});
        m_lastNotifiedMissed = true;
    }
}

void TrayController::deliver(const Notification &notification)
{
    Q_EMIT notified(notification.title, notification.body, notification.runId);
    if (!m_notificationsEnabled)
        return;
    m_lastNotifiedRun = notification.runId;
    m_lastNotifiedMissed = false;
    if (m_tray)
        m_tray->showMessage(notification.title, notification.body,
                            m_counts.lastFailed ? QSystemTrayIcon::Warning
                                                : QSystemTrayIcon::Information);
    else if (m_notifier)
        m_notifier->notify(notification.title, notification.body, notification.runId);
}

void TrayController::setStoreLost(qint64 sinceMs)
{
    const bool wasLost = m_storeLost;
    m_storeLost = sinceMs >= 0;
    updateIcon();
    if (m_storeLost && !wasLost) {
        const qint64 away = QDateTime::currentMSecsSinceEpoch() - sinceMs;
        m_storeLostNotice.start(
            std::chrono::milliseconds(std::max<qint64>(m_storeLostNoticeMs - away, 0)));
    } else if (!m_storeLost) {
        m_storeLostNotice.stop();
        if (m_storeLostNoticed)
            deliver(Notification{tr("The store is back"),
                                 tr("Hourglass reaches its store again; runs go on."), 0});
        m_storeLostNoticed = false;
    }
}

void TrayController::updateIcon()
{
    m_state = m_counts.active > 0   ? IconState::Running
              : m_counts.lastFailed ? IconState::Failed
                                    : IconState::Idle;
    if (!m_tray)
        return;
    m_tray->setIcon(trayIcon(m_state, m_missedRuns > 0));
    const QString paused = m_pause && m_pause->isChecked() ? tr(" — schedules paused") : QString();
    switch (m_state) {
    case IconState::Idle:
        m_tray->setToolTip(tr("Hourglass: idle") + paused);
        break;
    case IconState::Running:
        m_tray->setToolTip(tr("Hourglass: %n run(s) going", nullptr, m_counts.active) + paused);
        break;
    case IconState::Failed:
        m_tray->setToolTip(tr("Hourglass: the last run failed") + paused);
        break;
    }
    if (m_storeLost)
        m_tray->setToolTip(
            m_tray->toolTip() + QLatin1Char('\n')
            + tr("The store cannot be used (unreachable or refusing writes); retrying"));
    if (m_missedRuns > 0)
        m_tray->setToolTip(m_tray->toolTip() + QLatin1Char('\n')
                           + tr("%n missed run(s) wait for your decision", nullptr,
                                int(std::min<qint64>(m_missedRuns, 1000000))));
}

} // namespace hg
