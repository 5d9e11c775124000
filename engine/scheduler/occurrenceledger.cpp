#include "occurrenceledger.h"

#include "scheduleplan.h"
#include "store/occurrencerepository.h"
#include "store/store.h"
#include "store/storequery.h"

namespace hg {

bool OccurrenceLedger::accounts(const SchedulePlan &plan)
{
    return plan.kind() == ScheduleKind::Cron || plan.kind() == ScheduleKind::Every
           || plan.kind() == ScheduleKind::Once;
}

void OccurrenceLedger::claimWriting()
{
    if (m_writing)
        return;
    if (m_store.backend() != StoreBackend::PostgreSql) {
        m_writing = true;
        return;
    }
    // 'HGLEDGER' in ASCII: a key no other lock of Hourglass uses.
    constexpr qint64 ledgerLockKey = 0x48474c4544474552;
    StoreQuery lock(m_store, QStringLiteral("SELECT pg_try_advisory_lock(?)"));
    lock.bind(ledgerLockKey);
    m_writing = lock.execSingle(QStringLiteral("take the ledger lock"), {}) && lock.boolean(0);
}

void OccurrenceLedger::passed(const SchedulePlan &plan, qint64 fallbackFromMs, qint64 toMs,
                              const QList<OccurrenceWalk::Fire> &fires, OccurrenceCause cause)
{
    auto upTo = m_upTo.find(plan.scheduleId());
    if (upTo == m_upTo.end())
        upTo = m_upTo.insert(plan.scheduleId(), fallbackFromMs);
    const qint64 fromMs = upTo.value();
    if (toMs <= fromMs)
        return;
    for (const OccurrenceWalk::Segment &segment :
         OccurrenceWalk::walk(plan, fromMs, toMs, fires, cause))
        write(plan, segment);
    m_upTo.insert(plan.scheduleId(), toMs);
}

bool OccurrenceLedger::passedOnTime(const SchedulePlan &plan, qint64 dueMs, qint64 nowMs,
                                    const OccurrenceWalk::Fire &fire, bool nothingBetween)
{
    if (!nothingBetween || plan.hasCalendar() || fire.what == OccurrenceWalk::Fired::Failed)
        return false;
    if (fire.what == OccurrenceWalk::Fired::SkippedOverlap)
        write(plan, {OccurrenceOutcome::SkippedOverlap, OccurrenceCause::None, dueMs, dueMs, 1, 0,
                     InboxState::None});
    else if (fire.what == OccurrenceWalk::Fired::SkippedOffline)
        write(plan, {OccurrenceOutcome::SkippedOffline, OccurrenceCause::None, dueMs, dueMs, 1, 0,
                     InboxState::None});
    else
        m_tails.remove(plan.scheduleId()); // a run: the next outcome starts a new row
    m_upTo.insert(plan.scheduleId(), std::max(dueMs, nowMs));
    return true;
}

void OccurrenceLedger::forget(qint64 scheduleId)
{
    m_upTo.remove(scheduleId);
    m_tails.remove(scheduleId);
}

void OccurrenceLedger::write(const SchedulePlan &plan, const OccurrenceWalk::Segment &segment)
{
    const qint64 scheduleId = plan.scheduleId();
    if (segment.outcome == OccurrenceOutcome::Ran || !m_writing) {
        m_tails.remove(scheduleId);
        return;
    }
    OccurrenceRepository repository(m_store);
    if (const auto tail = m_tails.find(scheduleId);
        tail != m_tails.end() && tail->segment.continuedBy(segment)
        && repository.extend(tail->rowId, segment.lastMs, segment.count)) {
        tail->segment.lastMs = segment.lastMs;
        tail->segment.count += segment.count;
        m_inboxGrew = m_inboxGrew || segment.inbox == InboxState::Pending;
        return;
    }
    Occurrence row;
    row.scheduleId = scheduleId;
    row.chainId = plan.chainId();
    row.outcome = segment.outcome;
    row.cause = segment.cause;
    row.firstFireMs = segment.firstMs;
    row.lastFireMs = segment.lastMs;
    row.count = segment.count;
    row.runId = segment.runId;
    row.inbox = segment.inbox;
    const Result<qint64> id = repository.insert(row);
    if (id) {
        m_tails.insert(scheduleId, Tail{id.value(), segment});
        m_inboxGrew = m_inboxGrew || segment.inbox == InboxState::Pending;
    } else {
        m_tails.remove(scheduleId); // the store refused: the next outcome tries a new row
    }
}

} // namespace hg
