#include "cron/cronexpression.h"

#include <QTest>

using namespace hg;

// Parsing rules of each dialect, taken from its home system: cronie's entry.c (cronie),
// Quartz's CronExpression, and pg_timetable's timetable.cron domain and cron_split_to_arrays.
class TestCronParser final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void accepted_data();
    void accepted();
    void rejected_data();
    void rejected();
    void rejected_carriesFieldAndColumn_data();
    void rejected_carriesFieldAndColumn();
    void autoDetection_data();
    void autoDetection();
    void bits_data();
    void bits();
};

void TestCronParser::accepted_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dialect");
    const int cronie = int(CronDialect::Unix), seconds = int(CronDialect::Seconds),
              quartz = int(CronDialect::Quartz), pg = int(CronDialect::PgTimetable);
    QTest::newRow("cronie names") << QStringLiteral("0 9 * jan-mar MON-fri") << cronie;
    QTest::newRow("cronie lists ranges steps")
        << QStringLiteral("0,30 8-18/2 1,15 */3 0-7") << cronie;
    QTest::newRow("cronie sunday as 7") << QStringLiteral("0 0 * * 7") << cronie;
    QTest::newRow("cronie macro") << QStringLiteral("@weekly") << cronie;
    QTest::newRow("cronie reboot (cronie has it)") << QStringLiteral("@reboot") << cronie;
    QTest::newRow("tabs and spaces") << QStringLiteral(" 0\t9  * * *  ") << cronie;
    QTest::newRow("seconds") << QStringLiteral("*/10 * * * * *") << seconds;
    QTest::newRow("seconds macro") << QStringLiteral("@hourly") << seconds;
    QTest::newRow("quartz six") << QStringLiteral("0 0 12 * * ?") << quartz;
    QTest::newRow("quartz seven with year")
        << QStringLiteral("0 15 10 ? * MON-FRI 2026-2030") << quartz;
    QTest::newRow("quartz last day") << QStringLiteral("0 0 0 L * ?") << quartz;
    QTest::newRow("quartz last day minus") << QStringLiteral("0 0 0 L-3 * ?") << quartz;
    QTest::newRow("quartz last weekday") << QStringLiteral("0 0 0 LW * ?") << quartz;
    QTest::newRow("quartz nearest weekday") << QStringLiteral("0 0 0 15W * ?") << quartz;
    QTest::newRow("quartz nth") << QStringLiteral("0 0 0 ? * 6#3") << quartz;
    QTest::newRow("quartz last friday") << QStringLiteral("0 0 0 ? * FRIL") << quartz;
    QTest::newRow("quartz slash start") << QStringLiteral("/15 0 0 ? * *") << quartz;
    QTest::newRow("quartz start and step") << QStringLiteral("5/15 0 0 ? * *") << quartz;
    QTest::newRow("quartz wrap range") << QStringLiteral("0 0 22-2 ? * FRI-MON") << quartz;
    QTest::newRow("pg numbers") << QStringLiteral("0 1,2,3 * * 0") << pg;
    QTest::newRow("pg start step") << QStringLiteral("5/15 * * * *") << pg;
    QTest::newRow("pg range step") << QStringLiteral("0 8-18/2 * * 1-5") << pg;
    QTest::newRow("pg dow 7") << QStringLiteral("0 0 * * 7") << pg;
    QTest::newRow("pg every") << QStringLiteral("@every 2 hours 30 minutes") << pg;
    QTest::newRow("pg after") << QStringLiteral("@after 10 seconds") << pg;
    QTest::newRow("pg reboot") << QStringLiteral("@reboot") << pg;
}

void TestCronParser::accepted()
{
    QFETCH(QString, text);
    QFETCH(int, dialect);
    const Result<CronExpression> parsed = CronExpression::parse(text, CronDialect(dialect));
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    QCOMPARE(int(parsed->dialect()), dialect);
}

