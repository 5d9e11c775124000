#include "dolphinschedulerworkflowpage.h"

#include "displayformat.h"
#include "dolphinschedulerlaunchdialog.h"
#include "remote/dolphinschedulercontrol.h"
#include "remote/dolphinschedulerfires.h"
#include "remote/dolphinschedulerlauncher.h"
#include "remote/dolphinschedulerorder.h"
#include "remotechaincanvas.h"
#include "remotejob.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <array>

namespace hg {
namespace {

constexpr int instancesShown = 50;
constexpr int tasksShown = 100;
// Acts on an instance are done as this DolphinScheduler user, as the command line's default.
const char *const actingUser = "admin";

enum InstanceColumn {
    IdColumn,
    StateColumn,
    StartedColumn,
    EndedColumn,
    DurationColumn,
    HostColumn,
    RunsColumn,
    InstanceColumnCount
};

enum TaskColumn {
    TaskNameColumn,
    TaskTypeColumn,
    TaskStateColumn,
    TaskHostColumn,
    TaskStartedColumn,
    TaskEndedColumn,
    TaskDurationColumn,
    TaskRetriesColumn,
    TaskColumnCount
};

// What each column of the two tables sorts by, in SQL.
constexpr std::array<DsSortColumn, InstanceColumnCount> instanceSortColumns{
    DsSortColumn::Id,       DsSortColumn::State, DsSortColumn::Start,  DsSortColumn::End,
    DsSortColumn::Duration, DsSortColumn::Host,  DsSortColumn::Retries};
constexpr std::array<DsSortColumn, TaskColumnCount> taskSortColumns{
    DsSortColumn::Name,  DsSortColumn::Type, DsSortColumn::State,    DsSortColumn::Host,
    DsSortColumn::Start, DsSortColumn::End,  DsSortColumn::Duration, DsSortColumn::Retries};

// A header click sorts in SQL: the header shows the order (and which way each column starts,
// as the command line's --sort), while the table itself never sorts, for its rows are a page
// of the database's order, not all of them.
template<std::size_t N>
void sortByHeader(QTableWidget *table, const std::array<DsSortColumn, N> &columns)
{
    for (int column = 0; column < int(N); ++column) {
        if (QTableWidgetItem *header = table->horizontalHeaderItem(column))
            header->setData(Qt::InitialSortOrderRole,
                            DolphinSchedulerOrder::descendingFirst(columns.at(column))
                                ? Qt::DescendingOrder
                                : Qt::AscendingOrder);
    }
    table->horizontalHeader()->setSectionsClickable(true);
    table->horizontalHeader()->setSortIndicatorShown(true);
}

template<typename T>
void runJob(DolphinSchedulerWorkflowPage *page, const ConnectionProfile &profile,
            std::function<Result<T>(RemoteDatabase &, const DolphinSchedulerCatalog &)> work,
            std::function<void(const Result<T> &)> done)
{
    whenAnswered<T>(page, onRemoteDatabase<DolphinSchedulerCatalog, T>(profile, std::move(work)),
                    std::move(done));
}

QString durationText(const QDateTime &start, const QDateTime &end)
{
    return start.isValid() && end.isValid() ? DisplayFormat::duration(start.msecsTo(end))
                                            : QString();
}

QString timeText(const QDateTime &at)
{
    return at.isValid() ? QLocale().toString(at, QLocale::ShortFormat) : QString();
}

// Every column but the last fitted to its contents; the last keeps filling the rest (fitting
// it too drops the stretch until the table is next resized: a gap after a header click).
void fitColumns(QTableWidget *table)
{
    for (int column = 0; column + 1 < table->columnCount(); ++column)
        table->resizeColumnToContents(column);
}

QTableWidget *makeTable(const QStringList &headers, const QString &name, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    table->setAccessibleName(name);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace

DolphinSchedulerWorkflowPage::DolphinSchedulerWorkflowPage(QWidget *parent)
    : QWidget(parent)
{
    buildUi();
}

void DolphinSchedulerWorkflowPage::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setToolTip(tr("Read the workflow and its instances again"));
    connect(m_refresh, &QPushButton::clicked, this, [this] { reload(QString()); });
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_refresh);
    layout->addLayout(titleRow);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setAccessibleName(tr("Status"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_schedule = new QLabel(this);
    m_schedule->setWordWrap(true);
    m_schedule->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_schedule->setAccessibleName(tr("Schedule"));
    layout->addWidget(m_status);
    layout->addWidget(m_summary);
    layout->addWidget(m_schedule);

    m_start = new QPushButton(tr("&Start…"), this);
    m_start->setToolTip(tr("Queue a start command for DolphinScheduler's master, as its API "
                           "server does"));
    m_complement = new QPushButton(tr("&Complement…"), this);
    m_complement->setToolTip(tr("Backfill the schedule's fire times in a range"));
    m_online = new QPushButton(tr("Bring &online"), this);
    m_online->setToolTip(tr("Release the definition, as DolphinScheduler's API server does"));
    m_offline = new QPushButton(tr("Take o&ffline"), this);
    m_offline->setToolTip(tr("Take the definition offline, and its schedule with it"));
    m_scheduleOnline = new QPushButton(tr("Schedule o&nline"), this);
    m_scheduleOnline->setToolTip(tr("Its schedule online, with the Quartz job DolphinScheduler's "
                                    "masters fire it by"));
    m_scheduleOffline = new QPushButton(tr("Schedule off&line"), this);
    m_scheduleOffline->setToolTip(tr("Its schedule offline, its Quartz job deleted"));
    connect(m_scheduleOnline, &QPushButton::clicked, this, [this] { releaseSchedule(true); });
    connect(m_scheduleOffline, &QPushButton::clicked, this, [this] { releaseSchedule(false); });
    connect(m_start, &QPushButton::clicked, this, [this] { launch(false); });
    connect(m_complement, &QPushButton::clicked, this, [this] { launch(true); });
    connect(m_online, &QPushButton::clicked, this, [this] { release(true); });
    connect(m_offline, &QPushButton::clicked, this, [this] { release(false); });
    auto *definitionActs = new QHBoxLayout;
    for (QPushButton *button :
         {m_start, m_complement, m_online, m_offline, m_scheduleOnline, m_scheduleOffline})
        definitionActs->addWidget(button);
    definitionActs->addStretch(1);
    layout->addLayout(definitionActs);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_canvas = new RemoteChainCanvas(splitter);

    auto *instancesPane = new QWidget(splitter);
    auto *instancesLayout = new QVBoxLayout(instancesPane);
    instancesLayout->setContentsMargins(0, 0, 0, 0);
    m_failedOnly = new QCheckBox(tr("Failed onl&y"), instancesPane);
    m_since = new QComboBox(instancesPane);
    m_since->setAccessibleName(tr("Started since"));
    m_since->addItem(tr("Any time"), 0);
    m_since->addItem(tr("Last 24 hours"), 24 * 3600);
    m_since->addItem(tr("Last 7 days"), 7 * 24 * 3600);
    m_since->addItem(tr("Last 30 days"), 30 * 24 * 3600);
    m_moreInstances = new QPushButton(tr("&More instances"), instancesPane);
    m_moreInstances->setToolTip(
        tr("The next %n instances, in the order shown", nullptr, instancesShown));
    connect(m_failedOnly, &QCheckBox::toggled, this, [this] { reload(QString()); });
    connect(m_since, &QComboBox::currentIndexChanged, this, [this] { reload(QString()); });
    connect(m_moreInstances, &QPushButton::clicked, this, [this] { loadInstances(true); });
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_failedOnly);
    filters->addWidget(new QLabel(tr("Started:"), instancesPane));
    filters->addWidget(m_since);
    filters->addStretch(1);
    filters->addWidget(m_moreInstances);
    instancesLayout->addLayout(filters);
    m_instances = makeTable({tr("Instance"), tr("State"), tr("Started"), tr("Ended"),
                             tr("Duration"), tr("Host"), tr("Runs")},
                            tr("Workflow instances"), instancesPane);
    sortByHeader(m_instances, instanceSortColumns);
    m_instances->horizontalHeader()->setSortIndicator(IdColumn, Qt::DescendingOrder);
    connect(m_instances->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            &DolphinSchedulerWorkflowPage::sortInstances);
    connect(m_instances, &QTableWidget::itemSelectionChanged, this, [this] {
        loadTaskInstances();
        updateEnabled();
    });
    m_rerun = new QPushButton(tr("R&erun"), instancesPane);
    m_rerunFailed = new QPushButton(tr("Rerun failed t&asks"), instancesPane);
    m_resume = new QPushButton(tr("Res&ume"), instancesPane);
    m_stop = new QPushButton(tr("S&top"), instancesPane);
    m_pause = new QPushButton(tr("&Pause"), instancesPane);
    const QString asUser = tr("Done as DolphinScheduler user %1").arg(QLatin1String(actingUser));
    for (QPushButton *button : {m_rerun, m_rerunFailed, m_resume})
        button->setToolTip(asUser);
    m_stop->setToolTip(tr("DolphinScheduler stops a running instance by telling its master; "
                          "Hourglass can only stop one still waiting"));
    m_pause->setToolTip(m_stop->toolTip());
    connect(m_rerun, &QPushButton::clicked, this, [this] { actOnInstance(InstanceAct::Rerun); });
    connect(m_rerunFailed, &QPushButton::clicked, this,
            [this] { actOnInstance(InstanceAct::RerunFailed); });
    connect(m_resume, &QPushButton::clicked, this, [this] { actOnInstance(InstanceAct::Resume); });
    connect(m_stop, &QPushButton::clicked, this, [this] { actOnInstance(InstanceAct::Stop); });
    connect(m_pause, &QPushButton::clicked, this, [this] { actOnInstance(InstanceAct::Pause); });
    auto *instanceActs = new QHBoxLayout;
    for (QPushButton *button : {m_rerun, m_rerunFailed, m_resume, m_stop, m_pause})
        instanceActs->addWidget(button);
    instanceActs->addStretch(1);
    instancesLayout->addWidget(m_instances, 1);
    instancesLayout->addLayout(instanceActs);

    auto *tasksPane = new QWidget(splitter);
    auto *tasksLayout = new QVBoxLayout(tasksPane);
    tasksLayout->setContentsMargins(0, 0, 0, 0);
    m_tasks = makeTable({tr("Task"), tr("Type"), tr("State"), tr("Host"), tr("Started"),
                         tr("Ended"), tr("Duration"), tr("Retries")},
                        tr("Task instances"), tasksPane);
    sortByHeader(m_tasks, taskSortColumns);
    m_tasks->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // as submitted
    connect(m_tasks->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            &DolphinSchedulerWorkflowPage::sortTaskInstances);
    connect(m_tasks, &QTableWidget::itemSelectionChanged, this,
            &DolphinSchedulerWorkflowPage::showTaskLog);
    m_moreTasks = new QPushButton(tr("More task &instances"), tasksPane);
    m_moreTasks->setToolTip(
        tr("The next %n task instances, in the order shown", nullptr, tasksShown));
    m_moreTasks->hide();
    connect(m_moreTasks, &QPushButton::clicked, this, [this] { loadTaskInstances(true); });
    m_taskLog = new QLabel(tasksPane);
    m_taskLog->setWordWrap(true);
    m_taskLog->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_taskLog->setAccessibleName(tr("Task log"));
    tasksLayout->addWidget(m_tasks, 1);
    auto *taskFooter = new QHBoxLayout;
    taskFooter->addWidget(m_taskLog, 1);
    taskFooter->addWidget(m_moreTasks, 0, Qt::AlignTop);
    tasksLayout->addLayout(taskFooter);

    splitter->addWidget(m_canvas);
    splitter->addWidget(instancesPane);
    splitter->addWidget(tasksPane);
    splitter->setSizes({300, 200, 200}); // the DAG gets the most height
    layout->addWidget(splitter, 1);
    updateEnabled();
}

QString DolphinSchedulerWorkflowPage::statusText() const
{
    return m_status->text();
}

QString DolphinSchedulerWorkflowPage::scheduleText() const
{
    return m_schedule->text();
}

QString DolphinSchedulerWorkflowPage::summaryText() const
{
    return m_summary->text();
}

QString DolphinSchedulerWorkflowPage::taskLogText() const
{
    return m_taskLog->text();
}

void DolphinSchedulerWorkflowPage::showWorkflow(const ConnectionProfile &profile,
                                                const QString &path)
{
    m_profile = profile;
    m_path = path;
    ++m_generation; // whatever an earlier workflow's reads bring back is dropped
    m_loaded = false;
    m_workflow = {};
    m_title->setText(tr("%1 on %2").arg(path, profile.name));
    m_summary->clear();
    m_schedule->clear();
    m_instances->setRowCount(0);
    m_tasks->setRowCount(0);
    m_taskLog->clear();
    m_shownInstances.clear();
    m_shownTasks.clear();
    reload(QString());
}

void DolphinSchedulerWorkflowPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: palette(highlight);") : QString());
    m_status->setAccessibleDescription(error ? tr("Error") : QString());
}

void DolphinSchedulerWorkflowPage::reload(const QString &afterwards)
{
    if (m_profile.name.isEmpty())
        return;
    const quint64 generation = ++m_generation;
    if (!m_loaded)
        setStatus(tr("Reading %1…").arg(m_path), false);
    jobStarted();
    const QString path = m_path;
    const DsInstanceFilter filter = instanceFilter({});
    runJob<Loaded>(
        this, m_profile,
        [path, filter](RemoteDatabase &, const DolphinSchedulerCatalog &catalog) -> Result<Loaded> {
            Loaded loaded;
            loaded.info = catalog.info();
            Result<DsWorkflow> workflow = catalog.workflow(path);
            if (!workflow)
                return workflow.error();
            loaded.workflow = workflow.value();
            Result<QList<DsInstance>> instances = catalog.instances(filter);
            if (!instances)
                return instances.error();
            loaded.instances = instances.value();
            loaded.sort = filter.sort;
            for (const DsInstance &instance : std::as_const(loaded.instances))
                loaded.stateNames << catalog.workflowStateName(instance.state);
            return loaded;
        },
        [this, generation, afterwards](const Result<Loaded> &loaded) {
            if (generation == m_generation) {
                if (!loaded) {
                    setStatus(loaded.error().message, true);
                } else {
                    showLoaded(loaded.value());
                    if (!afterwards.isEmpty())
                        setStatus(afterwards, false);
                }
            }
            jobFinished();
        });
}

void DolphinSchedulerWorkflowPage::showLoaded(const Loaded &loaded)
{
    m_loaded = true;
    m_info = loaded.info;
    m_workflow = loaded.workflow;
    setStatus(m_info.warning.isEmpty() ? m_info.advice : m_info.warning, false);
    m_summary->setText(tr("%1, version %2 (code %3), %4 tasks%5")
                           .arg(m_workflow.online ? tr("Online") : tr("Offline"))
                           .arg(m_workflow.version)
                           .arg(m_workflow.code)
                           .arg(m_workflow.tasks.size())
                           .arg(m_workflow.description.isEmpty()
                                    ? QString()
                                    : QStringLiteral(" — ") + m_workflow.description)
                       + (m_workflow.dagProblem.isEmpty()
                              ? QString()
                              : QLatin1Char('\n')
                                    + tr("Its DAG cannot be drawn whole: %1. Its schedule and "
                                         "its instances can still be read.")
                                          .arg(m_workflow.dagProblem)));
    showSchedule();
    m_canvas->showWorkflow(m_workflow);

    // The instances are read afresh; the selected one stays selected. Read in an order the
    // header no longer shows (it was clicked meanwhile), they are read again in its order.
    if (loaded.sort.column != m_instanceSort.column
        || loaded.sort.descending != m_instanceSort.descending)
        loadInstances(false);
    else
        showInstances(loaded.instances, loaded.stateNames, false);
    updateEnabled();
}

void DolphinSchedulerWorkflowPage::showInstances(const QList<DsInstance> &instances,
                                                 const QStringList &stateNames, bool more)
{
    const qint64 selected = selectedInstanceId();
    {
        const QSignalBlocker quiet(m_instances);
        if (!more) {
            m_shownInstances.clear();
            m_instances->setRowCount(0);
        }
        appendInstances(instances, stateNames);
        if (!more) {
            const auto row =
                std::find_if(m_shownInstances.cbegin(), m_shownInstances.cend(),
                             [selected](const DsInstance &i) { return i.id == selected; });
            if (row != m_shownInstances.cend())
                m_instances->selectRow(int(row - m_shownInstances.cbegin()));
            else
                m_instances->clearSelection();
        }
    }
    m_moreInstances->setVisible(instances.size() == instancesShown);
    if (!more)
        loadTaskInstances();
}

void DolphinSchedulerWorkflowPage::sortInstances(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= int(instanceSortColumns.size()))
        return;
    m_instanceSort = {instanceSortColumns.at(column), order == Qt::DescendingOrder};
    loadInstances(false);
}

