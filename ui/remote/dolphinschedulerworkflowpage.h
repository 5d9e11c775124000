#pragma once

#include "domain/connectionprofile.h"
#include "remote/dolphinschedulertypes.h"
#include "remote/remoteinfo.h"

#include <QTimeZone>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace hg {

class RemoteChainCanvas;

// One DolphinScheduler workflow definition as the console shows it: its release state and
// schedule (the next fire times in the schedule's zone, with their meaning), its DAG on the
// canvas at the definition's version, its instances with their state, host and duration
// (filtered, sorted by a header click and paged by keyset, all in SQL: a click reads the first
// page again in the new order rather than sorting the rows already shown), and the selected
// instance's task instances, sorted and paged the same way. It
// acts as DolphinScheduler's API server does (DolphinSchedulerLauncher, DolphinSchedulerControl):
// start, complement, bring the definition and its schedule online or offline; rerun, rerun the
// failed tasks, resume, stop and pause an instance — and says why when DolphinScheduler would
// refuse. Every read and write runs off the GUI thread.
class DolphinSchedulerWorkflowPage final : public QWidget
{
    Q_OBJECT

public:
    explicit DolphinSchedulerWorkflowPage(QWidget *parent = nullptr);

    void showWorkflow(const ConnectionProfile &profile, const QString &path);
    bool isBusy() const { return m_busy > 0; }
    // The status line: loading, the error, what an act did, or the remote's read-only warning.
    QString statusText() const;
    QString scheduleText() const;
    QString summaryText() const;
    RemoteChainCanvas *canvas() const { return m_canvas; }
    QTableWidget *instancesTable() const { return m_instances; }
    QTableWidget *taskInstancesTable() const { return m_tasks; }
    const DsSort &instanceSort() const { return m_instanceSort; }
    const DsSort &taskSort() const { return m_taskSort; }
    QString taskLogText() const;

Q_SIGNALS:
    void idle(); // every read and act has come back

private:
    struct Loaded
    {
        RemoteInfo info;
        DsWorkflow workflow;
        QList<DsInstance> instances;
        QStringList stateNames; // of each instance, in DolphinScheduler's words
        DsSort sort;            // the order they were read in
    };
    enum class InstanceAct { Rerun, RerunFailed, Resume, Stop, Pause };

    void buildUi();
    // AFTERWARDS: what the status line says once the workflow is read again (after an act).
    void reload(const QString &afterwards);
    void showLoaded(const Loaded &loaded);
    void showSchedule();
    // The instance filter as the controls and the header say; AFTER: where the page starts.
    DsInstanceFilter instanceFilter(const DsKeyset &after) const;
    // The first page again (in a new order) or, MORE, the next.
    void loadInstances(bool more);
    void showInstances(const QList<DsInstance> &instances, const QStringList &stateNames,
                       bool more);
    void appendInstances(const QList<DsInstance> &instances, const QStringList &stateNames);
    void sortInstances(int column, Qt::SortOrder order);
    // The selected instance's task instances: the first page or, MORE, the next.
    void loadTaskInstances(bool more = false);
    void appendTaskInstances(const QList<DsTaskInstance> &tasks);
    void sortTaskInstances(int column, Qt::SortOrder order);
    void showTaskLog();
    void launch(bool complement);
    void release(bool online);
    void releaseSchedule(bool online);
    // The definition (with its schedule when going offline) or, SCHEDULEONLY, its schedule.
    void setReleased(bool online, bool scheduleOnly);
    void actOnInstance(InstanceAct act);
    qint64 selectedInstanceId() const;
    void setStatus(const QString &text, bool error);
    void updateEnabled();
    void jobStarted();
    void jobFinished();

    ConnectionProfile m_profile;
    QString m_path;
    RemoteInfo m_info;
    DsWorkflow m_workflow;
    QTimeZone m_zone; // the schedule's, else the server's
    QList<DsInstance> m_shownInstances;
    QList<DsTaskInstance> m_shownTasks;
    bool m_loaded = false;
    int m_busy = 0;
    quint64 m_generation = 0; // answers for an earlier workflow are dropped
    // Answers for an earlier page request of either table (another order) are dropped too.
    quint64 m_instancesRead = 0;
    quint64 m_tasksRead = 0;
    DsSort m_instanceSort;                      // newest first
    DsSort m_taskSort{DsSortColumn::Id, false}; // in the order they were submitted

    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_schedule = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_complement = nullptr;
    QPushButton *m_online = nullptr;
    QPushButton *m_offline = nullptr;
    QPushButton *m_scheduleOnline = nullptr;
    QPushButton *m_scheduleOffline = nullptr;
    RemoteChainCanvas *m_canvas = nullptr;
    QCheckBox *m_failedOnly = nullptr;
    QComboBox *m_since = nullptr;
    QPushButton *m_moreInstances = nullptr;
    QTableWidget *m_instances = nullptr;
    QPushButton *m_rerun = nullptr;
    QPushButton *m_rerunFailed = nullptr;
    QPushButton *m_resume = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_pause = nullptr;
    QTableWidget *m_tasks = nullptr;
    QPushButton *m_moreTasks = nullptr;
    QLabel *m_taskLog = nullptr;
};

} // namespace hg
