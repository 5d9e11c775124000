#include "logbatcher.h"

#include "runrecorder.h"
#include "store/logrepository.h"
#include "store/runownership.h"
#include "store/store.h"
#include "store/taskrunoffers.h"

#include <QSet>

namespace hg {

LogBatcher::LogBatcher(Store &store, RunRecorder &recorder, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_recorder(recorder)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &LogBatcher::flush);
}

LogBatcher::~LogBatcher()
{
    flush();
}

void LogBatcher::add(const LogLine &line)
{
    if (m_recorder.isHolding() && m_pending.size() >= heldLineLimit) {
        Dropped &dropped = m_dropped[{line.runId, line.taskRunId}];
        if (dropped.count++ == 0)
            dropped.firstAt = line.at;
        return;
    }
    m_pending << line;
    if (m_pending.size() >= 500)
        flush();
    else if (!m_timer.isActive())
        m_timer.start();
}

QList<LogLine> LogBatcher::droppedMarkers() const
{
    QList<LogLine> markers;
    for (auto it = m_dropped.cbegin(); it != m_dropped.cend(); ++it) {
        markers << LogLine{0,
                           it.key().first,
                           it.key().second,
                           LogStream::System,
                           it->firstAt,
                           QStringLiteral("%1 lines of output were dropped here while the store "
                                          "could not be written or reached")
                               .arg(it->count)};
    }
    return markers;
}

void LogBatcher::flush()
{
    if (m_recorder.isHolding()) {
        m_timer.stop();
        return;
    }
    flushBeforeHeldChanges();
}

void LogBatcher::flushBeforeHeldChanges()
{
    m_timer.stop();
    if (m_pending.isEmpty() && m_dropped.isEmpty())
        return;
    const QList<LogLine> lines = std::exchange(m_pending, {});
    QList<LogLine> batch = droppedMarkers() + lines;
    const Fence fence = m_recorder.fence();
    const Status written = m_store.transaction([&]() -> Status {
        if (fence.isHeld()) {
            QSet<qint64> runs;
            QSet<qint64> hosted;
            for (const LogLine &line : std::as_const(batch)) {
                if (m_hosted && line.taskRunId > 0 && m_hosted(line.taskRunId))
                    hosted.insert(line.taskRunId);
                else
                    runs.insert(line.runId);
            }
            if (!hosted.isEmpty()) {
                const Result<QList<TaskRunOffers::Look>> looks =
                    TaskRunOffers(m_store).look(hosted.values(), fence);
                if (!looks)
                    return looks.error();
                for (const TaskRunOffers::Look &look : looks.value()) {
                    if (look.stillClaimed)
                        hosted.remove(look.taskRunId);
                }
                // What is left is no longer this engine's to write about.
                batch.removeIf(
                    [&hosted](const LogLine &line) { return hosted.contains(line.taskRunId); });
            }
            RunOwnership ownership(m_store);
            for (qint64 runId : std::as_const(runs)) {
                const Status claim = ownership.check(runId, fence);
                if (!claim && claim.error().kind != ErrorKind::Fenced)
                    return claim;
                if (!claim)
                    batch.removeIf([runId](const LogLine &line) { return line.runId == runId; });
            }
        }
        return LogRepository(m_store).append(batch);
    });
    if (written) {
        m_dropped.clear();
        Q_EMIT linesWritten(batch);
        return;
    }
    if (written.error().kind == ErrorKind::Unavailable) {
        if (m_store.backend() == StoreBackend::Sqlite) {
            // A file that refuses writes (a full disk, say) takes small ones sooner than a
            // big batch: output goes first, counted for the marker, so state changes and the
            // marker itself get through.
            for (const LogLine &line : lines) {
                Dropped &dropped = m_dropped[{line.runId, line.taskRunId}];
                if (dropped.count++ == 0)
                    dropped.firstAt = line.at;
            }
        } else {
            // A server away: back in front of what came meanwhile, up to the held limit; the
            // markers are made again from m_dropped.
            m_pending = lines + m_pending;
        }
        m_recorder.reportUnavailable(written.error().message);
    }
}

void LogBatcher::countPendingAsDropped()
{
    m_timer.stop();
    for (const LogLine &line : std::exchange(m_pending, {})) {
        Dropped &dropped = m_dropped[{line.runId, line.taskRunId}];
        if (dropped.count++ == 0)
            dropped.firstAt = line.at;
    }
}

void LogBatcher::dropAll()
{
    m_timer.stop();
    m_pending.clear();
    m_dropped.clear();
}

} // namespace hg