void DolphinSchedulerWorkflowPage::showSchedule()
{
    m_zone = QTimeZone(m_info.timeZone.toUtf8());
    if (!m_zone.isValid())
        m_zone = QTimeZone::utc();
    if (!m_workflow.schedule) {
        m_schedule->setText(tr("No schedule: it runs when started."));
        return;
    }
    const DsSchedule &schedule = *m_workflow.schedule;
    const DolphinSchedulerFires fires(schedule, m_info.timeZone);
    m_zone = fires.zone();
    QStringList lines;
    lines << tr("Schedule %1 (%2), %3")
                 .arg(schedule.crontab, QString::fromUtf8(fires.zone().id()),
                      schedule.online ? tr("online") : tr("offline"));
    lines << (fires.error().isEmpty() ? fires.meaning() : fires.error());
    static const QStringList warnings{tr("no warnings"), tr("warns on success"),
                                      tr("warns on failure"), tr("warns always")};
    lines << tr("From %1 to %2 · when a task fails: %3 · %4 · worker group %5")
                 .arg(timeText(schedule.start), timeText(schedule.end),
                      schedule.failureStrategy == 1 ? tr("continue") : tr("end the run"),
                      warnings.value(schedule.warningType, QString::number(schedule.warningType)),
                      schedule.workerGroup.isEmpty() ? QStringLiteral("default")
                                                     : schedule.workerGroup);
    QStringList next;
    const QLocale locale;
    for (const QDateTime &fire : fires.next(QDateTime::currentDateTimeUtc(), 5))
        next << locale.toString(fire.toTimeZone(fires.zone()), QLocale::ShortFormat);
    if (!next.isEmpty())
        lines << tr("Next: %1").arg(next.join(QLatin1String(", ")));
    m_schedule->setText(lines.join(QLatin1Char('\n')));
}

