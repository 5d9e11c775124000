#include "chainschedulesbox.h"

#include "common/wrappedlabel.h"
#include "displayformat.h"
#include "schedule/scheduledialog.h"
#include "schedulesmodel.h"
#include "store/calendarrepository.h"
#include "storereader.h"

#include <QAction>
#include <QEvent>
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
    , m_meaning(new WrappedLabel(this))
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
    // Fits its narrow pane: the meaning is not a column squeezed to a few letters but a
    // wrapped line under the table (the current schedule's, whole); the zone column shows
    // only where it fits (the next fire names a zone other than the machine's); the
    // expression takes what is left, elided, whole in its tooltip.
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(SchedulesModel::ExpressionColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(24);
    m_table->setColumnHidden(SchedulesModel::MeaningColumn, true);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setWordWrap(false);
    m_table->viewport()->installEventFilter(this);
    m_meaning->setObjectName(QStringLiteral("schedules.meaning"));
    m_meaning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ChainSchedulesBox::showMeaning);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ChainSchedulesBox::showMeaning);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ChainSchedulesBox::showMeaning);
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
    layout->addWidget(m_meaning);
    layout->addLayout(buttons);
    showMeaning();
}

bool ChainSchedulesBox::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QGroupBox::eventFilter(watched, event);
}

// The zone column only where the expression keeps room for its own text beside it.
void ChainSchedulesBox::fitColumns()
{
    const QHeaderView *header = m_table->horizontalHeader();
    // QTableView hides the base class's public sizeHintForColumn.
    const QAbstractItemView *view = m_table;
    const auto wanted = [header, view](int column) {
        return std::max(header->sectionSizeHint(column), view->sizeHintForColumn(column));
    };
    const int all = wanted(SchedulesModel::ExpressionColumn) + wanted(SchedulesModel::ZoneColumn)
                    + wanted(SchedulesModel::NextColumn) + wanted(SchedulesModel::EnabledColumn);
    m_table->setColumnHidden(SchedulesModel::ZoneColumn, all > m_table->viewport()->width());
}

// The current schedule (else the first) said whole: what it means (in which zone), and when
// it fires next, which the table can only abbreviate.
void ChainSchedulesBox::showMeaning()
{
    fitColumns();
    const int rows = m_model->rowCount();
    m_meaning->setVisible(rows > 0);
    if (rows == 0) {
        m_meaning->clear();
        return;
    }
    const QModelIndex current = m_table->currentIndex();
    const int row = current.isValid() ? current.row() : 0;
    const auto cell = [this, row](int column, int role) {
        return m_model->index(row, column).data(role);
    };
    const QDateTime next =
        cell(SchedulesModel::NextColumn, SchedulesModel::NextFireRole).toDateTime();
    const QString nextText =
        next.isValid() ? tr("next %1, %2")
                             .arg(DisplayFormat::zonedDateTime(next, next.timeZone()),
                                  DisplayFormat::relative(next, QDateTime::currentDateTime()))
                       : cell(SchedulesModel::NextColumn, Qt::ToolTipRole).toString();
    // The meaning names the schedule's zone itself.
    m_meaning->setWrappedText(
        tr("%1: %2; %3")
            .arg(cell(SchedulesModel::ExpressionColumn, Qt::DisplayRole).toString(),
                 cell(SchedulesModel::MeaningColumn, Qt::DisplayRole).toString(),
                 nextText.isEmpty() ? tr("does not fire") : nextText));
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
    // Read off the GUI thread where a reader is given: on a server 20 ms away the dialog
    // opens at once and lists the calendars when they come.
    if (m_reader != nullptr)
        m_reader->read<QList<Calendar>>(
            dialog, [](Store &store) { return CalendarRepository(store).list(); },
            [dialog](const Result<QList<Calendar>> &calendars) {
                if (calendars)
                    dialog->setCalendars(calendars.value());
            });
    else if (const Result<QList<Calendar>> calendars = CalendarRepository(m_store).list();
             calendars)
        dialog->setCalendars(calendars.value());
    // open(), not exec(): no nested event loop, and a test can fill the dialog in.
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { Q_EMIT scheduleEdited(dialog->schedule()); });
    dialog->open();
}

} // namespace hg
