#include "runsview.h"

#include "common/letterwidth.h"
#include "common/taborder.h"
#include "displayformat.h"
#include "logmodel.h"
#include "runs/durationbars.h"
#include "runs/logview.h"
#include "runs/runganttchart.h"
#include "runsmodel.h"
#include "scheduler/runcontrol.h"
#include "statepresentation.h"
#include "store/runrepository.h"
#include "storereader.h"
#include "taskrunsmodel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScopedValueRollback>
#include <QShowEvent>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <utility>

namespace hg {

RunsView::RunsView(Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_runs(new RunsModel(store, this))
    , m_attempts(new TaskRunsModel(store, this))
    , m_table(new QTableView(this))
    , m_attemptTable(new QTableView(this))
    , m_log(new LogView(store, this))
    , m_gantt(new RunGanttChart(m_attempts, this))
    , m_state(new QComboBox(this))
    , m_trigger(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_onlySelectedChain(new QCheckBox(tr("Only the selected chain"), this))
    , m_messageExpiry(new QTimer(this))
    , m_trend(new DurationBars(this))
    , m_trendRefresh(new QTimer(this))
{
    m_state->addItem(tr("All states"));
    for (RunState state :
         {RunState::Queued, RunState::Running, RunState::Paused, RunState::Succeeded,
          RunState::Failed, RunState::Cancelled, RunState::TimedOut, RunState::Interrupted})
        m_state->addItem(StatePresentation::label(state), int(state));
    m_trigger->addItem(tr("All triggers"));
    for (RunTrigger trigger : {RunTrigger::Schedule, RunTrigger::Manual, RunTrigger::Rerun,
                               RunTrigger::Backfill, RunTrigger::Subchain, RunTrigger::Trigger})
        m_trigger->addItem(StatePresentation::label(trigger), int(trigger));

    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_stop = toolbar->addAction(tr("Stop"), this, [this] {
        request([this](qint64 id) { return RunControl(m_store).control(CommandKind::Stop, id); });
    });
    m_pause = toolbar->addAction(tr("Pause"), this, [this] {
        request([this](qint64 id) { return RunControl(m_store).control(CommandKind::Pause, id); });
    });
    m_resume = toolbar->addAction(tr("Resume"), this, [this] {
        request([this](qint64 id) { return RunControl(m_store).control(CommandKind::Resume, id); });
    });
    toolbar->addSeparator();
    m_rerun = toolbar->addAction(tr("Rerun"), this, [this] { rerun(false); });
    m_rerunFailed = toolbar->addAction(tr("Rerun failed"), this, [this] { rerun(true); });
    m_stop->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_rerun->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));

    m_onlySelectedChain->setObjectName(QStringLiteral("runs.onlySelectedChain"));
    m_onlySelectedChain->setChecked(true);
    m_onlySelectedChain->setEnabled(false); // until a chain is selected
    m_onlySelectedChain->setToolTip(
        tr("Show only the runs of the chain selected in the tree; off: every chain's runs"));
    connect(m_onlySelectedChain, &QCheckBox::toggled, this, &RunsView::applyFilter);
    m_message->setObjectName(QStringLiteral("runs.message"));
    // A confirmation says what just happened; it goes once the run moves on, or after a while.
    m_messageExpiry->setSingleShot(true);
    m_messageExpiry->setInterval(6000);
    connect(m_messageExpiry, &QTimer::timeout, m_message, &QLabel::clear);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_onlySelectedChain);
    // Buddy labels name the filters for screen readers.
    auto *stateLabel = new QLabel(tr("&State:"), this);
    stateLabel->setBuddy(m_state);
    auto *triggerLabel = new QLabel(tr("&Trigger:"), this);
    triggerLabel->setBuddy(m_trigger);
    bar->addWidget(stateLabel);
    bar->addWidget(m_state);
    bar->addWidget(triggerLabel);
    bar->addWidget(m_trigger);
    bar->addWidget(toolbar);
    bar->addWidget(m_message, 1);

    m_table->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside

