#include "alertsdialog.h"

#include "domain/schedule.h"
#include "scheduler/clockwatch.h"
#include "scheduler/scheduleplan.h"
#include "statepresentation.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimeZone>
#include <QVBoxLayout>

namespace hg {
namespace {

// The unit box's entries: off, seconds, minutes, hours, a factor of the median.
enum Unit { Off, Seconds, Minutes, Hours, Factor };
constexpr qint64 unitMs[] = {0, 1000, 60000, 3600000, 0};

QString limitSummary(qint64 ms, double factor)
{
    if (ms > 0)
        return ClockWatch::describeLength(ms);
    return AlertsDialog::tr("%1x the median").arg(QString::number(factor, 'g', 3));
}

} // namespace

AlertsDialog::AlertsDialog(const AlertRules &rules, QWidget *parent)
    : QDialog(parent)
    , m_late(new QSpinBox(this))
    , m_longer(limitEditor(QStringLiteral("alerts.longerThan")))
    , m_shorter(limitEditor(QStringLiteral("alerts.shorterThan")))
    , m_deadline(new QLineEdit(this))
    , m_zone(new QLineEdit(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Alerts"));
    m_late->setObjectName(QStringLiteral("alerts.late"));
    m_late->setRange(0, 86400);
    m_late->setSuffix(tr(" s"));
    m_late->setSpecialValueText(tr("off"));
    m_deadline->setObjectName(QStringLiteral("alerts.deadline"));
    m_deadline->setPlaceholderText(tr("none; 0 7 * * 1-5 is by 07:00 on weekdays"));
    m_zone->setObjectName(QStringLiteral("alerts.zone"));
    m_zone->setPlaceholderText(QString::fromUtf8(QTimeZone::systemTimeZoneId()));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(StatePresentation::errorText().name()));
    m_error->hide();
    const auto row = [](const Limit &limit) {
        auto *layout = new QHBoxLayout;
        layout->addWidget(limit.value);
        layout->addWidget(limit.unit);
        return layout;
    };
    auto *form = new QFormLayout;
    auto *lateLabel = new QLabel(tr("Started &late by more than:"), this);
    lateLabel->setBuddy(m_late);
    form->addRow(lateLabel, m_late);
    auto *longerLabel = new QLabel(tr("A run &longer than:"), this);
    longerLabel->setBuddy(m_longer.value);
    form->addRow(longerLabel, row(m_longer));
    auto *shorterLabel = new QLabel(tr("A success &shorter than:"), this);
    shorterLabel->setBuddy(m_shorter.value);
    form->addRow(shorterLabel, row(m_shorter));
    auto *deadlineLabel = new QLabel(tr("Succeeded by (&cron):"), this);
    deadlineLabel->setBuddy(m_deadline);
    form->addRow(deadlineLabel, m_deadline);
    auto *zoneLabel = new QLabel(tr("Deadline's time &zone:"), this);
    zoneLabel->setBuddy(m_zone);
    form->addRow(zoneLabel, m_zone);
    auto *note = new QLabel(tr("A factor compares with the median of the chain's last 20 "
                               "succeeded runs, once it has five. A deadline wants a run that "
                               "succeeded in the 24 hours before it. An alert marks the run, "
                               "enters the chain's history and is told as a failure is."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &AlertsDialog::check);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setRules(rules);
}

AlertsDialog::Limit AlertsDialog::limitEditor(const QString &objectName)
{
    Limit limit{new QComboBox(this), new QDoubleSpinBox(this)};
    limit.unit->addItems(
        {tr("off"), tr("seconds"), tr("minutes"), tr("hours"), tr("× the median")});
    limit.unit->setObjectName(objectName + QStringLiteral(".unit"));
    limit.unit->setAccessibleName(tr("Unit"));
    limit.value->setObjectName(objectName);
    limit.value->setRange(0, 100000);
    limit.value->setDecimals(2);
    connect(limit.unit, &QComboBox::currentIndexChanged, limit.value,
            [value = limit.value](int unit) { value->setEnabled(unit != Off); });
    return limit;
}

void AlertsDialog::showLimit(const Limit &limit, qint64 ms, double factor)
{
    if (factor > 0) {
        limit.unit->setCurrentIndex(Factor);
        limit.value->setValue(factor);
    } else if (ms <= 0) {
        limit.unit->setCurrentIndex(Off);
        limit.value->setValue(0);
    } else {
        const int unit = ms % 3600000 == 0 ? Hours : ms % 60000 == 0 ? Minutes : Seconds;
        limit.unit->setCurrentIndex(unit);
        limit.value->setValue(double(ms) / double(unitMs[unit]));
    }
    limit.value->setEnabled(limit.unit->currentIndex() != Off);
}

void AlertsDialog::readLimit(const Limit &limit, qint64 &ms, double &factor)
{
    const int unit = limit.unit->currentIndex();
    ms = unit == Seconds || unit == Minutes || unit == Hours
             ? qint64(limit.value->value() * double(unitMs[unit]))
             : 0;
    factor = unit == Factor ? limit.value->value() : 0;
}

void AlertsDialog::setRules(const AlertRules &rules)
{
    m_late->setValue(int(rules.lateAfterMs / 1000));
    showLimit(m_longer, rules.longerThanMs, rules.longerThanFactor);
    showLimit(m_shorter, rules.shorterThanMs, rules.shorterThanFactor);
    m_deadline->setText(rules.deadline);
    m_zone->setText(rules.deadlineZone);
}

AlertRules AlertsDialog::rules() const
{
    AlertRules rules;
    rules.lateAfterMs = qint64(m_late->value()) * 1000;
    readLimit(m_longer, rules.longerThanMs, rules.longerThanFactor);
    readLimit(m_shorter, rules.shorterThanMs, rules.shorterThanFactor);
    rules.deadline = m_deadline->text().trimmed();
    rules.deadlineZone = m_zone->text().trimmed();
    return rules;
}

QString AlertsDialog::error() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void AlertsDialog::check()
{
    const AlertRules chosen = rules();
    QString problem;
    if (!chosen.deadlineZone.isEmpty() && !QTimeZone(chosen.deadlineZone.toUtf8()).isValid())
        problem = tr("'%1' is not a time zone.").arg(chosen.deadlineZone);
    else if (!chosen.deadline.isEmpty()) {
        Schedule deadline;
        deadline.expression = chosen.deadline;
        deadline.dialect = CronDialect::Unix;
        deadline.timeZone = chosen.deadlineZone;
        if (const Result<SchedulePlan> plan =
                SchedulePlan::create(deadline, QTimeZone::systemTimeZone());
            !plan)
            problem = tr("The deadline: %1").arg(plan.error().message);
    }
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        m_error->show();
        return;
    }
    accept();
}

QString AlertsDialog::summary(const AlertRules &r)
{
    QStringList parts;
    if (r.lateAfterMs > 0)
        parts << tr("late by > %1").arg(ClockWatch::describeLength(r.lateAfterMs));
    if (r.longerThanMs > 0 || r.longerThanFactor > 0)
        parts << tr("longer than %1").arg(limitSummary(r.longerThanMs, r.longerThanFactor));
    if (r.shorterThanMs > 0 || r.shorterThanFactor > 0)
        parts << tr("shorter than %1").arg(limitSummary(r.shorterThanMs, r.shorterThanFactor));
    // With its zone: "by 0 7 * * 1-5" alone left open whose 07:00 (issue 34).
    if (!r.deadline.isEmpty())
        parts << tr("succeeded by %1 (%2)")
                     .arg(r.deadline, r.deadlineZone.isEmpty()
                                          ? QString::fromUtf8(QTimeZone::systemTimeZoneId())
                                          : r.deadlineZone);
    return parts.isEmpty() ? tr("Alerts: none")
                           : tr("Alerts: %1").arg(parts.join(QStringLiteral(", ")));
}

} // namespace hg
