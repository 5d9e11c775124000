#pragma once

#include "domain/fence.h"
#include "domain/logline.h"
#include "executors/taskexecutor.h"
#include "store/taskrunoffers.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace hg {

class Clock;
class LogBatcher;
class RunRecorder;
class Store;
struct EngineConfig;

// The attempts this engine runs for the runs of other engines (or its own, offered while its
// slots were taken) on a shared store: claimed from TaskRunOffers when a slot is free, run
// with the same executors as the engine's own tasks, their output written as the engine's own
// is, and their ends written under the worker's claim. The run's engine decides everything
// else (retries, what starts next, the run's end); it asks for a stop through the store.
class TaskHost final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskHost)

public:
    // fence: the engine's claim as it is now (it changes when the engine registers anew).
    TaskHost(Store &store, RunRecorder &recorder, LogBatcher &logs, const Clock &clock,
             const EngineConfig &config, std::function<Fence()> fence, QObject *parent = nullptr);
    ~TaskHost() override; // what still runs is killed with its executor

    int count() const { return int(m_hosted.size()); }
    bool hosts(qint64 taskRunId) const { return m_hosted.contains(taskRunId); }

    // Claims up to `room` offered attempts in the caller's transaction; they start once it has
    // committed. Returns how many were claimed.
    int claim(int room);
    // Whether a stop was asked for, or an attempt is no longer this engine's (withdrawn,
    // interrupted after its run's engine went, this engine's session taken over).
    void look();
    void lookSoon();
    // Each heartbeat: ends the store refused are written again, and attempts claimed by a
    // commit reported as failed (but made) are offered again.
    void reconcile();
    // Shutdown: every attempt is stopped; its end is written as interrupted, so that its run's
    // engine retries it as the task's retries allow.
    void stopAll();
    // The session was taken over: attempts are stopped and nothing more is written.
    void abandonAll();

Q_SIGNALS:
    void slotFreed();
    void countChanged(int count);
    void storeUnavailable(const QString &why);

private:
    struct Hosted
    {
        TaskRunOffers::Claimed claim;
        Fence fence;
        std::unique_ptr<TaskExecutor> executor;
        quint64 transaction = 0; // the claim's (launched once it committed)
        bool launched = false;
        bool abandoned = false;    // no longer ours: nothing more is written
        bool interrupting = false; // stopped by shutdown: its end is written as interrupted
        std::optional<TaskOutcome> unwrittenEnd;
    };
    void prepare(Hosted &hosted);
    void launch(qint64 taskRunId);
    void ended(qint64 taskRunId, TaskOutcome outcome);
    // Writes the end; false while the store refuses (kept for reconcile()).
    bool writeEnd(Hosted &hosted);
    void release(qint64 taskRunId);
    // Over a copy of the ids: `act` may release the attempt it is given.
    void forEachHosted(const std::function<void(qint64, Hosted &)> &act);

    Store &m_store;
    RunRecorder &m_recorder;
    LogBatcher &m_logs;
    const Clock &m_clock;
    const EngineConfig &m_config;
    std::function<Fence()> m_fence;
    bool m_stopping = false;           // stopAll(): an end the store refuses is left to recovery
    std::map<qint64, Hosted> m_hosted; // by task run id; values own executors, so no QHash
    QTimer m_soon;
};

} // namespace hg
