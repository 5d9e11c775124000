#pragma once

#include "base/result.h"
#include "dolphinschedulerschema.h"

#include <QCoreApplication>
#include <QMap>

namespace hg {

class DolphinSchedulerCatalog;
class RemoteDatabase;

// Acts on a DolphinScheduler workflow instance by writing its database as DolphinScheduler
// does (dolphinschedulerprotocol.h gives the class and method followed for each): rerun,
// rerun from the failed tasks, resume a paused or stopped instance, and start a definition. 2.0-3.2
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

    struct StartOptions
    {
        QString userName = QStringLiteral("admin");
        int failureStrategy = 1; // 0 end, 1 continue (the command's default)
        QString workerGroup = QStringLiteral("default");
        QMap<QString, QString> parameters; // the run's start parameters
        bool dryRun = false;
    };
    // Starts an online workflow definition ("PROJECT/WORKFLOW"): 2.0-3.2, the API server's
    // command row (and its t_ds_trigger_relation row where that table exists); 3.3, the
    // instance and command its master inserts. The new command's id.
    Result<qint64> start(const QString &path, const StartOptions &options) const;

    // Stop or pause an instance. DolphinScheduler does either by telling the master that runs
    // it (over RPC, to the instance's host), which a database write cannot do: refused, with
    // that reason, except where DolphinScheduler itself only writes the database (3.3, an
    // instance waiting its turn in serial wait: stopped or paused in place).
    Status stopOrPause(qint64 instanceId, bool stop) const;

private:
    Result<qint64> userId(const QString &userName) const;

    RemoteDatabase *m_remote;
    const DolphinSchedulerCatalog *m_catalog;
    DolphinSchedulerSchema m_schema;
};

} // namespace hg
