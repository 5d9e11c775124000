#pragma once

#include "base/enumnames.h"
#include "enums.h"

#include <QString>
#include <QtGlobal>

namespace hg {

// What became of one expected fire time of a schedule. A run is its own record (its schedule
// and scheduled_for); the ledger stores the other outcomes, consecutive equal ones of a
// schedule collapsed into one row with a count.
enum class OccurrenceOutcome {
    Ran,            // a run was made (the run table holds it)
    SkippedOverlap, // the chain's previous run still ran and its overlap policy is skip
    SkippedMisfire, // the engine saw it too late (beyond its tolerance) and the policy dropped it
    Coalesced,      // misfire policy once: folded into the latest missed fire, which ran
    Missed,         // the engine was down, asleep or cut from its store, and did not run it
    Excluded,       // the schedule's calendar rules the day out
    Paused,         // schedules were paused
    SkippedOffline, // the chain needs a network and the computer had none
};
HG_ENUM_NAMES(OccurrenceOutcome, {OccurrenceOutcome::Ran, "ran"},
              {OccurrenceOutcome::SkippedOverlap, "skipped-overlap"},
              {OccurrenceOutcome::SkippedMisfire, "skipped-misfire"},
              {OccurrenceOutcome::Coalesced, "coalesced"}, {OccurrenceOutcome::Missed, "missed"},
              {OccurrenceOutcome::Excluded, "excluded"}, {OccurrenceOutcome::Paused, "paused"},
              {OccurrenceOutcome::SkippedOffline, "skipped-offline"})

// Why fire times passed unrun: the engine was not there (down, asleep, a clock step, its
// store gone), was late beyond its tolerance, or schedules were paused. A trigger's files
// are also gathered into one run by its batch window or its storm guard.
enum class OccurrenceCause {
    None,
    Down,
    Asleep,
    ClockStep,
    StoreLost,
    Late,
    Paused,
    Batch,
    StormGuard
};
HG_ENUM_NAMES(OccurrenceCause, {OccurrenceCause::None, ""}, {OccurrenceCause::Down, "down"},
              {OccurrenceCause::Asleep, "asleep"}, {OccurrenceCause::ClockStep, "clock-step"},
              {OccurrenceCause::StoreLost, "store-lost"}, {OccurrenceCause::Late, "late"},
              {OccurrenceCause::Paused, "paused"}, {OccurrenceCause::Batch, "batch"},
              {OccurrenceCause::StormGuard, "storm-guard"})

// The missed-runs inbox (misfire policy ask): missed rows wait there until the user runs
// them (as a backfill batch) or dismisses them.
enum class InboxState { None, Pending, Run, Dismissed };
HG_ENUM_NAMES(InboxState, {InboxState::None, ""}, {InboxState::Pending, "pending"},
              {InboxState::Run, "run"}, {InboxState::Dismissed, "dismissed"})

// A schedule's fire times, or a trigger's fires (triggerId set, scheduleId 0: files that
// were skipped, gathered into one run or wait in the inbox; its runs are Ran entries).
struct Occurrence
{
    qint64 id = 0; // 0 for a run (Ran), read from the run table
    qint64 scheduleId = 0;
    qint64 triggerId = 0;
    qint64 chainId = 0;
    OccurrenceOutcome outcome = OccurrenceOutcome::Ran;
    OccurrenceCause cause = OccurrenceCause::None;
    qint64 firstFireMs = 0;
    qint64 lastFireMs = 0;
    qint64 count = 1;
    // Ran: the run; Coalesced: the run it was folded into; an inbox row that was run: the
    // first run of its batch. 0: none.
    qint64 runId = 0;
    qint64 latenessMs = -1;               // Ran: started minus fire time; -1 not started
    qint64 durationMs = -1;               // Ran: finished minus started; -1 not finished
    RunState runState = RunState::Queued; // Ran: the run's state
    InboxState inbox = InboxState::None;
    QString detail; // a trigger's row: the names of its files ("a.csv, b.csv, …")
};

} // namespace hg