DsInstanceFilter DolphinSchedulerWorkflowPage::instanceFilter(const DsKeyset &after) const
{
    DsInstanceFilter filter;
    filter.workflowPath = m_path;
    filter.failedOnly = m_failedOnly->isChecked();
    if (const int back = m_since->currentData().toInt(); back > 0)
        filter.since = QDateTime::currentDateTime().addSecs(-back);
    filter.limit = instancesShown;
    filter.sort = m_instanceSort;
    filter.after = after;
    return filter;
}

void DolphinSchedulerWorkflowPage::appendInstances(const QList<DsInstance> &instances,
                                                   const QStringList &stateNames)
{
    for (qsizetype i = 0; i < instances.size(); ++i) {
        const DsInstance &instance = instances.at(i);
        const int row = m_instances->rowCount();
        m_instances->insertRow(row);
        const QStringList cells{QString::number(instance.id),
                                stateNames.value(i),
                                timeText(instance.start),
                                timeText(instance.end),
                                durationText(instance.start, instance.end),
                                instance.host,
                                QString::number(instance.runTimes)};
        for (int column = 0; column < cells.size(); ++column)
            m_instances->setItem(row, column, new QTableWidgetItem(cells.at(column)));
        m_shownInstances << instance;
    }
    fitColumns(m_instances);
}

