// MainWindow's engine half: the engine's signals wired to the views, its state in the status
// bar, pausing schedules and the missed runs waiting for a decision. mainwindow.cpp holds the
// rest.
#include "chain/chaineditor.h"
#include "chain/chainoccurrencesbox.h"
#include "displayformat.h"
#include "mainwindow.h"
#include "overview/overviewpage.h"
#include "projecttreemodel.h"
#include "runs/runsview.h"
#include "scheduler/enginehost.h"
#include "scheduler/missedrunsinbox.h"
#include "settings/appsettings.h"
#include "store/store.h"
#include "tray/traycontroller.h"
#include "upcoming/upcomingpage.h"
#include "window/storebanner.h"
#include "window/treefilter.h"

#include <QAction>
#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace hg {

void MainWindow::applyCounts(const RunCounts &counts)
{
    m_counts = counts;
    showEngineState();
}

bool MainWindow::schedulesPaused() const
{
    return m_pauseSchedules->isChecked();
}

void MainWindow::setSchedulesPaused(bool paused)
{
    if (m_pauseSchedules->isChecked() != paused) {
        m_pauseSchedules->setChecked(paused); // comes back here through toggled
        return;
    }
    if (m_engine)
        QMetaObject::invokeMethod(
            m_engine->engine(),
            [engine = m_engine->engine(), paused] { engine->setSchedulesPaused(paused); },
            Qt::QueuedConnection);
    if (m_tray)
        m_tray->setSchedulesPaused(paused);
    showEngineState();
    m_upcoming->setSchedulesPaused(paused);
    m_overview->setSchedulesPaused(paused);
    m_treeFilter->setSchedulesPaused(paused);
    if (m_settings)
        m_settings->setSchedulesPaused(paused);
    statusBar()->showMessage(
        paused ? tr("All schedules paused; manual runs still run") : tr("Schedules resumed"), 5000);
}

void MainWindow::refreshMissedRuns()
{
    report(m_model->reloadMissedRuns());
    if (m_tray)
        m_tray->setMissedRuns(m_model->missedRuns());
    m_chainEditor->occurrences()->refresh();
}

void MainWindow::decideMissedRuns()
{
    const auto waits = [this](qint64 chainId) {
        return m_model->indexOf(true, chainId).data(ProjectTreeModel::MissedRunsRole).toLongLong()
               > 0;
    };
    qint64 chainId = selectedChainId();
    if (!waits(chainId)) {
        chainId = 0;
        const Result<QList<MissedRunsInbox::Waiting>> waiting = MissedRunsInbox(m_store).waiting();
        if (waiting && !waiting->isEmpty())
            chainId = waiting->constFirst().chainId;
    }
    if (chainId <= 0) {
        statusBar()->showMessage(tr("No missed runs wait for a decision."), 5000);
        return;
    }
    selectChain(chainId);
    m_tabs->setCurrentWidget(m_chainEditor);
    // After this event: the tray's menu is still closing.
    QTimer::singleShot(0, m_chainEditor->occurrences(), &ChainOccurrencesBox::decideMissed);
}

void MainWindow::wakeEngine()
{
    if (m_engine && m_engine->engine())
        QMetaObject::invokeMethod(m_engine->engine(), &Engine::processCommands,
                                  Qt::QueuedConnection);
}

