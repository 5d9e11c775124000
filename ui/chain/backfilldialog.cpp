#include "backfilldialog.h"

#include "displayformat.h"
#include "scheduler/backfill.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace hg {

BackfillDialog::BackfillDialog(Store &store, const Chain &chain, const QTimeZone &defaultZone,
                               QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_chain(chain)
    , m_zone(defaultZone)
{
    setWindowTitle(tr("Backfill %1").arg(chain.name));
    resize(520, 520);
    auto *form = new QFormLayout(this);
    const QDateTime today(QDate::currentDate(), QTime(0, 0));
    m_from = new QDateTimeEdit(today.addDays(-7), this);
    m_to = new QDateTimeEdit(QDateTime::currentDateTime(), this);
    for (QDateTimeEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    m_parallel = new QSpinBox(this);
    m_parallel->setRange(1, 64);
    m_parallel->setSpecialValueText(tr("one at a time"));
    m_parallel->setToolTip(tr("How many of the batch's runs may run at once"));
    m_order = new QComboBox(this);
    m_order->addItem(tr("Oldest first"));
    m_order->addItem(tr("Newest first"));
    m_preview = new QListWidget(this);
    m_preview->setAccessibleName(tr("The fire times a run is queued for"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    form->addRow(tr("&From:"), m_from);
    form->addRow(tr("&To:"), m_to);
    form->addRow(tr("&At once:"), m_parallel);
    form->addRow(tr("&Order:"), m_order);
    form->addRow(m_preview);
    form->addRow(m_summary);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_queue = buttons->addButton(tr("&Queue runs"), QDialogButtonBox::AcceptRole);
    form->addRow(buttons);
    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, &BackfillDialog::refresh);
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, &BackfillDialog::refresh);
    connect(m_parallel, &QSpinBox::valueChanged, this, &BackfillDialog::refresh);
    connect(m_order, &QComboBox::currentIndexChanged, this, &BackfillDialog::refresh);
    connect(m_queue, &QPushButton::clicked, this, &BackfillDialog::queue);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    refresh();
}

void BackfillDialog::setRange(const QDateTime &from, const QDateTime &to)
{
    const QSignalBlocker blocker(m_from);
    m_from->setDateTime(from.toLocalTime());
    m_to->setDateTime(to.toLocalTime());
    refresh();
}

void BackfillDialog::setParallel(int parallel)
{
    m_parallel->setValue(parallel);
}

void BackfillDialog::setNewestFirst(bool newestFirst)
{
    m_order->setCurrentIndex(newestFirst ? 1 : 0);
}

QString BackfillDialog::summary() const
{
    return m_summary->text();
}

void BackfillDialog::refresh()
{
    m_preview->clear();
    m_fireTimes.clear();
    m_queue->setEnabled(false);
    const Result<QList<QDateTime>> times =
        Backfill::fireTimes(m_store, m_chain, m_from->dateTime(), m_to->dateTime(), m_zone);
    if (!times) {
        m_summary->setText(times.error().message);
        return;
    }
    m_fireTimes = times.value();
    QList<QDateTime> shown = m_fireTimes;
    const bool newestFirst = m_order->currentIndex() == 1;
    if (newestFirst)
        std::reverse(shown.begin(), shown.end());
    for (const QDateTime &at : std::as_const(shown))
        m_preview->addItem(DisplayFormat::dateTime(at));
    const int parallel = m_parallel->value();
    m_summary->setText(
        tr("%n run(s) of %1, %2, %3.", nullptr, int(m_fireTimes.size()))
            .arg(m_chain.name, newestFirst ? tr("newest first") : tr("oldest first"),
                 parallel == 1 ? tr("one at a time") : tr("%1 at a time").arg(parallel)));
    m_queue->setText(tr("&Queue %n run(s)", nullptr, int(m_fireTimes.size())));
    m_queue->setEnabled(true);
}

void BackfillDialog::queue()
{
    const Result<QList<Run>> runs = Backfill::enqueue(
        m_store, m_chain, m_fireTimes, m_parallel->value(),
        m_order->currentIndex() == 1 ? Backfill::Order::NewestFirst : Backfill::Order::OldestFirst);
    if (!runs) {
        m_summary->setText(tr("Nothing was queued: %1").arg(runs.error().message));
        return;
    }
    m_queued = runs.value();
    accept();
}

} // namespace hg
