#pragma once

#include "domain/chain.h"
#include "domain/schedule.h"
#include "firequeue.h"
#include "scheduleplan.h"
#include "store/runrepository.h"

#include <QHash>
#include <QList>
#include <QTimeZone>

#include <optional>

namespace hg {

// Stored schedules turned into plans and fire-queue entries, and the misfire policies applied
// to fire times the engine did not see: downtime before a load, a pause, a late timer. A
// decision only: the engine makes the runs.
//
// A schedule is loaded when it and its chain are enabled and the chain is for any engine or
// for this one. On load: @reboot fires once, on the engine's first load, unless paused;
// @after fires now if it never ran, else once its last run has ended; the other kinds fire
// what their misfire policy picks from the fires missed since the last one (or since the
// schedule was made) and are then due at their next fire after now. While paused nothing
// fires: a schedule is due at its next fire after the last one, and resuming hands that to
// due(), that is to the misfire policy.
class ScheduleLoader final
{
public:
    struct Fire
    {
        qint64 scheduleId = 0;
        qint64 fireMs = 0;
        friend bool operator==(const Fire &, const Fire &) = default;
    };
    // The fire times of a schedule in (fromMs, toMs] are behind the engine now: fired (see
    // fires) or passed unrun; the occurrence ledger accounts for them. Paused, toMs is fromMs.
    struct Passed
    {
        qint64 scheduleId = 0;
        qint64 fromMs = 0;
        qint64 toMs = 0;
        friend bool operator==(const Passed &, const Passed &) = default;
    };
    struct Loaded
    {
        QHash<qint64, SchedulePlan> plans; // by schedule id
        QList<FireQueue::Due> next;        // each schedule's next fire time, for the queue
        QList<Fire> fires;                 // to fire now, in this order
        QList<Passed> passed;              // cron, every and once schedules
    };
    struct DueFires
    {
        QList<qint64> fires;        // oldest first
        std::optional<qint64> next; // the schedule's next fire time, if any
        // No fire time lies in (dueMs, nowMs]: known for free when the one after the due fire
        // time is also the next (the common case); the ledger then needs no walk.
        bool nothingBetween = false;
    };

    ScheduleLoader(QString engineName, const QTimeZone &defaultZone, int lateToleranceMs)
        : m_engineName(std::move(engineName))
        , m_defaultZone(defaultZone)
        , m_lateToleranceMs(lateToleranceMs)
    {}

    Loaded load(const QList<Schedule> &schedules, const QHash<qint64, Chain> &chains,
                const QHash<qint64, RunRepository::ScheduleHistory> &history, qint64 nowMs,
                bool firstLoad, bool paused) const;

    // A fire-queue entry due at dueMs, looked at nowMs: fired as it is within the late
    // tolerance; later than that it was missed, and the misfire policy decides.
    DueFires due(const SchedulePlan &plan, qint64 dueMs, qint64 nowMs) const;

private:
    QString m_engineName;
    QTimeZone m_defaultZone;
    int m_lateToleranceMs = 0;
};

} // namespace hg
