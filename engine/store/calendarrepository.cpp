#include "calendarrepository.h"

#include "store.h"
#include "storequery.h"

#include <QStringList>

namespace hg {
namespace {

QString dayText(QDate day)
{
    return day.toString(Qt::ISODate);
}

QDate dayOf(const QString &text)
{
    return QDate::fromString(text, Qt::ISODate);
}

} // namespace

Result<Calendar> CalendarRepository::add(const Calendar &calendar)
{
    const QString name = calendar.name.trimmed();
    if (name.isEmpty())
        return Error::invalid(tr("a calendar needs a name"));
    for (const Calendar::Range &range : calendar.ranges) {
        if (!range.first.isValid() || !range.last.isValid() || range.last < range.first)
            return Error::invalid(tr("calendar '%1': %2 to %3 is not a range of days")
                                      .arg(name, dayText(range.first), dayText(range.last)));
    }
    if ((calendar.weekdays & 0xfe) == 0 && calendar.ranges.isEmpty())
        return Error::invalid(tr("calendar '%1' holds no day: give dates, weekends or an "
                                 "iCalendar file")
                                  .arg(name));
    Calendar stored = calendar;
    stored.name = name;
    stored.createdAt = QDateTime::currentDateTimeUtc();
    const Status written = m_store.transaction([&]() -> Status {
        StoreQuery insert(m_store, QStringLiteral("INSERT INTO calendar (name, description, "
                                                  "weekdays, created_at) VALUES (?, ?, ?, ?) "
                                                  "RETURNING id"));
        insert.bind(stored.name)
            .bind(stored.description)
            .bind(int(stored.weekdays & 0xfe))
            .bind(StoreQuery::fromTime(stored.createdAt));
        if (Status s = insert.execSingle(tr("add calendar"), {}); !s) {
            if (s.error().kind == ErrorKind::AlreadyExists)
                return Error::exists(tr("a calendar named '%1' exists").arg(name));
            return s;
        }
        stored.id = insert.int64(0);
        StoreQuery range(m_store,
                         QStringLiteral("INSERT INTO calendar_range (calendar_id, first_day, "
                                        "last_day, summary) VALUES (?, ?, ?, ?)"));
        for (const Calendar::Range &r : std::as_const(stored.ranges)) {
            range.bind(stored.id).bind(dayText(r.first)).bind(dayText(r.last)).bind(r.summary);
            if (Status s = range.exec(tr("add calendar days")); !s)
                return s;
        }
        return {};
    });
    if (!written)
        return written.error();
    return stored;
}

Result<QList<Calendar::Range>> CalendarRepository::rangesOf(qint64 id) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT first_day, last_day, summary FROM "
                                         "calendar_range WHERE calendar_id = ? ORDER BY "
                                         "first_day, last_day"));
    q.bind(id);
    if (Status s = q.exec(tr("read calendar days")); !s)
        return s.error();
    QList<Calendar::Range> ranges;
    while (q.next())
        ranges << Calendar::Range{dayOf(q.text(0)), dayOf(q.text(1)), q.text(2)};
    return ranges;
}

Result<Calendar> CalendarRepository::byName(const QString &name) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT id, name, description, weekdays, created_at "
                                         "FROM calendar WHERE name = ?"));
    q.bind(name.trimmed());
    if (Status s = q.execSingle(tr("read calendar"), tr("no calendar named '%1'").arg(name)); !s)
        return s.error();
    Calendar calendar{q.int64(0), q.text(1), q.text(2), quint8(q.integer(3)), {}, q.time(4)};
    Result<QList<Calendar::Range>> ranges = rangesOf(calendar.id);
    if (!ranges)
        return ranges.error();
    calendar.ranges = std::move(ranges.value());
    return calendar;
}

Result<QList<Calendar>> CalendarRepository::list() const
{
    StoreQuery q(m_store, QStringLiteral("SELECT id, name, description, weekdays, created_at "
                                         "FROM calendar ORDER BY name"));
    if (Status s = q.exec(tr("list calendars")); !s)
        return s.error();
    QList<Calendar> calendars;
    while (q.next())
        calendars << Calendar{q.int64(0),           q.text(1), q.text(2),
                              quint8(q.integer(3)), {},        q.time(4)};
    for (Calendar &calendar : calendars) {
        Result<QList<Calendar::Range>> ranges = rangesOf(calendar.id);
        if (!ranges)
            return ranges.error();
        calendar.ranges = std::move(ranges.value());
    }
    return calendars;
}

Status CalendarRepository::remove(const QString &name)
{
    const Result<Calendar> calendar = byName(name);
    if (!calendar)
        return calendar.error();
    return m_store.transaction([&]() -> Status {
        StoreQuery users(m_store, QStringLiteral("SELECT s.id, p.name, c.name FROM schedule s "
                                                 "JOIN chain c ON c.id = s.chain_id "
                                                 "JOIN project p ON p.id = c.project_id "
                                                 "WHERE s.calendar_id = ? ORDER BY s.id"));
        users.bind(calendar->id);
        if (Status s = users.exec(tr("find the schedules using a calendar")); !s)
            return s;
        QStringList named;
        while (users.next())
            named << tr("%1 (%2/%3)").arg(users.text(0), users.text(1), users.text(2));
        if (!named.isEmpty())
            return Error::invalid(tr("calendar '%1' is used by schedule %2: remove it from them "
                                     "first")
                                      .arg(calendar->name, named.join(QStringLiteral(", "))));
        StoreQuery remove(m_store, QStringLiteral("DELETE FROM calendar WHERE id = ?"));
        remove.bind(calendar->id);
        return remove.exec(tr("remove calendar"));
    });
}

Result<QHash<qint64, CalendarRepository::Compiled>>
CalendarRepository::compiled(const QList<qint64> &ids) const
{
    QHash<qint64, Compiled> out;
    for (const qint64 id : ids) {
        if (id <= 0 || out.contains(id))
            continue;
        StoreQuery q(m_store, QStringLiteral("SELECT name, weekdays FROM calendar WHERE id = ?"));
        q.bind(id);
        if (Status s = q.execSingle(tr("read calendar"), tr("unknown calendar %1").arg(id)); !s)
            return s.error();
        const QString name = q.text(0);
        const quint8 weekdays = quint8(q.integer(1));
        const Result<QList<Calendar::Range>> ranges = rangesOf(id);
        if (!ranges)
            return ranges.error();
        QList<CalendarDays::Range> plain;
        for (const Calendar::Range &range : ranges.value())
            plain << CalendarDays::Range{range.first, range.last};
        out.insert(id, Compiled{name, std::make_shared<const CalendarDays>(weekdays, plain)});
    }
    return out;
}

} // namespace hg