    m_table->setModel(m_runs);
    m_table->setAccessibleName(tr("Runs"));
    m_table->setAccessibleDescription(tr("Every run, newest first: its chain, state, trigger, "
                                         "times, duration and why it failed"));
    m_state->setToolTip(tr("Show only runs in this state"));
    m_trigger->setToolTip(tr("Show only runs started this way"));
    m_attemptTable->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_attemptTable->setAccessibleName(tr("Task attempts"));
    m_state->setAccessibleName(tr("Filter by state"));
    m_trigger->setAccessibleName(tr("Filter by trigger"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setMinimumSectionSize(4 * letterWidth(m_table->fontMetrics()));
    m_table->horizontalHeader()->setSortIndicator(RunsModel::IdColumn, Qt::DescendingOrder);
    m_table->setSortingEnabled(true);
    fitColumns();
    m_table->viewport()->installEventFilter(this);
    // The last column stretches by itself as the view resizes: only a drag is the user's.
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_fittingColumns && QGuiApplication::mouseButtons() != Qt::NoButton)
            m_columnsSizedByHand = true;
    });

    m_attemptTable->setModel(m_attempts);
    // Which engine ran an attempt matters only once one ran on another engine than its run's.
    const auto showRanOn = [this] {
        m_attemptTable->setColumnHidden(TaskRunsModel::RanOnColumn, !m_attempts->anyRanElsewhere());
    };
    showRanOn();
    connect(m_attempts, &QAbstractItemModel::modelReset, this, showRanOn);
    connect(m_attempts, &QAbstractItemModel::rowsInserted, this, showRanOn);
    connect(m_attempts, &QAbstractItemModel::dataChanged, this, showRanOn);
    m_attemptTable->verticalHeader()->hide();
    m_attemptTable->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_attemptTable->setColumnWidth(TaskRunsModel::TaskColumn, 110);
    m_attemptTable->setColumnWidth(TaskRunsModel::AttemptColumn, 60);
    m_attemptTable->setColumnWidth(TaskRunsModel::StateColumn, 80);
    m_attemptTable->horizontalHeader()->setStretchLastSection(true);
    m_attemptTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attemptTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_attemptTable->setToolTip(tr("Select an attempt to see only its log; Esc shows the whole "
                                  "run's log again."));
    // One attempt selected: its log only. None: the whole run's.
    connect(m_attemptTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndexList rows = m_attemptTable->selectionModel()->selectedRows();
        m_log->follow(
            m_attempts->runId(),
            rows.isEmpty() ? 0 : rows.first().data(TaskRunsModel::TaskRunIdRole).toLongLong());
    });
    auto *wholeRun = new QAction(this);
    wholeRun->setShortcut(QKeySequence(Qt::Key_Escape));
    wholeRun->setShortcutContext(Qt::WidgetShortcut);
    connect(wholeRun, &QAction::triggered, m_attemptTable, &QAbstractItemView::clearSelection);
    m_attemptTable->addAction(wholeRun);

    auto *attemptTabs = new QTabWidget(this);
    attemptTabs->setAccessibleName(tr("Selected run"));
    attemptTabs->setAccessibleDescription(tr("The selected run's timeline and its attempts"));
    attemptTabs->tabBar()->setAccessibleDescription(attemptTabs->accessibleDescription());
    attemptTabs->addTab(m_gantt, tr("Timeline"));
    attemptTabs->addTab(m_attemptTable, tr("Attempts"));
    attemptTabs->setTabToolTip(0, tr("A bar per attempt of each task, on the run's time line"));
    attemptTabs->setTabToolTip(1, tr("Every attempt of every task, with its exit code"));
    auto *detail = new QSplitter(Qt::Horizontal, this);
    detail->setObjectName(QStringLiteral("runs.attemptsAndLog"));
    detail->addWidget(attemptTabs);
    detail->addWidget(m_log);
    detail->setStretchFactor(1, 2);
    detail->setSizes({420, 640});
    m_trend->setObjectName(QStringLiteral("runs.trend"));
    m_trend->setShowMedian(true);
    m_trend->setFixedHeight(64);
    m_trend->setAccessibleName(tr("Duration of the last %1 runs").arg(trendRuns));
    m_trend->hide();
    m_trendRefresh->setSingleShot(true);
    m_trendRefresh->setInterval(500);
    connect(m_trendRefresh, &QTimer::timeout, this, &RunsView::reloadTrend);
    auto *tableColumn = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tableColumn);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_trend);
    tableLayout->addWidget(m_table, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("runs.listAndDetail"));
    split->addWidget(tableColumn);
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    // Tab as the eye reads: the filters and actions, the runs, the selected run's attempts,
    // its log.
    setTabOrderOf({m_onlySelectedChain, m_state, m_trigger, toolbar, m_table, attemptTabs, m_log});

    connect(m_state, &QComboBox::currentIndexChanged, this, &RunsView::applyFilter);
    connect(m_trigger, &QComboBox::currentIndexChanged, this, &RunsView::applyFilter);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &RunsView::showCurrentRun);
    connect(m_runs, &QAbstractItemModel::dataChanged, this, &RunsView::updateActions);
    connect(m_runs, &QAbstractItemModel::modelReset, this, &RunsView::updateActions);
    connect(m_runs, &RunsModel::reloaded, this, &RunsView::selectAfterReload);
    // A sort by a column's header reads again too: the selected run stays selected.
    connect(m_runs, &RunsModel::reloading, this, [this] {
        if (m_reselect == 0)
            m_reselect = currentRunId();
    });
    // The log names each line's task once the run's attempts are read.
    connect(m_attempts, &QAbstractItemModel::modelReset, this, [this] {
        for (int row = 0; row < m_attempts->rowCount(); ++row) {
            const QModelIndex index = m_attempts->index(row, 0);
            m_log->model()->setTaskName(index.data(TaskRunsModel::TaskRunIdRole).toLongLong(),
                                        index.data().toString());
        }
    });
    updateActions(); // the list is read once the view is shown
}

