#include "displayformat.h"
#include "runsummarytext.h"

#include <QTest>

using namespace hg;

// Times, dates and durations as every view shows them.
class TestDisplayFormat final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void duration_readsInTheLargestUnits_data();
    void duration_readsInTheLargestUnits();
    void times_showInTheLocalZone_data();
    void times_showInTheLocalZone();
    void zoned_namesTheZone_data();
    void zoned_namesTheZone();
    void soon_dropsTheDateWithinAWeek_data();
    void soon_dropsTheDateWithinAWeek();
    void soonZoned_keepsTheTimesZoneAndNamesIt_data();
    void soonZoned_keepsTheTimesZoneAndNamesIt();
    void recent_isShortWhereItIsUnambiguous_data();
    void recent_isShortWhereItIsUnambiguous();
    void relative_saysHowFarAndWhichWay_data();
    void relative_saysHowFarAndWhichWay();
    void day_isAShortHeading();
    void median_countsSuccessesOnly();
};

namespace {

// Monday 23 November 2026, 14:03:07.250, local time.
QDateTime monday()
{
    return QDateTime(QDate(2026, 11, 23), QTime(14, 3, 7, 250));
}

} // namespace

void TestDisplayFormat::duration_readsInTheLargestUnits_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << qint64(0) << QStringLiteral("0 ms");
    QTest::newRow("under a second") << qint64(850) << QStringLiteral("850 ms");
    QTest::newRow("just under a second") << qint64(999) << QStringLiteral("999 ms");
    QTest::newRow("a second") << qint64(1000) << QStringLiteral("1.0 s");
    QTest::newRow("tenths") << qint64(4250) << QStringLiteral("4.2 s");
    QTest::newRow("tenths are cut, not rounded up to a minute")
        << qint64(59999) << QStringLiteral("59.9 s");
    QTest::newRow("a minute") << qint64(60000) << QStringLiteral("1 min 00 s");
    QTest::newRow("minutes and seconds") << qint64(187000) << QStringLiteral("3 min 07 s");
    QTest::newRow("just under an hour") << qint64(3599999) << QStringLiteral("59 min 59 s");
    QTest::newRow("an hour") << qint64(3600000) << QStringLiteral("1 h 00 min");
    QTest::newRow("hours and minutes") << qint64(3720000) << QStringLiteral("1 h 02 min");
    QTest::newRow("just under a day") << qint64(86399000) << QStringLiteral("23 h 59 min");
    QTest::newRow("days and hours")
        << qint64(86400000 + 3 * 3600000 + 59 * 60000) << QStringLiteral("1 d 03 h");
    QTest::newRow("negative") << qint64(-1500) << QStringLiteral("-1.5 s");
}

void TestDisplayFormat::duration_readsInTheLargestUnits()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(DisplayFormat::duration(ms), text);
}

void TestDisplayFormat::times_showInTheLocalZone_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QString>("text");
    const QDateTime local = monday();
    const QDateTime utc = local.toUTC(); // the same instant: shown in local time all the same
    QTest::newRow("time of day") << "timeOfDay" << local << QStringLiteral("14:03:07");
    QTest::newRow("time of day from UTC") << "timeOfDay" << utc << QStringLiteral("14:03:07");
    QTest::newRow("precise time of day")
        << "preciseTimeOfDay" << local << QStringLiteral("14:03:07.250");
    QTest::newRow("date and time") << "dateTime" << local << QStringLiteral("2026-11-23 14:03:07");
    QTest::newRow("date and time from UTC")
        << "dateTime" << utc << QStringLiteral("2026-11-23 14:03:07");
    QTest::newRow("precise date and time")
        << "preciseDateTime" << local << QStringLiteral("2026-11-23 14:03:07.250");
    QTest::newRow("weekday, date and time")
        << "weekdayDateTime" << local << QStringLiteral("Mon 2026-11-23 14:03:07");
    for (const char *format :
         {"timeOfDay", "preciseTimeOfDay", "dateTime", "preciseDateTime", "weekdayDateTime"})
        QTest::addRow("%s of an invalid time", format) << format << QDateTime() << QString();
}

