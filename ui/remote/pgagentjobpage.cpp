#include "pgagentjobpage.h"

#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"
#include "displayformat.h"
#include "remote/pgagentcalendar.h"
#include "remotejob.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace hg {
namespace {

enum StepColumn {
    StepNameColumn,
    StepKindColumn,
    StepRunsOnColumn,
    StepOnErrorColumn,
    StepEnabledColumn,
    StepCodeColumn,
    StepColumnCount
};

enum RunColumn {
    RunNameColumn,
    RunStatusColumn,
    RunStartColumn,
    RunDurationColumn,
    RunResultColumn
};

constexpr int pgAgentRunsPageSize = 50;
constexpr int maxStepRowsShown = 8; // more steps scroll
constexpr int firesShown = 5;
constexpr int watchIntervalMs = 5000;
constexpr int outputRole = Qt::UserRole;
constexpr int runIdRole = Qt::UserRole + 1;

template<typename T>
void runJob(PgAgentJobPage *page, const ConnectionProfile &profile,
            std::function<Result<T>(const PgAgentCatalog &)> work,
            std::function<void(const Result<T> &)> done)
{
    runRemoteJob<PgAgentCatalog, T>(page, profile, std::move(work), std::move(done));
}

QString durationText(qint64 ms)
{
    return ms < 0 ? PgAgentJobPage::tr("running") : DisplayFormat::duration(ms);
}

QString timeText(const QDateTime &at, const QTimeZone &zone)
{
    return at.isValid() ? DisplayFormat::zonedDateTime(at, zone) : PgAgentJobPage::tr("never");
}

QString onErrorText(QChar onError)
{
    if (onError == QLatin1Char('s'))
        return PgAgentJobPage::tr("count as success");
    if (onError == QLatin1Char('i'))
        return PgAgentJobPage::tr("ignore");
    return PgAgentJobPage::tr("fail the job");
}

QString exceptionText(const PgAgentSchedule::Exception &exception)
{
    const QString date = exception.date.isValid()
                             ? QLocale().toString(exception.date, QStringLiteral("ddd yyyy-MM-dd"))
                             : PgAgentJobPage::tr("every day");
    return exception.time.isValid()
               ? PgAgentJobPage::tr("%1 at %2")
                     .arg(date, QLocale().toString(exception.time, QLocale::ShortFormat))
               : date;
}

} // namespace

PgAgentJobPage::PgAgentJobPage(QWidget *parent)
    : QWidget(parent)
{
    buildUi();
    // While a run is under way, or just after "Run now", the history follows the agent.
    auto *watch = new QTimer(this);
    watch->setInterval(watchIntervalMs);
    connect(watch, &QTimer::timeout, this, [this] {
        if (isVisible() && m_loaded && m_busy == 0
            && (m_runShownRunning || QDateTime::currentDateTimeUtc() < m_watchUntil))
            reload(QString());
    });
    watch->start();
}

