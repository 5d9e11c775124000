#pragma once

#include "base/result.h"
#include "domain/schedule.h"

#include <QCoreApplication>
#include <QList>

#include <optional>

namespace hg {

class Store;

class ScheduleRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ScheduleRepository)

public:
    explicit ScheduleRepository(Store &store)
        : m_store(store)
    {}

    // Each write is checked by ScheduleValidator first.
    Result<Schedule> add(const Schedule &schedule);
    Status update(const Schedule &schedule);
    Result<Schedule> byId(qint64 id) const;
    Result<QList<Schedule>> list(std::optional<qint64> chainId = std::nullopt) const;
    Status remove(qint64 id);

private:
    // Each schedule that names a calendar gets its name and days (one read per calendar).
    Status attachCalendars(QList<Schedule> &schedules) const;

    Store &m_store;
};

} // namespace hg
