#include "triggerdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace hg {

TriggerDialog::TriggerDialog(qint64 chainId, TriggerKind kind, ChainLookup lookup, Submit submit,
                             QWidget *parent)
    : QDialog(parent)
    , m_chainId(chainId)
    , m_lookup(std::move(lookup))
    , m_submit(std::move(submit))
    , m_kind(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_problem(new QLabel(this))
{
    setWindowTitle(tr("New trigger"));
    setObjectName(QStringLiteral("triggerDialog"));
    m_kind->setObjectName(QStringLiteral("trigger.kind"));
    m_kind->setAccessibleName(tr("Starts"));
    // In TriggerKind's order: the page of each is its index.
    m_kind->addItem(tr("After other chains end"));
    m_kind->addItem(tr("When files arrive"));
    m_kind->addItem(tr("On a desktop event"));
    m_pages->addWidget(buildAfterPage());
    m_pages->addWidget(buildFilePage());
    m_pages->addWidget(buildDesktopPage());
    connect(m_kind, &QComboBox::currentIndexChanged, m_pages, &QStackedWidget::setCurrentIndex);
    m_kind->setCurrentIndex(int(kind));
    m_pages->setCurrentIndex(int(kind));
    m_problem->setObjectName(QStringLiteral("trigger.problem"));
    m_problem->setWordWrap(true);
    m_problem->setForegroundRole(QPalette::BrightText);
    m_problem->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &TriggerDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &TriggerDialog::reject);
    auto *top = new QFormLayout;
    top->addRow(tr("&Starts:"), m_kind);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_pages);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
}

QWidget *TriggerDialog::buildAfterPage()
{
    auto *page = new QWidget(this);
    m_upstreams = new QLineEdit(page);
    m_upstreams->setObjectName(QStringLiteral("trigger.after"));
    m_upstreams->setPlaceholderText(tr("PROJECT/CHAIN, another…"));
    m_on = new QComboBox(page);
    m_on->setObjectName(QStringLiteral("trigger.on"));
    m_on->addItem(tr("succeeded"), enumName(TriggerOn::Succeeded));
    m_on->addItem(tr("failed (a timeout too)"), enumName(TriggerOn::Failed));
    m_on->addItem(tr("finished (any end)"), enumName(TriggerOn::Finished));
    m_withinMinutes = new QSpinBox(page);
    m_withinMinutes->setObjectName(QStringLiteral("trigger.within"));
    m_withinMinutes->setRange(0, 30 * 24 * 60);
    m_withinMinutes->setSuffix(tr(" min"));
    m_withinMinutes->setSpecialValueText(tr("any one of them"));
    auto *form = new QFormLayout(page);
    form->addRow(tr("&After:"), m_upstreams);
    form->addRow(tr("&When a run has:"), m_on);
    form->addRow(tr("All with&in:"), m_withinMinutes);
    return page;
}

QWidget *TriggerDialog::buildFilePage()
{
    auto *page = new QWidget(this);
    m_glob = new QLineEdit(page);
    m_glob->setObjectName(QStringLiteral("trigger.glob"));
    m_glob->setPlaceholderText(QStringLiteral("/srv/in/*.csv"));
    auto *events = new QHBoxLayout;
    for (const QString &label :
         {tr("&created"), tr("&modified"), tr("&deleted"), tr("mo&ved in")}) {
        auto *box = new QCheckBox(label, page);
        box->setObjectName(QStringLiteral("trigger.event%1").arg(m_events.size()));
        m_events << box;
        events->addWidget(box);
    }
    m_events.at(0)->setChecked(true);
    m_events.at(3)->setChecked(true);
    m_settleMs = new QSpinBox(page);
    m_settleMs->setObjectName(QStringLiteral("trigger.settle"));
    m_settleMs->setRange(0, 24 * 3600 * 1000);
    m_settleMs->setSingleStep(500);
    m_settleMs->setSuffix(tr(" ms"));
    m_settleMs->setValue(int(FileTriggerSpec::defaultSettleMs));
    m_maxPerMinute = new QSpinBox(page);
    m_maxPerMinute->setObjectName(QStringLiteral("trigger.maxPerMinute"));
    m_maxPerMinute->setRange(0, 6000);
    m_maxPerMinute->setSpecialValueText(tr("no limit"));
    m_maxPerMinute->setValue(FileTriggerSpec::defaultMaxPerMinute);
    m_pollSeconds = new QSpinBox(page);
    m_pollSeconds->setObjectName(QStringLiteral("trigger.poll"));
    m_pollSeconds->setRange(0, 24 * 3600);
    m_pollSeconds->setSuffix(tr(" s"));
    m_pollSeconds->setSpecialValueText(tr("inotify (polled where it cannot see)"));
    m_misfire = new QComboBox(page);
    m_misfire->setObjectName(QStringLiteral("trigger.misfire"));
    m_misfire->addItem(tr("a run for each"), enumName(MisfirePolicy::All));
    m_misfire->addItem(tr("one run for all"), enumName(MisfirePolicy::Once));
    m_misfire->addItem(tr("skip them"), enumName(MisfirePolicy::Skip));
    m_misfire->addItem(tr("ask me (the missed-runs inbox)"), enumName(MisfirePolicy::Ask));
    auto *form = new QFormLayout(page);
    form->addRow(tr("&Files:"), m_glob);
    form->addRow(tr("Events:"), events);
    form->addRow(tr("&Settled for:"), m_settleMs);
    form->addRow(tr("At most, a minu&te:"), m_maxPerMinute);
    form->addRow(tr("&Poll every:"), m_pollSeconds);
    form->addRow(tr("Arrived while st&opped:"), m_misfire);
    return page;
}

