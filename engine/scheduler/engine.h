#pragma once

#include "admission.h"
#include "clockwatch.h"
#include "commandpump.h"
#include "domain/alert.h"
#include "domain/chain.h"
#include "domain/command.h"
#include "domain/dependency.h"
#include "domain/engineconfig.h"
#include "domain/logline.h"
#include "domain/run.h"
#include "domain/task.h"
#include "domain/taskrun.h"
#include "executors/subchainlauncher.h"
#include "firequeue.h"
#include "occurrenceledger.h"
#include "scheduleloader.h"
#include "scheduleplan.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

namespace hg {

class AlertWatch;
class ElsewhereWatch;
class DesktopTriggerWatch;
class FileTriggerWatch;
class Clock;
class EngineLease;
class LogBatcher;
class OfferBoard;
class RunExecution;
class TaskHost;
class RunRecorder;
class Store;

// The scheduling engine. Lives in one thread (the main thread for `hourglass serve`, its own
// thread under EngineHost in the GUI) and owns a store connection opened there. A min-heap
// of next fire times drives one precise timer; due fires become runs by an idempotent insert;
// queued runs are admitted within max_instances and exclusive_execution, and their ready
// tasks get the engine's slots by priority. Control arrives through the command table.
//
// The engine coordinates and owns the thread's timers; each policy is a unit of its own:
// EngineLease (session and heartbeat), Recovery (what a dead engine left), ScheduleLoader
// (plans, misfire catch-up), Admission (which runs and tasks start), CommandPump (the
// command table), SubchainLineage (child runs), RunExecution (one run's DAG), OfferBoard and
// TaskHost (tasks spread over the engines of a shared store, engineoffers.cpp). Its schedule
// half (loading plans, the fire queue, misfires, the occurrence ledger) is engineschedules.cpp.
class Engine final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Engine)

public:
    // How long a self-destructed chain outlives its successful run (see selfDestructLater).
    static constexpr int selfDestructDelayMs = 5000;
    // Past the grace period, how long a stopping engine still waits for its runs to end.
    static constexpr int shutdownSlackMs = 3000;

    enum class ExitPolicy { Stop, Wait };

    explicit Engine(EngineConfig config, std::shared_ptr<Clock> clock = {},
                    QObject *parent = nullptr);
    ~Engine() override;

    bool isRunning() const { return m_running; }
    // Why start() failed (startFailed() carries its message): a store that refuses writes
    // for now (Unavailable: a full disk) is worth waiting for; other kinds are not.
    ErrorKind startFailureKind() const { return m_startFailureKind; }
    Store *store() const { return m_store.get(); }
    int activeRunCount() const { return int(m_executions.size()); }

public Q_SLOTS:
    void start();
    void shutdown(hg::Engine::ExitPolicy policy);
    // A second SIGTERM or SIGINT: letting tasks finish turns into stopping them, and stopping
    // them into ending now. (A Stop shutdown ends by itself past the grace period.)
    void shutdownHarder();
    // Re-reads the wall clock and handles what became due (tests call it after moving a
    // ManualClock; the timer calls it otherwise).
    void checkDue();
    // Pause all schedules: nothing fires until resumed, then the misfire policies decide what
    // the pause missed. Manual runs and runs already going are not affected.
    void setSchedulesPaused(bool paused);
    void reloadSchedules();
    // The change feed: only the chains edited since this engine last looked are reloaded
    // (their schedules, tasks and edges); everything when the feed no longer reaches back.
    void applyDefinitionChanges();
    void processCommands();
    // Queues a run that already exists in the store (state queued).
    void admitRun(qint64 runId);
    // Runs past their alert ceiling, deadlines passed without a success (every 5 s; tests
    // call it after moving a ManualClock).
    void checkAlerts();

