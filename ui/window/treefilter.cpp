#include "treefilter.h"

#include "domain/enums.h"
#include "projecttreemodel.h"
#include "scheduler/scheduleplan.h"
#include "store/chainrepository.h"
#include "store/schedulerepository.h"
#include "storereader.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTimeZone>
#include <QTreeView>

#include <utility>

namespace hg {
namespace {

bool shows(TreeFilter::Show show, const QModelIndex &chain)
{
    const QVariant last = chain.data(ProjectTreeModel::LastStateRole);
    switch (show) {
    case TreeFilter::Show::All:
        return true;
    case TreeFilter::Show::Failed:
        return last.isValid()
               && (RunState(last.toInt()) == RunState::Failed
                   || RunState(last.toInt()) == RunState::TimedOut
                   || RunState(last.toInt()) == RunState::Interrupted);
    case TreeFilter::Show::Running:
        return last.isValid() && RunState(last.toInt()) == RunState::Running;
    case TreeFilter::Show::Disabled:
        return !chain.data(ProjectTreeModel::EnabledRole).toBool();
    case TreeFilter::Show::MissedRuns:
        return chain.data(ProjectTreeModel::MissedRunsRole).toLongLong() > 0;
    case TreeFilter::Show::FiresWithinHour:
    case TreeFilter::Show::FiresWithinDay:
        return true; // by the chains read (TreeFilter::readFiring)
    }
    return true;
}

qint64 fireWindowMs(TreeFilter::Show show)
{
    constexpr qint64 hourMs = qint64(3600) * 1000;
    return show == TreeFilter::Show::FiresWithinHour  ? hourMs
           : show == TreeFilter::Show::FiresWithinDay ? 24 * hourMs
                                                      : 0;
}

// Each enabled chain with an enabled schedule whose next fire comes within the window: one
// next fire a schedule (10,000 schedules in tens of milliseconds, on the reader's thread).
Result<QSet<qint64>> chainsFiringWithin(Store &store, qint64 nowMs, qint64 windowMs)
{
    const Result<QList<Chain>> chains = ChainRepository(store).list();
    if (!chains)
        return chains.error();
    const Result<QList<Schedule>> schedules = ScheduleRepository(store).list();
    if (!schedules)
        return schedules.error();
    QSet<qint64> enabled;
    for (const Chain &chain : chains.value()) {
        if (chain.enabled)
            enabled.insert(chain.id);
    }
    QSet<qint64> firing;
    SchedulePlan::Cache cache;
    const QTimeZone zone = QTimeZone::systemTimeZone();
    for (const Schedule &schedule : schedules.value()) {
        if (!schedule.enabled || !enabled.contains(schedule.chainId)
            || firing.contains(schedule.chainId))
            continue;
        const Result<SchedulePlan> plan = SchedulePlan::create(schedule, zone, &cache);
        if (!plan)
            continue;
        if (const std::optional<qint64> at = plan->nextFireMs(nowMs); at && *at < nowMs + windowMs)
            firing.insert(schedule.chainId);
    }
    return firing;
}

} // namespace

TreeFilter::TreeFilter(QTreeView *tree, QWidget *parent)
    : QWidget(parent)
    , m_tree(tree)
    , m_field(new QLineEdit(this))
    , m_show(new QComboBox(this))
{
    setObjectName(QStringLiteral("treeFilter"));
    m_field->setObjectName(QStringLiteral("treeFilter.text"));
    m_field->setPlaceholderText(tr("Find a chain (Ctrl+F)"));
    m_field->setClearButtonEnabled(true);
    m_field->setAccessibleName(tr("Find a chain"));
    m_field->setAccessibleDescription(
        tr("Shows the chains whose project or name holds this text; Down moves into the tree"));
    m_show->setObjectName(QStringLiteral("treeFilter.show"));
    m_show->setAccessibleName(tr("Which chains to show"));
    m_show->setAccessibleDescription(
        tr("All chains, or only those whose last run failed, running, switched off, with "
           "missed runs waiting, or that fire within the next hour or day"));
    m_show->addItem(tr("All chains"), int(Show::All));
    m_show->addItem(tr("Last run failed"), int(Show::Failed));
    m_show->addItem(tr("Running"), int(Show::Running));
    m_show->addItem(tr("Switched off"), int(Show::Disabled));
    m_show->addItem(tr("Missed runs waiting"), int(Show::MissedRuns));
    // Told apart by their first letters: the closed box shows only those at 1024 px.
    m_show->addItem(tr("Next hour's fires"), int(Show::FiresWithinHour));
    m_show->addItem(tr("Next day's fires"), int(Show::FiresWithinDay));
    // At 1024x640 the field kept about 20 px: what is typed stays in view, the choice gives way.
    m_field->setMinimumWidth(m_field->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 14);
    m_show->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_show->setMinimumContentsLength(6);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_field, 1);
    layout->addWidget(m_show);

    // Down from the field goes to the first chain shown, Escape clears the field.
    m_field->installEventFilter(this);
    connect(m_field, &QLineEdit::returnPressed, this, &TreeFilter::enterTree);

