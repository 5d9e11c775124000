#include "chainsettingsbar.h"

#include "chain/concurrencyrule.h"
#include "chain/retentiondialog.h"
#include "common/taborder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <limits>

namespace hg {

ChainSettingsBar::ChainSettingsBar(QWidget *parent)
    : QWidget(parent)
    , m_notify(new QComboBox(this))
    , m_overlap(new QComboBox(this))
    , m_needsNetwork(new QCheckBox(tr("Only with a network"), this))
{
    m_notify->setAccessibleName(tr("Notify"));
    m_notify->setToolTip(
        tr("When a run of this chain ends, whether the tray shows a notification"));
    m_overlap->setAccessibleName(tr("A run while one runs"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildDisabledBanner());
    layout->addWidget(buildSettings());
}

void ChainSettingsBar::showChain(const Chain &chain, bool shown)
{
    m_chain = chain;
    m_disabledBanner->setVisible(shown && !m_chain.enabled);
    m_notify->setCurrentIndex(m_notify->findData(int(m_chain.notify)));
    m_needsNetwork->setChecked(m_chain.needsNetwork);
    showConcurrency();
}

QWidget *ChainSettingsBar::buildDisabledBanner()
{
    m_disabledBanner = new QFrame(this);
    m_disabledBanner->setObjectName(QStringLiteral("chain.disabledBanner"));
    m_disabledBanner->setFrameShape(QFrame::StyledPanel);
    m_disabledBanner->setAutoFillBackground(true);
    m_disabledBanner->setBackgroundRole(QPalette::AlternateBase);
    auto *text = new QLabel(tr("This chain is switched off: its schedules do not fire. "
                               "Run now still runs it."),
                            m_disabledBanner);
    text->setWordWrap(true);
    auto *enable = new QPushButton(tr("&Enable"), m_disabledBanner);
    enable->setObjectName(QStringLiteral("chain.enable"));
    connect(enable, &QPushButton::clicked, this, [this] {
        Chain chain = m_chain;
        chain.enabled = true;
        Q_EMIT chainEdited(chain);
    });
    auto *layout = new QHBoxLayout(m_disabledBanner);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(text, 1);
    layout->addWidget(enable);
    m_disabledBanner->hide();
    return m_disabledBanner;
}

QWidget *ChainSettingsBar::buildSettings()
{
    auto *row = new QWidget(this);
    m_settings = new QGridLayout(row);
    m_settings->setContentsMargins(0, 0, 0, 0);
    const QStringList notifyLabels{tr("never"), tr("on success"), tr("on failure and recovery"),
                                   tr("always")};
    for (NotifyPolicy policy :
         {NotifyPolicy::None, NotifyPolicy::Success, NotifyPolicy::Failure, NotifyPolicy::All})
        m_notify->addItem(notifyLabels.at(int(policy)), int(policy));
    m_notify->setObjectName(QStringLiteral("chain.notify"));
    m_overlap->setObjectName(QStringLiteral("chain.overlap"));
    // Each box as wide as its longest choice: a narrow editor puts the settings on more rows
    // (relayout), it never cuts a choice.
    for (QComboBox *box : {m_notify, m_overlap})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_overlap->setToolTip(tr("What happens when the chain is due (or started by hand) while a "
                             "run of it is still going"));
    // Buddy labels: they name the boxes for screen readers (and give Alt shortcuts).
    auto *notifyLabel = new QLabel(tr("Notif&y:"), row);
    notifyLabel->setBuddy(m_notify);
    auto *overlapLabel = new QLabel(tr("A run &while one runs:"), row);
    overlapLabel->setBuddy(m_overlap);
    const auto group = [row](QLabel *label, QWidget *field) {
        auto *pair = new QWidget(row);
        auto *layout = new QHBoxLayout(pair);
        layout->setContentsMargins(0, 0, 0, 0);
        label->setParent(pair);
        field->setParent(pair);
        layout->addWidget(label);
        layout->addWidget(field);
        return pair;
    };
    m_retention = new QPushButton(row);
    m_retention->setObjectName(QStringLiteral("chain.retention"));
    m_retention->setToolTip(tr("How long this chain's finished runs and their logs are kept"));
    // History beside Notify: two rows at 1024, where the overlap box needs one of its own.
    QWidget *notifyGroup = group(notifyLabel, m_notify);
    // The tray follows the policy above; e-mail and webhooks follow the chain's routes.
    auto *channels = new QPushButton(tr("Channe&ls…"), notifyGroup);
    channels->setObjectName(QStringLiteral("chain.channels"));
    channels->setToolTip(tr("Which events of this chain go to which channels (e-mail, webhooks, a "
                            "desktop), and to whom"));
    notifyGroup->layout()->addWidget(channels);
    connect(channels, &QPushButton::clicked, this,
            [this] { Q_EMIT channelsRequested(m_chain.id); });
    m_needsNetwork->setObjectName(QStringLiteral("chain.needsNetwork"));
    m_needsNetwork->setToolTip(tr("Its schedules and triggers start it only while the computer "
                                  "has a network; a fire without one is skipped and shown in its "
                                  "fire times (Run now still runs it)"));
    m_settingGroups = {notifyGroup, m_retention, group(overlapLabel, m_overlap), m_needsNetwork};
    setTabOrderOf(m_settingGroups); // as they are laid out
    relayoutSettings();
    connect(m_retention, &QPushButton::clicked, this, [this] {
        auto *dialog = new RetentionDialog(m_chain.retention, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            Chain chain = m_chain;
            chain.retention = dialog->retention();
            Q_EMIT chainEdited(chain);
        });
        dialog->open();
    });
    connect(m_notify, &QComboBox::activated, this, [this] {
        Chain chain = m_chain;
        chain.notify = NotifyPolicy(m_notify->currentData().toInt());
        Q_EMIT chainEdited(chain);
    });
    connect(m_needsNetwork, &QCheckBox::clicked, this, [this](bool checked) {
        Chain chain = m_chain;
        chain.needsNetwork = checked;
        Q_EMIT chainEdited(chain);
    });
    connect(m_overlap, &QComboBox::activated, this, [this] {
        const ConcurrencyRule rule = ConcurrencyRule::fromKey(m_overlap->currentData().toInt());
        Chain chain = m_chain;
        chain.maxInstances = rule.maxInstances;
        chain.overlap = rule.overlap;
        Q_EMIT chainEdited(chain);
    });
    return row;
}

void ChainSettingsBar::showConcurrency()
{
    m_retention->setText(RetentionDialog::summary(m_chain.retention) + QStringLiteral("…"));
    relayoutSettings();
    // The box shows the chain's real rule, including one it has no standard item for.
    const ConcurrencyRule rule{m_chain.maxInstances, m_chain.overlap};
    m_overlap->clear();
    QList<ConcurrencyRule> rules{
        {1, OverlapPolicy::Queue}, {1, OverlapPolicy::Skip}, {0, OverlapPolicy::Queue}};
    if (!rules.contains(rule.normalized()))
        rules.prepend(rule.normalized());
    for (const ConcurrencyRule &choice : std::as_const(rules))
        m_overlap->addItem(choice.label(), choice.key());
    m_overlap->setCurrentIndex(m_overlap->findData(rule.normalized().key()));
}

void ChainSettingsBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayoutSettings();
}