void TestCronParser::rejected_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QString>("message");
    const int cronie = int(CronDialect::Unix), seconds = int(CronDialect::Seconds),
              quartz = int(CronDialect::Quartz), pg = int(CronDialect::PgTimetable),
              any = int(CronDialect::Auto);
    QTest::newRow("hour out of range")
        << QStringLiteral("0 24 * * *") << cronie
        << QStringLiteral("cron: hour field (column 3): 24 is out of range 0-23");
    QTest::newRow("column points into a list")
        << QStringLiteral("0 1,2,99 * * *") << cronie
        << QStringLiteral("cron: hour field (column 7): 99 is out of range 0-23");
    QTest::newRow("minute range end")
        << QStringLiteral("5-60 * * * *") << cronie
        << QStringLiteral("cron: minute field (column 3): 60 is out of range 0-59");
    QTest::newRow("day of month zero")
        << QStringLiteral("0 0 0 * *") << cronie
        << QStringLiteral("cron: day-of-month field (column 5): 0 is out of range 1-31");
    QTest::newRow("bad name") << QStringLiteral("0 0 * foo *") << cronie
                              << QStringLiteral(
                                     "month field (column 7): 'foo' is not a number or a name");
    QTest::newRow("backwards range") << QStringLiteral("0 5-3 * * *") << cronie
                                     << QStringLiteral("the range 5-3 runs backwards");
    QTest::newRow("cronie step needs range")
        << QStringLiteral("5/15 * * * *") << cronie << QStringLiteral("write 5-59/15");
    QTest::newRow("zero step") << QStringLiteral("*/0 * * * *") << cronie
                               << QStringLiteral(
                                      "minute field (column 3): a step must be at least 1");
    QTest::newRow("empty list item")
        << QStringLiteral("1,,2 * * * *") << cronie << QStringLiteral("empty list item");
    QTest::newRow("too few fields")
        << QStringLiteral("* * * *") << cronie << QStringLiteral("the unix dialect takes 5 fields");
    QTest::newRow("seconds needs six")
        << QStringLiteral("* * * * *") << seconds << QStringLiteral("takes 6 fields");
    QTest::newRow("auto with eight")
        << QStringLiteral("* * * * * * * *") << any << QStringLiteral("found 8");
    QTest::newRow("never fires") << QStringLiteral("0 0 30 2 *") << cronie
                                 << QStringLiteral("never fires");
    QTest::newRow("never fires 31 in short months")
        << QStringLiteral("0 0 31 4,6,9,11 *") << cronie << QStringLiteral("never fires");
    QTest::newRow("unknown macro")
        << QStringLiteral("@fortnightly") << cronie << QStringLiteral("unknown macro");
    QTest::newRow("macro with tail")
        << QStringLiteral("@daily 5") << cronie << QStringLiteral("takes nothing after it");
    QTest::newRow("every is pg syntax")
        << QStringLiteral("@every 5 minutes") << cronie << QStringLiteral("pg_timetable syntax");
    QTest::newRow("empty") << QStringLiteral("  ") << cronie << QStringLiteral("empty");
    QTest::newRow("quartz both days")
        << QStringLiteral("0 0 12 * * *") << quartz << QStringLiteral("Quartz needs '?'");
    QTest::newRow("quartz both question marks")
        << QStringLiteral("0 0 12 ? * ?") << quartz << QStringLiteral("not both");
    QTest::newRow("quartz day of week zero")
        << QStringLiteral("0 0 12 ? * 0") << quartz << QStringLiteral("0 is out of range 1-7");
    QTest::newRow("quartz L with list")
        << QStringLiteral("0 0 12 L,5 * ?") << quartz << QStringLiteral("cannot be combined");
    QTest::newRow("quartz nth six") << QStringLiteral("0 0 12 ? * 2#6") << quartz
                                    << QStringLiteral("'#' must be followed by 1 to 5");
    QTest::newRow("quartz L offset")
        << QStringLiteral("0 0 12 L-31 * ?") << quartz << QStringLiteral("30 or less");
    QTest::newRow("quartz year range") << QStringLiteral("0 0 12 ? * * 2100") << quartz
                                       << QStringLiteral("2100 is out of range 1970-2099");
    QTest::newRow("quartz step too big")
        << QStringLiteral("0 0 0/24 ? * *") << quartz << QStringLiteral("larger than the field");
    QTest::newRow("quartz past years never fire")
        << QStringLiteral("0 0 0 30 2 ? 2020") << quartz
        << QStringLiteral("never fires in the years 2020");
    QTest::newRow("pg names") << QStringLiteral("0 0 * * mon") << pg
                              << QStringLiteral("pg_timetable takes no names");
    QTest::newRow("pg ranges in lists")
        << QStringLiteral("0 1-2,5 * * *") << pg << QStringLiteral("plain numbers only, not '1-2'");
    QTest::newRow("pg macro") << QStringLiteral("@daily") << pg
                              << QStringLiteral("pgtimetable has no macros");
    QTest::newRow("pg bad interval") << QStringLiteral("@every 5 parsecs") << pg
                                     << QStringLiteral("'parsecs' is not an interval unit");
    QTest::newRow("pg zero interval")
        << QStringLiteral("@every 0 seconds") << pg << QStringLiteral("at least one second");
}

void TestCronParser::rejected()
{
    QFETCH(QString, text);
    QFETCH(int, dialect);
    QFETCH(QString, message);
    const Result<CronExpression> parsed = CronExpression::parse(text, CronDialect(dialect));
    QVERIFY(!parsed);
    QCOMPARE(parsed.error().kind, ErrorKind::Invalid);
    QVERIFY2(parsed.error().message.contains(message), qPrintable(parsed.error().message));
    QVERIFY(parsed.error().message.startsWith(QLatin1String("cron: ")));
}