Q_SIGNALS:
    void started();
    void startFailed(const QString &error);
    void stopped();
    void runChanged(const hg::Run &run);
    void taskRunChanged(const hg::TaskRun &taskRun);
    void logLinesWritten(const QList<hg::LogLine> &lines);
    // The next time a schedule fires, in ms since the epoch; -1 when none (or paused).
    void nextFireChanged(qint64 dueMs);
    // A Notify builtin ran: the GUI shows it, `serve` prints it.
    void notificationRequested(const hg::Run &run, const QString &title, const QString &message);
    // The store went away (sinceMs: when it was noticed) or came back (sinceMs -1). Meanwhile
    // nothing new starts; what runs goes on and its state changes wait in memory.
    void storeReachabilityChanged(qint64 sinceMs, const QString &why);
    // Another engine took this engine's session over (its lease ran out, say while the
    // machine slept): its runs were stopped here and it registered anew.
    void leaseLost(const QString &why);
    // The SQLite store's file was deleted or replaced under the engine: what it would record
    // could be kept nowhere, so it stops (its tasks too) by itself; `serve` then exits 1.
    void storeGone(const QString &why);
    // The machine slept or the wall clock stepped: said once, with what it cost, e.g.
    // "Asleep 7 h 12 min: 14 runs of 3 chains missed; 3 run now (policy once), 11 skipped".
    void clockJumped(const QString &summary);
    // Fire times went to the missed-runs inbox (misfire policy ask): the GUI counts them anew.
    void missedRunsWaiting();
    // Another engine changed more runs at once than a notification names (PostgreSQL): the
    // window reads its run lists again. Fewer arrive one by one as runChanged.
    void runsChangedElsewhere();
    // Tasks of other engines' runs this engine runs now (a shared store spreads tasks).
    void hostedTasksChanged(int count);
    // A file trigger's watching changed, said once: its folder gone or back, polled.
    void fileTriggerNoted(const QString &message);

