#include "chainoccurrencesbox.h"

#include "alertsdialog.h"
#include "common/wrappedlabel.h"
#include "displayformat.h"
#include "missedrunsdialog.h"
#include "occurrencepresentation.h"
#include "occurrencesmodel.h"
#include "occurrencestrip.h"
#include "scheduler/clockwatch.h"
#include "scheduler/effectivecadence.h"
#include "scheduler/occurrenceledger.h"
#include "scheduler/scheduleplan.h"
#include "statepresentation.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "store/occurrencerepository.h"
#include "store/schedulerepository.h"
#include "storereader.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <utility>

namespace hg {
namespace {

constexpr qint64 hourMs = qint64(3600) * 1000;

} // namespace

ChainOccurrencesBox::ChainOccurrencesBox(Store &store, QWidget *parent)
    : QGroupBox(tr("Fire times, last 24 hours"), parent)
    , m_store(store)
    , m_occurrences(new OccurrencesModel(store, this))
    , m_strip(new OccurrenceStrip(m_occurrences, this))
    , m_cadence(new WrappedLabel(this))
    , m_inbox(new QWidget(this))
    , m_inboxText(new WrappedLabel(m_inbox))
    , m_decide(new QPushButton(tr("&Decide…"), m_inbox))
    , m_alertsButton(new QPushButton(this))
{
    m_alertsButton->setObjectName(QStringLiteral("chainOccurrences.alerts"));
    // A button that looks like one (flat, "Alerts: none" read as a label; issue 34); the
    // ellipsis says it opens a dialog.
    m_alertsButton->setToolTip(tr("Alert when a run starts late, runs too long or too short, or "
                                  "has not succeeded by a deadline"));
    connect(m_alertsButton, &QPushButton::clicked, this, &ChainOccurrencesBox::editAlerts);
    setObjectName(QStringLiteral("chainOccurrences"));
    // Wrapped, never cut at the box's edge (a daily schedule's line is longer than the pane
    // at 1280; issue 34).
    m_cadence->setObjectName(QStringLiteral("chainOccurrences.cadence"));
    m_cadence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_inboxText->setObjectName(QStringLiteral("chainOccurrences.inbox"));
    m_decide->setToolTip(tr("Run the missed fire times, run the latest only, or dismiss them"));
    m_inbox->setAutoFillBackground(true);
    QPalette warning = m_inbox->palette();
    warning.setColor(QPalette::Window, StatePresentation::errorBackground());
    warning.setColor(QPalette::WindowText, StatePresentation::errorText());
    m_inbox->setPalette(warning);
    auto *inboxLayout = new QHBoxLayout(m_inbox);
    inboxLayout->setContentsMargins(6, 4, 6, 4);
    inboxLayout->addWidget(m_inboxText, 1);
    inboxLayout->addWidget(m_decide);
    m_inbox->hide();
    connect(m_decide, &QPushButton::clicked, this, &ChainOccurrencesBox::decideMissed);
    connect(m_strip, &OccurrenceStrip::runActivated, this, &ChainOccurrencesBox::runActivated);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_inbox);
    layout->addWidget(m_strip);
    layout->addWidget(m_cadence);
    layout->addWidget(m_alertsButton, 0, Qt::AlignLeft);
}

void ChainOccurrencesBox::editAlerts()
{
    const Result<AlertRules> rules = AlertRepository(m_store).rules(m_chainId);
    if (m_chainId <= 0 || !rules)
        return;
    auto *dialog = new AlertsDialog(rules.value(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const Status saved = AlertRepository(m_store).setRules(m_chainId, dialog->rules());
            !saved)
            m_alertsButton->setToolTip(saved.error().message);
        refresh();
    });
    dialog->open();
}

QString ChainOccurrencesBox::cadenceText() const
{
    return m_cadence->text();
}

QString ChainOccurrencesBox::inboxText() const
{
    return m_inbox->isHidden() ? QString() : m_inboxText->text();
}

void ChainOccurrencesBox::showChain(qint64 chainId)
{
    m_chainId = chainId;
    refresh();
}

