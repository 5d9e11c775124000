#include "domain/calendardays.h"

#include <QTest>

using namespace hg;

// A calendar's days: weekdays and merged ranges, and the next day in or out of them.
class TestCalendarDays final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void contains_weekdaysAndRanges();
    void ranges_areSortedAndMerged();
    void firstOutside_walksAcrossRangesAndWeekends();
    void firstIn_takesTheNearerOfWeekdayAndRange();
    void everyDay_hasNoDayOutside();
};

namespace {
QDate d(const char *iso)
{
    return QDate::fromString(QString::fromLatin1(iso), Qt::ISODate);
}
constexpr quint8 weekend = (1u << Qt::Saturday) | (1u << Qt::Sunday);
} // namespace

void TestCalendarDays::contains_weekdaysAndRanges()
{
    const CalendarDays days(weekend, {{d("2026-12-24"), d("2026-12-26")}});
    QVERIFY(days.contains(d("2026-11-28")));  // a Saturday
    QVERIFY(!days.contains(d("2026-11-27"))); // a Friday
    QVERIFY(days.contains(d("2026-12-24")));
    QVERIFY(days.contains(d("2026-12-25")));
    QVERIFY(!days.contains(d("2026-12-23")));
    QVERIFY(!days.contains(QDate()));
}

void TestCalendarDays::ranges_areSortedAndMerged()
{
    const CalendarDays days(0, {{d("2027-01-05"), d("2027-01-06")},
                                {d("2026-12-24"), d("2026-12-26")},
                                {d("2026-12-27"), d("2027-01-01")},   // touches the one before
                                {d("2027-01-06"), d("2027-01-04")}}); // written backwards
    QCOMPARE(days.ranges().size(), 2);
    QCOMPARE(days.ranges().at(0).first, d("2026-12-24"));
    QCOMPARE(days.ranges().at(0).last, d("2027-01-01"));
    QCOMPARE(days.ranges().at(1).first, d("2027-01-04"));
    QCOMPARE(days.ranges().at(1).last, d("2027-01-06"));
}

void TestCalendarDays::firstOutside_walksAcrossRangesAndWeekends()
{
    // Christmas week runs into a weekend, which runs into New Year's Day.
    const CalendarDays days(
        weekend, {{d("2026-12-24"), d("2026-12-25")}, {d("2026-12-28"), d("2027-01-01")}});
    QCOMPARE(days.firstOutside(d("2026-12-24")), d("2027-01-04"));
    QCOMPARE(days.firstOutside(d("2026-12-23")), d("2026-12-23"));
}

void TestCalendarDays::firstIn_takesTheNearerOfWeekdayAndRange()
{
    const CalendarDays holidays(0, {{d("2026-12-25"), d("2026-12-25")}});
    QCOMPARE(holidays.firstIn(d("2026-11-26")), d("2026-12-25"));
    QCOMPARE(holidays.firstIn(d("2026-12-26")), QDate()); // none after the last
    const CalendarDays both(weekend, {{d("2026-11-27"), d("2026-11-27")}});
    QCOMPARE(both.firstIn(d("2026-11-26")), d("2026-11-27")); // the range, before Saturday
    QCOMPARE(both.firstIn(d("2026-11-30")), d("2026-12-05"));
}

void TestCalendarDays::everyDay_hasNoDayOutside()
{
    const CalendarDays all(0xfe, {});
    QCOMPARE(all.firstOutside(d("2026-11-26")), QDate());
    QVERIFY(!all.isEmpty());
    QVERIFY(CalendarDays().isEmpty());
}

QTEST_GUILESS_MAIN(TestCalendarDays)
#include "tst_calendardays.moc"
