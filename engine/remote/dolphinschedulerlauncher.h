#pragma once

#include "base/result.h"
#include "dolphinschedulerschema.h"
#include "dolphinschedulertypes.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QMap>

#include <optional>

namespace hg {

class DolphinSchedulerCatalog;
class RemoteDatabase;

// Starts and complements (backfills) DolphinScheduler workflow definitions by writing what
// DolphinScheduler writes (dolphinschedulerprotocol.h names the classes followed). 2.0-3.2:
// its API server's t_ds_command rows (and t_ds_trigger_relation rows where that table
// exists); 3.3: for each run, the submitted instance and the command its master inserts.
// Everything an act writes goes in one transaction; a definition DolphinScheduler would not
// start (offline, or running an offline sub-workflow) is refused and nothing is written.
class DolphinSchedulerLauncher final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DolphinSchedulerLauncher)

public:
    struct Options
    {
        QString userName = QStringLiteral("admin");
        int failureStrategy = 1; // 0 end, 1 continue (the command's default)
        QString workerGroup = QStringLiteral("default");
        QMap<QString, QString> parameters; // the run's start parameters
        bool dryRun = false;
        // The run's settings, at DolphinScheduler's API defaults: WarningType (0 none, 1 on
        // success, 2 on failure, 3 all), the alert group to warn (none: left NULL and the
        // definition's own kept), Priority (0 highest ... 2 medium ... 4 lowest), the
        // environment (-1 none) and the tenant (3.2 and 3.3; 2.0 takes the definition's).
        int warningType = 0;
        std::optional<int> warningGroupId;
        int priority = 2;
        qint64 environmentCode = -1;
        QString tenantCode = QStringLiteral("default");
        // Start from these tasks (codes) rather than the DAG's roots, with what else runs:
        // TaskDependType 0 only them, 1 them and what they need before, 2 them and what
        // follows (DolphinScheduler's default).
        QList<qint64> startNodes;
        int taskDependType = 2;
        // Complement: the online workflows whose DEPENDENT tasks wait on this one too
        // (ComplementDependentMode ALL_DEPENDENT), and with allLevels theirs in turn.
        bool complementDependents = false;
        bool allLevels = false;
    };

    // The catalog must be open on `remote`.
    DolphinSchedulerLauncher(RemoteDatabase &remote, const DolphinSchedulerCatalog &catalog);

    // "PROJECT/WORKFLOW" started once; the new command's id.
    Result<qint64> start(const QString &path, const Options &options) const;
    // Backfill of the fire times in [from, to] of the definition's online schedules (a daily
    // midnight when it has none), serially (parallel 0) or `parallel` at a time, split as each
    // version splits it. The new commands' ids.
    Result<QList<qint64>> complement(const QString &path, const QDateTime &from,
                                     const QDateTime &to, int parallel,
                                     const Options &options) const;

private:
    struct Run
    {
        int commandType = 0;
        QString historyCmd; // 3.3's instance history_cmd and state_history desc
        QStringList dates;  // complement dates, "yyyy-MM-dd HH:mm:ss"
        QString rangeStart; // 2.0-3.0: the complement's start and end date instead
        QString rangeEnd;
        QDateTime scheduleTime; // 3.3: the instance's first date
    };
    // Online, with its sub-workflows online, and every start node one of its tasks.
    Result<DsWorkflow> startable(const QString &path, const Options &options) const;
    // Inside the open transaction: one run's rows.
    Result<qint64> queue(const DsWorkflow &workflow, qint64 userId, const Options &options,
                         const Run &run) const;
    // 3.2's createComplementDependentCommand, inside the open transaction: for each dependent
    // workflow, a copy of complement command MAINCOMMAND starting from its DEPENDENT task.
    Result<QList<qint64>> queueDependents(const DsWorkflow &upstream, qint64 mainCommand,
                                          const QString &upstreamCron,
                                          const Options &options) const;
    Result<QList<qint64>> inTransaction(const std::function<Result<QList<qint64>>()> &work) const;

    RemoteDatabase *m_remote;
    const DolphinSchedulerCatalog *m_catalog;
    DolphinSchedulerSchema m_schema;
};

} // namespace hg
