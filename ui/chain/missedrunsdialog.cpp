#include "missedrunsdialog.h"

#include "displayformat.h"
#include "occurrencepresentation.h"
#include "statepresentation.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace hg {

MissedRunsDialog::MissedRunsDialog(Store &store, const Chain &chain,
                                   const MissedRunsInbox::Waiting &waiting, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_chain(chain)
{
    setWindowTitle(tr("Missed runs of %1").arg(chain.name));
    const auto at = [](qint64 ms) {
        return DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(ms));
    };
    auto *what = new QLabel(waiting.count == 1
                                ? tr("%1 did not run at %2 %3.")
                                      .arg(chain.name, at(waiting.firstMs),
                                           OccurrencePresentation::label(waiting.cause))
                                : tr("%1 did not run %n time(s), from %2 to %3, %4.", nullptr,
                                     int(std::min<qint64>(waiting.count, 1000000)))
                                      .arg(chain.name, at(waiting.firstMs), at(waiting.lastMs),
                                           OccurrencePresentation::label(waiting.cause)),
                            this);
    what->setWordWrap(true);
    m_runAll = new QRadioButton(tr("Run &all of them, oldest first"), this);
    m_runLatest = new QRadioButton(tr("Run the &latest only"), this);
    m_dismiss = new QRadioButton(tr("&Dismiss them"), this);
    m_runAll->setChecked(true);
    m_parallel = new QSpinBox(this);
    m_parallel->setRange(1, 64);
    m_parallel->setSpecialValueText(tr("one after another"));
    m_parallel->setAccessibleName(tr("Runs at once"));
    auto *parallelLabel = new QLabel(tr("At &once:"), this);
    parallelLabel->setBuddy(m_parallel);
    auto *parallelRow = new QHBoxLayout;
    parallelRow->addSpacing(24);
    parallelRow->addWidget(parallelLabel);
    parallelRow->addWidget(m_parallel);
    parallelRow->addStretch();
    m_keep = new QCheckBox(tr("&Keep this choice for the next missed runs (the schedules' misfire "
                              "policy becomes all, once or skip)"),
                           this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(StatePresentation::errorText().name()));
    m_error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_decide = buttons->addButton(tr("&Run"), QDialogButtonBox::AcceptRole);
    m_decide->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &MissedRunsDialog::decide);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QRadioButton *button : {m_runAll, m_runLatest, m_dismiss})
        connect(button, &QRadioButton::toggled, this, &MissedRunsDialog::refresh);
    connect(m_parallel, &QSpinBox::valueChanged, this, &MissedRunsDialog::refresh);
    connect(m_keep, &QCheckBox::toggled, this, &MissedRunsDialog::refresh);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(what);
    layout->addSpacing(6);
    layout->addWidget(m_runAll);
    layout->addLayout(parallelRow);
    layout->addWidget(m_runLatest);
    layout->addWidget(m_dismiss);
    layout->addSpacing(6);
    layout->addWidget(m_keep);
    layout->addWidget(m_summary);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    refresh();
}

void MissedRunsDialog::choose(MissedRunsInbox::Choice choice)
{
    switch (choice) {
    case MissedRunsInbox::Choice::RunAll:
        m_runAll->setChecked(true);
        break;
    case MissedRunsInbox::Choice::RunLatest:
        m_runLatest->setChecked(true);
        break;
    case MissedRunsInbox::Choice::Dismiss:
        m_dismiss->setChecked(true);
        break;
    }
}

void MissedRunsDialog::setParallel(int parallel)
{
    m_parallel->setValue(parallel);
}

void MissedRunsDialog::setKeep(bool keep)
{
    m_keep->setChecked(keep);
}

MissedRunsInbox::Choice MissedRunsDialog::choice() const
{
    return m_runLatest->isChecked() ? MissedRunsInbox::Choice::RunLatest
           : m_dismiss->isChecked() ? MissedRunsInbox::Choice::Dismiss
                                    : MissedRunsInbox::Choice::RunAll;
}

QString MissedRunsDialog::summary() const
{
    return m_summary->text();
}

void MissedRunsDialog::refresh()
{
    const MissedRunsInbox::Choice chosen = choice();
    m_parallel->setEnabled(chosen == MissedRunsInbox::Choice::RunAll);
    QString text;
    switch (chosen) {
    case MissedRunsInbox::Choice::RunAll:
        text = m_parallel->value() == 1
                   ? tr("Every missed fire time becomes a run, one after another.")
                   : tr("Every missed fire time becomes a run, %1 at a time.")
                         .arg(m_parallel->value());
        m_decide->setText(tr("&Run"));
        break;
    case MissedRunsInbox::Choice::RunLatest:
        text = tr("One run, for the latest missed fire time (of a file trigger, one run for all "
                  "its missed files); the others are set aside.");
        m_decide->setText(tr("&Run"));
        break;
    case MissedRunsInbox::Choice::Dismiss:
        text = tr("Nothing runs; the missed fire times stay in the chain's history as dismissed.");
        m_decide->setText(tr("&Dismiss"));
        break;
    }
    if (m_keep->isChecked())
        text += QLatin1Char(' ')
                + tr("From now on, missed runs of this chain are handled this way without asking "
                     "(misfire policy %1).")
                      .arg(enumName(MissedRunsInbox::policyOf(chosen)));
    m_summary->setText(text);
}

void MissedRunsDialog::decide()
{
    MissedRunsInbox::Decision decision;
    decision.choice = choice();
    decision.parallel = m_parallel->value();
    decision.keep = m_keep->isChecked();
    const Result<MissedRunsInbox::Decided> decided =
        MissedRunsInbox(m_store).decide(m_chain, decision);
    if (!decided) {
        // Nothing was written: the inbox is as it was.
        m_error->setText(tr("Nothing was done: %1").arg(decided.error().message));
        m_error->show();
        return;
    }
    m_decided = decided.value();
    accept();
}

} // namespace hg
