// The Engine's hold on its store: heartbeats, retention, an outage (noticed, held through,
// reconnected from) and a session taken over by another engine (fenced out).
#include "admission.h"
#include "alertwatch.h"
#include "base/epochtime.h"
#include "clock.h"
#include "commandpump.h"
#include "elsewherewatch.h"
#include "engine.h"
#include "enginelease.h"
#include "heldjournal.h"
#include "logbatcher.h"
#include "offerboard.h"
#include "recovery.h"
#include "runexecution.h"
#include "runrecorder.h"
#include "scheduleloader.h"
#include "store/chainrepository.h"
#include "store/definitionchangerepository.h"
#include "store/logrepository.h"
#include "store/occurrencerepository.h"
#include "store/runownership.h"
#include "store/runrepository.h"
#include "store/runretention.h"
#include "store/store.h"
#include "subchainlineage.h"
#include "taskhost.h"

#include <QDateTime>
#include <QSysInfo>

#include <algorithm>

namespace hg {

void Engine::heartbeat()
{
    // Before, a deleted store went on being written (into the unlinked file), and every run's
    // end since was lost without a word.
    if (const Status inPlace = m_store->stillInPlace(); !inPlace) {
        leaveGoneStore(inPlace.error().message);
        return;
    }
    if (m_storeLostSinceMs >= 0)
        return; // the reconnect timer is at work
    int load = m_host ? m_host->count() : 0;
    for (const RunExecution *execution : std::as_const(m_executions))
        load += execution->runningCount();
    const Status beat = m_lease->heartbeat(m_clock->nowMs(), load);
    if (!beat && beat.error().kind == ErrorKind::Unavailable) {
        storeLost(beat.error().message);
        return;
    }
    if (!beat && beat.error().kind == ErrorKind::Fenced) {
        fencedOut(beat.error().message);
        return;
    }
    m_ledger->claimWriting(); // the writer of the ledger may have gone
    // Retention reads every finished run of the chains that set it: once a minute is enough.
    if (const qint64 now = m_clock->nowMs(); now - m_lastPruneMs >= 60000) {
        m_lastPruneMs = now;
        pruneRuns();
        // Engines an hour behind the change feed reload everything instead.
        (void)DefinitionChangeRepository(*m_store).prune(qint64(3600) * 1000);
    }
    // Sessions whose lease ran out are taken over: their runs are queued again here.
    if (const Result<QList<qint64>> recovered =
            Recovery(*m_store).recover(m_lease->fence(), m_clock->nowMs());
        recovered && !recovered->isEmpty()) {
        m_claimMore = true;
        scheduleDispatch();
    }
    // Offered attempts: a notification missed, an end the store refused, a claim half-made.
    if (m_board)
        m_board->look();
    if (m_host) {
        m_host->reconcile();
        m_offersWaiting = true;
        scheduleDispatch();
    }
}

void Engine::pruneRuns()
{
    if (!m_config.runSchedules || m_shuttingDown || m_storeLostSinceMs >= 0)
        return;
    // What is due is read once (each limited chain's runs through its index) and removed in
    // small batches, one per turn of the event loop, so claims and task ends are never held up
    // for long. (Read again for every batch, a backlog on a store of 10 M runs held the engine
    // seconds at a time.)
    constexpr int batch = 200;
    constexpr int readAtOnce = 50000;
    if (m_pruneQueue.isEmpty()) {
        const Result<QList<RunRetention::Expired>> due =
            RunRetention(*m_store).due(m_clock->nowMs(), std::nullopt, readAtOnce);
        if (due) {
            for (const RunRetention::Expired &run : due.value())
                m_pruneQueue << run.runId;
        }
        m_pruneMore = due && due->size() == readAtOnce;
    }
    if (!m_pruneQueue.isEmpty()) {
        const qsizetype count = std::min<qsizetype>(batch, m_pruneQueue.size());
        const Result<int> removed = RunRetention(*m_store).remove(m_pruneQueue.first(count));
        m_pruneQueue.remove(0, count);
        // Refused, or another engine holds the retention lock: read again next minute.
        if (!removed || removed.value() == 0)
            m_pruneQueue.clear();
        if (!m_pruneQueue.isEmpty() || (removed && removed.value() > 0 && m_pruneMore)) {
            QTimer::singleShot(50, this, &Engine::pruneRuns);
            return;
        }
    }
    // The ledger's rows go as the runs beside them do, once the runs are done with.
    if (!m_ledger->isWriting())
        return;
    for (const Chain &chain : std::as_const(m_chains)) {
        if (chain.retention.isSet())
            (void)OccurrenceRepository(*m_store).applyRetention(chain, m_clock->nowMs());
    }
}

void Engine::wake()
{
    if (m_wakePending)
        return;
    m_wakePending = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_wakePending = false;
            processCommands();
        },
        Qt::QueuedConnection);
}