void DolphinSchedulerWorkflowPage::loadInstances(bool more)
{
    if (!m_loaded || (more && m_shownInstances.isEmpty()))
        return;
    const DsInstanceFilter filter =
        instanceFilter(more ? m_shownInstances.constLast().keyset : DsKeyset{});
    const quint64 generation = m_generation;
    const quint64 read = ++m_instancesRead;
    jobStarted();
    using Page = QPair<QList<DsInstance>, QStringList>;
    runJob<Page>(
        this, m_profile,
        [filter](RemoteDatabase &, const DolphinSchedulerCatalog &catalog) -> Result<Page> {
            const Result<QList<DsInstance>> instances = catalog.instances(filter);
            if (!instances)
                return instances.error();
            QStringList names;
            for (const DsInstance &instance : instances.value())
                names << catalog.workflowStateName(instance.state);
            return Page{instances.value(), names};
        },
        [this, generation, read, more](const Result<Page> &page) {
            if (generation == m_generation && read == m_instancesRead) {
                if (!page)
                    setStatus(page.error().message, true);
                else
                    showInstances(page->first, page->second, more);
            }
            jobFinished();
        });
}

qint64 DolphinSchedulerWorkflowPage::selectedInstanceId() const
{
    const QList<QTableWidgetItem *> selected = m_instances->selectedItems();
    if (selected.isEmpty())
        return 0;
    return m_shownInstances.value(selected.constFirst()->row()).id;
}