private:
    // What a pass over the due fires found late: fires missed, of how many chains, and how
    // many each misfire policy ran now.
    struct MissedFires
    {
        qint64 missed = 0;
        qint64 waiting = 0;   // of them, fire times of policy ask (the inbox holds them)
        bool atLeast = false; // a schedule had more than could be counted
        QSet<qint64> chains;
        QMap<MisfirePolicy, qint64> runNow;
    };
    void handleDue(MissedFires *missed);
    // Every second: did the machine sleep or the wall clock step since the last look?
    void watchClock();
    // Alerts as notifications, routed by the chain's notify policy as a failure is.
    void tellAlerts(const QList<hg::Alert> &alerts);
    void reportJump(); // m_lastJump: count what it cost, apply the misfire policies, say it
    QString describeJump(const ClockWatch::Jump &jump, const MissedFires &missed) const;
    void reloadChains(const QSet<qint64> &chainIds, qint64 revision);
    // What a load decided (its plans already in m_plans): next fires queued, due ones fired,
    // and what passed unrun put in the ledger, for cause.
    void queueLoaded(const ScheduleLoader::Loaded &loaded, OccurrenceCause cause);
    // Why fire times a load finds behind it passed unrun: the engine was down (its first
    // load), its store was gone, or (any other reload) it was late.
    OccurrenceCause loadCause() const;
    void armTimer();
    // Makes the run of one fire time, unless the chain's overlap policy skips it.
    OccurrenceWalk::Fire fireSchedule(const SchedulePlan &plan, qint64 fireMs);
    void scheduleDispatch();
    void dispatch();
    void admitQueuedRuns();
    void startReadyTasks();
    // Shared store (engineoffers.cpp): tasks spread over engines one by one. Offers other
    // engines made are claimed while this engine has free slots; its own ready tasks that
    // waited offerAfterMs for a slot are offered.
    void setUpOffers();
    void claimOffers();
    void offerWaitingTasks();
    int freeSlots() const;
    bool nothingRuns() const; // no run executes here and no attempt is hosted for another
    // False: not now (limits, or its definition cannot be read); true: started or dropped.
    bool admit(qint64 runId, Admission &admission);
    // Whether the computer has a network now (EngineConfig::online, else NetworkPresence).
    bool networkUp() const;
    // A triggered run of a chain that needs a network, queued while there is none: cancelled,
    // its log saying why (Task Scheduler does not start such a task either).
    void cancelOffline(const Run &run);
    const Admission &occupancy() const { return m_occupancy; }
    RunExecution *startExecution(const Run &run, const Chain &chain);
    void runFinished(RunExecution *execution);
    void heartbeat();
    // The store: lost (stop claiming and starting, hold writes), retried with backoff, back.
    void storeLost(const QString &why);
    void reconnect();
    void leaveGoneStore(const QString &why);
    // The session was taken over: let go of every run, register anew.
    void fencedOut(const QString &why);
    void runFenced(qint64 runId);
    // Unowned queued runs become this engine's while it has room.
    void claimQueuedRuns();
    qsizetype claimRoom() const; // how many claimed runs may wait here
    // A PostgreSQL notification (a run queued, a command, a definition change): look now
    // rather than at the next poll. Many at once make one look.
    void wake();
    // A store notification 'runs 12' (one per run since migration 010): a run whose state
    // another engine changed, told as runChanged once per state; its own are told by their
    // executions.
    void tellRunsFromElsewhere(const QString &ids);
    // The runs gathered from the notifications that came together, read at once.
    void tellGatheredRuns();
    // 'taskruns' and 'logs': attempts and output of other engines' runs (ElsewhereWatch).
    void watchElsewhere(const QString &payload);
    // Chains' retention: removes a batch of finished runs past their limits.
    void pruneRuns();
    // What other engines have admitted, for limits that hold across engines (PostgreSQL).
    bool lockAdmission();
    bool stopRun(qint64 runId); // false: neither running nor queued
    Result<qint64> launchChildRun(const QString &path, const Run &parentRun);
    CommandPump::Handlers commandHandlers();
    void finishShutdown();
    // Past the grace period (or at a second SIGTERM): what has not ended is abandoned, its
    // processes killed with their executors, and the engine stops.
    void forceShutdown();
    void stopEverything();
    // A self-destructing chain after its successful run (engineshutdown.cpp).
    void selfDestructLater(const Chain &chain);
    void removeSelfDestructed(qint64 chainId);
    // What an engine before this one held when it stopped (HeldJournal), written first.
    Status writeHeldJournal();

    EngineConfig m_config;
    std::shared_ptr<Clock> m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<RunRecorder> m_recorder;
    std::unique_ptr<LogBatcher> m_logs;
    std::unique_ptr<EngineLease> m_lease;
    std::unique_ptr<CommandPump> m_commands;
    std::unique_ptr<OccurrenceLedger> m_ledger;
    std::unique_ptr<AlertWatch> m_alerts;
    std::unique_ptr<ElsewhereWatch> m_elsewhere; // other engines' attempts and output (windows)
    std::unique_ptr<OfferBoard> m_board;         // attempts this engine's runs offered
    std::unique_ptr<TaskHost> m_host;            // attempts this engine runs for any run
    std::unique_ptr<FileTriggerWatch> m_fileTriggers;       // only while schedules run here
    std::unique_ptr<DesktopTriggerWatch> m_desktopTriggers; // likewise
    QTimer m_offerTimer;         // the next ready task to wait long enough
    bool m_offersWaiting = true; // an offer may be claimable (a notification, a heartbeat)
    static constexpr int alertLookTicks = 5; // of the clock watch's one-second ticks
    int m_clockTicks = 0;
    SubchainLauncher m_subchains;
    QHash<qint64, SchedulePlan> m_plans;
    QHash<qint64, Chain> m_chains; // as of the last reloadSchedules()
    struct ChainDefinition
    {
        QList<Task> tasks;
        QList<Dependency> edges;
        bool loaded = false;
    };
    QHash<qint64, ChainDefinition> m_definitions; // chain id -> tasks and edges, until reload
    FireQueue m_queue;
    QTimer m_timer;
    QTimer m_commandTimer;
    QTimer m_heartbeatTimer;
    QTimer m_reconnectTimer;
    QTimer m_clockTimer;
    QTimer m_shutdownDeadline; // a stopping engine ends by then, whatever still runs
    ClockWatch m_clockWatch;
    ClockWatch::Jump m_lastJump;
    int m_reconnectDelayMs = 0;
    qint64 m_storeLostSinceMs = -1; // -1: the store is reachable
    bool m_claimMore = true;        // the last claim filled its batch: more may be waiting
    bool m_wakePending = false;     // a notification asked for processCommands()
    qint64 m_lastPruneMs = 0;       // when retention last ran (it runs once a minute)
    QList<qint64> m_pruneQueue;     // runs found past their retention, removed a batch a turn
    bool m_pruneMore = false;       // the last read found as many as it reads: read again
    QList<qint64> m_queuedRuns;
    QHash<qint64, RunState> m_toldStates;       // run id -> the state runChanged last said
    QSet<qint64> m_runsToTell;                  // named by notifications, not read yet
    QHash<qint64, Run> m_knownQueued;           // queued runs this engine made itself (no re-read)
    QHash<qint64, RunExecution *> m_executions; // run id -> execution (children of this)
    // What m_executions holds, as admission counts it; kept as runs start and end, so a
    // dispatch pass does not rebuild it from every execution.
    Admission m_occupancy{0};
    QHash<qint64, QSet<qint64>> m_restrictions; // rerun-failed: run id -> tasks to run
    QSet<qint64> m_admitWhenBack; // runs admitted while the store refused: claimed once back
    qint64 m_definitionRevision = -1;
    bool m_running = false;
    ErrorKind m_startFailureKind = ErrorKind::Runtime;
    bool m_dispatchScheduled = false;
    bool m_shuttingDown = false;
    bool m_unregistered = false;  // fenced out, and registering anew was refused: retried
    QSet<qint64> m_selfDestructs; // chains to remove once a waiter has read their run's end
    bool m_schedulesPaused = false;
    bool m_resuming = false;         // the pass over what came due while schedules were paused
    bool m_storeCameBack = false;    // the reload after the store was away
    qint64 m_announcedNextFire = -2; // what nextFireChanged last said
};

} // namespace hg
