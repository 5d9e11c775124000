#pragma once

#include "base/result.h"
#include "dolphinschedulerschema.h"

#include <QCoreApplication>

namespace hg {

class DolphinSchedulerCatalog;
class RemoteDatabase;

// Acts on a DolphinScheduler workflow instance by writing its database as DolphinScheduler
// does (dolphinschedulerprotocol.h gives the class and method followed for each): rerun,
// rerun from the failed tasks, resume a paused or stopped instance (DolphinSchedulerLauncher
// starts and complements definitions). 2.0-3.2
// (the "process" layout): its API server inserts one t_ds_command row. 3.3: its master, asked over
// RPC, inserts the command and (from failed tasks, resume) resets the instance first; done here in
// one transaction. A state DolphinScheduler would refuse is refused with its reason.
class DolphinSchedulerControl final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DolphinSchedulerControl)

public:
    enum class Action { Rerun, RerunFailedTasks, Resume };

    // The catalog must be open on `remote`.
    DolphinSchedulerControl(RemoteDatabase &remote, const DolphinSchedulerCatalog &catalog);

    // As DolphinScheduler user `userName` (t_ds_user.user_name); the new command's id.
    Result<qint64> act(qint64 instanceId, Action action, const QString &userName) const;

    // Stop or pause an instance. DolphinScheduler does either by telling the master that runs
    // it (over RPC, to the instance's host), which a database write cannot do: refused, with
    // that reason, except where DolphinScheduler itself only writes the database (3.3, an
    // instance waiting its turn in serial wait: stopped or paused in place).
    Status stopOrPause(qint64 instanceId, bool stop) const;

private:
    // 2.0.x: whether the definition at that version is online; whether a rerun, rerun from
    // failed tasks or resume of the instance is already queued.
    Result<bool> definitionOnline20(qint64 code, int version) const;
    Result<bool> commandPending20(qint64 instanceId) const;

    RemoteDatabase *m_remote;
    const DolphinSchedulerCatalog *m_catalog;
    DolphinSchedulerSchema m_schema;
};

} // namespace hg