QWidget *TriggerDialog::buildDesktopPage()
{
    auto *page = new QWidget(this);
    m_desktopEvent = new QComboBox(page);
    m_desktopEvent->setObjectName(QStringLiteral("trigger.desktopEvent"));
    for (const DesktopEvent event :
         {DesktopEvent::Unlock, DesktopEvent::Resume, DesktopEvent::Network, DesktopEvent::Idle,
          DesktopEvent::AcPower})
        m_desktopEvent->addItem(event == DesktopEvent::Idle
                                    ? tr("session idle")
                                    : DesktopTriggerSpec::describe(event, 0),
                                enumName(event));
    m_idleMinutes = new QSpinBox(page);
    m_idleMinutes->setObjectName(QStringLiteral("trigger.idle"));
    m_idleMinutes->setRange(1, 7 * 24 * 60);
    m_idleMinutes->setValue(10);
    m_idleMinutes->setSuffix(tr(" min"));
    m_idleMinutes->setEnabled(false);
    connect(m_desktopEvent, &QComboBox::currentIndexChanged, this, [this] {
        m_idleMinutes->setEnabled(m_desktopEvent->currentData().toString()
                                  == enumName(DesktopEvent::Idle));
    });
    auto *form = new QFormLayout(page);
    form->addRow(tr("&Event:"), m_desktopEvent);
    form->addRow(tr("&Idle for:"), m_idleMinutes);
    return page;
}

Result<ChainTrigger> TriggerDialog::trigger() const
{
    ChainTrigger t;
    t.chainId = m_chainId;
    t.kind = TriggerKind(m_kind->currentIndex());
    switch (t.kind) {
    case TriggerKind::After:
        for (const QString &path :
             m_upstreams->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const Result<qint64> found = m_lookup(path.trimmed());
            if (!found)
                return Error::invalid(tr("After: %1").arg(found.error().message));
            t.upstreams << ChainTrigger::Upstream{found.value(), path.trimmed()};
        }
        if (t.upstreams.isEmpty())
            return Error::invalid(tr("After: name the chains whose runs start this one"));
        t.on = enumFromString<TriggerOn>(m_on->currentData().toString())
                   .value_or(TriggerOn::Succeeded);
        t.withinMs = qint64(m_withinMinutes->value()) * 60'000;
        break;
    case TriggerKind::File: {
        t.file.glob = m_glob->text().trimmed();
        t.file.events.clear();
        const FileEvent kinds[] = {FileEvent::Created, FileEvent::Modified, FileEvent::Deleted,
                                   FileEvent::Moved};
        for (int i = 0; i < m_events.size(); ++i)
            if (m_events.at(i)->isChecked())
                t.file.events << kinds[i];
        t.file.settleMs = m_settleMs->value();
        t.file.maxPerMinute = m_maxPerMinute->value();
        t.file.pollMs = qint64(m_pollSeconds->value()) * 1000;
        t.file.misfire = enumFromString<MisfirePolicy>(m_misfire->currentData().toString())
                             .value_or(MisfirePolicy::All);
        break;
    }
    case TriggerKind::Desktop:
        t.desktop.event = enumFromString<DesktopEvent>(m_desktopEvent->currentData().toString())
                              .value_or(DesktopEvent::Unlock);
        if (t.desktop.event == DesktopEvent::Idle)
            t.desktop.idleMs = qint64(m_idleMinutes->value()) * 60'000;
        break;
    case TriggerKind::Webhook:
        break; // made on the command line (its secret is shown once, there)
    }
    return t;
}

void TriggerDialog::accept()
{
    const Result<ChainTrigger> made = trigger();
    const Status submitted = made ? m_submit(made.value()) : Status(made.error());
    if (!submitted) {
        m_problem->setText(submitted.error().message);
        m_problem->show();
        return; // what was typed stays
    }
    QDialog::accept();
}

} // namespace hg