void ChainOccurrencesBox::refresh()
{
    if (m_chainId <= 0) {
        ++m_asked; // an answer on its way is for a chain no longer shown
        apply(Read{});
        return;
    }
    const qint64 chainId = m_chainId;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    if (!m_reader) {
        if (Result<Read> read = readFor(m_store, chainId, nowMs))
            apply(read.value());
        return;
    }
    // On the reader's thread (five reads; across a network each a round trip), one at a time:
    // a refresh asked meanwhile reads once the answer is in.
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    const int asked = ++m_asked;
    m_reader->read<Read>(
        this, [chainId, nowMs](Store &store) { return readFor(store, chainId, nowMs); },
        [this, asked](const Result<Read> &read) {
            m_reading = false;
            if (read && asked == m_asked)
                apply(read.value());
            if (std::exchange(m_again, false) || asked != m_asked)
                refresh();
        });
}

Result<ChainOccurrencesBox::Read> ChainOccurrencesBox::readFor(Store &store, qint64 chainId,
                                                               qint64 nowMs)
{
    Read read;
    read.chainId = chainId;
    const Result<AlertRules> rules = AlertRepository(store).rules(chainId);
    read.alerts = rules ? rules.value() : AlertRules{};
    Result<OccurrencesModel::Span> strip =
        OccurrencesModel::compute(store, chainId, nowMs - 24 * hourMs, nowMs);
    if (!strip)
        return strip.error();
    read.strip = std::move(strip.value());

    // Each schedule's effective cadence, as `hourglass occurrences` says it: over the last hour
    // for a schedule that fires often, over ten of its intervals (a day at most) for one that
    // does not ("configured every 1 d; no run over the last hour" said nothing; issue 34).
    const Result<QList<Schedule>> schedules = ScheduleRepository(store).list(chainId);
    const Result<QList<Occurrence>> lastDay =
        OccurrenceRepository(store).list(chainId, nowMs - 24 * hourMs, nowMs);
    if (schedules && lastDay) {
        for (const Schedule &schedule : schedules.value()) {
            const Result<SchedulePlan> plan =
                SchedulePlan::create(schedule, QTimeZone::systemTimeZone());
            if (!schedule.enabled || !plan || !OccurrenceLedger::accounts(plan.value()))
                continue;
            const qint64 configured =
                EffectiveCadence::measure(plan.value(), {}, nowMs - hourMs, nowMs).configuredMs;
            const qint64 windowMs = std::clamp(configured * 10, hourMs, 24 * hourMs);
            QList<Occurrence> within;
            for (const Occurrence &o : lastDay.value()) {
                if (o.lastFireMs >= nowMs - windowMs)
                    within << o;
            }
            const QString span =
                windowMs == hourMs ? tr("over the last hour")
                : windowMs == 24 * hourMs
                    ? tr("over the last day")
                    : tr("over the last %1").arg(ClockWatch::describeLength(windowMs));
            const EffectiveCadence cadence =
                EffectiveCadence::measure(plan.value(), within, nowMs - windowMs, nowMs);
            read.cadence << tr("%1: %2").arg(schedule.expression, cadence.describe(span));
        }
    }
    read.waiting = MissedRunsInbox::Waiting{chainId};
    if (const Result<MissedRunsInbox::Waiting> waiting = MissedRunsInbox(store).waiting(chainId))
        read.waiting = waiting.value();
    return read;
}

void ChainOccurrencesBox::apply(const Read &read)
{
    m_waiting = read.waiting;
    m_alertsButton->setText(AlertsDialog::summary(read.alerts) + QStringLiteral("…"));
    if (read.chainId <= 0) {
        m_occurrences->clear();
        m_cadence->clear();
        m_inbox->hide();
        return;
    }
    m_occurrences->show(read.strip);
    m_cadence->setWrappedText(read.cadence.join(QLatin1Char('\n')));
    m_cadence->setToolTip(m_cadence->text());
    m_cadence->setVisible(!read.cadence.isEmpty());
    m_inbox->setVisible(m_waiting.count > 0);
    if (m_waiting.count > 0) {
        m_inboxText->setWrappedText(
            tr("%n missed run(s) wait for your decision (the latest %1, %2).", nullptr,
               int(std::min<qint64>(m_waiting.count, 1000000)))
                .arg(DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(m_waiting.lastMs)),
                     OccurrencePresentation::label(m_waiting.cause)));
        m_inboxText->setToolTip(m_inboxText->text());
        m_inbox->setAccessibleDescription(m_inboxText->text());
    }
}

void ChainOccurrencesBox::decideMissed()
{
    const Result<Chain> chain = ChainRepository(m_store).byId(m_chainId);
    if (!chain || m_waiting.count == 0)
        return;
    MissedRunsDialog dialog(m_store, chain.value(), m_waiting, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    refresh();
    Q_EMIT missedRunsDecided(m_chainId);
}

} // namespace hg
