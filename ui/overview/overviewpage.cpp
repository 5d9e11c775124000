#include "overviewpage.h"

#include "displayformat.h"
#include "runs/durationbars.h"
#include "stateicon.h"
#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "upcomingmodel.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace hg {
namespace {

constexpr int listedRuns = 10;
constexpr int listedFires = 8;
constexpr int IdRole = Qt::UserRole + 1;

} // namespace

OverviewPage::OverviewPage(Store &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_title(new QLabel(this))
    , m_running(makeList(tr("Running now")))
    , m_failures(makeList(tr("Recent failures")))
    , m_next(makeList(tr("Next fires")))
    , m_chains(new QWidget(this))
    , m_chainGrid(new QGridLayout(m_chains))
    , m_upcoming(new UpcomingModel(store, this))
{
    setObjectName(QStringLiteral("overview"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    const auto box = [this](const QString &title, QWidget *content) {
        auto *group = new QGroupBox(title, this);
        auto *layout = new QVBoxLayout(group);
        layout->addWidget(content);
        return group;
    };
    auto *top = new QHBoxLayout;
    top->addWidget(box(tr("Running now"), m_running));
    top->addWidget(box(tr("Recent failures"), m_failures), 2);
    top->addWidget(box(tr("Next fires"), m_next));

    // Name, a sparkline of fixed width, the last result; the rest of the row stays empty.
    m_chainGrid->setColumnStretch(3, 1);
    m_chainGrid->setHorizontalSpacing(12);
    auto *chainScroll = new QScrollArea(this);
    chainScroll->setWidget(m_chains);
    chainScroll->setWidgetResizable(true);
    chainScroll->setFrameShape(QFrame::NoFrame);
    chainScroll->setAccessibleName(tr("Chains and their last runs"));
    chainScroll->setAccessibleDescription(
        tr("For each chain a bar per run, height by duration, colour by state"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(top);
    layout->addWidget(
        box(tr("Chains: the last %1 runs, height by duration").arg(sparklineRuns), chainScroll), 1);

    for (QListWidget *list : {m_running, m_failures})
        connect(list, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
            Q_EMIT runActivated(item->data(IdRole).toLongLong());
        });
    connect(m_next, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        Q_EMIT chainActivated(item->data(IdRole).toLongLong());
    });
}

QListWidget *OverviewPage::makeList(const QString &name)
{
    auto *list = new QListWidget(this);
    list->setAccessibleName(name);
    list->setAccessibleDescription(tr("Enter or a double click opens the item"));
    list->setMinimumHeight(110);
    list->setUniformItemSizes(true);
    return list;
}

void OverviewPage::setProject(qint64 projectId)
{
    m_projectId = projectId;
}

Status OverviewPage::reload()
{
    const Result<QList<Project>> projects = ProjectRepository(m_store).list();
    const Result<QList<Chain>> chains = ChainRepository(m_store).list();
    if (!projects)
        return projects.error();
    if (!chains)
        return chains.error();
    QHash<qint64, QString> projectNames;
    QString projectName;
    for (const Project &project : projects.value()) {
        projectNames.insert(project.id, project.name);
        if (project.id == m_projectId)
            projectName = project.name;
    }
    m_title->setText(m_projectId > 0 ? tr("Overview of %1").arg(projectName)
                                     : tr("Overview of every project"));
    QHash<qint64, QString> paths; // the chains shown: the project's, or all
    QList<qint64> chainIds;
    for (const Chain &chain : chains.value()) {
        if (m_projectId > 0 && chain.projectId != m_projectId)
            continue;
        paths.insert(chain.id, projectNames.value(chain.projectId) + QLatin1Char('/') + chain.name);
        chainIds << chain.id;
    }
    std::sort(chainIds.begin(), chainIds.end(),
              [&paths](qint64 a, qint64 b) { return paths.value(a) < paths.value(b); });
    if (Status s = loadRuns(paths); !s)
        return s;
    loadNextFires(paths);
    return loadChains(paths, chainIds);
}

Status OverviewPage::loadRuns(const QHash<qint64, QString> &paths)
{
    const QDateTime now = QDateTime::currentDateTime();
    const auto listed = [&](RunState state, int limit) -> Result<QList<RunListing>> {
        RunPageQuery query;
        query.state = state;
        query.limit = limit;
        return RunRepository(m_store).page(query);
    };
    m_running->clear();
    const Result<QList<RunListing>> running = listed(RunState::Running, 50);
    if (!running)
        return running.error();
    for (const RunListing &row : running.value()) {
        if (!paths.contains(row.run.chainId))
            continue;
        auto *item = new QListWidgetItem(StateIcon::forState(row.run.state),
                                         tr("%1 — run %2, since %3")
                                             .arg(row.chainPath)
                                             .arg(row.run.id)
                                             .arg(DisplayFormat::relative(row.run.startedAt, now)),
                                         m_running);
        item->setData(IdRole, row.run.id);
    }
    if (m_running->count() == 0)
        m_running->addItem(tr("Nothing runs now."));

    QList<RunListing> failed;
    for (RunState state : {RunState::Failed, RunState::TimedOut, RunState::Interrupted}) {
        const Result<QList<RunListing>> some = listed(state, 50);
        if (!some)
            return some.error();
        for (const RunListing &row : some.value()) {
            if (paths.contains(row.run.chainId))
                failed << row;
        }
    }
    std::sort(failed.begin(), failed.end(),
              [](const RunListing &a, const RunListing &b) { return a.run.id > b.run.id; });
    m_failures->clear();
    for (const RunListing &row : failed.mid(0, listedRuns)) {
        const QString reason = row.failureReason.isEmpty() ? StatePresentation::label(row.run.state)
                                                           : row.failureReason;
        auto *item =
            new QListWidgetItem(StateIcon::forState(row.run.state),
                                tr("%1 — run %2, %3: %4")
                                    .arg(row.chainPath)
                                    .arg(row.run.id)
                                    .arg(DisplayFormat::relative(row.run.finishedAt, now), reason),
                                m_failures);
        item->setData(IdRole, row.run.id);
        item->setToolTip(item->text());
    }
    if (m_failures->count() == 0)
        m_failures->addItem(tr("No failures."));
    return {};
}

void OverviewPage::loadNextFires(const QHash<qint64, QString> &paths)
{
    m_next->clear();
    if (m_upcoming->reload(QDateTime(), 2)) {
        for (int row = 0; row < m_upcoming->rowCount() && m_next->count() < listedFires; ++row) {
            const QModelIndex when = m_upcoming->index(row, UpcomingModel::WhenColumn);
            const qint64 chainId = when.data(UpcomingModel::ChainIdRole).toLongLong();
            if (!paths.contains(chainId))
                continue;
            // "Mon 20:45:00" reads faster than a full date in a narrow list.
            const QDateTime at = when.data(UpcomingModel::FireTimeRole).toDateTime();
            auto *item = new QListWidgetItem(
                tr("%1 — %2").arg(DisplayFormat::soon(at, QDateTime::currentDateTime()),
                                  paths.value(chainId)),
                m_next);
            item->setToolTip(when.data().toString());
            item->setData(IdRole, chainId);
        }
    }
    if (m_next->count() == 0)
        m_next->addItem(tr("Nothing fires in the next two days."));
}

Status OverviewPage::loadChains(const QHash<qint64, QString> &paths, const QList<qint64> &chainIds)
{
    const Result<QHash<qint64, QList<RunSummary>>> recent =
        RunRepository(m_store).recentPerChain(sparklineRuns);
    if (!recent)
        return recent.error();
    // Rebuilt whole: a reload happens on a change, at most once a second.
    while (QLayoutItem *item = m_chainGrid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int row = 0;
    for (qint64 chainId : chainIds) {
        const QList<RunSummary> runs = recent->value(chainId);
        auto *name = new QPushButton(paths.value(chainId), m_chains);
        name->setFlat(true);
        name->setObjectName(QStringLiteral("overview.chain"));
        name->setAccessibleDescription(tr("Open the chain"));
        name->setStyleSheet(QStringLiteral("text-align: left;"));
        connect(name, &QPushButton::clicked, this,
                [this, chainId] { Q_EMIT chainActivated(chainId); });
        auto *bars = new DurationBars(m_chains);
        bars->setFixedWidth(220);
        bars->setRuns(runs);
        bars->setAccessibleName(tr("Last runs of %1").arg(paths.value(chainId)));
        auto *last = new QLabel(runs.isEmpty() ? tr("never ran")
                                               : StatePresentation::label(runs.constLast().state),
                                m_chains);
        m_chainGrid->addWidget(name, row, 0);
        m_chainGrid->addWidget(bars, row, 1);
        m_chainGrid->addWidget(last, row, 2);
        ++row;
    }
    m_chainGrid->setRowStretch(row, 1);
    return {};
}

QStringList OverviewPage::chainRows() const
{
    QStringList rows;
    for (const QPushButton *name : m_chains->findChildren<QPushButton *>(
             QStringLiteral("overview.chain"), Qt::FindDirectChildrenOnly))
        rows << name->text();
    return rows;
}

} // namespace hg
