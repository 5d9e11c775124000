#pragma once

#include "domain/logline.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

namespace hg {

class RunRecorder;
class Store;

// Collects log lines and writes them in one transaction every 100 ms (or every 500 lines),
// then announces the written batch: the store is not hit once per line and the GUI gets a
// few events per second instead of thousands.
//
// Lines of a run this engine no longer owns are dropped (fencing, as for its states). While
// the store cannot be reached, lines wait in memory up to a bound; beyond it they are dropped
// and counted, and once the store is back each task's log says how many went missing.
class LogBatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogBatcher)

public:
    static constexpr qsizetype heldLineLimit = 20000;

    LogBatcher(Store &store, RunRecorder &recorder, QObject *parent = nullptr);
    ~LogBatcher() override;

    void add(const LogLine &line);
    void flush();
    // The store is back and the recorder still holds the state changes it kept back: the
    // output goes first, so that a run's end is never stored before its last lines (a
    // `run --wait` that saw the end printed what was there and missed them).
    void flushBeforeHeldChanges();
    // Lines of runs that are no longer this engine's (it was fenced).
    void dropAll();
    // Lines of attempts this engine runs for another engine's run (a shared store): checked
    // against the attempt's claim rather than the run's.
    void setHosted(std::function<bool(qint64 taskRunId)> hosted) { m_hosted = std::move(hosted); }
    // Lines still waiting when the engine must stop while the store refuses them: counted
    // for the markers (which go to the HeldJournal), so no output goes missing unsaid.
    void countPendingAsDropped();
    // One line per attempt that lost output, saying how many lines (for HeldJournal too).
    QList<LogLine> droppedMarkers() const;
    qsizetype pendingCount() const { return m_pending.size(); }

Q_SIGNALS:
    void linesWritten(const QList<hg::LogLine> &lines);

private:
    Store &m_store;
    RunRecorder &m_recorder;
    QList<LogLine> m_pending;
    // (run id, task run id) -> lines dropped while the store was away, with the first's time
    struct Dropped
    {
        qint64 count = 0;
        QDateTime firstAt;
    };
    QHash<std::pair<qint64, qint64>, Dropped> m_dropped;
    QTimer m_timer;
    std::function<bool(qint64)> m_hosted;
};

} // namespace hg
