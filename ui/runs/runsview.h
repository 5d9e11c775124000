#pragma once

#include "base/result.h"
#include "domain/logline.h"
#include "domain/run.h"
#include "domain/taskrun.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QTimer;
class QLabel;
class QTableView;
class QToolBar;

namespace hg {

class DurationBars;
class LogView;
class RunGanttChart;
class RunsModel;
class Store;
class StoreReader;
class TaskRunsModel;

// Runs: a filterable, sortable table of every run (paged from the store), the controls
// that go through the command table (stop, pause, resume, rerun, rerun failed), and for
// the selected run its task attempts and its live log. With a reader (setReader) every read
// of the view is made on its thread: the list, its next pages, the trend, the attempts and
// the log; the window waits on none of them.
class RunsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunsView)

public:
    explicit RunsView(Store &store, QWidget *parent = nullptr);
    void setReader(StoreReader *reader);

    RunsModel *runs() const { return m_runs; }
    TaskRunsModel *attempts() const { return m_attempts; }
    QTableView *attemptTable() const { return m_attemptTable; }
    RunGanttChart *gantt() const { return m_gantt; }
    LogView *log() const { return m_log; }
    QTableView *table() const { return m_table; }
    // Stops the selected run (through the command table); the main toolbar shows it too.
    QAction *stopAction() const { return m_stop; }
    QList<QAction *> runActions() const { return {m_stop, m_rerun, m_rerunFailed}; }
    // Shows the run and selects it (after "Run now"); while the list is read, once it is.
    void selectRun(qint64 runId);
    // The chain selected in the tree (0: none): the list shows only its runs unless "Only
    // the selected chain" is unticked. Read when the view is shown: opening chain after chain
    // on a store across a network waited seven round trips each for a view not in sight.
    void followChain(qint64 chainId);
    // The line beside the controls: what the last action did, or why it failed.
    QString message() const;
    static constexpr int trendRuns = 100;
    DurationBars *trend() const { return m_trend; }

public Q_SLOTS:
    void applyRun(const hg::Run &run);
    // The list read again, keeping the filter and selection (many runs changed elsewhere); when
    // the view is not shown, once it is.
    void reloadRuns();
    void applyTaskRun(const hg::TaskRun &taskRun);
    void appendLogLines(const QList<hg::LogLine> &lines);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

Q_SIGNALS:
    // A command or a rerun was written: the window wakes its own engine, which would
    // otherwise see it only at its next poll.
    void commandsIssued();

private:
    void applyFilter();
    void applyFilterWhenShown(); // now if shown, else at the next showEvent
    // The list's first page is shown: the run selected before (or asked for) again, else the
    // newest.
    void selectAfterReload();
    bool m_filterPending = true; // the first read waits for the view to be shown
    qint64 m_reselect = 0;       // the run to select once the list being read is shown
    void showCurrentRun();
    void updateActions();
    qint64 currentRunId() const;
    void request(const std::function<Status(qint64)> &action);
    void rerun(bool onlyFailed);
    void reloadTrend();
    void fitColumns();
    void showNoRun();
    // aboutRunId > 0: news about that run, cleared once it moves on or after a few seconds.
    void showMessage(const QString &text, qint64 aboutRunId);

    Store &m_store;
    StoreReader *m_reader = nullptr;
    RunsModel *m_runs = nullptr;
    TaskRunsModel *m_attempts = nullptr;
    QTableView *m_table = nullptr;
    QTableView *m_attemptTable = nullptr;
    LogView *m_log = nullptr;
    RunGanttChart *m_gantt = nullptr;
    QComboBox *m_state = nullptr;
    QComboBox *m_trigger = nullptr;
    QLabel *m_message = nullptr;
    QCheckBox *m_onlySelectedChain = nullptr;
    QTimer *m_messageExpiry = nullptr;
    qint64 m_messageRun = 0;
    qint64 m_followedChain = 0;
    bool m_fittingColumns = false;     // fitColumns() is sizing them, not the user
    bool m_columnsSizedByHand = false; // then they stay as the user left them
    DurationBars *m_trend = nullptr;
    QTimer *m_trendRefresh = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_rerun = nullptr;
    QAction *m_rerunFailed = nullptr;
};

} // namespace hg
