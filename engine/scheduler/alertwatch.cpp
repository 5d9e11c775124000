#include "alertwatch.h"

#include "clockwatch.h"
#include "scheduleplan.h"
#include "store/alertrepository.h"
#include "store/store.h"

#include <algorithm>

namespace hg {
namespace {

constexpr qint64 dayMs = qint64(24) * 3600 * 1000;
constexpr int medianOf = 20;
constexpr int relativeNeeds = 5;

QString length(qint64 ms)
{
    return ClockWatch::describeLength(ms);
}

} // namespace

AlertWatch::Limit AlertWatch::limit(const Run &run, qint64 absoluteMs, double factor, bool above,
                                    std::optional<QList<qint64>> &recent) const
{
    if (absoluteMs > 0)
        return {absoluteMs, above ? tr("more than %1").arg(length(absoluteMs))
                                  : tr("less than %1").arg(length(absoluteMs))};
    if (factor <= 0)
        return {};
    if (!recent) {
        const Result<QList<qint64>> read =
            AlertRepository(m_store).recentDurations(run.chainId, run.id, medianOf);
        recent = read ? read.value() : QList<qint64>();
    }
    if (recent->size() < relativeNeeds)
        return {};
    QList<qint64> sorted = *recent;
    std::sort(sorted.begin(), sorted.end());
    const qint64 median = sorted.at(sorted.size() / 2);
    const auto times = QString::number(factor, 'g', 3);
    return {qint64(double(median) * factor),
            above ? tr("more than %1x the median of the last %2 runs (%3)")
                        .arg(times)
                        .arg(sorted.size())
                        .arg(length(median))
                  : tr("less than %1x the median of the last %2 runs (%3)")
                        .arg(times)
                        .arg(sorted.size())
                        .arg(length(median))};
}

void AlertWatch::reloadRules()
{
    // A failed read keeps the rules known before: an alert is best effort.
    if (Result<QHash<qint64, AlertRules>> all = AlertRepository(m_store).all()) {
        m_rules = std::move(all.value());
        m_rulesRead = true;
    }
}

AlertWatch::Limit AlertWatch::ceiling(const Run &run) const
{
    const AlertRules rules = rulesOf(run.chainId);
    std::optional<QList<qint64>> recent;
    return limit(run, rules.longerThanMs, rules.longerThanFactor, true, recent);
}

AlertWatch::Limit AlertWatch::floor(const Run &run) const
{
    const AlertRules rules = rulesOf(run.chainId);
    std::optional<QList<qint64>> recent;
    return limit(run, rules.shorterThanMs, rules.shorterThanFactor, false, recent);
}

std::optional<Alert> AlertWatch::raise(const Run &run, AlertKind kind, qint64 atMs,
                                       const QString &detail, qint64 nowMs)
{
    Alert alert;
    alert.chainId = run.chainId;
    alert.runId = run.id;
    alert.kind = kind;
    alert.atMs = atMs;
    alert.detail = detail;
    alert.raisedAtMs = nowMs;
    const Result<qint64> id = AlertRepository(m_store).record(alert);
    if (!id)
        return std::nullopt; // best effort, as the ledger: an alert never stops a run
    alert.id = id.value();
    return alert;
}

QList<Alert> AlertWatch::runStarted(const Run &run, qint64 nowMs)
{
    if (m_running.contains(run.id) || !run.startedAt.isValid())
        return {};
    if (!m_rulesRead)
        reloadRules();
    const std::optional<AlertRules> rules =
        m_rules.contains(run.chainId) ? std::optional(m_rules.value(run.chainId)) : std::nullopt;
    if (!rules || !rules->isSet()) {
        m_running.insert(run.id, {});
        return {};
    }
    QList<Alert> raised;
    // Late: a run of a fire time, or of a trigger (its scheduled_for is when the trigger
    // fired: a file settled, a session unlocked, an upstream run ended); manual runs are not.
    const bool triggered = run.trigger == RunTrigger::Trigger;
    if (rules->lateAfterMs > 0 && (run.scheduleId > 0 || triggered) && run.scheduledFor.isValid()) {
        const qint64 firedMs = run.scheduledFor.toMSecsSinceEpoch();
        const qint64 lateness = run.startedAt.toMSecsSinceEpoch() - firedMs;
        if (lateness > rules->lateAfterMs) {
            const QString text = triggered ? tr("started %1 after its trigger fired (limit %2)")
                                           : tr("started %1 after its fire time (limit %2)");
            if (const auto alert =
                    raise(run, AlertKind::Late, firedMs,
                          text.arg(length(lateness), length(rules->lateAfterMs)), nowMs))
                raised << *alert;
        }
    }
    // Both limits now, from one read of the recent runs: the floor is judged at the end
    // against the runs before this one.
    std::optional<QList<qint64>> recent;
    Watched watched;
    watched.ceiling = limit(run, rules->longerThanMs, rules->longerThanFactor, true, recent);
    watched.floor = limit(run, rules->shorterThanMs, rules->shorterThanFactor, false, recent);
    watched.limitsRead = true;
    m_running.insert(run.id, watched);
    return raised;
}

QList<Alert> AlertWatch::runEnded(const Run &run, qint64 nowMs)
{
    const Watched watched = m_running.take(run.id);
    if (!run.startedAt.isValid() || !run.finishedAt.isValid())
        return {};
    const qint64 startMs = run.startedAt.toMSecsSinceEpoch();
    const qint64 took = run.finishedAt.toMSecsSinceEpoch() - startMs;
    QList<Alert> raised;
    // Past the ceiling but not yet told (it ended between two looks).
    if (!watched.ceilingRaised && watched.ceiling.ms > 0 && took > watched.ceiling.ms) {
        if (const auto alert =
                raise(run, AlertKind::TooLong, startMs,
                      tr("ran %1, %2").arg(length(took), watched.ceiling.text), nowMs))
            raised << *alert;
    }
    // Below the floor: a success that came too quickly (a failure is told as one already).
    if (run.state == RunState::Succeeded && m_rules.contains(run.chainId)) {
        // Watched since its start, or started before this engine did.
        const Limit below = watched.limitsRead ? watched.floor : floor(run);
        if (below.ms > 0 && took < below.ms) {
            if (const auto alert = raise(run, AlertKind::TooShort, startMs,
                                         tr("ran %1, %2").arg(length(took), below.text), nowMs))
                raised << *alert;
        }
    }
    return raised;
}

QList<Alert> AlertWatch::look(const QList<Run> &running, qint64 nowMs, bool judgeDeadlines)
{
    reloadRules();
    QList<Alert> raised;
    for (const Run &run : running) {
        if (!run.startedAt.isValid())
            continue;
        if (!m_running.contains(run.id))
            raised += runStarted(run, nowMs);
        Watched &watched = m_running[run.id];
        const qint64 startMs = run.startedAt.toMSecsSinceEpoch();
        if (watched.ceilingRaised || watched.ceiling.ms <= 0
            || nowMs - startMs <= watched.ceiling.ms)
            continue;
        watched.ceilingRaised = true;
        if (const auto alert = raise(
                run, AlertKind::TooLong, startMs,
                tr("running for %1, %2").arg(length(nowMs - startMs), watched.ceiling.text), nowMs))
            raised << *alert;
    }
    if (!judgeDeadlines)
        return raised;
    for (auto it = m_rules.cbegin(); it != m_rules.cend(); ++it) {
        const qint64 chainId = it.key();
        if (it->deadline.isEmpty())
            continue;
        Schedule rule;
        rule.chainId = chainId;
        rule.expression = it->deadline;
        rule.dialect = CronDialect::Unix;
        rule.timeZone = it->deadlineZone;
        const Result<SchedulePlan> plan = SchedulePlan::create(rule, m_defaultZone);
        if (!plan)
            continue;
        const QString key = it->deadline + QLatin1Char('|') + it->deadlineZone;
        if (m_deadlineOf.value(chainId) != key) { // new or edited: from now on
            m_deadlineOf.insert(chainId, key);
            m_nextDeadline.insert(chainId, plan->nextFireMs(nowMs).value_or(-1));
        }
        qint64 &next = m_nextDeadline[chainId];
        // Each deadline passed since the last look (a sleep can pass several), judged once.
        for (int judged = 0; next > 0 && next <= nowMs && judged < 100; ++judged) {
            const Result<bool> met =
                AlertRepository(m_store).succeededBetween(chainId, next - dayMs, next);
            if (met && !met.value()) {
                Run none;
                none.chainId = chainId;
                if (const auto alert =
                        raise(none, AlertKind::Deadline, next,
                              tr("no run succeeded in the 24 hours before its deadline (%1)")
                                  .arg(it->deadline),
                              nowMs))
                    raised << *alert;
            }
            next = plan->nextFireMs(next).value_or(-1);
        }
    }
    return raised;
}

} // namespace hg
