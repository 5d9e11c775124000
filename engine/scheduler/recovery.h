#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/fence.h"
#include "domain/taskrun.h"

#include <QList>

#include <functional>

namespace hg {

class Store;

// What an engine does, as it starts and with every heartbeat, with what a crashed engine (or
// a session whose lease ran out) left behind: such a session is deleted, and of each run it
// owned every attempt still running, waiting or queued is marked interrupted, after its
// process group is killed if its leader is still the very process that was started (a
// reused pid is left alone). Every run still running, paused, waiting or interrupted is
// queued again: admitting it restores its history, and fateOf() decides per task whether the
// interrupted attempt is retried (a new attempt, never the same one twice) or counts as failed.
class Recovery final
{
public:
    // Kills the group led by pid if that process started at startTicks (tests record instead).
    using KillGroup = std::function<void(qint64 pid, qint64 startTicks)>;

    explicit Recovery(Store &store, KillGroup killGroup = {});

    // The runs queued again (unowned: any engine may claim them). `self` is never taken over.
    Result<QList<qint64>> recover(const Fence &self, qint64 nowMs);

    // A task of a resumed run whose latest attempt is `last`: retried when that attempt was
    // interrupted and retries remain, or it never started; otherwise it ends as `outcome` (an
    // interrupted attempt with no retry left counts as failed).
    struct Fate
    {
        bool retry = false;
        RunState outcome = RunState::Failed;
    };
    static Fate fateOf(const TaskRun &last, int maxRetries);

private:
    Store &m_store;
    KillGroup m_killGroup;
};

} // namespace hg
