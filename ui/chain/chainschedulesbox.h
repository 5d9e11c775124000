#pragma once

#include "domain/schedule.h"

#include <QGroupBox>
#include <QTimeZone>

class QAction;
class QTableView;

namespace hg {

class SchedulesModel;
class WrappedLabel;
class Store;
class StoreReader;

// The chain's schedules: a table (expression, zone where it fits, next fire, on/off), the
// current schedule's meaning whole below it, with Add, Edit and Remove, each schedule edited in a
// ScheduleDialog. What the user decided is told as signals; the chain editor writes it as undoable
// edits.
class ChainSchedulesBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChainSchedulesBox)

public:
    // add: the editor's "Add schedule…" action (Ctrl+Shift+S), which the Add button triggers.
    ChainSchedulesBox(Store &store, SchedulesModel *model, QAction *add, QWidget *parent = nullptr);

    void setChainId(qint64 chainId) { m_chainId = chainId; }
    // The calendars the dialog offers are read through it, off the GUI thread (without one,
    // on the GUI thread's own connection).
    void setStoreReader(StoreReader *reader) { m_reader = reader; }
    void setDefaultZone(const QTimeZone &zone) { m_defaultZone = zone; }
    const QTimeZone &defaultZone() const { return m_defaultZone; }
    // Opens the dialog for schedule scheduleId of the chain, or for a new one (0).
    void editSchedule(qint64 scheduleId);

Q_SIGNALS:
    void scheduleEdited(const hg::Schedule &schedule); // id 0: a new one
    void removeRequested(qint64 scheduleId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    qint64 selectedId() const;
    void fitColumns();
    void showMeaning();

    Store &m_store;
    SchedulesModel *m_model;
    QTableView *m_table;
    WrappedLabel *m_meaning; // "0 9 * * 1-5: At 09:00 … (zone: default); next Mon …, in 2 d 15 h"
    StoreReader *m_reader = nullptr;
    qint64 m_chainId = 0;
    QTimeZone m_defaultZone = QTimeZone::systemTimeZone();
};

} // namespace hg
