#include "cron/cronparser.h"
#include "remote/pgagentcalendar.h"

#include <QTest>

using namespace hg;

// pgAgent's schedule arrays: the fire times by pgAgent's rules and their cron form.
// tst_pgagentcatalog holds the first fire against pga_next_schedule() itself.
class TestPgAgentCalendar final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void next_everyArrayEmptyIsEveryOtherMinute();
    void next_lastDayOnlyWhenAlone();
    void next_laterHourStartsAtTheCurrentMinute();
    void next_weekdayAndDayMustBothMatch();
    void next_withinStartAndEnd();
    void toCron_sameMinutes();
    void toCron_whatCronCannotSay();

private:
    static QDateTime utc(int y, int m, int d, int h = 0, int min = 0)
    {
        return QDateTime(QDate(y, m, d), QTime(h, min), QTimeZone::utc());
    }
};

void TestPgAgentCalendar::next_everyArrayEmptyIsEveryOtherMinute()
{
    PgAgentSchedule s;
    s.start = utc(2020, 1, 1);
    const QList<QDateTime> fires =
        PgAgentCalendar::next(s, utc(2026, 5, 1, 10, 0), QTimeZone::utc(), 3);
    s.start = QDateTime(); // pgAgent's own rule: no start, no fire
    QVERIFY(PgAgentCalendar::next(s, utc(2026, 5, 1, 10, 0), QTimeZone::utc(), 3).isEmpty());
    // pga_next_schedule() adds a minute when nothing is selected: every other minute.
    QCOMPARE(fires, (QList<QDateTime>{utc(2026, 5, 1, 10, 2), utc(2026, 5, 1, 10, 4),
                                      utc(2026, 5, 1, 10, 6)}));
}

void TestPgAgentCalendar::next_lastDayOnlyWhenAlone()
{
    PgAgentSchedule s;
    s.start = utc(2020, 1, 1);
    s.minutes.at(0) = true;
    s.hours.at(23) = true;
    s.monthdays.at(31) = true;
    QCOMPARE(PgAgentCalendar::next(s, utc(2028, 1, 31, 23, 30), QTimeZone::utc(), 2),
             (QList<QDateTime>{utc(2028, 2, 29, 23), utc(2028, 3, 31, 23)}));
    // With day 1 as well, pgAgent's own check never lets the last day through.
    s.monthdays.at(0) = true;
    QCOMPARE(PgAgentCalendar::next(s, utc(2028, 1, 31, 23, 30), QTimeZone::utc(), 2),
             (QList<QDateTime>{utc(2028, 2, 1, 23), utc(2028, 3, 1, 23)}));
}

// After moving to a later hour, pga_next_schedule() looks for minutes from the current minute
// on: at 10:40, a schedule for minutes 0 and 45 of 12:00 and 13:00 fires at 12:45 first.
void TestPgAgentCalendar::next_laterHourStartsAtTheCurrentMinute()
{
    PgAgentSchedule s;
    s.start = utc(2020, 1, 1);
    s.minutes.at(0) = s.minutes.at(45) = true;
    s.hours.at(12) = s.hours.at(13) = true;
    QCOMPARE(PgAgentCalendar::next(s, utc(2026, 5, 1, 10, 40), QTimeZone::utc(), 3),
             (QList<QDateTime>{utc(2026, 5, 1, 12, 45), utc(2026, 5, 1, 13, 0),
                               utc(2026, 5, 1, 13, 45)}));
}

void TestPgAgentCalendar::next_weekdayAndDayMustBothMatch()
{
    PgAgentSchedule s;
    s.start = utc(2020, 1, 1);
    s.minutes.at(0) = true;
    s.hours.at(9) = true;
    s.monthdays.at(12) = true; // the 13th
    s.weekdays.at(5) = true;   // a Friday
    QCOMPARE(PgAgentCalendar::next(s, utc(2026, 1, 1), QTimeZone::utc(), 2),
             (QList<QDateTime>{utc(2026, 2, 13, 9), utc(2026, 3, 13, 9)}));
}

void TestPgAgentCalendar::next_withinStartAndEnd()
{
    PgAgentSchedule s;
    s.minutes.at(0) = true;
    s.hours.at(6) = true;
    s.start = utc(2026, 6, 10, 12);
    s.end = utc(2026, 6, 12, 12);
    QCOMPARE(PgAgentCalendar::next(s, utc(2026, 1, 1), QTimeZone::utc(), 5),
             (QList<QDateTime>{utc(2026, 6, 11, 6), utc(2026, 6, 12, 6)}));
}

void TestPgAgentCalendar::toCron_sameMinutes()
{
    PgAgentSchedule s;
    s.minutes.at(30) = true;
    s.hours.at(2) = true;
    s.weekdays = {false, true, true, true, true, true, false};
    Result<PgAgentCalendar::Cron> cron = PgAgentCalendar::toCron(s);
    QVERIFY(cron);
    QCOMPARE(cron->expression, QStringLiteral("30 2 * * 1-5"));
    QCOMPARE(cron->dialect, QStringLiteral("unix"));

    s.monthdays.at(12) = true; // and the 13th: both must match, as pg_timetable's dialect says
    cron = PgAgentCalendar::toCron(s);
    QCOMPARE(cron->expression, QStringLiteral("30 2 13 * 1-5"));
    QCOMPARE(cron->dialect, QStringLiteral("pgtimetable"));
    QVERIFY(CronParser::parse(cron->expression, CronDialect::PgTimetable));

    PgAgentSchedule last;
    last.monthdays.at(31) = true;
    last.months.at(1) = true;
    cron = PgAgentCalendar::toCron(last);
    QCOMPARE(cron->expression, QStringLiteral("0 * * L 2 ?"));
    QCOMPARE(cron->dialect, QStringLiteral("quartz"));
    QVERIFY(CronParser::parse(cron->expression, CronDialect::Quartz));

    // Three or more in a row are a range; two stay a list.
    PgAgentSchedule runs;
    for (const int minute : {0, 1, 2, 10, 11, 57, 58, 59})
        runs.minutes.at(std::size_t(minute)) = true;
    runs.months.at(0) = runs.months.at(1) = true;
    cron = PgAgentCalendar::toCron(runs);
    QCOMPARE(cron->expression, QStringLiteral("0-2,10,11,57-59 * * 1,2 *"));
    QVERIFY(CronParser::parse(cron->expression, CronDialect::Unix));
}

void TestPgAgentCalendar::toCron_whatCronCannotSay()
{
    PgAgentSchedule s;
    s.exceptions << PgAgentSchedule::Exception{QDate(2026, 12, 24), QTime()};
    QVERIFY(PgAgentCalendar::toCron(s).error().message.contains(QStringLiteral("exception")));
    PgAgentSchedule both;
    both.monthdays.at(0) = true;
    both.monthdays.at(31) = true;
    QVERIFY(PgAgentCalendar::toCron(both).error().message.contains(QStringLiteral("last day")));
    PgAgentSchedule lastFriday;
    lastFriday.monthdays.at(31) = true;
    lastFriday.weekdays.at(5) = true;
    QVERIFY(!PgAgentCalendar::toCron(lastFriday));
}

QTEST_GUILESS_MAIN(TestPgAgentCalendar)
#include "tst_pgagentcalendar.moc"