// Left to right, a group that would not fit starts the next row: at 1280 the settings take one
// row, at 1024 (or in German) two, and no label or choice is cut.
void ChainSettingsBar::relayoutSettings()
{
    // Not laid out yet: one row, until the first resize says how wide the editor is.
    // Collapsed (a splitter dragged shut): the rows it had.
    if (width() <= 0 && !m_settingRows.isEmpty())
        return;
    const int available = width() > 0 ? width() : std::numeric_limits<int>::max();
    const int spacing = 12;
    QList<int> rowOf;
    int row = 0;
    int used = 0;
    for (QWidget *group : std::as_const(m_settingGroups)) {
        const int wanted = group->sizeHint().width();
        if (used > 0 && used + spacing + wanted > available) {
            ++row;
            used = 0;
        }
        used += (used > 0 ? spacing : 0) + wanted;
        rowOf << row;
    }
    // No wider than its widest group: the rows, not the bar, decide the width it needs, so a
    // splitter can narrow the editor again after the bar was wide (one row kept it wide).
    int widest = 0;
    for (QWidget *group : std::as_const(m_settingGroups))
        widest = std::max(widest, group->sizeHint().width());
    setMinimumWidth(widest);
    if (rowOf == m_settingRows)
        return;
    m_settingRows = rowOf;
    for (QWidget *group : std::as_const(m_settingGroups))
        m_settings->removeWidget(group);
    // Each row is a nested box: a stretch at its end keeps the groups at the left.
    while (QLayoutItem *item = m_settings->takeAt(0))
        delete item;
    QList<QHBoxLayout *> rows;
    for (int n = 0; n <= rowOf.value(rowOf.size() - 1); ++n) {
        auto *line = new QHBoxLayout;
        line->setSpacing(spacing);
        m_settings->addLayout(line, n, 0);
        rows << line;
    }
    for (qsizetype n = 0; n < m_settingGroups.size(); ++n)
        rows.at(rowOf.at(n))->addWidget(m_settingGroups.at(n));
    for (QHBoxLayout *line : std::as_const(rows))
        line->addStretch();
}

} // namespace hg
