#pragma once

#include "domain/chaintrigger.h"
#include "store/filetriggerrepository.h"

#include <QObject>
#include <QTimer>

#include <deque>
#include <functional>

namespace hg {

class Store;

// What becomes of a file trigger's settled files: a run each, or gathered into one run (the
// batch window, the storm guard, misfire policy once) with the list in ${trigger.paths}, or
// only noted (an event the trigger does not want, misfire policy skip). Gathered files wait
// in the store (file_trigger_seen.waiting), so a stop before their run loses none.
class FileTriggerRuns final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileTriggerRuns)

public:
    struct Settled
    {
        FileTriggerRepository::Version version; // for a deletion, the version last seen
        FileEvent event = FileEvent::Created;
        bool missed = false; // arrived while no engine watched
    };

    // monotonicMs and wallMs: the engine's clocks.
    FileTriggerRuns(const ChainTrigger &trigger, Store &store, std::function<qint64()> monotonicMs,
                    std::function<qint64()> wallMs, QObject *parent = nullptr);

    // The snapshot as read at start; its waiting files go into the next run.
    void load(const QHash<QString, FileTriggerRepository::Seen> &seen);
    const QHash<QString, FileTriggerRepository::Seen> &seen() const { return m_seen; }
    // Why files arrived unwatched, in the ledger: no engine ran (the default), or the
    // trigger was paused (or its chain disabled) under a running engine.
    void setMissedCause(OccurrenceCause cause) { m_missedCause = cause; }
    // False: the store refused; nothing changed, the caller tries again later.
    bool take(const QList<Settled> &settled, bool missedStillSettling);
    // One run for the waiting files now, if the storm guard allows (the timer calls it when
    // it should; tests call it after moving their clock). False: the store refused.
    bool flushNow() { return flush(); }
    // Where the lists of gathered runs are kept (files older than 30 days are removed).
    static QString listFolder();
    // Writes the list of a gathered run (one path a line) named after the trigger and the
    // run's key; its path, or empty when it could not be written.
    static QString writeList(qint64 triggerId, const QList<FileTriggerRepository::Seen> &files,
                             const QString &key);

Q_SIGNALS:
    void runsStarted(int count);

private:
    bool guardFull() const; // the storm guard allows no run now
    void noteStarted(int count);
    qint64 guardOpensInMs() const;
    void armFlush();
    // One run for every waiting file.
    bool flush();
    // A ledger row for these files: their count, the span of their modification times, names.
    static Occurrence ledgerRow(const QList<FileTriggerRepository::Seen> &files,
                                OccurrenceOutcome outcome, OccurrenceCause cause);

    ChainTrigger m_trigger;
    Store &m_store;
    std::function<qint64()> m_monotonicMs;
    std::function<qint64()> m_wallMs;
    QHash<QString, FileTriggerRepository::Seen> m_seen;
    std::deque<qint64> m_recentStarts; // monotonic ms of the last minute's runs
    qint64 m_batchOpenedMs = -1;
    qint64 m_gatheredByGuard = 0; // of the waiting files, those the storm guard held
    bool m_waitingMissed = false; // waiting files include ones that arrived unwatched
    bool m_holdForMissed = false; // misfire once: wait until every missed file settled
    QTimer m_flushTimer;
    OccurrenceCause m_missedCause = OccurrenceCause::Down;
};

} // namespace hg
