#pragma once

#include "base/enumnames.h"
#include "cron/crondialect.h"

namespace hg {

enum class TaskKind { Program, Shell, Sql, Builtin, Http, Subchain };
HG_ENUM_NAMES(TaskKind, {TaskKind::Program, "program"}, {TaskKind::Shell, "shell"},
              {TaskKind::Sql, "sql"}, {TaskKind::Builtin, "builtin"}, {TaskKind::Http, "http"},
              {TaskKind::Subchain, "subchain"})

enum class DependencyCondition { Success, Completion, Failure };
HG_ENUM_NAMES(DependencyCondition, {DependencyCondition::Success, "success"},
              {DependencyCondition::Completion, "completion"},
              {DependencyCondition::Failure, "failure"})

enum class FailureStrategy { End, Continue };
HG_ENUM_NAMES(FailureStrategy, {FailureStrategy::End, "end"},
              {FailureStrategy::Continue, "continue"})

// DolphinScheduler's five levels; stored as text so the order can be changed in SQL via CASE.
enum class Priority { Highest, High, Medium, Low, Lowest };
HG_ENUM_NAMES(Priority, {Priority::Highest, "highest"}, {Priority::High, "high"},
              {Priority::Medium, "medium"}, {Priority::Low, "low"}, {Priority::Lowest, "lowest"})

enum class NotifyPolicy { None, Success, Failure, All };
HG_ENUM_NAMES(NotifyPolicy, {NotifyPolicy::None, "none"}, {NotifyPolicy::Success, "success"},
              {NotifyPolicy::Failure, "failure"}, {NotifyPolicy::All, "all"})

// What a chain does with a fire that would exceed max_instances.
enum class OverlapPolicy { Queue, Skip };
HG_ENUM_NAMES(OverlapPolicy, {OverlapPolicy::Queue, "queue"}, {OverlapPolicy::Skip, "skip"})

enum class ScheduleKind { Cron, Once, Every, After, Startup };
HG_ENUM_NAMES(ScheduleKind, {ScheduleKind::Cron, "cron"}, {ScheduleKind::Once, "once"},
              {ScheduleKind::Every, "every"}, {ScheduleKind::After, "after"},
              {ScheduleKind::Startup, "startup"})

// How a schedule uses its calendar: never fire on its days, or fire on its days only.
enum class CalendarMode { Exclude, Only };
HG_ENUM_NAMES(CalendarMode, {CalendarMode::Exclude, "exclude"}, {CalendarMode::Only, "only"})

// Ask: missed fire times wait in the missed-runs inbox for the user to run or dismiss.
enum class MisfirePolicy { Skip, Once, All, Ask };
HG_ENUM_NAMES(MisfirePolicy, {MisfirePolicy::Skip, "skip"}, {MisfirePolicy::Once, "once"},
              {MisfirePolicy::All, "all"}, {MisfirePolicy::Ask, "ask"})

// Trigger: started by a chain trigger (ChainTrigger), not the clock; the run's parameters
// say what fired it (trigger.upstream_run, trigger.upstream_state, trigger.upstream_chain).
enum class RunTrigger { Schedule, Manual, Rerun, Backfill, Subchain, Trigger };
HG_ENUM_NAMES(RunTrigger, {RunTrigger::Schedule, "schedule"}, {RunTrigger::Manual, "manual"},
              {RunTrigger::Rerun, "rerun"}, {RunTrigger::Backfill, "backfill"},
              {RunTrigger::Subchain, "subchain"}, {RunTrigger::Trigger, "trigger"})

// DolphinScheduler-like states shared by runs and task runs.
enum class RunState {
    Queued,
    Waiting,
    Running,
    Paused,
    Succeeded,
    Failed,
    Cancelled,
    TimedOut,
    Interrupted
};
HG_ENUM_NAMES(RunState, {RunState::Queued, "queued"}, {RunState::Waiting, "waiting"},
              {RunState::Running, "running"}, {RunState::Paused, "paused"},
              {RunState::Succeeded, "succeeded"}, {RunState::Failed, "failed"},
              {RunState::Cancelled, "cancelled"}, {RunState::TimedOut, "timed_out"},
              {RunState::Interrupted, "interrupted"})

inline bool isTerminal(RunState state)
{
    return state == RunState::Succeeded || state == RunState::Failed || state == RunState::Cancelled
           || state == RunState::TimedOut;
}

// System: the engine's own notes. Failure: its note saying why an attempt failed (stores
// written before it existed hold those as system lines).
enum class LogStream { Stdout, Stderr, System, Failure };
HG_ENUM_NAMES(LogStream, {LogStream::Stdout, "stdout"}, {LogStream::Stderr, "stderr"},
              {LogStream::System, "system"}, {LogStream::Failure, "failure"})

enum class CommandKind { Start, Stop, Pause, Resume, Rerun, RerunFailed, Backfill };
HG_ENUM_NAMES(CommandKind, {CommandKind::Start, "start"}, {CommandKind::Stop, "stop"},
              {CommandKind::Pause, "pause"}, {CommandKind::Resume, "resume"},
              {CommandKind::Rerun, "rerun"}, {CommandKind::RerunFailed, "rerun_failed"},
              {CommandKind::Backfill, "backfill"})

enum class ConnectionKind {
    Sqlite,
    PostgreSql,
    MySql,
    PgTimetable,
    DolphinScheduler,
    Goscheduler,
    PgAgent
};
HG_ENUM_NAMES(ConnectionKind, {ConnectionKind::Sqlite, "sqlite"},
              {ConnectionKind::PostgreSql, "postgresql"}, {ConnectionKind::MySql, "mysql"},
              {ConnectionKind::PgTimetable, "pgtimetable"},
              {ConnectionKind::DolphinScheduler, "dolphinscheduler"},
              {ConnectionKind::Goscheduler, "goscheduler"}, {ConnectionKind::PgAgent, "pgagent"})

} // namespace hg