void MainWindow::connectEngine(EngineHost *engine)
{
    connect(m_runsView, &RunsView::commandsIssued, this, &MainWindow::wakeEngine);
    // Queued across threads: the engine never waits for the window.
    Engine *source = engine->engine();
    connect(source, &Engine::runChanged, m_runsView, &RunsView::applyRun);
    connect(source, &Engine::runChanged, m_model, &ProjectTreeModel::applyRun);
    connect(source, &Engine::runChanged, this, [this](const Run &run) {
        if (run.chainId == m_chainEditor->chainId() && !m_occurrencesRefresh->isActive())
            m_occurrencesRefresh->start();
    });
    connect(source, &Engine::missedRunsWaiting, this, &MainWindow::refreshMissedRuns);
    connect(source, &Engine::runsChangedElsewhere, this, [this] {
        m_runsView->reloadRuns();
        m_overview->noteEveryRunChanged();
        if (m_overview->isVisible() && !m_overviewRefresh->isActive())
            m_overviewRefresh->start();
    });
    connect(source, &Engine::runChanged, this, [this](const Run &run) {
        m_overview->noteRunChanged(run.chainId);
        if (m_overview->isVisible() && !m_overviewRefresh->isActive())
            m_overviewRefresh->start();
    });
    connect(source, &Engine::runChanged, this, [this](const Run &run) {
        // "Run N queued" is no longer true once it runs.
        if (run.id == m_queuedRun && run.state != RunState::Queued) {
            m_queuedRun = 0;
            statusBar()->clearMessage();
        }
    });
    connect(source, &Engine::taskRunChanged, m_runsView, &RunsView::applyTaskRun);
    connect(source, &Engine::taskRunChanged, m_chainEditor, &ChainEditor::applyTaskRun);
    connect(source, &Engine::logLinesWritten, m_runsView, &RunsView::appendLogLines);
    connect(source, &Engine::hostedTasksChanged, this, [this](int count) {
        m_hostedTasks = count;
        showEngineState();
    });
    connect(source, &Engine::nextFireChanged, this, [this](qint64 dueMs) {
        m_nextFireMs = dueMs;
        showEngineState();
    });
    connect(source, &Engine::storeReachabilityChanged, this,
            [this](qint64 sinceMs, const QString &why) {
                m_storeLostSinceMs = sinceMs;
                m_engineState->setToolTip(why);
                showEngineState();
            });
    connect(source, &Engine::clockJumped, this,
            [this](const QString &summary) { statusBar()->showMessage(summary, 60000); });
    connect(source, &Engine::leaseLost, this, [this](const QString &why) {
        statusBar()->showMessage(
            tr("Another engine took over this engine's runs (%1); its tasks here were stopped.")
                .arg(why));
    });
    connect(source, &Engine::storeGone, m_banner, &StoreBanner::showStoreGone);
    connect(engine, &EngineHost::started, this, [this] {
        m_engineRunning = true;
        showEngineState();
    });
    connect(engine, &EngineHost::startFailed, this, [this](const QString &why) {
        m_engineState->setText(tr("Engine: not running here"));
        m_engineState->setToolTip(why);
        // Above everything else: most often another engine serves the store, and who it is
        // (pid, host, since when) is what the user needs to find it.
        if (!m_store.isReadOnly())
            m_banner->showEngineElsewhere(why);
    });
    connect(engine, &EngineHost::stopped, this, [this] {
        m_engineRunning = false;
        m_engineState->setText(tr("Engine: stopped"));
    });
}

QString MainWindow::engineStateText() const
{
    return m_engineState->text();
}

void MainWindow::showEngineState()
{
    if (!m_engineRunning)
        return;
    if (m_storeLostSinceMs >= 0) {
        // Nothing new starts meanwhile; running tasks go on and their results wait.
        m_engineState->setText(
            tr("Engine: the store cannot be used since %1; nothing new starts, retrying")
                .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_storeLostSinceMs).time(),
                                        QLocale::ShortFormat)));
        return;
    }
    QStringList parts{tr("Engine: running"), tr("%n active", nullptr, m_counts.active),
                      tr("%n queued", nullptr, m_counts.queued)};
    if (m_hostedTasks > 0)
        parts << tr("tasks for other engines: %1").arg(m_hostedTasks);
    if (schedulesPaused())
        parts << tr("schedules paused");
    else if (m_nextFireMs >= 0)
        parts << tr("next fire %1")
                     .arg(DisplayFormat::soon(QDateTime::fromMSecsSinceEpoch(m_nextFireMs),
                                              QDateTime::currentDateTime()));
    m_engineState->setText(parts.join(QStringLiteral(" · ")));
}

} // namespace hg
