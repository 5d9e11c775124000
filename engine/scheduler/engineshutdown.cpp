// The Engine's end: shutdown within the grace period, what a stopped engine held written by
// the next one, and the chains that remove themselves after success.
#include "admission.h"
#include "alertwatch.h"
#include "base/epochtime.h"
#include "clock.h"
#include "commandpump.h"
#include "desktoptriggerwatch.h"
#include "elsewherewatch.h"
#include "engine.h"
#include "enginelease.h"
#include "filetriggerwatch.h"
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

namespace hg {

void Engine::shutdown(ExitPolicy policy)
{
    if (!m_running || m_shuttingDown)
        return;
    m_shuttingDown = true;
    // What was still settling is not in the snapshot: the next start finds it as missed.
    m_fileTriggers.reset();
    m_desktopTriggers.reset();
    m_timer.stop();
    m_clockTimer.stop();
    m_commandTimer.stop();
    if (policy == ExitPolicy::Stop)
        stopEverything();
    if (nothingRuns())
        finishShutdown();
}

void Engine::shutdownHarder()
{
    if (!m_running)
        return;
    if (!m_shuttingDown) {
        shutdown(ExitPolicy::Stop);
        return;
    }
    // Asked again: an engine letting its tasks finish now stops them; one that is already
    // stopping them ends at once.
    if (m_shutdownDeadline.isActive())
        forceShutdown();
    else
        stopEverything();
}

void Engine::stopEverything()
{
    // Tasks get TERM now and KILL after the grace period; whatever still has not ended then
    // (an execution waiting on a store that will not answer, a run whose rows went) must not
    // keep the engine: SIGTERM always ends it.
    m_shutdownDeadline.start(m_config.graceMs + shutdownSlackMs);
    RunOwnership ownership(*m_store);
    for (RunExecution *execution : std::as_const(m_executions)) {
        if (execution->isAbandoned())
            continue;
        // Claimed but not begun (waiting for a slot): queued again whole, for the next
        // engine, rather than cancelled — a stop must not lose what a crash would not.
        if (!execution->startedAnyTask() && ownership.release(execution->run().id)) {
            execution->abandon();
            continue;
        }
        execution->stop(RunState::Cancelled, tr("stopped: the engine shut down"));
    }
    if (m_host)
        m_host->stopAll();
}

void Engine::forceShutdown()
{
    if (!m_running)
        return;
    QStringList ids;
    for (auto it = m_executions.cbegin(); it != m_executions.cend(); ++it)
        ids << QStringLiteral("%1 (%2 task(s) running%3)")
                   .arg(it.key())
                   .arg(it.value()->runningCount())
                   .arg(it.value()->isAbandoned() ? QStringLiteral(", abandoned") : QString());
    qWarning("hourglass: run(s) %s did not end within the grace period; they are left for the "
             "next engine to recover, and their processes are killed",
             qUtf8Printable(ids.join(QStringLiteral(", "))));
    for (RunExecution *execution : std::as_const(m_executions)) {
        if (!execution->isAbandoned())
            execution->abandon();
    }
    if (m_host)
        m_host->abandonAll();
    finishShutdown();
}

Status Engine::writeHeldJournal()
{
    if (m_store->backend() != StoreBackend::Sqlite)
        return {}; // on a server the session expires and another engine takes the runs over
    QStringList files;
    const HeldJournal journal(m_store->location().sqlitePath(), m_store->fileIdentity());
    const Result<HeldJournal::Contents> held = journal.load(&files);
    if (!held)
        return held.error();
    for (const QString &foreign : journal.foreignFiles())
        qWarning("hourglass: %s holds what an engine held for another store once at this path "
                 "(deleted or replaced since): not applied here, left as it is",
                 qUtf8Printable(foreign));
    if (held->changes.isEmpty() && held->lines.isEmpty()) {
        HeldJournal::remove(files);
        return {};
    }
    QList<LogLine> lines = held->lines;
    const Status written = m_store->transaction([&]() -> Status {
        if (const Status changes = m_recorder->writeJournal(held->changes); !changes)
            return changes;
        // A marker of a run removed since refers to nothing: it goes with the run.
        const Status markers = LogRepository(*m_store).append(lines);
        return !markers && markers.error().kind == ErrorKind::Invalid ? Status{} : markers;
    });
    if (!written)
        return Error(written.error().kind,
                     tr("what an engine held when it stopped (%1) cannot be written to the store "
                        "yet: %2; nothing is started or recovered until it can")
                         .arg(files.join(QStringLiteral(", ")), written.error().message));
    qInfo("hourglass: recorded %lld state changes that a stopped engine had held (%s)",
          qlonglong(held->changes.size()), qUtf8Printable(files.join(QStringLiteral(", "))));
    HeldJournal::remove(files);
    return {};
}

void Engine::finishShutdown()
{
    if (!m_running)
        return;
    m_running = false;
    m_heartbeatTimer.stop();
    m_reconnectTimer.stop();
    m_logs->flush();
    // Lines the flush could not write (the recorder holds, so it did not try) are not kept:
    // the marker says how many, or output would vanish unsaid.
    m_logs->countPendingAsDropped();
    // The store still refuses writes: what was held goes to a journal for the next engine,
    // so a task that ended here is not taken for interrupted and run again. So does the
    // marker of dropped output that the last flush could not write, also when every state
    // change got through (the run's end is small; the marker may still not fit).
    const bool heldChanges = m_storeLostSinceMs >= 0 && m_recorder->heldCount() > 0;
    const QList<LogLine> markers = m_logs->droppedMarkers();
    if (m_store->backend() == StoreBackend::Sqlite && (heldChanges || !markers.isEmpty())) {
        const QList<RunRecorder::Held> changes =
            heldChanges ? m_recorder->held() : QList<RunRecorder::Held>{};
        const Result<QString> saved =
            HeldJournal(m_store->location().sqlitePath(), m_store->fileIdentity())
                .save({changes, markers});
        if (saved)
            qWarning("hourglass: %lld state change%s and %lld note%s of dropped output could "
                     "not be written to the store; kept in %s and recorded when an engine next "
                     "opens it",
                     qlonglong(changes.size()), changes.size() == 1 ? "" : "s",
                     qlonglong(markers.size()), markers.size() == 1 ? "" : "s",
                     qUtf8Printable(saved.value()));
        else
            qWarning("hourglass: %s", qUtf8Printable(saved.error().message));
    }
    for (const qint64 chainId : QSet<qint64>(m_selfDestructs))
        removeSelfDestructed(chainId);
    m_shutdownDeadline.stop();
    // With the store away the session is left to expire: its held writes are lost, and the
    // next engine recovers those runs as interrupted.
    if (m_storeLostSinceMs < 0)
        m_lease->release();
    Q_EMIT stopped();
}

void Engine::selfDestructLater(const Chain &chain)
{
    // Disabled now, so none of its schedules fires again; removed a few seconds later, so a
    // `run --wait` polling the store reads the run's end and last output before they go
    // with the chain. Shutdown removes what is still pending.
    Chain disabled = chain;
    disabled.enabled = false;
    (void)ChainRepository(*m_store).update(disabled);
    m_selfDestructs.insert(chain.id);
    QTimer::singleShot(selfDestructDelayMs, this,
                       [this, id = chain.id] { removeSelfDestructed(id); });
    applyDefinitionChanges();
    if (m_shuttingDown && nothingRuns())
        finishShutdown();
    else
        scheduleDispatch();
}

void Engine::removeSelfDestructed(qint64 chainId)
{
    if (!m_selfDestructs.remove(chainId) || !m_store)
        return;
    const Status removed = ChainRepository(*m_store).remove(chainId);
    if (!removed && removed.error().kind == ErrorKind::Invalid && m_running && !m_shuttingDown) {
        // Another of its runs has not ended (RunsInFlight): removed once it has.
        m_selfDestructs.insert(chainId);
        QTimer::singleShot(selfDestructDelayMs, this,
                           [this, chainId] { removeSelfDestructed(chainId); });
        return;
    }
    if (!removed && removed.error().kind != ErrorKind::NotFound)
        qWarning("hourglass: a self-destructing chain (id %lld) stays: %s", qlonglong(chainId),
                 qUtf8Printable(removed.error().message));
    if (m_running)
        applyDefinitionChanges();
}

} // namespace hg
