#include "cron/cronparser.h"
#include "importers/systemdcalendar.h"

#include <QTest>

using namespace hg;

class TestSystemdCalendar final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void toCron_formsPeopleUse_data();
    void toCron_formsPeopleUse();
    void toCron_whatCronCannotSayIsRefused_data();
    void toCron_whatCronCannotSayIsRefused();
};

void TestSystemdCalendar::toCron_formsPeopleUse_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("zone");
    QTest::newRow("daily") << "daily"
                           << "0 0 0 * * *"
                           << "";
    QTest::newRow("weekly") << "weekly"
                            << "0 0 0 * * MON"
                            << "";
    QTest::newRow("quarterly") << "quarterly"
                               << "0 0 0 1 1,4,7,10 *"
                               << "";
    QTest::newRow("weekdays at a time") << "Mon..Fri 02:30"
                                        << "0 30 2 * * MON-FRI"
                                        << "";
    QTest::newRow("first of the month") << "*-*-01 00:00:00"
                                        << "0 0 0 1 * *"
                                        << "";
    QTest::newRow("month-day only") << "12-24 18:00"
                                    << "0 0 18 24 12 *"
                                    << "";
    QTest::newRow("lists and zone") << "Sat,Sun *-*-* 06,18:00 Europe/Berlin"
                                    << "0 0 6,18 * * SAT,SUN"
                                    << "Europe/Berlin";
    QTest::newRow("repetition from a start") << "*:0/15"
                                             << "0 0-59/15 * * * *"
                                             << "";
    QTest::newRow("range with a step") << "*-*-* 08..18/2:00"
                                       << "0 0 8-18/2 * * *"
                                       << "";
    QTest::newRow("seconds") << "*:*:30"
                             << "30 * * * * *"
                             << "";
    QTest::newRow("full weekday names") << "Monday,Friday 09:00"
                                        << "0 0 9 * * MON,FRI"
                                        << "";
    QTest::newRow("zeros of a fraction") << "*-*-* 04:00:00.000"
                                         << "0 0 4 * * *"
                                         << "";
}

void TestSystemdCalendar::toCron_formsPeopleUse()
{
    QFETCH(QString, spec);
    QFETCH(QString, expression);
    QFETCH(QString, zone);
    const Result<SystemdCalendar::Cron> cron = SystemdCalendar::toCron(spec);
    QVERIFY2(cron, qPrintable(cron ? QString() : cron.error().message));
    QCOMPARE(cron->expression, expression);
    QCOMPARE(cron->timeZone, zone);
    QVERIFY(CronParser::parse(cron->expression, CronDialect::Seconds));
}

void TestSystemdCalendar::toCron_whatCronCannotSayIsRefused_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a year") << "2027-*-* 00:00"
                            << "year '2027': cron has no years";
    QTest::newRow("last day") << "*-*~01"
                              << "the last days of a month";
    QTest::newRow("weekday and day") << "Fri *-*-13 00:00"
                                     << "needs both a weekday";
    QTest::newRow("fraction") << "*:*:00.5"
                              << "fractions of a second";
    QTest::newRow("hour out of range") << "25:00"
                                       << "hour '25' is not a value";
    QTest::newRow("not a weekday") << "Caturday 10:00"
                                   << "'Caturday' is not a weekday";
    QTest::newRow("empty") << ""
                           << "OnCalendar= is empty";
}

void TestSystemdCalendar::toCron_whatCronCannotSayIsRefused()
{
    QFETCH(QString, spec);
    QFETCH(QString, reason);
    const Result<SystemdCalendar::Cron> cron = SystemdCalendar::toCron(spec);
    QVERIFY(!cron);
    QVERIFY2(cron.error().message.contains(reason), qPrintable(cron.error().message));
}

QTEST_GUILESS_MAIN(TestSystemdCalendar)
#include "tst_systemdcalendar.moc"
