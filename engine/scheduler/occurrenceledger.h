#pragma once

#include "domain/occurrence.h"
#include "occurrencewalk.h"

#include <QHash>
#include <QList>

#include <optional>
#include <utility>

namespace hg {

class SchedulePlan;
class Store;

// The engine's side of the occurrence ledger: for each schedule, how far its fire times are
// accounted for, and the ledger row its latest outcome went to, which the next equal
// outcome extends instead of adding a row. Runs are not written here (they are the ledger's
// "ran" entries); a run only ends the row before it.
//
// Only cron, every and once schedules have fire times to account for: @reboot and @after
// fire on events.
//
// On a shared store every engine computes every schedule, so one engine writes the ledger:
// the one holding a session-level advisory lock (taken at start and tried again at each
// heartbeat, so another engine takes over when the writer goes). The others keep count of
// what they accounted for, and write nothing.
class OccurrenceLedger final
{
public:
    explicit OccurrenceLedger(Store &store)
        : m_store(store)
    {}

    static bool accounts(const SchedulePlan &plan);

    // The fire times of the plan in (its accounted time, toMs] have passed: fires are those
    // the engine fired, oldest first; the rest passed unrun for cause. fallbackFromMs: where
    // the accounting starts when this ledger has not seen the schedule yet.
    void passed(const SchedulePlan &plan, qint64 fallbackFromMs, qint64 toMs,
                const QList<OccurrenceWalk::Fire> &fires, OccurrenceCause cause);
    // The usual case, taken without a walk: exactly the fire at dueMs came due, on time, and
    // the caller knows no fire time lies between it and nowMs (ScheduleLoader::DueFires::
    // nothingBetween). False: the caller walks with passed().
    bool passedOnTime(const SchedulePlan &plan, qint64 dueMs, qint64 nowMs,
                      const OccurrenceWalk::Fire &fire, bool nothingBetween);
    // Accounted up to atMs without a walk (a paused load: the resume walks).
    void accountedUpTo(qint64 scheduleId, qint64 atMs) { m_upTo.insert(scheduleId, atMs); }
    void forget(qint64 scheduleId);

    // Becomes the ledger's writer if no engine is (always on SQLite, one engine per file).
    void claimWriting();
    // A new connection to the store: a lock the old one held is gone with it.
    void connectionRenewed() { m_writing = false; }
    bool isWriting() const { return m_writing; }
    // Whether rows went to the missed-runs inbox since the last call (the engine then says so).
    bool takeInboxGrew() { return std::exchange(m_inboxGrew, false); }

private:
    void write(const SchedulePlan &plan, const OccurrenceWalk::Segment &segment);

    struct Tail
    {
        qint64 rowId = 0;
        OccurrenceWalk::Segment segment;
    };
    Store &m_store;
    bool m_writing = false;
    bool m_inboxGrew = false;
    QHash<qint64, qint64> m_upTo; // schedule -> fire times up to here are accounted for
    QHash<qint64, Tail> m_tails;  // schedule -> its latest ledger row, while no run followed
};

} // namespace hg
