#include "fixtures.h"
#include "store/calendarrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

// Calendars in the store: written whole, read with their days, attached to the schedules that
// name them, and never removed from under a schedule.
class TestCalendarRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_keepsItsDaysAndReadsThemBack();
    void add_refusesWhatHoldsNoDayAndATakenName();
    void schedule_carriesItsCalendarsDays();
    void remove_refusedWhileASheduleUsesIt();
};

namespace {

QDate d(const char *iso)
{
    return QDate::fromString(QString::fromLatin1(iso), Qt::ISODate);
}

Calendar holidays()
{
    Calendar calendar;
    calendar.name = QStringLiteral("holidays");
    calendar.description = QStringLiteral("the office is shut");
    calendar.weekdays = (1u << Qt::Saturday) | (1u << Qt::Sunday);
    calendar.ranges = {{d("2026-12-24"), d("2026-12-26"), QStringLiteral("Christmas")},
                       {d("2027-01-01"), d("2027-01-01"), QStringLiteral("New Year")}};
    return calendar;
}

} // namespace

void TestCalendarRepository::add_keepsItsDaysAndReadsThemBack()
{
    HG_TEST_STORE(t);
    CalendarRepository calendars(t.store());
    const Result<Calendar> added = calendars.add(holidays());
    QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    const Result<Calendar> read = calendars.byName(QStringLiteral("holidays"));
    QVERIFY(read);
    QCOMPARE(read->id, added->id);
    QCOMPARE(read->description, QStringLiteral("the office is shut"));
    QCOMPARE(read->weekdays, holidays().weekdays);
    QCOMPARE(read->ranges.size(), 2);
    QCOMPARE(read->ranges.at(0).summary, QStringLiteral("Christmas"));
    QCOMPARE(read->ranges.at(0).last, d("2026-12-26"));
    QVERIFY(read->days().contains(d("2026-12-25")));
    QCOMPARE(calendars.list()->size(), 1);
    QCOMPARE(calendars.byName(QStringLiteral("nope")).error().kind, ErrorKind::NotFound);
}

void TestCalendarRepository::add_refusesWhatHoldsNoDayAndATakenName()
{
    HG_TEST_STORE(t);
    CalendarRepository calendars(t.store());
    Calendar empty;
    empty.name = QStringLiteral("empty");
    QVERIFY2(calendars.add(empty).error().message.contains(QLatin1String("holds no day")),
             qPrintable(calendars.add(empty).error().message));
    QVERIFY(calendars.add(holidays()));
    const Result<Calendar> again = calendars.add(holidays());
    QCOMPARE(again.error().kind, ErrorKind::AlreadyExists);
    QVERIFY2(again.error().message.contains(QLatin1String("'holidays' exists")),
             qPrintable(again.error().message));
    QCOMPARE(calendars.list()->size(), 1); // the refused one left nothing behind
}

void TestCalendarRepository::schedule_carriesItsCalendarsDays()
{
    HG_TEST_STORE(t);
    const Calendar calendar = CalendarRepository(t.store()).add(holidays()).value();
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule s;
    s.chainId = chain.id;
    s.expression = QStringLiteral("0 9 * * *");
    s.calendarId = calendar.id;
    s.calendarMode = CalendarMode::Only;
    ScheduleRepository schedules(t.store());
    const Result<Schedule> added = schedules.add(s);
    QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    QVERIFY(added->calendarDays);
    const Schedule read = schedules.list(chain.id)->constFirst();
    QCOMPARE(read.calendarId, calendar.id);
    QCOMPARE(read.calendarMode, CalendarMode::Only);
    QCOMPARE(read.calendarName, QStringLiteral("holidays"));
    QVERIFY(read.calendarDays && read.calendarDays->contains(d("2027-01-01")));
    QVERIFY(schedules.byId(read.id)->calendarDays);
}

void TestCalendarRepository::remove_refusedWhileASheduleUsesIt()
{
    HG_TEST_STORE(t);
    CalendarRepository calendars(t.store());
    const Calendar calendar = calendars.add(holidays()).value();
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule s;
    s.chainId = chain.id;
    s.expression = QStringLiteral("0 9 * * *");
    s.calendarId = calendar.id;
    const qint64 scheduleId = ScheduleRepository(t.store()).add(s)->id;
    const Status refused = calendars.remove(QStringLiteral("holidays"));
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QStringLiteral("%1 (p/c)").arg(scheduleId)),
             qPrintable(refused.error().message));
    QVERIFY(calendars.byName(QStringLiteral("holidays")));
    QVERIFY(ScheduleRepository(t.store()).remove(scheduleId));
    QVERIFY(calendars.remove(QStringLiteral("holidays")));
    QCOMPARE(calendars.list()->size(), 0);
}

QTEST_GUILESS_MAIN(TestCalendarRepository)
#include "tst_calendarrepository.moc"