void RunsView::setReader(StoreReader *reader)
{
    m_reader = reader;
    m_runs->setReader(reader);
    m_attempts->setReader(reader);
    m_log->model()->setReader(reader);
}

void RunsView::followChain(qint64 chainId)
{
    if (m_followedChain == chainId)
        return;
    m_followedChain = chainId;
    m_onlySelectedChain->setEnabled(chainId > 0);
    applyFilterWhenShown(); // and the trend above
}

void RunsView::reloadRuns()
{
    applyFilterWhenShown();
}

void RunsView::applyFilterWhenShown()
{
    if (isVisible())
        applyFilter();
    else
        m_filterPending = true;
}

void RunsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_filterPending)
        applyFilter();
}

void RunsView::reloadTrend()
{
    // A chain's durations over its last runs, with their median: a job slowing down shows.
    // Only above that chain's runs, and only once it has some (an empty band was a gap).
    if (m_followedChain <= 0 || !m_onlySelectedChain->isChecked()) {
        m_trend->hide();
        return;
    }
    const qint64 chainId = m_followedChain;
    const auto show = [this, chainId](const Result<QList<RunSummary>> &runs) {
        if (chainId != m_followedChain || !m_onlySelectedChain->isChecked())
            return; // another chain was chosen meanwhile: its own read follows
        m_trend->setRuns(runs ? runs.value() : QList<RunSummary>());
        m_trend->setVisible(runs && !runs->isEmpty());
    };
    if (!m_reader)
        return show(RunRepository(m_store).recentOfChain(chainId, trendRuns));
    m_reader->read<QList<RunSummary>>(
        this,
        [chainId](Store &store) { return RunRepository(store).recentOfChain(chainId, trendRuns); },
        show);
}

// Widths from the font and the labels, not fixed pixels: every column fits 1024x640, in
// English and in German. The chain's path takes what the others leave (8 to 24 letters), the
// reason stretches into the rest, whole in its tooltip. Fitted again as the view resizes,
// until the user sizes a column by hand.
void RunsView::fitColumns()
{
    if (m_columnsSizedByHand)
        return;
    const QFontMetrics metrics = m_table->fontMetrics();
    const QHeaderView *header = m_table->horizontalHeader();
    const int letter = letterWidth(metrics);
    const int padding = letter + 8;
    const auto widest = [&metrics](const QStringList &texts) {
        int most = 0;
        for (const QString &text : texts)
            most = std::max(most, metrics.horizontalAdvance(text));
        return most;
    };
    QStringList states;
    for (int n = 1; n < m_state->count(); ++n)
        states << m_state->itemText(n);
    QStringList triggers;
    for (int n = 1; n < m_trigger->count(); ++n)
        triggers << m_trigger->itemText(n);
    const QDateTime sample(QDate(2026, 12, 30), QTime(23, 58, 58));
    const int time = metrics.horizontalAdvance(DisplayFormat::recent(sample, sample.addDays(3)));
    const int icon = m_table->style()->pixelMetric(QStyle::PM_SmallIconSize) + 6;
    const QList<std::pair<int, int>> contents{
        {RunsModel::IdColumn, metrics.horizontalAdvance(QStringLiteral("8888888"))},
        {RunsModel::StateColumn, widest(states) + icon},
        {RunsModel::TriggerColumn, widest(triggers)},
        {RunsModel::ScheduledColumn, time},
        {RunsModel::StartedColumn, time},
        {RunsModel::DurationColumn, metrics.horizontalAdvance(QStringLiteral("88 min 88 s"))}};
    const QScopedValueRollback fitting(m_fittingColumns, true);
    int used = 0;
    for (const auto &[column, width] : contents) {
        const int fitted = std::max(width + padding, header->sectionSizeHint(column));
        m_table->setColumnWidth(column, fitted);
        used += fitted;
    }
    // A stretched last section is never narrower than the default section size.
    const int reason =
        std::max(header->sectionSizeHint(RunsModel::ReasonColumn), header->defaultSectionSize());
    m_table->setColumnWidth(
        RunsModel::ChainColumn,
        std::clamp(m_table->viewport()->width() - used - reason, 8 * letter, 24 * letter));
}

