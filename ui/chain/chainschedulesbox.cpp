#include "chainschedulesbox.h"

#include "schedule/scheduledialog.h"
#include "schedulesmodel.h"
#include "store/calendarrepository.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace hg {

ChainSchedulesBox::ChainSchedulesBox(Store &store, SchedulesModel *model, QAction *add,
                                     QWidget *parent)
    : QGroupBox(tr("Schedules"), parent)
    , m_store(store)
    , m_model(model)
    , m_table(new QTableView(this))
{
    m_table->setModel(m_model);
    m_table->setObjectName(QStringLiteral("schedules"));
    m_table->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_table->setAccessibleName(tr("Schedules"));
    m_table->setAccessibleDescription(
        tr("The chain's schedules: expression, meaning, zone, next fire, enabled"));
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Fits its width: the meaning takes what is left and is elided (whole in its tooltip).
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(SchedulesModel::MeaningColumn,
                                                      QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(40);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setWordWrap(false);
    auto *addButton = new QPushButton(tr("A&dd…"), this);
    auto *edit = new QPushButton(tr("Edi&t…"), this);
    auto *remove = new QPushButton(tr("Re&move"), this);
    addButton->setToolTip(tr("Add a schedule to this chain (Ctrl+Shift+S)"));
    edit->setToolTip(tr("Edit the selected schedule (or double-click it)"));
    remove->setToolTip(tr("Remove the selected schedule; Undo brings it back"));
    connect(addButton, &QPushButton::clicked, add, &QAction::trigger);
    connect(edit, &QPushButton::clicked, this, [this] {
        if (const qint64 id = selectedId())
            editSchedule(id);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        editSchedule(index.data(SchedulesModel::ScheduleIdRole).toLongLong());
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (const qint64 id = selectedId())
            Q_EMIT removeRequested(id);
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(addButton);
    buttons->addWidget(edit);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addLayout(buttons);
}

qint64 ChainSchedulesBox::selectedId() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.data(SchedulesModel::ScheduleIdRole).toLongLong()
                             : qint64(0);
}

void ChainSchedulesBox::editSchedule(qint64 scheduleId)
{
    if (m_chainId <= 0)
        return;
    Schedule schedule;
    schedule.chainId = m_chainId;
    for (const Schedule &existing : m_model->schedules()) {
        if (existing.id == scheduleId)
            schedule = existing;
    }
    auto *dialog = new ScheduleDialog(schedule, m_defaultZone, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (const Result<QList<Calendar>> calendars = CalendarRepository(m_store).list(); calendars)
        dialog->setCalendars(calendars.value());
    // open(), not exec(): no nested event loop, and a test can fill the dialog in.
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { Q_EMIT scheduleEdited(dialog->schedule()); });
    dialog->open();
}

} // namespace hg