void PgAgentJobPage::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setToolTip(tr("Read the job and its history again"));
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
    m_summary->setAccessibleName(tr("Job"));
    layout->addWidget(m_status);
    layout->addWidget(m_summary);

    m_runNow = new QPushButton(tr("R&un now"), this);
    m_runNow->setToolTip(tr("Set the job's next run to now, as pgAdmin does: the next agent "
                            "that polls this database runs it"));
    m_enable = new QPushButton(tr("&Enable"), this);
    m_disable = new QPushButton(tr("&Disable"), this);
    m_import = new QPushButton(tr("&Import as local chain…"), this);
    m_import->setToolTip(tr("Make a local chain of this job: its steps become tasks, its "
                            "schedules cron schedules where they can"));
    connect(m_runNow, &QPushButton::clicked, this, [this] { act(QStringLiteral("start")); });
    connect(m_enable, &QPushButton::clicked, this, [this] { act(QStringLiteral("enable")); });
    connect(m_disable, &QPushButton::clicked, this, [this] { act(QStringLiteral("disable")); });
    connect(m_import, &QPushButton::clicked, this,
            [this] { Q_EMIT importRequested(m_profile.name, m_job.name); });
    auto *actions = new QHBoxLayout;
    for (QPushButton *button : {m_runNow, m_enable, m_disable, m_import})
        actions->addWidget(button);
    actions->addStretch(1);
    layout->addLayout(actions);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    auto *definition = new QWidget(splitter);
    auto *definitionLayout = new QVBoxLayout(definition);
    definitionLayout->setContentsMargins(0, 0, 0, 0);
    m_steps = new QTableWidget(0, StepColumnCount, definition);
    m_steps->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_steps->setAccessibleName(tr("Steps"));
    m_steps->setHorizontalHeaderLabels(
        {tr("Step"), tr("Kind"), tr("Runs on"), tr("On error"), tr("Enabled"), tr("Code")});
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->verticalHeader()->hide();
    m_steps->horizontalHeader()->setStretchLastSection(true);
    m_schedules = new QLabel(definition);
    m_schedules->setWordWrap(true);
    m_schedules->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_schedules->setAccessibleName(tr("Schedules"));
    m_schedules->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The steps table is as tall as its rows; the schedules follow right below it.
    m_steps->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    definitionLayout->addWidget(m_steps);
    definitionLayout->addWidget(m_schedules);
    definitionLayout->addStretch(1);

    auto *history = new QWidget(splitter);
    auto *historyLayout = new QVBoxLayout(history);
    historyLayout->setContentsMargins(0, 0, 0, 0);
    m_runs = new QTreeWidget(history);
    m_runs->setAccessibleName(tr("History"));
    m_runs->setHeaderLabels(
        {tr("Run / step"), tr("Status"), tr("Started"), tr("Duration"), tr("Result")});
    m_runs->setRootIsDecorated(true);
    m_runs->setUniformRowHeights(true);
    connect(m_runs, &QTreeWidget::currentItemChanged, this, &PgAgentJobPage::showOutput);
    // A run's steps, once shown, get room for their names.
    connect(m_runs, &QTreeWidget::itemExpanded, this,
            [this] { m_runs->resizeColumnToContents(RunNameColumn); });
    m_moreRuns = new QPushButton(tr("&More runs"), history);
    m_moreRuns->setToolTip(tr("Read the next %n older runs", nullptr, pgAgentRunsPageSize));
    connect(m_moreRuns, &QPushButton::clicked, this, &PgAgentJobPage::loadMoreRuns);
    auto *moreRow = new QHBoxLayout;
    moreRow->addStretch(1);
    moreRow->addWidget(m_moreRuns);
    historyLayout->addWidget(m_runs, 1);
    historyLayout->addLayout(moreRow);

    m_output = new QPlainTextEdit(splitter);
    m_output->setReadOnly(true);
    m_output->setAccessibleName(tr("Step output"));
    m_output->setPlaceholderText(tr("The output of the selected run or step"));
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    splitter->addWidget(definition);
    splitter->addWidget(history);
    splitter->addWidget(m_output);
    splitter->setSizes({420, 220, 140});
    layout->addWidget(splitter, 1);
    updateEnabled();
}

QString PgAgentJobPage::statusText() const
{
    return m_status->text();
}

QString PgAgentJobPage::scheduleText() const
{
    return m_schedules->text();
}

void PgAgentJobPage::showJob(const ConnectionProfile &profile, const QString &jobName)
{
    m_profile = profile;
    m_jobName = jobName;
    ++m_generation; // whatever an earlier job's reads bring back is dropped
    m_loaded = false;
    m_job = {};
    m_watchUntil = {};
    m_title->setText(tr("%1 on %2").arg(jobName, profile.name));
    m_summary->clear();
    m_schedules->clear();
    m_steps->setRowCount(0);
    m_runs->clear();
    m_runShownRunning = false;
    m_output->clear();
    reload(QString());
}

void PgAgentJobPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: palette(highlight);") : QString());
    m_status->setAccessibleDescription(error ? tr("Error") : QString());
}