void Engine::storeLost(const QString &why)
{
    if (m_storeLostSinceMs >= 0 || !m_store)
        return;
    m_storeLostSinceMs = m_clock->nowMs();
    m_recorder->hold();
    m_timer.stop();
    qWarning("hourglass: the store cannot be used (%s); running tasks go on, nothing new "
             "starts until it is back",
             qUtf8Printable(why));
    Q_EMIT storeReachabilityChanged(m_storeLostSinceMs, why);
    m_reconnectDelayMs = m_config.storeRetryMs;
    m_reconnectTimer.start(m_reconnectDelayMs);
}

void Engine::leaveGoneStore(const QString &why)
{
    if (m_shuttingDown)
        return;
    qCritical("hourglass: %s; this engine stops, and its tasks with it: nothing it would "
              "record could be kept",
              qUtf8Printable(why));
    Q_EMIT storeGone(why);
    shutdown(ExitPolicy::Stop);
}

void Engine::reconnect()
{
    if (m_storeLostSinceMs < 0 || !m_store)
        return;
    const auto retryLater = [this] {
        m_reconnectDelayMs = std::min(m_reconnectDelayMs * 2, m_config.storeRetryMaxMs);
        m_reconnectTimer.start(m_reconnectDelayMs);
    };
    if (m_unregistered) { // fenced out, and another engine held the store: register anew
        if (const Status again = m_lease->acquire(m_clock->nowMs()); !again) {
            retryLater();
            return;
        }
        m_unregistered = false;
        m_storeLostSinceMs = -1;
        qInfo("hourglass: engine '%s' registered again", qUtf8Printable(m_config.name));
        Q_EMIT storeReachabilityChanged(-1, QString());
        m_recorder->setFence(m_lease->fence());
        m_commands->setSessionId(m_lease->sessionId());
        m_claimMore = true;
        if (m_config.runSchedules)
            reloadSchedules();
        scheduleDispatch();
        return;
    }
    if (!m_store->reconnect()) {
        retryLater();
        return;
    }
    // Back: is the claim still ours? Then what was held is written, and work goes on.
    int load = 0;
    for (const RunExecution *execution : std::as_const(m_executions))
        load += execution->runningCount();
    const Status beat = m_lease->heartbeat(m_clock->nowMs(), load);
    if (!beat && beat.error().kind == ErrorKind::Unavailable) {
        retryLater();
        return;
    }
    if (!beat) {
        m_storeLostSinceMs = -1;
        fencedOut(beat.error().message);
        // Another engine holds the store now (SQLite: a run --wait took it while this one was
        // away): fencedOut() keeps trying to register. Not "back" yet — going on here said it
        // was and left the engine unregistered for good, its runs queued (the torture test
        // found it behind a full disk).
        if (m_unregistered)
            return;
    } else {
        // Attempts are never held (an insert needs the store), so their lines can go first.
        m_logs->flushBeforeHeldChanges();
        if (!m_recorder->flushHeld()) {
            retryLater();
            return;
        }
    }
    m_storeLostSinceMs = -1;
    m_logs->flush();
    if (m_storeLostSinceMs >= 0)
        return; // the held output did not fit (a full disk): still away, tried again later
    qInfo("hourglass: the store is back");
    Q_EMIT storeReachabilityChanged(-1, QString());
    if (m_shuttingDown)
        return;
    m_ledger->connectionRenewed();
    m_ledger->claimWriting();
    if (m_config.runSchedules) {
        m_storeCameBack = true;
        reloadSchedules(); // definitions may have changed meanwhile; what came due fires now
        m_storeCameBack = false;
    }
    m_claimMore = true;
    for (qint64 runId : std::exchange(m_admitWhenBack, {}))
        admitRun(runId);
    scheduleDispatch();
}

void Engine::fencedOut(const QString &why)
{
    qWarning("hourglass: engine '%s' lost its session (%s); its runs were taken over and its "
             "tasks here are stopped",
             qUtf8Printable(m_config.name), qUtf8Printable(why));
    for (RunExecution *execution : std::as_const(m_executions))
        execution->abandon();
    if (m_host)
        m_host->abandonAll();
    m_recorder->dropHeld();
    m_logs->dropAll();
    m_queuedRuns.clear();
    m_knownQueued.clear();
    Q_EMIT leaseLost(why);
    if (m_shuttingDown)
        return;
    m_lease->forget();
    if (const Status again = m_lease->acquire(m_clock->nowMs()); !again) {
        // Another engine has the store now (on SQLite, a `run --wait` running its chain
        // in-process while this one slept): wait for it to leave, as for a store that went
        // away, rather than end a service that nothing asked to end.
        qWarning("hourglass: cannot register again yet (%s); trying again until it can",
                 qUtf8Printable(again.error().message));
        m_unregistered = true;
        m_storeLostSinceMs = m_clock->nowMs();
        m_reconnectDelayMs = m_config.storeRetryMs;
        m_reconnectTimer.start(m_reconnectDelayMs);
        return;
    }
    m_recorder->setFence(m_lease->fence());
    m_commands->setSessionId(m_lease->sessionId());
    m_claimMore = true;
}

void Engine::runFenced(qint64 runId)
{
    if (RunExecution *execution = m_executions.value(runId); execution && !execution->isAbandoned())
        execution->abandon();
}

} // namespace hg