void TestCronParser::rejected_carriesFieldAndColumn_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("column");
    QTest::newRow("hour") << QStringLiteral("0 24 * * *") << QStringLiteral("hour") << 3;
    QTest::newRow("inside a list")
        << QStringLiteral("0 1,2,99 * * *") << QStringLiteral("hour") << 7;
    QTest::newRow("range end") << QStringLiteral("5-60 * * * *") << QStringLiteral("minute") << 3;
    QTest::newRow("day of month") << QStringLiteral("0 0 0 * *") << QStringLiteral("day-of-month")
                                  << 5;
    QTest::newRow("month name") << QStringLiteral("0 0 * foo *") << QStringLiteral("month") << 7;
}

// The dialog's caret and `cron … --json` read these, never the message text.
void TestCronParser::rejected_carriesFieldAndColumn()
{
    QFETCH(QString, text);
    QFETCH(QString, field);
    QFETCH(int, column);
    const Result<CronExpression> parsed = CronExpression::parse(text, CronDialect::Unix);
    QVERIFY(!parsed);
    QCOMPARE(parsed.error().field, field);
    QCOMPARE(parsed.error().column, column);
}

void TestCronParser::autoDetection_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dialect");
    QTest::newRow("five fields") << QStringLiteral("*/5 * * * *") << int(CronDialect::Unix);
    QTest::newRow("six plain") << QStringLiteral("*/5 * * * * *") << int(CronDialect::Seconds);
    QTest::newRow("six with question mark")
        << QStringLiteral("0 0 12 ? * MON") << int(CronDialect::Quartz);
    QTest::newRow("six with L") << QStringLiteral("0 0 12 L * ?") << int(CronDialect::Quartz);
    QTest::newRow("seven") << QStringLiteral("0 0 12 ? * * 2030") << int(CronDialect::Quartz);
    QTest::newRow("macro") << QStringLiteral("@daily") << int(CronDialect::Unix);
    QTest::newRow("every") << QStringLiteral("@every 1 hour") << int(CronDialect::PgTimetable);
    QTest::newRow("reboot") << QStringLiteral("@reboot") << int(CronDialect::PgTimetable);
}

void TestCronParser::autoDetection()
{
    QFETCH(QString, text);
    QFETCH(int, dialect);
    const Result<CronExpression> parsed = CronExpression::parse(text, CronDialect::Auto);
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    QCOMPARE(int(parsed->dialect()), dialect);
    QVERIFY(!parsed->detectionNote().isEmpty());
}

void TestCronParser::bits_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<quint64>("minutes");
    QTest::addColumn<quint32>("hours");
    QTest::addColumn<int>("daysOfWeek");
    QTest::addColumn<int>("dayRule");
    const auto bits = [](std::initializer_list<int> values) {
        quint64 b = 0;
        for (int v : values)
            b |= quint64(1) << v;
        return b;
    };
    const int either = int(CronSpec::DayRule::Either), both = int(CronSpec::DayRule::Both),
              dowOnly = int(CronSpec::DayRule::DayOfWeekOnly);
    QTest::newRow("cronie step over range")
        << QStringLiteral("10-20/5 1-7/2 * * 1-7/2") << int(CronDialect::Unix) << bits({10, 15, 20})
        << quint32(bits({1, 3, 5, 7})) << int(bits({0, 1, 3, 5})) << both;
    QTest::newRow("cronie both restricted is OR")
        << QStringLiteral("0 0 1 * 1") << int(CronDialect::Unix) << bits({0}) << quint32(1)
        << int(bits({1})) << either;
    QTest::newRow("cronie star step makes AND")
        << QStringLiteral("0 0 */2 * 1") << int(CronDialect::Unix) << bits({0}) << quint32(1)
        << int(bits({1})) << both;
    QTest::newRow("pg start step runs to the end")
        << QStringLiteral("50/4 0 * * 0,7") << int(CronDialect::PgTimetable) << bits({50, 54, 58})
        << quint32(1) << int(bits({0})) << both;
    QTest::newRow("quartz sunday is 1, wrap FRI-MON")
        << QStringLiteral("0 0 0 ? * FRI-MON") << int(CronDialect::Quartz) << bits({0})
        << quint32(1) << int(bits({5, 6, 0, 1})) << dowOnly;
    QTest::newRow("quartz lone L is saturday")
        << QStringLiteral("0 0 0 ? * L") << int(CronDialect::Quartz) << bits({0}) << quint32(1)
        << int(bits({6})) << dowOnly;
    QTest::newRow("quartz wrapping hours")
        << QStringLiteral("0 0 22-1 ? * *") << int(CronDialect::Quartz) << bits({0})
        << quint32(bits({22, 23, 0, 1})) << 127 << dowOnly;
}

void TestCronParser::bits()
{
    QFETCH(QString, text);
    QFETCH(int, dialect);
    const Result<CronExpression> parsed = CronExpression::parse(text, CronDialect(dialect));
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    QTEST(quint64(parsed->spec().minutes), "minutes");
    QTEST(quint32(parsed->spec().hours), "hours");
    QTEST(int(parsed->spec().daysOfWeek), "daysOfWeek");
    QTEST(int(parsed->spec().dayRule), "dayRule");
}

QTEST_GUILESS_MAIN(TestCronParser)
#include "tst_cronparser.moc"