bool RunsView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void RunsView::applyFilter()
{
    m_filterPending = false;
    reloadTrend(); // shown only while the list is the followed chain's
    const QVariant state = m_state->currentData();
    const QVariant trigger = m_trigger->currentData();
    const bool onlyOne = m_followedChain > 0 && m_onlySelectedChain->isChecked();
    if (m_reselect == 0) // a run asked for while an earlier read was under way stays wanted
        m_reselect = currentRunId();
    m_runs->setFilter(onlyOne ? std::optional(m_followedChain) : std::nullopt,
                      state.isValid() ? std::optional(RunState(state.toInt())) : std::nullopt,
                      trigger.isValid() ? std::optional(RunTrigger(trigger.toInt()))
                                        : std::nullopt);
}

void RunsView::selectAfterReload()
{
    if (!m_runs->lastError().isEmpty())
        showMessage(m_runs->lastError(), 0);
    const qint64 wanted = std::exchange(m_reselect, 0);
    if (wanted > 0)
        selectRun(wanted);
    // The run shown below must be one of the list: the newest, when the old one left it.
    if (wanted == 0 || currentRunId() != wanted) {
        if (m_runs->rowCount() > 0)
            m_table->selectRow(0);
        else
            showNoRun();
    }
}

void RunsView::showNoRun()
{
    m_attempts->clear();
    m_log->follow(0);
    updateActions();
}

qint64 RunsView::currentRunId() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.siblingAtColumn(0).data(RunsModel::RunIdRole).toLongLong()
                             : 0;
}

void RunsView::selectRun(qint64 runId)
{
    if (m_filterPending)
        applyFilter(); // the run is sought in the list the filter makes
    if (m_runs->isLoading()) {
        m_reselect = runId;
        return;
    }
    for (int row = 0; row < m_runs->rowCount(); ++row) {
        if (m_runs->index(row, 0).data(RunsModel::RunIdRole).toLongLong() == runId) {
            m_table->selectRow(row);
            return;
        }
    }
}

void RunsView::showCurrentRun()
{
    const qint64 runId = currentRunId();
    if (runId <= 0)
        return;
    m_log->follow(runId);
    (void)m_attempts->show(runId); // names the log's tasks when its attempts are shown
    updateActions();
}

void RunsView::updateActions()
{
    const QModelIndex current = m_table->currentIndex();
    const bool selected = current.isValid();
    const RunState state =
        selected ? RunState(current.siblingAtColumn(0).data(RunsModel::StateRole).toInt())
                 : RunState::Queued;
    const bool ended = selected && isTerminal(state);
    m_stop->setEnabled(selected && !ended);
    m_pause->setEnabled(selected && state == RunState::Running);
    m_resume->setEnabled(selected && state == RunState::Paused);
    m_rerun->setEnabled(ended);
    m_rerunFailed->setEnabled(ended && state != RunState::Succeeded);
}

void RunsView::request(const std::function<Status(qint64)> &action)
{
    const qint64 runId = currentRunId();
    if (runId <= 0)
        return;
    const Status done = action(runId);
    if (done)
        Q_EMIT commandsIssued();
    showMessage(done ? tr("Run %1: sent to the engine.").arg(runId) : done.error().message,
                done ? runId : 0);
}

void RunsView::rerun(bool onlyFailed)
{
    const qint64 runId = currentRunId();
    if (runId <= 0)
        return;
    const Result<Run> again = RunControl(m_store).rerun(runId, onlyFailed);
    if (!again)
        return showMessage(again.error().message, 0);
    Q_EMIT commandsIssued();
    // In the list at once, selected, not only once the engine reports on it.
    m_runs->applyRun(again.value());
    selectRun(again->id);
    showMessage(tr("Run %1 queued: a rerun of run %2.").arg(again->id).arg(runId), again->id);
}

void RunsView::showMessage(const QString &text, qint64 aboutRunId)
{
    m_message->setText(text);
    m_messageRun = aboutRunId;
    if (aboutRunId > 0)
        m_messageExpiry->start();
    else
        m_messageExpiry->stop(); // an error stays until the next action
}

QString RunsView::message() const
{
    return m_message->text();
}

void RunsView::applyRun(const Run &run)
{
    m_runs->applyRun(run);
    if (run.chainId == m_followedChain && isTerminal(run.state) && !m_trendRefresh->isActive())
        m_trendRefresh->start();
    // "queued" or "sent" is no longer news once the run it was about has moved on.
    if (run.id == m_messageRun && run.state != RunState::Queued) {
        m_message->clear();
        m_messageRun = 0;
    }
}

void RunsView::applyTaskRun(const TaskRun &taskRun)
{
    m_attempts->applyTaskRun(taskRun);
    if (taskRun.runId == m_attempts->runId())
        m_log->model()->setTaskName(taskRun.id, m_attempts->taskName(taskRun.taskId));
}

void RunsView::appendLogLines(const QList<LogLine> &lines)
{
    m_log->appendLines(lines);
}

} // namespace hg
