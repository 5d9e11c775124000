#include "overviewpage.h"

#include "chainflowview.h"
#include "displayformat.h"
#include "overviewchainsmodel.h"
#include "overviewsnapshot.h"
#include "sparklinedelegate.h"
#include "stateicon.h"
#include "statepresentation.h"
#include "storereader.h"

#include <QDateTime>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace hg {
namespace {

constexpr int IdRole = Qt::UserRole + 1;

} // namespace

OverviewPage::OverviewPage(StoreReader &reader, QWidget *parent)
    : QWidget(parent)
    , m_reader(reader)
    , m_title(new QLabel(this))
    , m_running(makeList(tr("Running now")))
    , m_failures(makeList(tr("Recent failures")))
    , m_next(makeList(tr("Next fires")))
    , m_chainsModel(new OverviewChainsModel(this))
    , m_chains(new QTableView(this))
    , m_flow(new ChainFlowView(this))
    , m_flowBox(nullptr)
{
    setObjectName(QStringLiteral("overview"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setText(tr("Overview"));

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

    // A row per chain, painted only when shown: name, a sparkline of fixed width, the last
    // result.
    m_chains->setObjectName(QStringLiteral("overview.chains"));
    m_chains->setModel(m_chainsModel);
    m_chains->setItemDelegateForColumn(OverviewChainsModel::RunsColumn,
                                       new SparklineDelegate(m_chains));
    m_chains->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_chains->setSelectionMode(QAbstractItemView::SingleSelection);
    m_chains->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_chains->setTabKeyNavigation(false);
    m_chains->setShowGrid(false);
    m_chains->setWordWrap(false);
    m_chains->verticalHeader()->hide();
    m_chains->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_chains->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_chains->horizontalHeader()->setStretchLastSection(true);
    m_chains->setColumnWidth(OverviewChainsModel::ChainColumn, 260);
    m_chains->setColumnWidth(OverviewChainsModel::RunsColumn, 230);
    m_chains->setAccessibleName(tr("Chains and their last runs"));
    m_chains->setAccessibleDescription(
        tr("For each chain a bar per run, height by duration, colour by state; Enter or a "
           "double click opens the chain"));

    // Shown only when chains start other chains: most stores have none.
    m_flow->setMinimumHeight(150);
    m_flowBox = box(tr("Chains started by other chains"), m_flow);
    m_flowBox->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(top);
    layout->addWidget(m_flowBox);
    layout->addWidget(
        box(tr("Chains: the last %1 runs, height by duration").arg(sparklineRuns), m_chains), 1);
    connect(m_flow, &ChainFlowView::chainActivated, this, &OverviewPage::chainActivated);

    for (QListWidget *list : {m_running, m_failures})
        connect(list, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
            Q_EMIT runActivated(item->data(IdRole).toLongLong());
        });
    connect(m_next, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        Q_EMIT chainActivated(item->data(IdRole).toLongLong());
    });
    connect(m_chains, &QTableView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT chainActivated(index.data(OverviewChainsModel::ChainIdRole).toLongLong());
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

void OverviewPage::reload()
{
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    m_again = false;
    const qint64 projectId = m_projectId;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    // Only what changed since the snapshot shown, when it is of this project and the events
    // since say which chains' runs changed.
    std::shared_ptr<const OverviewSnapshot> previous;
    if (m_shown && m_shownProject == projectId && !m_everyRunChanged)
        previous = m_shown;
    QSet<qint64> changed = std::exchange(m_runsChangedIn, {});
    m_everyRunChanged = false;
    m_reader.read<OverviewSnapshot>(
        this,
        [projectId, nowMs, previous, changed](Store &store) {
            return OverviewSnapshot::read(store, projectId, nowMs, previous.get(), changed);
        },
        [this, projectId, changed](const Result<OverviewSnapshot> &snapshot) {
            m_reading = false;
            if (!snapshot) {
                // What is shown is from before: said, and greyed until a read succeeds (a
                // damaged store left the old lists looking current).
                m_title->setText(tr("Overview — not read again: %1").arg(snapshot.error().message));
                setCurrent(false);
                m_runsChangedIn.unite(changed); // still to read
                Q_EMIT failed(snapshot.error().message);
            } else if (projectId == m_projectId) { // else read again for the project now shown
                m_shownProject = projectId;
                show(snapshot.value());
            }
            if (m_again || projectId != m_projectId)
                reload();
        });
}

void OverviewPage::show(const OverviewSnapshot &snapshot)
{
    setCurrent(true);
    m_title->setText(m_projectId > 0 ? tr("Overview of %1").arg(snapshot.projectName)
                                     : tr("Overview of every project"));
    const QDateTime now = QDateTime::currentDateTime();
    m_running->clear();
    for (const RunListing &row : snapshot.running) {
        if (!passes(row.run.chainId))
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

    m_failures->clear();
    for (const RunListing &row : snapshot.failures) {
        if (!passes(row.run.chainId))
            continue;
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

    m_shown = std::make_shared<const OverviewSnapshot>(snapshot);
    showNextFires();

    // The selection stays on its chain across a refresh (a reload follows runs' ends).
    const QModelIndex current = m_chains->currentIndex();
    const qint64 selected =
        current.isValid() ? current.data(OverviewChainsModel::ChainIdRole).toLongLong() : 0;
    QList<OverviewChainsModel::Row> chains;
    for (const OverviewChainsModel::Row &row : snapshot.chains) {
        if (passes(row.chainId))
            chains << row;
    }
    QHash<qint64, RunState> lastState;
    for (const OverviewChainsModel::Row &row : std::as_const(chains)) {
        if (!row.runs.isEmpty())
            lastState.insert(row.chainId, row.runs.constLast().state);
    }
    QList<OverviewSnapshot::Link> links;
    for (const OverviewSnapshot::Link &link : snapshot.links) {
        if (passes(link.upstreamId) || passes(link.downstreamId))
            links << link;
    }
    m_flow->show(links, lastState);
    m_flowBox->setVisible(!links.isEmpty());
    m_chainsModel->show(std::move(chains));
    for (int row = 0; selected > 0 && row < m_chainsModel->rowCount(); ++row) {
        if (m_chainsModel->rows().at(row).chainId == selected) {
            m_chains->setCurrentIndex(m_chainsModel->index(row, current.column()));
            break;
        }
    }
}

void OverviewPage::setCurrent(bool current)
{
    for (QWidget *part :
         std::initializer_list<QWidget *>{m_running, m_failures, m_next, m_chains, m_flow})
        part->setEnabled(current);
}

void OverviewPage::setShownChains(const std::optional<QSet<qint64>> &chains)
{
    if (chains == m_shownChains)
        return;
    m_shownChains = chains;
    if (m_shown) {
        const std::shared_ptr<const OverviewSnapshot> shown = m_shown; // show() replaces it
        show(*shown);
    }
}

void OverviewPage::setSchedulesPaused(bool paused)
{
    m_paused = paused;
    showNextFires();
}

void OverviewPage::showNextFires()
{
    m_next->clear();
    if (m_paused) {
        auto *item = new QListWidgetItem(
            tr("Schedules are paused: none of these fires until you resume them."), m_next);
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
        item->setToolTip(tr("Chain → Pause all schedules (Ctrl+Shift+P) resumes them"));
    }
    if (!m_shown)
        return;
    const QDateTime now = QDateTime::currentDateTime();
    int listed = 0;
    for (const OverviewSnapshot::NextFire &fire : m_shown->next) {
        if (!passes(fire.chainId))
            continue;
        if (++listed > OverviewSnapshot::listedFires)
            break;
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(fire.atMs);
        // "Mon 20:45:00" reads faster than a full date in a narrow list.
        auto *item =
            new QListWidgetItem(tr("%1 — %2").arg(DisplayFormat::soon(at, now), fire.path), m_next);
        item->setToolTip(DisplayFormat::weekdayDateTime(at));
        item->setData(IdRole, fire.chainId);
        if (m_paused)
            item->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
    }
    if (m_next->count() == (m_paused ? 1 : 0))
        m_next->addItem(m_shown->next.isEmpty()
                            ? tr("Nothing fires in the next two days.")
                            : tr("None of the chains the filter shows is among the next fires."));
}

QStringList OverviewPage::chainRows() const
{
    QStringList rows;
    for (const OverviewChainsModel::Row &row : m_chainsModel->rows())
        rows << row.path;
    return rows;
}

} // namespace hg
