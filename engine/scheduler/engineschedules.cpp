// The Engine's schedule half: plans loaded and reloaded, the fire queue and its timer, the
// misfire policies after downtime, sleep, clock steps and pauses, fires made into runs, and
// what became of every fire time (the occurrence ledger). engine.cpp holds the rest.
#include "base/epochtime.h"
#include "clock.h"
#include "desktoptriggerwatch.h"
#include "engine.h"
#include "enginelease.h"
#include "filetriggerwatch.h"
#include "store/chainrepository.h"
#include "store/definitionchangerepository.h"
#include "store/occurrencerepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"

namespace hg {
namespace {

// A fire time the ledger accounts for (skipped, missed, ruled out) is behind the schedule as
// much as its latest run: a reload must not take it for missed again. Only cron, every and
// once schedules have ledger rows, so @after's history stays its runs'.
void foldAccounted(QHash<qint64, RunRepository::ScheduleHistory> &history,
                   const QHash<qint64, qint64> &accounted)
{
    for (auto last = accounted.cbegin(); last != accounted.cend(); ++last) {
        RunRepository::ScheduleHistory &past = history[last.key()];
        past.lastFireMs = std::max(past.lastFireMs, last.value());
    }
}

} // namespace

void Engine::reloadSchedules()
{
    if (!m_store)
        return;
    // What is due now fires under the old plans first: a reload must never swallow a fire.
    if (m_running && !m_plans.isEmpty())
        checkDue();
    if (const Result<qint64> revision = DefinitionChangeRepository(*m_store).revision())
        m_definitionRevision = revision.value();
    const Result<QList<Schedule>> schedules = ScheduleRepository(*m_store).list();
    const Result<QList<Chain>> chains = ChainRepository(*m_store).list();
    Result<QHash<qint64, RunRepository::ScheduleHistory>> history =
        RunRepository(*m_store).scheduleHistory();
    const Result<QHash<qint64, qint64>> accounted = OccurrenceRepository(*m_store).lastAccounted();
    if (!schedules || !chains || !history || !accounted)
        return;
    foldAccounted(history.value(), accounted.value());
    m_chains.clear();
    m_definitions.clear();
    for (const Chain &chain : chains.value())
        m_chains.insert(chain.id, chain);
    const bool firstLoad = m_plans.isEmpty() && m_queue.size() == 0;
    const ScheduleLoader loader(m_config.name, m_config.defaultZone, m_config.lateToleranceMs);
    ScheduleLoader::Loaded loaded = loader.load(schedules.value(), m_chains, history.value(),
                                                m_clock->nowMs(), firstLoad, m_schedulesPaused);
    m_plans = std::move(loaded.plans);
    m_queue = FireQueue();
    queueLoaded(loaded, firstLoad ? OccurrenceCause::Down : loadCause());
    if (m_fileTriggers)
        m_fileTriggers->reload();
    if (m_desktopTriggers)
        m_desktopTriggers->reload();
}

OccurrenceCause Engine::loadCause() const
{
    return m_storeCameBack ? OccurrenceCause::StoreLost : OccurrenceCause::Late;
}

void Engine::queueLoaded(const ScheduleLoader::Loaded &loaded, OccurrenceCause cause)
{
    for (const FireQueue::Due &next : std::as_const(loaded.next))
        m_queue.set(next.scheduleId, next.dueMs);
    QHash<qint64, QList<OccurrenceWalk::Fire>> fired;
    for (const ScheduleLoader::Fire &fire : std::as_const(loaded.fires))
        fired[fire.scheduleId] << fireSchedule(*m_plans.constFind(fire.scheduleId), fire.fireMs);
    for (const ScheduleLoader::Passed &passed : std::as_const(loaded.passed))
        m_ledger->passed(*m_plans.constFind(passed.scheduleId), passed.fromMs, passed.toMs,
                         fired.value(passed.scheduleId), cause);
    if (m_ledger->takeInboxGrew())
        Q_EMIT missedRunsWaiting();
    armTimer();
}

void Engine::applyDefinitionChanges()
{
    const Result<DefinitionChangeRepository::Changes> changes =
        DefinitionChangeRepository(*m_store).since(m_definitionRevision);
    if (!changes || changes->revision == m_definitionRevision)
        return;
    // Pruned past this engine (it was away an hour), or so much changed (an import) that
    // three reads per chain would cost more than one read of everything: reload everything.
    constexpr qsizetype chainsReadOneByOne = 200;
    if (!changes->complete || changes->chainIds.size() > chainsReadOneByOne) {
        reloadSchedules();
        return;
    }
    reloadChains(changes->chainIds, changes->revision);
}

void Engine::reloadChains(const QSet<qint64> &chainIds, qint64 revision)
{
    if (m_running && !m_plans.isEmpty())
        checkDue(); // as in reloadSchedules(): what is due fires under the old plans
    QHash<qint64, Chain> chains;
    QList<Schedule> schedules;
    QHash<qint64, RunRepository::ScheduleHistory> history;
    for (const qint64 chainId : chainIds) {
        const Result<Chain> chain = ChainRepository(*m_store).byId(chainId);
        if (!chain && chain.error().kind != ErrorKind::NotFound)
            return; // unreadable now: the next look tries again from the same revision
        const Result<QList<Schedule>> ofChain = ScheduleRepository(*m_store).list(chainId);
        auto lastRuns = RunRepository(*m_store).scheduleHistory(chainId);
        const auto accounted = OccurrenceRepository(*m_store).lastAccounted(chainId);
        if (!ofChain || !lastRuns || !accounted)
            return;
        if (chain)
            chains.insert(chainId, chain.value());
        schedules += ofChain.value();
        foldAccounted(lastRuns.value(), accounted.value());
        history.insert(lastRuns.value());
    }
    m_definitionRevision = revision;
    for (auto plan = m_plans.begin(); plan != m_plans.end();) {
        if (!chainIds.contains(plan->chainId())) {
            ++plan;
            continue;
        }
        m_queue.remove(plan.key());
        plan = m_plans.erase(plan);
    }
    for (const qint64 chainId : chainIds) {
        m_chains.remove(chainId);
        m_definitions.remove(chainId); // tasks and edges: read again at the next admission
    }
    m_chains.insert(chains);
    const ScheduleLoader loader(m_config.name, m_config.defaultZone, m_config.lateToleranceMs);
    const ScheduleLoader::Loaded loaded =
        loader.load(schedules, m_chains, history, m_clock->nowMs(), false, m_schedulesPaused);
    m_plans.insert(loaded.plans);
    queueLoaded(loaded, loadCause());
    if (m_fileTriggers)
        m_fileTriggers->reload(); // a trigger's changes are its chain's
    if (m_desktopTriggers)
        m_desktopTriggers->reload();
}

void Engine::armTimer()
{
    if (!m_running)
        return;
    const qint64 next = m_queue.nextDueMs();
    if (const qint64 announced = m_schedulesPaused ? -1 : next; announced != m_announcedNextFire) {
        m_announcedNextFire = announced;
        Q_EMIT nextFireChanged(announced);
    }
    if (next < 0 || m_schedulesPaused) {
        m_timer.stop();
        return;
    }
    // At most a second between looks at the wall clock: a resume from sleep or a clock step
    // is noticed within that second.
    const qint64 now = m_clock->nowMs();
    const qint64 delay = std::clamp<qint64>(next - now, 0, 1000);
    m_timer.start(int(delay));
}

void Engine::setSchedulesPaused(bool paused)
{
    if (paused == m_schedulesPaused)
        return;
    m_schedulesPaused = paused;
    armTimer(); // announces the paused state's "no next fire"
    // Resuming: what came due meanwhile is late now, so each schedule's misfire policy
    // decides (skip, once, all), as after downtime.
    if (!paused) {
        m_resuming = true;
        checkDue();
        m_resuming = false;
    } else
        m_timer.stop();
}

void Engine::checkDue()
{
    // The fire timer may be the first to wake after a sleep: the jump is noticed here too,
    // so what it cost is counted before the misfire policies act on it.
    if (m_running && !m_shuttingDown && m_clockWatch.look(&m_lastJump)) {
        reportJump();
        return;
    }
    handleDue(nullptr);
}

void Engine::handleDue(MissedFires *missed)
{
    // While the store is away nothing is taken from the queue: what comes due meanwhile is
    // handled by its misfire policy once the store is back.
    if (!m_running || m_shuttingDown || m_schedulesPaused || m_storeLostSinceMs >= 0)
        return;
    const qint64 now = m_clock->nowMs();
    const std::vector<FireQueue::Due> due = m_queue.takeDue(now);
    const ScheduleLoader loader(m_config.name, m_config.defaultZone, m_config.lateToleranceMs);
    OccurrenceCause cause = m_resuming ? OccurrenceCause::Paused : OccurrenceCause::Late;
    if (missed)
        cause = m_lastJump.kind == ClockWatch::JumpKind::Sleep ? OccurrenceCause::Asleep
                                                               : OccurrenceCause::ClockStep;
    // All fires of this instant in one transaction: one commit instead of one per fire.
    (void)m_store->transaction([&] {
        for (const FireQueue::Due &entry : due) {
            const auto plan = m_plans.constFind(entry.scheduleId);
            if (plan == m_plans.constEnd())
                continue;
            const ScheduleLoader::DueFires fires = loader.due(plan.value(), entry.dueMs, now);
            if (missed && now - entry.dueMs > m_config.lateToleranceMs) {
                // Counted only after a jump: a long sleep can hold very many fire times.
                constexpr int countLimit = 100000;
                int count = 1;
                for (std::optional<qint64> at = plan->nextFireMs(entry.dueMs);
                     at && *at <= now && count < countLimit; at = plan->nextFireMs(*at))
                    ++count;
                missed->atLeast = missed->atLeast || count == countLimit;
                missed->missed += count;
                if (plan->schedule().misfire == MisfirePolicy::Ask)
                    missed->waiting += count;
                missed->chains.insert(plan->chainId());
                missed->runNow[plan->schedule().misfire] += fires.fires.size();
            }
            QList<OccurrenceWalk::Fire> fired;
            for (qint64 fireMs : fires.fires)
                fired << fireSchedule(plan.value(), fireMs);
            // Mostly the one fire time that came due, on time: then no walk is needed.
            if (OccurrenceLedger::accounts(plan.value())
                && (fired.size() != 1 || fired.first().fireMs != entry.dueMs
                    || !m_ledger->passedOnTime(plan.value(), entry.dueMs, now, fired.first(),
                                               fires.nothingBetween)))
                m_ledger->passed(plan.value(), entry.dueMs - 1, std::max(now, entry.dueMs), fired,
                                 cause);
            if (fires.next)
                m_queue.set(entry.scheduleId, *fires.next);
        }
        return Status{};
    });
    if (m_ledger->takeInboxGrew())
        Q_EMIT missedRunsWaiting();
    armTimer();
}

void Engine::watchClock()
{
    if (++m_clockTicks % alertLookTicks == 0)
        checkAlerts();
    if (m_running && !m_shuttingDown && m_clockWatch.look(&m_lastJump))
        reportJump();
}

void Engine::reportJump()
{
    MissedFires missed;
    // Back: the queue holds each schedule's next fire after the last one made, so nothing
    // already fired comes due again (and the (schedule, fire time) key refuses it anyway).
    if (m_lastJump.kind != ClockWatch::JumpKind::StepBack)
        handleDue(&missed);
    armTimer();
    if (m_lastJump.kind == ClockWatch::JumpKind::Sleep && m_desktopTriggers)
        m_desktopTriggers->noteResumed(m_lastJump.toMs);
    Q_EMIT clockJumped(describeJump(m_lastJump, missed));
}

QString Engine::describeJump(const ClockWatch::Jump &jump, const MissedFires &missed) const
{
    const QString length = ClockWatch::describeLength(jump.lengthMs());
    switch (jump.kind) {
    case ClockWatch::JumpKind::StepBack:
        return tr("The clock went back %1: nothing fires twice; schedules go on from their "
                  "next fire time")
            .arg(length);
    case ClockWatch::JumpKind::Sleep:
    case ClockWatch::JumpKind::StepForward:
        break;
    }
    const QString what = jump.kind == ClockWatch::JumpKind::Sleep
                             ? tr("Asleep %1").arg(length)
                             : tr("The clock jumped forward %1").arg(length);
    if (m_schedulesPaused)
        return tr("%1: schedules are paused; their misfire policies decide on resume").arg(what);
    if (m_storeLostSinceMs >= 0)
        return tr("%1: the store is unreachable; missed runs are decided once it is back")
            .arg(what);
    if (missed.missed == 0)
        return tr("%1: no run missed").arg(what);
    qint64 runNow = 0;
    QStringList byPolicy;
    for (auto policy = missed.runNow.cbegin(); policy != missed.runNow.cend(); ++policy) {
        runNow += policy.value();
        if (policy.value() > 0)
            byPolicy << tr("policy %1").arg(enumName(policy.key()));
    }
    const QString count =
        missed.atLeast ? tr("at least %1").arg(missed.missed) : QString::number(missed.missed);
    QString ran = tr("%1 run now").arg(runNow);
    if (!byPolicy.isEmpty())
        ran += QStringLiteral(" (%1)").arg(byPolicy.join(QStringLiteral(", ")));
    // Policy ask neither runs nor drops: those wait in the missed-runs inbox.
    if (missed.waiting > 0)
        ran += tr(", %1 wait for a decision (policy ask)").arg(missed.waiting);
    const QString skipped =
        missed.atLeast ? tr("the rest") : QString::number(missed.missed - runNow - missed.waiting);
    // No %n: the command line runs without a translator, and "chain(s)" reads badly there.
    if (missed.chains.size() == 1)
        return tr("%1: %2 runs of one chain missed; %3, %4 skipped").arg(what, count, ran, skipped);
    return tr("%1: %2 runs of %3 chains missed; %4, %5 skipped")
        .arg(what, count, QString::number(missed.chains.size()), ran, skipped);
}

OccurrenceWalk::Fire Engine::fireSchedule(const SchedulePlan &plan, qint64 fireMs)
{
    using Fired = OccurrenceWalk::Fired;
    // The chain as loaded with the schedules (reloadSchedules() runs when definitions change).
    const auto chain = m_chains.constFind(plan.chainId());
    if (chain == m_chains.constEnd())
        return {fireMs, Fired::Failed};
    if (chain->maxInstances > 0 && occupancy().skipsFire(chain.value()))
        return {fireMs, Fired::SkippedOverlap}; // the chain is at its limit
    if (chain->needsNetwork && !networkUp())
        return {fireMs, Fired::SkippedOffline}; // the ledger says so
    // The engine that makes the run owns it while it has room; beyond that, on a shared store,
    // the run is left to any engine (claimQueuedRuns), so a burst of fires spreads over the
    // engines. On SQLite this engine is the only one: it keeps them all.
    const bool keep =
        m_store->backend() == StoreBackend::Sqlite || m_queuedRuns.size() < claimRoom();
    const Result<RunRepository::Inserted> inserted =
        RunRepository(*m_store).insertScheduled(chain->id, plan.scheduleId(), utcFromMs(fireMs),
                                                keep ? m_lease->fence() : Fence{}, m_config.name);
    if (!inserted)
        return {fireMs, Fired::Failed};
    if (!inserted->created) // another engine (or an earlier pass) already made this fire's run
        return {fireMs, Fired::Elsewhere, inserted->run.id};
    if (!keep) {
        m_claimMore = true; // this engine takes its share as soon as it has room
        scheduleDispatch();
        return {fireMs, Fired::Made, inserted->run.id};
    }
    m_queuedRuns << inserted->run.id;
    m_knownQueued.insert(inserted->run.id, inserted->run);
    Q_EMIT runChanged(inserted->run);
    scheduleDispatch();
    return {fireMs, Fired::Made, inserted->run.id};
}

} // namespace hg