void DolphinSchedulerWorkflowPage::loadTaskInstances(bool more)
{
    const qint64 instanceId = selectedInstanceId();
    if (instanceId <= 0) {
        ++m_tasksRead; // what is still on its way is for an instance no longer selected
        m_tasks->setRowCount(0);
        m_shownTasks.clear();
        m_moreTasks->hide();
        m_taskLog->setText(tr("Select an instance to see its task instances."));
        return;
    }
    DsTaskInstanceFilter filter;
    filter.instanceId = instanceId;
    filter.limit = tasksShown;
    filter.sort = m_taskSort;
    if (more && !m_shownTasks.isEmpty())
        filter.after = m_shownTasks.constLast().keyset;
    const quint64 generation = m_generation;
    const quint64 read = ++m_tasksRead;
    jobStarted();
    runJob<QList<DsTaskInstance>>(
        this, m_profile,
        [filter](RemoteDatabase &, const DolphinSchedulerCatalog &catalog) {
            return catalog.taskInstances(filter);
        },
        [this, generation, read, instanceId, more](const Result<QList<DsTaskInstance>> &tasks) {
            if (generation == m_generation && read == m_tasksRead
                && instanceId == selectedInstanceId()) {
                if (!tasks) {
                    setStatus(tasks.error().message, true);
                } else {
                    const QList<QTableWidgetItem *> selected = m_tasks->selectedItems();
                    const qint64 selectedTask =
                        selected.isEmpty() ? 0
                                           : m_shownTasks.value(selected.constFirst()->row()).id;
                    const QSignalBlocker quiet(m_tasks);
                    if (!more) {
                        m_shownTasks.clear();
                        m_tasks->setRowCount(0);
                    }
                    appendTaskInstances(tasks.value());
                    // The selected task stays selected in another order.
                    for (int row = 0; row < int(m_shownTasks.size()) && selectedTask > 0; ++row) {
                        if (m_shownTasks.at(row).id == selectedTask)
                            m_tasks->selectRow(row);
                    }
                    m_moreTasks->setVisible(tasks->size() == tasksShown);
                    showTaskLog();
                }
            }
            jobFinished();
        });
}

