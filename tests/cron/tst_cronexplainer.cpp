#include "cron/cronexplainer.h"

#include <QTest>

using namespace hg;

class TestCronExplainer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void describe_data();
    void describe();
    void warnings_data();
    void warnings();
};

void TestCronExplainer::describe_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("text");
    const int cronie = int(CronDialect::Unix), quartz = int(CronDialect::Quartz),
              pg = int(CronDialect::PgTimetable), seconds = int(CronDialect::Seconds);
    QTest::newRow("issue example")
        << QStringLiteral("30 2 * * 1-5") << cronie << QStringLiteral("Europe/Berlin")
        << QStringLiteral("At 02:30 on Monday through Friday, Europe/Berlin");
    QTest::newRow("every five minutes") << QStringLiteral("*/5 * * * *") << cronie << QString()
                                        << QStringLiteral("Every 5 minutes");
    QTest::newRow("every minute") << QStringLiteral("* * * * *") << cronie << QString()
                                  << QStringLiteral("Every minute");
    QTest::newRow("two times") << QStringLiteral("0 9,17 * * *") << cronie << QString()
                               << QStringLiteral("At 09:00 and 17:00");
    QTest::newRow("minutes in some hours")
        << QStringLiteral("0,30 9-17 * * *") << cronie << QString()
        << QStringLiteral("At minutes 0 and 30, during hour 09 through 17");
    QTest::newRow("months") << QStringLiteral("0 0 1 1,7 *") << cronie << QString()
                            << QStringLiteral("At 00:00 on day 1 of the month in January and July");
    QTest::newRow("or rule") << QStringLiteral("0 9 1 * 1") << cronie << QString()
                             << QStringLiteral("At 09:00 on day 1 of the month or on Monday");
    QTest::newRow("and rule") << QStringLiteral("0 9 1 * 1") << pg << QString()
                              << QStringLiteral("At 09:00 on day 1 of the month if it is a Monday");
    QTest::newRow("quartz nth") << QStringLiteral("0 0 12 ? * 2#2") << quartz << QString()
                                << QStringLiteral("At 12:00 on the 2nd Monday of the month");
    QTest::newRow("quartz last weekday")
        << QStringLiteral("0 0 18 LW * ?") << quartz << QString()
        << QStringLiteral("At 18:00 on the weekday nearest the last day of the month");
    QTest::newRow("quartz year")
        << QStringLiteral("0 0 0 1 1 ? 2027-2029") << quartz << QString()
        << QStringLiteral("At 00:00 on day 1 of the month in January in 2027 through 2029");
    QTest::newRow("seconds") << QStringLiteral("*/10 * * * * *") << seconds << QString()
                             << QStringLiteral("Every 10 seconds");
    QTest::newRow("every interval") << QStringLiteral("@every 2 hours 30 minutes") << pg
                                    << QString() << QStringLiteral("Every 2 hours and 30 minutes");
    QTest::newRow("after interval") << QStringLiteral("@after 1 day") << pg << QString()
                                    << QStringLiteral("1 day after the previous run ends");
    QTest::newRow("reboot") << QStringLiteral("@reboot") << pg << QString()
                            << QStringLiteral("Once each time the engine starts");
}

void TestCronExplainer::describe()
{
    QFETCH(QString, expression);
    QFETCH(int, dialect);
    QFETCH(QString, zone);
    QFETCH(QString, text);
    const Result<CronExpression> parsed = CronExpression::parse(expression, CronDialect(dialect));
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    QCOMPARE(CronExplainer(parsed.value()).describe(zone), text);
}

void TestCronExplainer::warnings_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QString>("warning");
    QTest::newRow("cronie OR") << QStringLiteral("0 0 1 * 1") << int(CronDialect::Unix)
                               << QStringLiteral("EITHER matches");
    QTest::newRow("cronie star step") << QStringLiteral("0 0 */2 * 1") << int(CronDialect::Unix)
                                      << QStringLiteral("BOTH day fields must match");
    QTest::newRow("pg AND") << QStringLiteral("0 0 1 * 1") << int(CronDialect::PgTimetable)
                            << QStringLiteral("only when BOTH match");
    QTest::newRow("quartz question mark")
        << QStringLiteral("0 0 0 ? * 1") << int(CronDialect::Quartz)
        << QStringLiteral("1 = Sunday");
    QTest::newRow("no warning") << QStringLiteral("0 0 * * 1") << int(CronDialect::Unix)
                                << QString();
}

void TestCronExplainer::warnings()
{
    QFETCH(QString, expression);
    QFETCH(int, dialect);
    QFETCH(QString, warning);
    const CronExpression parsed = CronExpression::parse(expression, CronDialect(dialect)).value();
    const QStringList warnings = CronExplainer(parsed).warnings();
    if (warning.isEmpty()) {
        QVERIFY(warnings.isEmpty());
        return;
    }
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().contains(warning), qPrintable(warnings.first()));
}

QTEST_GUILESS_MAIN(TestCronExplainer)
#include "tst_cronexplainer.moc"
