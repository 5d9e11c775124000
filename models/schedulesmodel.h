#pragma once

#include "base/result.h"
#include "domain/schedule.h"
#include "tablemodel.h"

#include <QTimeZone>

class QTimer;

#include <optional>

namespace hg {

class Store;

// The schedules of one chain, each with its plain-English meaning and its next fire time.
class SchedulesModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchedulesModel)

public:
    enum Column {
        ExpressionColumn,
        MeaningColumn,
        ZoneColumn,
        NextColumn,
        EnabledColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role { ScheduleIdRole = Qt::UserRole + 1, NextFireRole };
    Q_ENUM(Role)

    explicit SchedulesModel(Store &store, QObject *parent = nullptr);

    // chainOn: whether the chain is switched on, when the caller has it (else read).
    Status show(qint64 chainId, std::optional<bool> chainOn = std::nullopt);
    void show(qint64 chainId, QList<Schedule> schedules, bool chainOn); // as read elsewhere
    Status reload() { return show(m_chainId); }
    qint64 chainId() const { return m_chainId; }
    const QList<Schedule> &schedules() const { return m_schedules; }
    void setDefaultZone(const QTimeZone &zone) { m_defaultZone = zone; }

    // "At 07:30 on Monday through Friday", or why the expression has no meaning.
    static QString meaning(const Schedule &schedule, const QTimeZone &defaultZone);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // Each next fire gone by moves on to the one after, and the next fires are told changed
    // (once a second by itself; helper-1 saw "next 20:41:00, in 4 s" at 20:41:43).
    void advancePastFires(qint64 nowMs);

private:
    // The next fire after nowMs, in the schedule's zone; invalid: none (or switched off).
    QDateTime nextFire(const Schedule &schedule, bool chainOn, qint64 nowMs) const;

    struct Row
    {
        QString meaning;
        QDateTime next;        // invalid: no more fire times; in the schedule's zone
        bool chainOff = false; // the chain is switched off
    };

    Store &m_store;
    qint64 m_chainId = 0;
    QTimeZone m_defaultZone = QTimeZone::systemTimeZone();
    QList<Schedule> m_schedules;
    QList<Row> m_rows;
    QTimer *m_ticker;
};

} // namespace hg