void DolphinSchedulerWorkflowPage::appendTaskInstances(const QList<DsTaskInstance> &tasks)
{
    for (const DsTaskInstance &task : tasks) {
        const int row = m_tasks->rowCount();
        m_tasks->insertRow(row);
        const QStringList cells{task.name,
                                task.type,
                                DolphinSchedulerCatalog::taskStateName(task.state),
                                task.host,
                                timeText(task.start),
                                timeText(task.end),
                                durationText(task.start, task.end),
                                tr("%1 of %2").arg(task.retryTimes).arg(task.maxRetryTimes)};
        for (int column = 0; column < cells.size(); ++column)
            m_tasks->setItem(row, column, new QTableWidgetItem(cells.at(column)));
        m_shownTasks << task;
    }
    fitColumns(m_tasks);
}

void DolphinSchedulerWorkflowPage::sortTaskInstances(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= int(taskSortColumns.size()))
        return;
    m_taskSort = {taskSortColumns.at(column), order == Qt::DescendingOrder};
    loadTaskInstances(false);
}

void DolphinSchedulerWorkflowPage::showTaskLog()
{
    const QList<QTableWidgetItem *> selected = m_tasks->selectedItems();
    if (selected.isEmpty()) {
        m_taskLog->setText(m_shownTasks.isEmpty()
                               ? tr("This instance has no task instances yet.")
                               : tr("DolphinScheduler keeps task logs on its workers' disks, not "
                                    "in its database: select a task to see where its log is."));
        return;
    }
    const DsTaskInstance task = m_shownTasks.value(selected.constFirst()->row());
    m_taskLog->setText(
        task.logPath.isEmpty()
            ? tr("No log yet: the task has not reached a worker.")
            : tr("Its log is on worker %1, in %2 (DolphinScheduler keeps task logs on the "
                 "workers' disks, not in its database).")
                  .arg(task.host.isEmpty() ? tr("(unknown)") : task.host, task.logPath));
}

