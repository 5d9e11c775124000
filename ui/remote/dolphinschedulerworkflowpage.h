#pragma once

#include "domain/connectionprofile.h"
#include "remote/dolphinschedulertypes.h"
#include "remote/remoteinfo.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace hg {

class RemoteChainCanvas;

// One DolphinScheduler workflow definition as the console shows it, read only: its release
// state and schedule (the next fire times in the schedule's zone, with their meaning), its DAG
// on the canvas at the definition's version, and its newest instances with their state, host
// and duration. Every read runs off the GUI thread.
class DolphinSchedulerWorkflowPage final : public QWidget
{
    Q_OBJECT

public:
    explicit DolphinSchedulerWorkflowPage(QWidget *parent = nullptr);

    void showWorkflow(const ConnectionProfile &profile, const QString &path);
    bool isBusy() const { return m_busy; }
    // The status line: loading, the error, or the remote's read-only warning.
    QString statusText() const;
    QString scheduleText() const;
    RemoteChainCanvas *canvas() const { return m_canvas; }
    QTableWidget *instancesTable() const { return m_instances; }

Q_SIGNALS:
    void idle(); // the last load came back

private:
    struct Loaded
    {
        RemoteInfo info;
        DsWorkflow workflow;
        QList<DsInstance> instances;
        QStringList stateNames; // of each instance, in DolphinScheduler's words
    };

    void reload();
    void showLoaded(const Loaded &loaded);

    ConnectionProfile m_profile;
    QString m_path;
    bool m_busy = false;
    quint64 m_generation = 0; // answers for an earlier workflow are dropped

    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_schedule = nullptr;
    QPushButton *m_refresh = nullptr;
    RemoteChainCanvas *m_canvas = nullptr;
    QTableWidget *m_instances = nullptr;
};

} // namespace hg
