#pragma once

#include "base/result.h"
#include "domain/calendar.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>

#include <memory>

namespace hg {

class Store;

// Calendars and their days. A calendar is written whole and removed whole: a schedule that
// uses one keeps it (removing it is refused, naming the schedules), so a calendar's days
// never change under a running engine.
class CalendarRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::CalendarRepository)

public:
    explicit CalendarRepository(Store &store)
        : m_store(store)
    {}

    Result<Calendar> add(const Calendar &calendar);
    Result<Calendar> byName(const QString &name) const;
    Result<QList<Calendar>> list() const; // with their ranges, by name
    Status remove(const QString &name);

    struct Compiled
    {
        QString name;
        std::shared_ptr<const CalendarDays> days;
    };
    // The days of these calendars, for the schedules that name them.
    Result<QHash<qint64, Compiled>> compiled(const QList<qint64> &ids) const;

private:
    Result<QList<Calendar::Range>> rangesOf(qint64 id) const;

    Store &m_store;
};

} // namespace hg