void DolphinSchedulerWorkflowPage::launch(bool complement)
{
    auto *dialog =
        new DolphinSchedulerLaunchDialog(m_path, complement, m_zone, m_workflow.tasks, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("launchDialog"));
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const DolphinSchedulerLauncher::Options options = dialog->options();
        const bool backfill = dialog->isComplement();
        const QDateTime from = dialog->from();
        const QDateTime to = dialog->to();
        const int parallel = dialog->parallel();
        const QString path = m_path;
        const quint64 generation = m_generation;
        jobStarted();
        runJob<QList<qint64>>(
            this, m_profile,
            [=](RemoteDatabase &remote,
                const DolphinSchedulerCatalog &catalog) -> Result<QList<qint64>> {
                const DolphinSchedulerLauncher launcher(remote, catalog);
                if (backfill)
                    return launcher.complement(path, from, to, parallel, options);
                const Result<qint64> command = launcher.start(path, options);
                if (!command)
                    return command.error();
                return QList<qint64>{command.value()};
            },
            [this, generation](const Result<QList<qint64>> &commands) {
                if (generation == m_generation) {
                    if (!commands) {
                        setStatus(commands.error().message, true);
                    } else {
                        QStringList ids;
                        for (const qint64 id : commands.value())
                            ids << QString::number(id);
                        reload(tr("Queued for DolphinScheduler's master: command %n (%1).", nullptr,
                                  int(ids.size()))
                                   .arg(ids.join(QLatin1String(", "))));
                    }
                }
                jobFinished();
            });
    });
    dialog->open();
}

void DolphinSchedulerWorkflowPage::release(bool online)
{
    setReleased(online, false);
}

void DolphinSchedulerWorkflowPage::releaseSchedule(bool online)
{
    setReleased(online, true);
}

void DolphinSchedulerWorkflowPage::setReleased(bool online, bool scheduleOnly)
{
    const QString path = m_path;
    const quint64 generation = m_generation;
    jobStarted();
    runJob<bool>(
        this, m_profile,
        [path, online, scheduleOnly](RemoteDatabase &,
                                     const DolphinSchedulerCatalog &catalog) -> Result<bool> {
            const Status done = scheduleOnly ? catalog.setScheduleOnline(path, online)
                                             : catalog.setWorkflowOnline(path, online);
            if (!done)
                return done.error();
            return true;
        },
        [this, generation, online, scheduleOnly](const Result<bool> &done) {
            if (generation == m_generation) {
                if (!done)
                    setStatus(done.error().message, true);
                else if (scheduleOnly)
                    reload(online ? tr("The schedule of %1 is online.").arg(m_path)
                                  : tr("The schedule of %1 is offline.").arg(m_path));
                else
                    reload(online ? tr("%1 is online.").arg(m_path)
                                  : tr("%1 is offline, and its schedule with it.").arg(m_path));
            }
            jobFinished();
        });
}

