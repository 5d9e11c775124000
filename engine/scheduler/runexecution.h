#pragma once

#include "base/longtimer.h"
#include "base/result.h"
#include "domain/chain.h"
#include "domain/dependency.h"
#include "domain/engineconfig.h"
#include "domain/logline.h"
#include "domain/parametersubstitution.h"
#include "domain/run.h"
#include "domain/task.h"
#include "domain/taskrun.h"
#include "executors/taskexecutor.h"

#include <QHash>
#include <QJsonValue>
#include <QObject>
#include <QTimer>

#include <map>
#include <memory>

namespace hg {

class Clock;
class OfferBoard;
class RunRecorder;
class Store;
class SubchainLauncher;

// One run of a chain as a DAG: which tasks may start, their attempts, and the run's end.
// The engine decides when a ready task gets a slot (startTask); this class decides what is
// ready. Every transition is written (through the engine's RunRecorder, which checks the
// engine's claim and holds writes while the store is away) before its signal goes out.
class RunExecution final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunExecution)

public:
    RunExecution(Store &store, RunRecorder &recorder, const Clock &clock,
                 const EngineConfig &config, Run run, Chain chain, QList<Task> tasks,
                 QList<Dependency> dependencies, SubchainLauncher *subchains = nullptr,
                 QObject *parent = nullptr);
    ~RunExecution() override;

    const Run &run() const { return m_run; }
    const Chain &chain() const { return m_chain; }

    void begin();                     // the run starts: state running, chain timeout armed
    QList<qint64> readyTasks() const; // may start now, best priority first
    void startTask(qint64 taskId);
    int runningCount() const;
    int slotsInUse() const; // running tasks that hold one of the engine's slots
    // A SUBCHAIN task only waits for its child run: holding a slot could starve the child.
    bool takesSlot(qint64 taskId) const;
    bool isFinished() const { return m_finished; }
    // Whether any task of it has had an attempt (here or offered): a run that has none can go
    // back to the queue whole.
    bool startedAnyTask() const;

    // A shared store: tasks that waited for a slot here may be offered to other engines.
    void setOfferBoard(OfferBoard *board) { m_board = board; }
    // A ready task that another engine could run (not a builtin: they are light, and some
    // speak to this desktop; not a SUBCHAIN, whose child run is this engine's).
    bool isOfferable(qint64 taskId) const;
    QList<qint64> offerableTasks() const;     // the ready ones that are, in no order
    qint64 readySinceMs(qint64 taskId) const; // when it last became ready
    // Starts an attempt that any engine of the shared store may claim and run (OfferBoard);
    // it holds none of this engine's slots.
    void offerTask(qint64 taskId);

    void pause();
    void resume();
    // Cancelled (stop) or TimedOut: running tasks end, nothing starts. why: what a cancelled
    // attempt's row says stopped it (its reason in the window), instead of "stopped".
    void stop(RunState reason, const QString &why = {});
    // The run is another engine's now (this one was fenced): its processes are stopped and
    // nothing more is written about it.
    void abandon();
    bool isAbandoned() const { return m_abandoned; }

    // Tasks named by rerun-failed: only these run; the others count as already succeeded.
    void restrictTo(const QSet<qint64> &taskIds);
    // Picks up a run an engine left behind: finished attempts stand, an interrupted one is
    // retried as a new attempt if attempts remain (never the same attempt twice).
    void restoreHistory(const QList<TaskRun> &attempts);

Q_SIGNALS:
    void runStateChanged(const hg::Run &run);
    void taskRunChanged(const hg::TaskRun &taskRun);
    void logLine(const hg::LogLine &line);
    void readyChanged(); // tasks may start, or a slot came free
    void finishing();    // the run is about to record its final state (flush its log first)
    void notificationRequested(const hg::Run &run, const QString &title, const QString &message);

private:
    enum class Phase { Pending, Ready, Waiting, Running, Done, Blocked };
    struct TaskState
    {
        Task task;
        Phase phase = Phase::Pending;
        int attempt = 0;
        TaskRun row;
        RunState outcome = RunState::Queued; // final state of the last attempt
        bool effectiveFailure = false;       // failed and not ignored
        std::unique_ptr<TaskExecutor> executor;
        bool launched = false; // executor->start() called (see launch())
        bool offered = false;  // the attempt runs wherever an engine claimed it
        qint64 readySinceMs = 0;
        std::unique_ptr<LongTimer> retryTimer;
        // The transaction that wrote the row (0: its own, committed), and what the task was
        // before: should that transaction not commit, the attempt is not started but undone.
        quint64 rowTransaction = 0;
        int attemptBefore = 0;
        TaskRun rowBefore;
        // The transaction that wrote rowBefore: a retry's waiting row may itself be uncommitted,
        // and must not pass for written once the attempt is undone.
        quint64 rowTransactionBefore = 0;
    };

    void refreshReadiness();
    void markReady(TaskState &state);
    void startAttempt(qint64 taskId, bool offered);
    bool edgeSatisfied(const Dependency &edge, bool *impossible) const;
    Result<std::unique_ptr<TaskExecutor>> createExecutor(const TaskState &state);
    void launch(qint64 taskId);
    void taskFinished(qint64 taskId, const TaskOutcome &outcome);
    void recordTaskEnd(qint64 taskId, const TaskOutcome &outcome);
    void scheduleRetry(TaskState &state);
    void finishIfDone();
    void setRunState(RunState state);
    void writeSystemLine(qint64 taskRunId, const QString &text,
                         LogStream stream = LogStream::System);
    qint64 nowMs() const;

    Store &m_store;
    RunRecorder &m_recorder;
    SubchainLauncher *m_subchains = nullptr;
    OfferBoard *m_board = nullptr;
    const Clock &m_clock;
    const EngineConfig &m_config;
    Run m_run;
    Chain m_chain;
    QList<Dependency> m_dependencies;
    std::map<qint64, TaskState> m_tasks; // by task id; values own executors, so no QHash
    ParameterSubstitution m_parameters;
    LongTimer m_chainTimeout;
    bool m_paused = false;
    bool m_stopping = false;
    std::optional<RunState> m_stopReason;
    QString m_stopWhy;
    bool m_finished = false;
    bool m_abandoned = false;
};

} // namespace hg