void TestDisplayFormat::times_showInTheLocalZone()
{
    QFETCH(QString, format);
    QFETCH(QDateTime, time);
    QFETCH(QString, text);
    const QString shown =
        format == QLatin1String("timeOfDay")          ? DisplayFormat::timeOfDay(time)
        : format == QLatin1String("preciseTimeOfDay") ? DisplayFormat::preciseTimeOfDay(time)
        : format == QLatin1String("dateTime")         ? DisplayFormat::dateTime(time)
        : format == QLatin1String("preciseDateTime")  ? DisplayFormat::preciseDateTime(time)
                                                      : DisplayFormat::weekdayDateTime(time);
    QCOMPARE(shown, text);
}

void TestDisplayFormat::zoned_namesTheZone_data()
{
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<QString>("text");
    const QDateTime instant(QDate(2026, 11, 23), QTime(5, 30), Qt::UTC);
    QTest::newRow("UTC") << instant << QByteArray("UTC")
                         << QStringLiteral("Mon 2026-11-23 05:30:00 UTC");
    QTest::newRow("east of UTC") << instant << QByteArray("Asia/Tokyo")
                                 << QStringLiteral("Mon 2026-11-23 14:30:00 JST");
    QTest::newRow("west of UTC, the day before") << instant << QByteArray("America/New_York")
                                                 << QStringLiteral("Mon 2026-11-23 00:30:00 EST");
    QTest::newRow("invalid") << QDateTime() << QByteArray("UTC") << QString();
}

void TestDisplayFormat::zoned_namesTheZone()
{
    QFETCH(QDateTime, time);
    QFETCH(QByteArray, zone);
    QFETCH(QString, text);
    QCOMPARE(DisplayFormat::zonedDateTime(time, QTimeZone(zone)), text);
}

void TestDisplayFormat::soon_dropsTheDateWithinAWeek_data()
{
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QString>("text");
    const QDate today(2026, 11, 23);
    QTest::newRow("later today") << QDateTime(today, QTime(14, 3, 7))
                                 << QStringLiteral("Mon 14:03:07");
    QTest::newRow("on Sunday") << QDateTime(today.addDays(6), QTime(9, 0))
                               << QStringLiteral("Sun 09:00:00");
    QTest::newRow("next Monday: the date tells it from today")
        << QDateTime(today.addDays(7), QTime(9, 0)) << QStringLiteral("Mon 2026-11-30 09:00:00");
    QTest::newRow("yesterday") << QDateTime(today.addDays(-1), QTime(9, 0))
                               << QStringLiteral("Sun 2026-11-22 09:00:00");
    QTest::newRow("invalid") << QDateTime() << QString();
}

void TestDisplayFormat::soon_dropsTheDateWithinAWeek()
{
    QFETCH(QDateTime, time);
    QFETCH(QString, text);
    QCOMPARE(DisplayFormat::soon(time, QDateTime(QDate(2026, 11, 23), QTime(12, 0))), text);
}

void TestDisplayFormat::soonZoned_keepsTheTimesZoneAndNamesIt_data()
{
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QString>("text");
    const QTimeZone berlin("Europe/Berlin");
    QTest::newRow("this week, in Berlin") << QDateTime(QDate(2026, 11, 27), QTime(9, 0), berlin)
                                          << QStringLiteral("Fri 09:00:00 CET");
    QTest::newRow("beyond the week: the date too")
        << QDateTime(QDate(2026, 12, 7), QTime(9, 0), berlin)
        << QStringLiteral("Mon 2026-12-07 09:00:00 CET");
    QTest::newRow("invalid") << QDateTime() << QString();
}

void TestDisplayFormat::soonZoned_keepsTheTimesZoneAndNamesIt()
{
    QFETCH(QDateTime, time);
    QFETCH(QString, text);
    const QDateTime now(QDate(2026, 11, 23), QTime(12, 0), QTimeZone("Europe/Berlin"));
    QCOMPARE(DisplayFormat::soonZoned(time, now), text);
}

