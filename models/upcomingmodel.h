#pragma once

#include "base/result.h"
#include "tablemodel.h"

#include <QDateTime>
#include <QList>

namespace hg {

class Store;

// The fire times of every enabled schedule of every enabled chain in the coming days (7 by
// default), soonest first: the "Upcoming" calendar. A schedule that fires very often (every
// second) is cut at perSchedule fire times so one noisy schedule cannot hide the others.
class UpcomingModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpcomingModel)

public:
    enum Column { WhenColumn, ChainColumn, ScheduleColumn, ColumnCount };
    Q_ENUM(Column)
    // ContinuesRole: true on the last listed fire of a schedule that was cut; it fires on after.
    enum Role { FireTimeRole = Qt::UserRole + 1, ChainIdRole, ScheduleIdRole, ContinuesRole };
    Q_ENUM(Role)

    struct Fire
    {
        qint64 atMs = 0;
        qint64 chainId = 0;
        qint64 scheduleId = 0;
        QString chainPath;
        QString schedule; // expression and zone
        bool continues = false;
    };
    struct Week
    {
        QList<Fire> fires; // soonest first
        int truncated = 0;
    };

    explicit UpcomingModel(Store &store, QObject *parent = nullptr);

    // Recomputes from `from` (default now) for `days` days.
    Status reload(const QDateTime &from = {}, int days = 7);
    // The same in two halves: read and compute (on any thread, with that thread's store),
    // then show (on the model's thread).
    static Result<Week> compute(Store &store, const QDateTime &from = {}, int days = 7);
    void show(Week week);
    // Leaves out the fires before nowMs (the first rows: soonest first); how many went.
    int dropPast(qint64 nowMs);
    const QList<Fire> &fires() const { return m_fires; }
    static constexpr int perSchedule = 500;
    // Schedules whose fire times were cut at perSchedule.
    int truncatedSchedules() const { return m_truncated; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    Store &m_store;
    QList<Fire> m_fires;
    int m_truncated = 0;
};

} // namespace hg
