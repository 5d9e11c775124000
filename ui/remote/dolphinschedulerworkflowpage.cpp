#include "dolphinschedulerworkflowpage.h"

#include "remote/dolphinschedulerfires.h"
#include "remotechaincanvas.h"
#include "remotejob.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace hg {
namespace {

constexpr int instancesShown = 50;

enum InstanceColumn {
    IdColumn,
    StateColumn,
    StartedColumn,
    DurationColumn,
    HostColumn,
    RunsColumn,
    InstanceColumnCount
};

} // namespace

DolphinSchedulerWorkflowPage::DolphinSchedulerWorkflowPage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setToolTip(tr("Read the workflow and its instances again"));
    connect(m_refresh, &QPushButton::clicked, this, &DolphinSchedulerWorkflowPage::reload);
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_refresh);
    layout->addLayout(titleRow);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
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

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_canvas = new RemoteChainCanvas(splitter);
    m_instances = new QTableWidget(0, InstanceColumnCount, splitter);
    m_instances->setAccessibleName(tr("Workflow instances"));
    m_instances->setHorizontalHeaderLabels(
        {tr("Instance"), tr("State"), tr("Started"), tr("Duration"), tr("Host"), tr("Runs")});
    m_instances->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_instances->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_instances->verticalHeader()->hide();
    m_instances->horizontalHeader()->setStretchLastSection(true);
    splitter->addWidget(m_canvas);
    splitter->addWidget(m_instances);
    splitter->setSizes({420, 280}); // the DAG gets most of the height
    layout->addWidget(splitter, 1);
}

QString DolphinSchedulerWorkflowPage::statusText() const
{
    return m_status->text();
}

QString DolphinSchedulerWorkflowPage::scheduleText() const
{
    return m_schedule->text();
}

void DolphinSchedulerWorkflowPage::showWorkflow(const ConnectionProfile &profile,
                                                const QString &path)
{
    m_profile = profile;
    m_path = path;
    m_title->setText(tr("%1 on %2").arg(path, profile.name));
    m_summary->clear();
    m_schedule->clear();
    m_instances->setRowCount(0);
    reload();
}

void DolphinSchedulerWorkflowPage::reload()
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    m_refresh->setEnabled(false);
    m_status->setText(tr("Reading %1…").arg(m_path));
    const QString path = m_path;
    auto *watcher = new QFutureWatcher<RemoteAnswer<Loaded>>(this);
    connect(watcher, &QFutureWatcher<RemoteAnswer<Loaded>>::finished, this,
            [this, watcher, generation] {
                watcher->deleteLater();
                if (generation != m_generation)
                    return; // another workflow was chosen meanwhile
                m_busy = false;
                m_refresh->setEnabled(true);
                const Result<Loaded> &loaded = *watcher->result();
                if (!loaded)
                    m_status->setText(loaded.error().message);
                else
                    showLoaded(loaded.value());
                Q_EMIT idle();
            });
    watcher->setFuture(onDolphinScheduler<Loaded>(
        m_profile, [path](const DolphinSchedulerCatalog &catalog) -> Result<Loaded> {
            Loaded loaded;
            loaded.info = catalog.info();
            Result<DsWorkflow> workflow = catalog.workflow(path);
            if (!workflow)
                return workflow.error();
            loaded.workflow = workflow.value();
            DsInstanceFilter filter;
            filter.workflowPath = path;
            filter.limit = instancesShown;
            Result<QList<DsInstance>> instances = catalog.instances(filter);
            if (!instances)
                return instances.error();
            loaded.instances = instances.value();
            for (const DsInstance &instance : std::as_const(loaded.instances))
                loaded.stateNames << catalog.workflowStateName(instance.state);
            return loaded;
        }));
}

void DolphinSchedulerWorkflowPage::showLoaded(const Loaded &loaded)
{
    const DsWorkflow &workflow = loaded.workflow;
    m_status->setText(loaded.info.warning);
    m_summary->setText(tr("%1, version %2 (code %3), %4 tasks%5")
                           .arg(workflow.online ? tr("Online") : tr("Offline"))
                           .arg(workflow.version)
                           .arg(workflow.code)
                           .arg(workflow.tasks.size())
                           .arg(workflow.description.isEmpty()
                                    ? QString()
                                    : QStringLiteral(" — ") + workflow.description));
    if (!workflow.schedule) {
        m_schedule->setText(tr("No schedule: it runs when started."));
    } else {
        const DsSchedule &schedule = *workflow.schedule;
        const DolphinSchedulerFires fires(schedule, loaded.info.timeZone);
        QStringList lines;
        lines << tr("Schedule %1 (%2), %3")
                     .arg(schedule.crontab, QString::fromUtf8(fires.zone().id()),
                          schedule.online ? tr("online") : tr("offline"));
        lines << (fires.error().isEmpty() ? fires.meaning() : fires.error());
        QStringList next;
        const QLocale locale;
        for (const QDateTime &fire : fires.next(QDateTime::currentDateTimeUtc(), 5))
            next << locale.toString(fire.toTimeZone(fires.zone()), QLocale::ShortFormat);
        if (!next.isEmpty())
            lines << tr("Next: %1").arg(next.join(QLatin1String(", ")));
        m_schedule->setText(lines.join(QLatin1Char('\n')));
    }
    m_canvas->showWorkflow(workflow);
    m_instances->setRowCount(int(loaded.instances.size()));
    const QLocale locale;
    for (int row = 0; row < int(loaded.instances.size()); ++row) {
        const DsInstance &instance = loaded.instances.at(row);
        const auto set = [&](int column, const QString &text) {
            m_instances->setItem(row, column, new QTableWidgetItem(text));
        };
        set(IdColumn, QString::number(instance.id));
        set(StateColumn, loaded.stateNames.value(row));
        set(StartedColumn, instance.start.isValid()
                               ? locale.toString(instance.start, QLocale::ShortFormat)
                               : QString());
        set(DurationColumn, instance.start.isValid() && instance.end.isValid()
                                ? tr("%1 s").arg(instance.start.secsTo(instance.end))
                                : QString());
        set(HostColumn, instance.host);
        set(RunsColumn, QString::number(instance.runTimes));
    }
    m_instances->resizeColumnsToContents();
}

} // namespace hg