void TestDisplayFormat::recent_isShortWhereItIsUnambiguous_data()
{
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QString>("text");
    const QDate today(2026, 11, 23);
    QTest::newRow("today: the time alone")
        << QDateTime(today, QTime(8, 3, 7)) << QStringLiteral("08:03:07");
    QTest::newRow("last Tuesday: the weekday")
        << QDateTime(today.addDays(-6), QTime(9, 0)) << QStringLiteral("Tue 09:00:00");
    QTest::newRow("a week ago: the date")
        << QDateTime(today.addDays(-7), QTime(9, 0)) << QStringLiteral("2026-11-16 09:00:00");
    QTest::newRow("tomorrow (a scheduled time)")
        << QDateTime(today.addDays(1), QTime(9, 0)) << QStringLiteral("Tue 09:00:00");
    QTest::newRow("invalid") << QDateTime() << QString();
}

void TestDisplayFormat::recent_isShortWhereItIsUnambiguous()
{
    QFETCH(QDateTime, time);
    QFETCH(QString, text);
    QCOMPARE(DisplayFormat::recent(time, QDateTime(QDate(2026, 11, 23), QTime(12, 0))), text);
}

void TestDisplayFormat::relative_saysHowFarAndWhichWay_data()
{
    QTest::addColumn<qint64>("offsetMs");
    QTest::addColumn<QString>("text");
    QTest::newRow("now") << qint64(0) << QStringLiteral("now");
    QTest::newRow("under a second ahead") << qint64(999) << QStringLiteral("now");
    QTest::newRow("under a second ago") << qint64(-999) << QStringLiteral("now");
    QTest::newRow("seconds ahead, whole") << qint64(42700) << QStringLiteral("in 42 s");
    QTest::newRow("seconds ago") << qint64(-5000) << QStringLiteral("5 s ago");
    QTest::newRow("minutes ahead") << qint64(303000) << QStringLiteral("in 5 min 03 s");
    QTest::newRow("hours ago") << qint64(-(2 * 3600000 + 60000))
                               << QStringLiteral("2 h 01 min ago");
    QTest::newRow("days ahead") << qint64(2 * 86400000LL + 3600000)
                                << QStringLiteral("in 2 d 01 h");
}

void TestDisplayFormat::relative_saysHowFarAndWhichWay()
{
    QFETCH(qint64, offsetMs);
    QFETCH(QString, text);
    const QDateTime now = monday();
    QCOMPARE(DisplayFormat::relative(now.addMSecs(offsetMs), now), text);
    QCOMPARE(DisplayFormat::relative(QDateTime(), now), QString());
}

void TestDisplayFormat::day_isAShortHeading()
{
    QCOMPARE(DisplayFormat::day(QDate(2026, 11, 23)), QStringLiteral("Mon 23 Nov"));
    QCOMPARE(DisplayFormat::day(QDate(2026, 12, 6)), QStringLiteral("Sun 6 Dec"));
    QCOMPARE(DisplayFormat::day(QDate()), QString());
}

// A chain's trend: cancelled runs pulled its median down (issue 34); a failure may end at
// once, a timeout at its limit. The engine's duration alerts count successes only too.
void TestDisplayFormat::median_countsSuccessesOnly()
{
    const QList<RunSummary> runs{
        {1, 1, RunState::Succeeded, 10000}, {2, 1, RunState::Cancelled, 100},
        {3, 1, RunState::Cancelled, 200},   {4, 1, RunState::Failed, 50},
        {5, 1, RunState::TimedOut, 90000},  {6, 1, RunState::Succeeded, 12000},
        {7, 1, RunState::Succeeded, 14000}, {8, 1, RunState::Running, -1}};
    QCOMPARE(RunSummaryText::medianMs(runs), qint64(12000));
    QCOMPARE(RunSummaryText::medianMs({{1, 1, RunState::Cancelled, 100}}), qint64(-1));
}

QTEST_GUILESS_MAIN(TestDisplayFormat)
#include "tst_displayformat.moc"