void PgAgentJobPage::reload(const QString &afterwards)
{
    if (m_profile.name.isEmpty())
        return;
    const quint64 generation = ++m_generation;
    if (!m_loaded)
        setStatus(tr("Reading job '%1' from '%2'…").arg(m_jobName, m_profile.name), false);
    jobStarted();
    const QString name = m_jobName;
    runJob<Loaded>(
        this, m_profile,
        [name](const PgAgentCatalog &catalog) -> Result<Loaded> {
            Loaded loaded;
            loaded.info = catalog.info();
            loaded.zone = catalog.serverZone();
            Result<PgAgentJob> job = catalog.job(name);
            if (!job)
                return job.error();
            loaded.job = job.value();
            Result<QList<PgAgentRun>> runs = catalog.runs(loaded.job.id, pgAgentRunsPageSize);
            if (!runs)
                return runs.error();
            loaded.runs = runs.value();
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

void PgAgentJobPage::showLoaded(const Loaded &loaded)
{
    m_loaded = true;
    m_info = loaded.info;
    m_zone = loaded.zone;
    m_job = loaded.job;
    setStatus(m_info.warning, !m_info.warning.isEmpty());
    QStringList facts{m_job.enabled ? tr("Enabled") : tr("Disabled"),
                      tr("class %1").arg(m_job.jobClass),
                      m_job.hostAgent.isEmpty() ? tr("runs on any agent")
                                                : tr("runs on agent %1").arg(m_job.hostAgent),
                      tr("next run %1").arg(timeText(m_job.nextRun, m_zone)),
                      tr("last run %1").arg(timeText(m_job.lastRun, m_zone))};
    QString summary = facts.join(QStringLiteral(" · "));
    if (!m_job.description.isEmpty())
        summary += QLatin1Char('\n') + m_job.description;
    m_summary->setText(summary);
    fillSteps();
    showSchedules();

    // The history is read afresh; the selected run stays selected.
    const QTreeWidgetItem *current = m_runs->currentItem();
    const qint64 selectedRun = current ? current->data(RunNameColumn, runIdRole).toLongLong() : 0;
    const QString selectedStep =
        current && current->parent() ? current->text(RunNameColumn) : QString();
    m_runs->clear();
    m_runShownRunning = false;
    m_lastRunShown = 0;
    appendRuns(loaded.runs);
    for (int i = 0; i < m_runs->topLevelItemCount() && selectedRun > 0; ++i) {
        QTreeWidgetItem *run = m_runs->topLevelItem(i);
        if (run->data(RunNameColumn, runIdRole).toLongLong() != selectedRun)
            continue;
        QTreeWidgetItem *select = run;
        for (int s = 0; s < run->childCount() && !selectedStep.isEmpty(); ++s) {
            if (run->child(s)->text(RunNameColumn) == selectedStep)
                select = run->child(s);
        }
        m_runs->setCurrentItem(select);
    }
    if (!m_runs->currentItem() && m_runs->topLevelItemCount() > 0)
        m_runs->setCurrentItem(m_runs->topLevelItem(0)); // the newest run's output, at once
    updateEnabled();
}

void PgAgentJobPage::fillSteps()
{
    m_steps->setRowCount(int(m_job.steps.size()));
    for (int row = 0; row < int(m_job.steps.size()); ++row) {
        const PgAgentStep &step = m_job.steps.at(row);
        const bool sql = step.kind != QLatin1Char('b');
        const QString runsOn = !sql                         ? tr("the agent's host (batch)")
                               : !step.connection.isEmpty() ? step.connection
                                                            : tr("database %1").arg(step.database);
        const QStringList cells{step.name,
                                sql ? tr("SQL") : tr("Batch"),
                                runsOn,
                                onErrorText(step.onError),
                                step.enabled ? tr("yes") : tr("no"),
                                step.code.simplified().left(200)};
        for (int column = 0; column < cells.size(); ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            if (column == StepCodeColumn)
                item->setToolTip(step.code);
            else if (column == StepNameColumn && !step.description.isEmpty())
                item->setToolTip(step.description);
            m_steps->setItem(row, column, item);
        }
    }
    for (int column = 0; column < StepCodeColumn; ++column) // the code takes what is left
        m_steps->resizeColumnToContents(column);
    const int shown = std::clamp(int(m_job.steps.size()), 1, maxStepRowsShown);
    int height = m_steps->horizontalHeader()->height() + 2 * m_steps->frameWidth();
    for (int row = 0; row < shown; ++row)
        height += m_steps->rowCount() > row ? m_steps->rowHeight(row)
                                            : m_steps->verticalHeader()->defaultSectionSize();
    m_steps->setFixedHeight(height);
}

void PgAgentJobPage::showSchedules()
{
    if (m_job.schedules.isEmpty()) {
        m_schedules->setText(tr("No schedule: the job runs only when started."));
        return;
    }
    const QString zoneName = QString::fromUtf8(m_zone.id());
    QStringList paragraphs{tr("Schedules, in the server's zone %1:").arg(zoneName)};
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const PgAgentSchedule &schedule : std::as_const(m_job.schedules)) {
        QStringList lines;
        // Exceptions have no cron form, but the arrays they cut into may have one: that is
        // what the schedule means, and the exceptions follow on a line of their own.
        PgAgentSchedule arrays = schedule;
        arrays.exceptions.clear();
        const Result<PgAgentCalendar::Cron> cron = PgAgentCalendar::toCron(arrays);
        QString meaning;
        if (cron) {
            const std::optional<CronDialect> dialect = enumFromString<CronDialect>(cron->dialect);
            const Result<CronExpression> expression =
                CronExpression::parse(cron->expression, dialect.value_or(CronDialect::Unix));
            meaning = expression ? CronExplainer(expression.value()).describe(zoneName)
                                 : expression.error().message;
            meaning = tr("%1 (cron %2)").arg(meaning, cron->expression);
        } else {
            meaning = cron.error().message;
        }
        lines << tr("%1%2: %3")
                     .arg(schedule.name, schedule.enabled ? QString() : tr(" (disabled)"), meaning);
        lines << (schedule.end.isValid()
                      ? tr("From %1 to %2.")
                            .arg(timeText(schedule.start, m_zone), timeText(schedule.end, m_zone))
                      : tr("From %1 on.").arg(timeText(schedule.start, m_zone)));
        if (!schedule.exceptions.isEmpty()) {
            QStringList except;
            for (const PgAgentSchedule::Exception &exception : schedule.exceptions)
                except << exceptionText(exception);
            lines << tr("Except %1.").arg(except.join(QStringLiteral(", ")));
        }
        QStringList fires;
        if (schedule.enabled && m_job.enabled) {
            for (const QDateTime &fire : PgAgentCalendar::next(schedule, now, m_zone, firesShown))
                fires << DisplayFormat::zonedDateTime(fire, m_zone);
            lines << (fires.isEmpty() ? tr("It fires no more.")
                                      : tr("Next: %1").arg(fires.join(QStringLiteral(", "))));
        } else {
            lines << tr("It does not fire while disabled.");
        }
        paragraphs << lines.join(QLatin1Char('\n'));
    }
    m_schedules->setText(paragraphs.join(QStringLiteral("\n\n")));
}

void PgAgentJobPage::loadMoreRuns()
{
    const quint64 generation = m_generation;
    const qint64 jobId = m_job.id;
    const qint64 after = m_lastRunShown;
    jobStarted();
    runJob<QList<PgAgentRun>>(
        this, m_profile,
        [jobId, after](const PgAgentCatalog &catalog) {
            return catalog.runs(jobId, pgAgentRunsPageSize, after);
        },
        [this, generation](const Result<QList<PgAgentRun>> &runs) {
            if (generation == m_generation) {
                if (runs)
                    appendRuns(runs.value());
                else
                    setStatus(runs.error().message, true);
            }
            jobFinished();
        });
}

void PgAgentJobPage::appendRuns(const QList<PgAgentRun> &runs)
{
    for (const PgAgentRun &run : runs) {
        auto *item = new QTreeWidgetItem(m_runs);
        item->setText(RunNameColumn, tr("Run %1").arg(run.id));
        item->setData(RunNameColumn, runIdRole, run.id);
        item->setText(RunStatusColumn, PgAgentCatalog::runStatusName(run.status));
        item->setText(RunStartColumn, timeText(run.start, m_zone));
        item->setText(RunDurationColumn, durationText(run.durationMs));
        QStringList outputs;
        for (const PgAgentStepRun &step : run.steps) {
            auto *child = new QTreeWidgetItem(item);
            child->setText(RunNameColumn, step.step);
            child->setData(RunNameColumn, runIdRole, run.id);
            child->setText(RunStatusColumn, PgAgentCatalog::stepStatusName(step.status));
            child->setText(RunStartColumn, timeText(step.start, m_zone));
            child->setText(RunDurationColumn, durationText(step.durationMs));
            child->setText(RunResultColumn, QString::number(step.result));
            child->setData(RunNameColumn, outputRole, step.output);
            outputs << tr("— %1: %2, result %3 —")
                           .arg(step.step, PgAgentCatalog::stepStatusName(step.status))
                           .arg(step.result)
                    << (step.output.isEmpty() ? tr("(no output)") : step.output);
        }
        item->setText(RunResultColumn, tr("%n step(s)", nullptr, int(run.steps.size())));
        item->setData(RunNameColumn, outputRole, outputs.join(QLatin1Char('\n')));
        m_runShownRunning = m_runShownRunning || run.status == QLatin1Char('r');
        m_lastRunShown = run.id;
    }
    m_moreRuns->setVisible(runs.size() == pgAgentRunsPageSize);
    for (int column = 0; column < RunResultColumn; ++column)
        m_runs->resizeColumnToContents(column);
}

void PgAgentJobPage::showOutput()
{
    const QTreeWidgetItem *item = m_runs->currentItem();
    m_output->setPlainText(item ? item->data(RunNameColumn, outputRole).toString() : QString());
}

void PgAgentJobPage::act(const QString &what)
{
    const qint64 jobId = m_job.id;
    const QString name = m_job.name;
    const quint64 generation = m_generation;
    jobStarted();
    runJob<bool>(
        this, m_profile,
        [what, jobId](const PgAgentCatalog &catalog) -> Result<bool> {
            const Status done = what == QLatin1String("start")
                                    ? catalog.runNow(jobId)
                                    : catalog.setEnabled(jobId, what == QLatin1String("enable"));
            if (!done)
                return done.error();
            return true;
        },
        [this, what, name, generation](const Result<bool> &done) {
            if (generation == m_generation) {
                if (!done) {
                    setStatus(done.error().message, true);
                } else {
                    QString message;
                    if (what == QLatin1String("start")) {
                        message = tr("Job '%1' is due now: the next agent that polls '%2' runs "
                                     "it. Its run appears below when it starts.")
                                      .arg(name, m_profile.name);
                        m_watchUntil = QDateTime::currentDateTimeUtc().addSecs(120);
                    } else {
                        message = what == QLatin1String("enable")
                                      ? tr("Job '%1' enabled.").arg(name)
                                      : tr("Job '%1' disabled.").arg(name);
                    }
                    reload(message);
                }
            }
            jobFinished();
        });
}

void PgAgentJobPage::updateEnabled()
{
    const bool writable = m_loaded && !m_info.readOnly && m_busy == 0;
    m_runNow->setEnabled(writable);
    m_enable->setEnabled(writable && !m_job.enabled);
    m_disable->setEnabled(writable && m_job.enabled);
    m_import->setEnabled(m_loaded && m_busy == 0);
    m_moreRuns->setEnabled(m_loaded && m_busy == 0);
    m_refresh->setEnabled(!m_profile.name.isEmpty() && m_busy == 0);
}

void PgAgentJobPage::jobStarted()
{
    ++m_busy;
    updateEnabled();
}

void PgAgentJobPage::jobFinished()
{
    --m_busy;
    updateEnabled();
    if (m_busy == 0)
        Q_EMIT idle();
}

} // namespace hg
