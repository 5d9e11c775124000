#pragma once

#include "base/result.h"
#include "dolphinschedulerorder.h"
#include "dolphinschedulerschema.h"
#include "dolphinschedulertypes.h"
#include "remoteinfo.h"

#include <QCoreApplication>

class QSqlQuery;

namespace hg {

class RemoteDatabase;

// Apache DolphinScheduler's metadata database (MySQL/MariaDB or PostgreSQL) read directly:
// projects, workflow definitions with their release state and schedule, and each
// definition's DAG (its tasks at the versions its relations name, and the relations), and its
// instances. Both table layouts (DolphinSchedulerSchema) are read through the same queries.
// It brings definitions and their schedules online and offline; DolphinSchedulerLauncher
// starts and complements, DolphinSchedulerControl acts on instances.
class DolphinSchedulerCatalog final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DolphinSchedulerCatalog)

public:
    // Detects the layout and reads t_ds_version; the catalog uses `remote` in the calling
    // thread and must not outlive it.
    static Result<DolphinSchedulerCatalog> open(RemoteDatabase &remote);

    const RemoteInfo &info() const { return m_info; }
    const DolphinSchedulerSchema &schema() const { return m_schema; }

    // Every workflow definition with its schedule, by project and name (no tasks).
    Result<QList<DsWorkflow>> workflows() const;
    // "PROJECT/WORKFLOW" with its tasks and relations.
    Result<DsWorkflow> workflow(const QString &path) const;

    // A definition brought online or offline, as DolphinScheduler's API server does it
    // (dolphinschedulerprotocol.h): online refuses an empty DAG and a sub-workflow that is not
    // online; offline takes the definition's schedule offline too. Already so: nothing written.
    Status setWorkflowOnline(const QString &path, bool online) const;
    // The definition's schedule brought online or offline as the API server does
    // (SchedulerServiceImpl): its release state and its Quartz job (DolphinSchedulerQuartz), in
    // one transaction. Online refuses a definition that is not online, and on 2.0 an empty DAG
    // or an offline sub-workflow. Already so: nothing written.
    Status setScheduleOnline(const QString &path, bool online) const;
    // Every sub-workflow its DAG runs is online (DolphinScheduler refuses to bring online or
    // start one that runs an offline sub-workflow); else which is not.
    Status checkSubWorkflowsOnline(const DsWorkflow &workflow, const QString &why) const;

    // The id of DolphinScheduler user `userName` (t_ds_user), whom an act is done as.
    Result<qint64> userId(const QString &userName) const;

    // Workflow instances, newest first or in the filter's order, filtered, sorted and paged by
    // keyset in SQL (DolphinSchedulerOrder).
    Result<QList<DsInstance>> instances(const DsInstanceFilter &filter) const;
    Result<DsInstance> instance(qint64 id) const;
    Result<QList<DsTaskInstance>> taskInstances(qint64 instanceId) const;
    // Task instances of every workflow instance (or of one), newest first or in the filter's
    // order, filtered, sorted and paged by keyset in SQL. Newest first reads the primary key
    // backwards, so a page costs the same however long the history; another order costs a
    // sort of the rows the filters leave, as DolphinScheduler's schema indexes none of them.
    Result<QList<DsTaskInstance>> taskInstances(const DsTaskInstanceFilter &filter) const;
    // The keyset of workflow instance (or task instance) ID in SORT's order: a page that
    // starts after it, for a listing continued from an id alone (the command line's --before).
    Result<DsKeyset> instanceKeyset(qint64 id, const DsSort &sort) const;
    Result<DsKeyset> taskInstanceKeyset(qint64 id, const DsSort &sort) const;
    // DolphinScheduler's own words for a state code ("running", "ready pause", ...).
    QString workflowStateName(int state) const { return workflowStateName(state, m_schema); }
    static QString workflowStateName(int state, const DolphinSchedulerSchema &schema);
    static QString taskStateName(int state);

private:
    DolphinSchedulerCatalog(RemoteDatabase &remote, DolphinSchedulerSchema schema)
        : m_remote(&remote)
        , m_schema(schema)
    {}
    Result<QList<DsWorkflow>> readWorkflows(const QString &condition,
                                            const QStringList &values) const;
    Status exec(QSqlQuery &query, const QString &what) const;
    // Runs a page's statements (DolphinSchedulerOrder::page()) in turn until LIMIT rows are
    // read, handing each row to READ.
    template<typename Row, typename Read>
    Result<QList<Row>> readPage(const QList<DolphinSchedulerOrder::Statement> &statements,
                                int limit, const QString &what, Read read) const;
    // "PROJECT/WORKFLOW" as its two names, or why it is no such path.
    static Result<QStringList> projectAndWorkflow(const QString &path);
    Result<DsKeyset> keysetOf(qint64 id, const DsSort &sort, bool task) const;
    // t_ds_project.id, which names a schedule's Quartz job group.
    Result<int> projectId(qint64 projectCode) const;

    RemoteDatabase *m_remote;
    DolphinSchedulerSchema m_schema;
    RemoteInfo m_info;
};

} // namespace hg