void DolphinSchedulerWorkflowPage::actOnInstance(InstanceAct act)
{
    const qint64 instanceId = selectedInstanceId();
    if (instanceId <= 0)
        return;
    const quint64 generation = m_generation;
    jobStarted();
    runJob<qint64>(
        this, m_profile,
        [instanceId, act](RemoteDatabase &remote,
                          const DolphinSchedulerCatalog &catalog) -> Result<qint64> {
            const DolphinSchedulerControl control(remote, catalog);
            if (act == InstanceAct::Stop || act == InstanceAct::Pause) {
                if (const Status done = control.stopOrPause(instanceId, act == InstanceAct::Stop);
                    !done)
                    return done.error();
                return 0;
            }
            const DolphinSchedulerControl::Action action =
                act == InstanceAct::Rerun ? DolphinSchedulerControl::Action::Rerun
                : act == InstanceAct::RerunFailed
                    ? DolphinSchedulerControl::Action::RerunFailedTasks
                    : DolphinSchedulerControl::Action::Resume;
            return control.act(instanceId, action, QString::fromLatin1(actingUser));
        },
        [this, generation, instanceId, act](const Result<qint64> &done) {
            if (generation == m_generation) {
                if (!done)
                    setStatus(done.error().message, true);
                else if (act == InstanceAct::Stop || act == InstanceAct::Pause)
                    reload(act == InstanceAct::Stop ? tr("Instance %1 stopped.").arg(instanceId)
                                                    : tr("Instance %1 paused.").arg(instanceId));
                else
                    reload(tr("Instance %1: command %2 queued for DolphinScheduler's master.")
                               .arg(instanceId)
                               .arg(done.value()));
            }
            jobFinished();
        });
}

void DolphinSchedulerWorkflowPage::updateEnabled()
{
    const bool writable = m_loaded && !m_info.readOnly && m_busy == 0;
    m_start->setEnabled(writable && m_workflow.online);
    m_complement->setEnabled(writable && m_workflow.online);
    const QString offlineWhy = tr("DolphinScheduler starts only an online definition");
    m_start->setToolTip(m_workflow.online || !m_loaded
                            ? tr("Queue a start command for DolphinScheduler's master, as its "
                                 "API server does")
                            : offlineWhy);
    m_complement->setToolTip(m_workflow.online || !m_loaded
                                 ? tr("Backfill the schedule's fire times in a range")
                                 : offlineWhy);
    m_online->setEnabled(writable && !m_workflow.online);
    m_offline->setEnabled(writable && m_workflow.online);
    const bool scheduled = m_workflow.schedule.has_value();
    const bool scheduleOnline = scheduled && m_workflow.schedule->online;
    m_scheduleOnline->setEnabled(writable && scheduled && !scheduleOnline && m_workflow.online);
    m_scheduleOffline->setEnabled(writable && scheduleOnline);
    const bool instance = writable && selectedInstanceId() > 0;
    for (QPushButton *button : {m_rerun, m_rerunFailed, m_resume, m_stop, m_pause})
        button->setEnabled(instance);
    m_refresh->setEnabled(!m_profile.name.isEmpty() && m_busy == 0);
    m_moreInstances->setEnabled(m_loaded && m_busy == 0);
    m_moreTasks->setEnabled(m_loaded && m_busy == 0);
}

void DolphinSchedulerWorkflowPage::jobStarted()
{
    ++m_busy;
    updateEnabled();
}

void DolphinSchedulerWorkflowPage::jobFinished()
{
    --m_busy;
    updateEnabled();
    if (m_busy == 0)
        Q_EMIT idle();
}

} // namespace hg
