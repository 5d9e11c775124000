#include "treefilter.h"

#include "domain/enums.h"
#include "projecttreemodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTreeView>

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
    }
    return true;
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
        tr("All chains, or only those whose last run failed, running, switched off, or with "
           "missed runs waiting"));
    m_show->addItem(tr("All chains"), int(Show::All));
    m_show->addItem(tr("Last run failed"), int(Show::Failed));
    m_show->addItem(tr("Running"), int(Show::Running));
    m_show->addItem(tr("Switched off"), int(Show::Disabled));
    m_show->addItem(tr("Missed runs waiting"), int(Show::MissedRuns));
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
    connect(model, &QAbstractItemModel::modelReset, this, &TreeFilter::applySoon);
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
            const bool visible =
                (text.isEmpty() || path.contains(text, Qt::CaseInsensitive)) && shows(show, chain);
            m_tree->setRowHidden(row, node, !visible);
            shownHere += visible ? 1 : 0;
            if (visible && ids)
                ids->insert(chain.data(ProjectTreeModel::IdRole).toLongLong());
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

} // namespace hg