    m_soon.setSingleShot(true);
    m_soon.setInterval(150); // a person's typing, and a burst of model changes, apply once
    connect(&m_soon, &QTimer::timeout, this, &TreeFilter::apply);
    connect(m_field, &QLineEdit::textChanged, this, &TreeFilter::applySoon);
    connect(m_show, &QComboBox::currentIndexChanged, this, &TreeFilter::apply);
    QAbstractItemModel *model = m_tree->model();
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        if (m_firing)
            m_firing->readAtMs = 0; // definitions changed: read again, show the last meanwhile
        applySoon();
    });
    // A fire time goes by: the chains firing soon are read again each minute while asked for.
    m_refire.setSingleShot(true);
    m_refire.setInterval(60000);
    connect(&m_refire, &QTimer::timeout, this, &TreeFilter::apply);
    connect(model, &QAbstractItemModel::rowsInserted, this, &TreeFilter::applySoon);
    connect(model, &QAbstractItemModel::dataChanged, this, [this] {
        if (m_show->currentIndex() > 0 || !m_field->text().isEmpty())
            applySoon();
    });
}

bool TreeFilter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Down) {
            enterTree();
            return true;
        }
        if (key == Qt::Key_Escape && !m_field->text().isEmpty()) {
            m_field->clear();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TreeFilter::enterTree()
{
    apply(); // what was typed a moment ago counts
    const QAbstractItemModel *model = m_tree->model();
    for (int top = 0; top < model->rowCount(); ++top) {
        const QModelIndex project = model->index(top, 0);
        if (m_tree->isRowHidden(top, {}))
            continue;
        for (int row = 0; row < model->rowCount(project); ++row) {
            if (!m_tree->isRowHidden(row, project)) {
                m_tree->setCurrentIndex(model->index(row, 0, project));
                m_tree->setFocus(Qt::OtherFocusReason);
                return;
            }
        }
    }
    m_tree->setFocus(Qt::OtherFocusReason);
}

void TreeFilter::focusField()
{
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void TreeFilter::setSchedulesPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    if (fireWindowMs(Show(m_show->currentData().toInt())) > 0)
        apply();
}

void TreeFilter::applySoon()
{
    m_soon.start();
}

void TreeFilter::apply()
{
    m_soon.stop();
    // A pasted control character (a BEL, a tab) is invisible in the field: it does not count.
    QString text = m_field->text();
    text.removeIf([](QChar c) { return c.category() == QChar::Other_Control; });
    text = text.trimmed();
    const auto show = Show(m_show->currentData().toInt());
    const qint64 windowMs = fireWindowMs(show);
    const QSet<qint64> *firing = nullptr; // the chains of the fire window asked for, once read
    if (windowMs > 0) {
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        if (!m_firing || m_firing->windowMs != windowMs || nowMs - m_firing->readAtMs >= 60000)
            readFiring(windowMs);
        static const QSet<qint64> none;
        if (m_paused)
            firing = &none; // nothing fires until the schedules are resumed
        else if (m_firing && m_firing->windowMs == windowMs)
            firing = &m_firing->chainIds;
    }
    const QAbstractItemModel *model = m_tree->model();
    const bool asked = !text.isEmpty() || show != Show::All;
    std::optional<QSet<qint64>> ids;
    if (asked)
        ids.emplace();
    m_shown = 0;
    for (int top = 0; top < model->rowCount(); ++top) {
        const QModelIndex node = model->index(top, 0);
        if (ProjectTreeModel::kindOf(node) != ProjectTreeModel::NodeKind::Project) {
            // Connections: their chains have no state here, so a state asked for hides them.
            m_tree->setRowHidden(top, {}, show != Show::All);
            continue;
        }
        const QString project = node.data().toString();
        int shownHere = 0;
        for (int row = 0; row < model->rowCount(node); ++row) {
            const QModelIndex chain = model->index(row, 0, node);
            const QString path = project + QLatin1Char('/') + chain.data().toString();
            const qint64 id = chain.data(ProjectTreeModel::IdRole).toLongLong();
            const bool visible =
                (text.isEmpty() || path.contains(text, Qt::CaseInsensitive))
                && (windowMs > 0 ? firing && firing->contains(id) : shows(show, chain));
            m_tree->setRowHidden(row, node, !visible);
            shownHere += visible ? 1 : 0;
            if (visible && ids)
                ids->insert(id);
        }
        m_shown += shownHere;
        // A project stays when a chain of it shows, or when nothing is asked for (an empty
        // project is still where a new chain goes).
        m_tree->setRowHidden(top, {}, shownHere == 0 && asked);
    }
    if (ids != m_shownChains) {
        m_shownChains = std::move(ids);
        Q_EMIT shownChainsChanged();
    }
}

void TreeFilter::readFiring(qint64 windowMs)
{
    if (!m_reader)
        return;
    if (m_reading) {
        m_readAgain = true;
        return;
    }
    m_reading = true;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    m_reader->read<QSet<qint64>>(
        this,
        [nowMs, windowMs](Store &store) { return chainsFiringWithin(store, nowMs, windowMs); },
        [this, nowMs, windowMs](const Result<QSet<qint64>> &firing) {
            m_reading = false;
            // A failed read keeps what was read before (none: no chain) until the next minute.
            if (firing)
                m_firing = Firing{windowMs, nowMs, firing.value()};
            else if (m_firing && m_firing->windowMs == windowMs)
                m_firing->readAtMs = nowMs;
            else
                m_firing = Firing{windowMs, nowMs, {}};
            if (fireWindowMs(Show(m_show->currentData().toInt())) == 0)
                return; // another choice since
            if (std::exchange(m_readAgain, false) && m_firing)
                m_firing->readAtMs = 0;
            m_refire.start();
            apply();
        });
}

} // namespace hg
