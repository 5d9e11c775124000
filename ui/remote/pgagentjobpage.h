#pragma once

#include "domain/connectionprofile.h"
#include "remote/pgagenttypes.h"
#include "remote/remoteinfo.h"

#include <QTimeZone>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace hg {

// One pgAgent job as the console shows it: its class, agent and next and last run; its steps
// in the order the agent runs them; its schedules with their cron form and next fire times as
// pga_next_schedule() computes them, in the server's zone; the acts pgAdmin offers (run now,
// enable, disable) and importing it as a local chain; and its history from pga_joblog with
// each step's status, duration and output, page by page. Every read and write runs off the
// GUI thread.
class PgAgentJobPage final : public QWidget
{
    Q_OBJECT

public:
    explicit PgAgentJobPage(QWidget *parent = nullptr);

    void showJob(const ConnectionProfile &profile, const QString &jobName);
    bool isBusy() const { return m_busy > 0; }
    // The status line: what is loading, what failed, what an act did, or the read-only warning.
    QString statusText() const;
    QString scheduleText() const;
    QTableWidget *stepsTable() const { return m_steps; }
    QTreeWidget *runsTree() const { return m_runs; }
    QPlainTextEdit *outputView() const { return m_output; }

Q_SIGNALS:
    void importRequested(const QString &remoteName, const QString &jobName);
    void idle(); // every read and act has come back

private:
    struct Loaded
    {
        RemoteInfo info;
        QTimeZone zone;
        PgAgentJob job;
        QList<PgAgentRun> runs;
    };

    void buildUi();
    // AFTERWARDS: what the status line says once the job is read again (after an act).
    void reload(const QString &afterwards);
    void showLoaded(const Loaded &loaded);
    void fillSteps();
    void showSchedules();
    void loadMoreRuns();
    void appendRuns(const QList<PgAgentRun> &runs);
    void showOutput();
    void act(const QString &what);
    void setStatus(const QString &text, bool error);
    void updateEnabled();
    void jobStarted();
    void jobFinished();

    ConnectionProfile m_profile;
    QString m_jobName;
    PgAgentJob m_job;
    RemoteInfo m_info;
    QTimeZone m_zone;
    qint64 m_lastRunShown = 0; // the keyset for the next page of history
    bool m_runShownRunning = false;
    QDateTime m_watchUntil; // after "Run now": the history is read again until then
    bool m_loaded = false;
    int m_busy = 0;
    quint64 m_generation = 0; // answers for an earlier job are dropped

    QLabel *m_title = nullptr;
    QPushButton *m_refresh = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_runNow = nullptr;
    QPushButton *m_enable = nullptr;
    QPushButton *m_disable = nullptr;
    QPushButton *m_import = nullptr;
    QTableWidget *m_steps = nullptr;
    QLabel *m_schedules = nullptr;
    QTreeWidget *m_runs = nullptr;
    QPushButton *m_moreRuns = nullptr;
    QPlainTextEdit *m_output = nullptr;
};

} // namespace hg
