#include "cron/cronexpression.h"
#include "cron/isotime.h"

#include <QRandomGenerator>
#include <QTest>

using namespace hg;

class TestCronExpression final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void next_data();
    void next();
    void previous_data();
    void previous();
    void previous_retracesNext_data();
    void previous_retracesNext();
    void next_dstPolicy_data();
    void next_dstPolicy();
    void next_millisecondsStillStrictlyAfter();
    void next_quartzYearsEnd();
    void next_rebootAndAfterHaveNoCalendar();
};

namespace {

void addRow(const char *name, const char *expression, CronDialect dialect, const char *zone,
            const char *from, std::initializer_list<const char *> expected)
{
    QStringList times;
    for (const char *time : expected)
        times << QString::fromLatin1(time);
    QTest::newRow(name) << QString::fromLatin1(expression) << int(dialect) << QByteArray(zone)
                        << QString::fromLatin1(from) << times;
}

QStringList walk(const CronExpression &expression, const QTimeZone &zone, QDateTime from, int count,
                 bool forward)
{
    QStringList times;
    for (int i = 0; i < count; ++i) {
        const std::optional<QDateTime> fire =
            forward ? expression.next(from, zone) : expression.previous(from, zone);
        if (!fire)
            break;
        times << isoWithOffset(*fire);
        from = *fire;
    }
    return times;
}

} // namespace

void TestCronExpression::next_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QStringList>("expected");
    const auto cronie = CronDialect::Unix, seconds = CronDialect::Seconds,
               quartz = CronDialect::Quartz, pg = CronDialect::PgTimetable;

    // cronie (cronie)
    addRow("cronie every quarter hour", "*/15 * * * *", cronie, "UTC", "2026-01-01T00:07:00Z",
           {"2026-01-01T00:15:00+00:00", "2026-01-01T00:30:00+00:00", "2026-01-01T00:45:00+00:00",
            "2026-01-01T01:00:00+00:00"});
    addRow("cronie weekdays skip the weekend", "0 9 * * MON-FRI", cronie, "UTC",
           "2026-01-02T10:00:00Z", {"2026-01-05T09:00:00+00:00", "2026-01-06T09:00:00+00:00"});
    addRow("cronie day fields OR", "0 0 1 * 1", cronie, "UTC", "2026-01-31T00:00:00Z",
           {"2026-02-01T00:00:00+00:00", "2026-02-02T00:00:00+00:00", "2026-02-09T00:00:00+00:00"});
    addRow("cronie star step in day-of-month ANDs (cronie)", "0 0 */10 * 1", cronie, "UTC",
           "2026-01-01T00:00:00Z", {"2026-05-11T00:00:00+00:00"});
    addRow("cronie yearly macro", "@yearly", cronie, "UTC", "2026-06-01T00:00:00Z",
           {"2027-01-01T00:00:00+00:00"});
    addRow("cronie leap day", "0 0 29 2 *", cronie, "UTC", "2026-01-01T00:00:00Z",
           {"2028-02-29T00:00:00+00:00", "2032-02-29T00:00:00+00:00"});
    addRow("cronie sunday as 7", "5 4 * * 7", cronie, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-04T04:05:00+00:00", "2026-01-11T04:05:00+00:00"});
    // seconds
    addRow("seconds every 20", "*/20 * * * * *", seconds, "UTC", "2026-01-01T00:00:05Z",
           {"2026-01-01T00:00:20+00:00", "2026-01-01T00:00:40+00:00", "2026-01-01T00:01:00+00:00"});
    addRow("seconds fixed", "30 0 12 * * *", seconds, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-01T12:00:30+00:00"});
    // quartz (rules from Quartz's CronExpression)
    addRow("quartz first monday (2#1)", "0 0 12 ? * 2#1", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-05T12:00:00+00:00", "2026-02-02T12:00:00+00:00", "2026-03-02T12:00:00+00:00"});
    addRow("quartz last day", "0 0 10 L * ?", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-31T10:00:00+00:00", "2026-02-28T10:00:00+00:00", "2026-03-31T10:00:00+00:00"});
    addRow("quartz last day minus two", "0 0 10 L-2 * ?", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-29T10:00:00+00:00", "2026-02-26T10:00:00+00:00", "2026-03-29T10:00:00+00:00"});
    addRow("quartz nearest weekday", "0 0 10 15W * ?", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-15T10:00:00+00:00", "2026-02-16T10:00:00+00:00", "2026-03-16T10:00:00+00:00"});
    addRow("quartz 1W stays in the month", "0 0 10 1W * ?", quartz, "UTC", "2026-07-15T00:00:00Z",
           {"2026-08-03T10:00:00+00:00"});
    addRow("quartz last weekday", "0 0 12 LW * ?", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-30T12:00:00+00:00", "2026-02-27T12:00:00+00:00", "2026-03-31T12:00:00+00:00"});
    addRow("quartz last friday (6L)", "0 0 10 ? * 6L", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-30T10:00:00+00:00", "2026-02-27T10:00:00+00:00", "2026-03-27T10:00:00+00:00"});
    addRow("quartz lone L is saturday", "0 0 10 ? * L", quartz, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-03T10:00:00+00:00", "2026-01-10T10:00:00+00:00"});
    addRow("quartz wrapping hours", "0 0 22-1 ? * *", quartz, "UTC", "2026-01-01T21:00:00Z",
           {"2026-01-01T22:00:00+00:00", "2026-01-01T23:00:00+00:00", "2026-01-02T00:00:00+00:00",
            "2026-01-02T01:00:00+00:00", "2026-01-02T22:00:00+00:00"});
    addRow("quartz year ends the schedule", "0 0 0 1 1 ? 2027", quartz, "UTC",
           "2026-01-01T00:00:00Z", {"2027-01-01T00:00:00+00:00"});
    // pg_timetable (rules from its cron SQL functions)
    addRow("pg day fields AND", "0 0 1 * 1", pg, "UTC", "2026-01-01T00:00:00Z",
           {"2026-06-01T00:00:00+00:00"});
    addRow("pg sunday as 7", "0 12 * * 7", pg, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-04T12:00:00+00:00"});
    addRow("pg start and step", "50/4 * * * *", pg, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-01T00:50:00+00:00", "2026-01-01T00:54:00+00:00", "2026-01-01T00:58:00+00:00",
            "2026-01-01T01:50:00+00:00"});
    addRow("pg every", "@every 90 minutes", pg, "UTC", "2026-01-01T00:00:00Z",
           {"2026-01-01T01:30:00+00:00", "2026-01-01T03:00:00+00:00"});
    // DST: a gap fires once at the first instant after it; in an overlap fixed times run
    // once (first pass), '*'/step hours run in both passes.
    addRow("berlin gap fires after the gap", "30 2 * * *", cronie, "Europe/Berlin",
           "2026-03-28T12:00:00+01:00", {"2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00"});
    addRow("berlin two gap times fire once", "*/30 * * * *", cronie, "Europe/Berlin",
           "2026-03-29T01:00:00+01:00",
           {"2026-03-29T01:30:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T03:30:00+02:00"});
    addRow("berlin overlap fixed time once", "30 2 * * *", cronie, "Europe/Berlin",
           "2026-10-24T12:00:00+02:00", {"2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"});
    addRow("berlin overlap hourly twice", "30 * * * *", cronie, "Europe/Berlin",
           "2026-10-25T01:00:00+02:00",
           {"2026-10-25T01:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00",
            "2026-10-25T03:30:00+01:00"});
    addRow("new york spring gap", "0 2 * * *", cronie, "America/New_York",
           "2026-03-07T12:00:00-05:00", {"2026-03-08T03:00:00-04:00", "2026-03-09T02:00:00-04:00"});
    addRow("new york overlap fixed", "30 1 * * *", cronie, "America/New_York",
           "2026-10-31T12:00:00-04:00", {"2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"});
    addRow("new york overlap hourly", "30 * * * *", cronie, "America/New_York",
           "2026-11-01T00:00:00-04:00",
           {"2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00",
            "2026-11-01T02:30:00-05:00"});
    addRow("lord howe half hour gap", "15 2 * * *", cronie, "Australia/Lord_Howe",
           "2026-10-03T12:00:00+10:30", {"2026-10-04T02:30:00+11:00", "2026-10-05T02:15:00+11:00"});
    addRow("lord howe half hour overlap fixed", "45 1 * * *", cronie, "Australia/Lord_Howe",
           "2026-04-04T12:00:00+11:00", {"2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"});
    addRow("lord howe half hour overlap hourly", "45 * * * *", cronie, "Australia/Lord_Howe",
           "2026-04-05T00:00:00+11:00",
           {"2026-04-05T00:45:00+11:00", "2026-04-05T01:45:00+11:00", "2026-04-05T01:45:00+10:30",
            "2026-04-05T02:45:00+10:30"});
    addRow("sao paulo midnight gap (2018)", "0 0 * * *", cronie, "America/Sao_Paulo",
           "2018-11-03T12:00:00-03:00", {"2018-11-04T01:00:00-02:00", "2018-11-05T00:00:00-02:00"});
    addRow("sao paulo no dst since 2019", "0 0 * * *", cronie, "America/Sao_Paulo",
           "2026-11-01T00:00:00-03:00", {"2026-11-02T00:00:00-03:00"});
    addRow("kolkata half hour offset", "0 9 * * *", cronie, "Asia/Kolkata",
           "2026-01-01T00:00:00+05:30", {"2026-01-01T09:00:00+05:30", "2026-01-02T09:00:00+05:30"});
    addRow("quartz in berlin gap", "0 30 2 ? * SUN", quartz, "Europe/Berlin",
           "2026-03-28T00:00:00+01:00", {"2026-03-29T03:00:00+02:00", "2026-04-05T02:30:00+02:00"});
}

void TestCronExpression::next()
{
    QFETCH(QString, expression);
    QFETCH(int, dialect);
    QFETCH(QByteArray, zone);
    QFETCH(QString, from);
    QFETCH(QStringList, expected);
    const Result<CronExpression> parsed = CronExpression::parse(expression, CronDialect(dialect));
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    const QTimeZone timeZone(zone);
    QVERIFY(timeZone.isValid());
    const QDateTime start = QDateTime::fromString(from, Qt::ISODate);
    QVERIFY(start.isValid());
    const QStringList times = walk(parsed.value(), timeZone, start, int(expected.size()) + 1, true);
    QCOMPARE(times.mid(0, expected.size()), expected);
    if (QByteArray(QTest::currentDataTag()).contains("year ends"))
        QCOMPARE(times.size(), expected.size());
}

void TestCronExpression::previous_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QStringList>("expected");
    addRow("weekdays back over the weekend", "0 9 * * MON-FRI", CronDialect::Unix, "UTC",
           "2026-01-05T09:00:00Z", {"2026-01-02T09:00:00+00:00", "2026-01-01T09:00:00+00:00"});
    addRow("back into a gap", "30 2 * * *", CronDialect::Unix, "Europe/Berlin",
           "2026-03-29T12:00:00+02:00", {"2026-03-29T03:00:00+02:00", "2026-03-28T02:30:00+01:00"});
    addRow("back over an overlap, fixed", "30 2 * * *", CronDialect::Unix, "Europe/Berlin",
           "2026-10-26T00:00:00+01:00", {"2026-10-25T02:30:00+02:00", "2026-10-24T02:30:00+02:00"});
    addRow("back over an overlap, hourly", "30 * * * *", CronDialect::Unix, "Europe/Berlin",
           "2026-10-25T03:00:00+01:00",
           {"2026-10-25T02:30:00+01:00", "2026-10-25T02:30:00+02:00", "2026-10-25T01:30:00+02:00"});
    addRow("quartz last day back", "0 0 10 L * ?", CronDialect::Quartz, "UTC",
           "2026-03-01T00:00:00Z", {"2026-02-28T10:00:00+00:00", "2026-01-31T10:00:00+00:00"});
}

void TestCronExpression::previous()
{
    QFETCH(QString, expression);
    QFETCH(int, dialect);
    QFETCH(QByteArray, zone);
    QFETCH(QString, from);
    QFETCH(QStringList, expected);
    const Result<CronExpression> parsed = CronExpression::parse(expression, CronDialect(dialect));
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    const QStringList times =
        walk(parsed.value(), QTimeZone(zone), QDateTime::fromString(from, Qt::ISODate),
             int(expected.size()), false);
    QCOMPARE(times, expected);
}

void TestCronExpression::previous_retracesNext_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<QString>("policy");
    const QList<QByteArray> zones{"UTC",
                                  "Europe/Berlin",
                                  "America/New_York",
                                  "Australia/Lord_Howe",
                                  "America/Sao_Paulo",
                                  "Asia/Kolkata"};
    const QList<std::pair<const char *, CronDialect>> expressions{
        {"*/7 * * * *", CronDialect::Unix},
        {"30 */3 * * *", CronDialect::Unix},
        {"15 1-3 * * *", CronDialect::Unix},
        {"0 2 1,15 * 0", CronDialect::Unix},
        {"*/13 */17 * * * *", CronDialect::Seconds},
        {"0 30 2 L * ?", CronDialect::Quartz},
        {"0 0 1 ? * 1#2", CronDialect::Quartz},
        {"0 0-23/5 * * 1,7", CronDialect::PgTimetable}};
    // Every DST policy retraces itself; cronie's only on whole minutes, as the validator has it.
    const QStringList policies{QStringLiteral("run-after,once"), QStringLiteral("skip,both"),
                               QStringLiteral("cronie")};
    for (const QByteArray &zone : zones) {
        for (const auto &[expression, dialect] : expressions) {
            for (const QString &policy : policies) {
                if (policy == QLatin1String("cronie") && dialect == CronDialect::Seconds)
                    continue;
                QTest::addRow("%s in %s, %s", expression, zone.constData(), qPrintable(policy))
                    << QString::fromLatin1(expression) << int(dialect) << zone << policy;
            }
        }
    }
}

void TestCronExpression::previous_retracesNext()
{
    // Walking forward through two DST years and back again visits the same instants.
    QFETCH(QString, expression);
    QFETCH(int, dialect);
    QFETCH(QByteArray, zone);
    QFETCH(QString, policy);
    const DstPolicy dst = DstPolicy::fromText(policy).value();
    const CronExpression parsed = CronExpression::parse(expression, CronDialect(dialect)).value();
    const QTimeZone timeZone(zone);
    QDateTime at(QDate(2025, 3, 1), QTime(0, 0), timeZone);
    QList<QDateTime> forward;
    const QDateTime end(QDate(2027, 3, 1), QTime(0, 0), timeZone);
    while (forward.size() < 20000) {
        const std::optional<QDateTime> fire = parsed.next(at, timeZone, dst);
        QVERIFY(fire);
        QVERIFY(*fire > at);
        if (*fire > end)
            break;
        forward << *fire;
        at = *fire;
    }
    QVERIFY(forward.size() > 10);
    QDateTime back = forward.last();
    for (qsizetype i = forward.size() - 2; i >= 0; --i) {
        const std::optional<QDateTime> fire = parsed.previous(back, timeZone, dst);
        QVERIFY(fire);
        QCOMPARE(isoWithOffset(*fire), isoWithOffset(forward.at(i)));
        back = *fire;
    }
}

void TestCronExpression::next_dstPolicy_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QByteArray>("zone");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QStringList>("expected");
    const auto row = [](const char *name, const char *expression, const char *policy,
                        const char *zone, const char *from,
                        std::initializer_list<const char *> expected) {
        QStringList times;
        for (const char *time : expected)
            times << QString::fromLatin1(time);
        QTest::newRow(name) << QString::fromLatin1(expression) << QString::fromLatin1(policy)
                            << QByteArray(zone) << QString::fromLatin1(from) << times;
    };
    // Berlin 2026: 29 March 02:00 -> 03:00 (CET to CEST), 25 October 03:00 -> 02:00.
    row("skip: the gap's fire is dropped", "30 2 * * *", "skip", "Europe/Berlin",
        "2026-03-28T12:00:00+01:00", {"2026-03-30T02:30:00+02:00"});
    row("both: a fixed time runs in both passes", "30 2 * * *", "both", "Europe/Berlin",
        "2026-10-24T12:00:00+02:00",
        {"2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00", "2026-10-26T02:30:00+01:00"});
    row("skip,both together", "30 2 * * *", "skip,both", "Europe/Berlin",
        "2026-03-28T12:00:00+01:00", {"2026-03-30T02:30:00+02:00"});
    // The example: */15 2 is a wildcard job for cronie (its minute starts with '*').
    row("default: */15 2 runs once after the gap", "*/15 2 * * *", "run-after,once",
        "Europe/Berlin", "2026-03-28T12:00:00+01:00",
        {"2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00"});
    row("cronie: */15 2 does not run in the gap", "*/15 2 * * *", "cronie", "Europe/Berlin",
        "2026-03-28T12:00:00+01:00", {"2026-03-30T02:00:00+02:00", "2026-03-30T02:15:00+02:00"});
    row("default: */15 2 runs the repeated hour once", "*/15 2 * * *", "run-after,once",
        "Europe/Berlin", "2026-10-25T01:50:00+02:00",
        {"2026-10-25T02:00:00+02:00", "2026-10-25T02:15:00+02:00", "2026-10-25T02:30:00+02:00",
         "2026-10-25T02:45:00+02:00", "2026-10-26T02:00:00+01:00"});
    row("cronie: */15 2 runs the repeated hour twice", "*/15 2 * * *", "cronie", "Europe/Berlin",
        "2026-10-25T01:50:00+02:00",
        {"2026-10-25T02:00:00+02:00", "2026-10-25T02:15:00+02:00", "2026-10-25T02:30:00+02:00",
         "2026-10-25T02:45:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T02:15:00+01:00",
         "2026-10-25T02:30:00+01:00", "2026-10-25T02:45:00+01:00", "2026-10-26T02:00:00+01:00"});
    // Fixed-time jobs: each skipped minute runs right after the gap, a second apart.
    row("cronie: a fixed job's skipped minutes each run", "0,30 2 * * *", "cronie", "Europe/Berlin",
        "2026-03-28T12:00:00+01:00",
        {"2026-03-29T03:00:00+02:00", "2026-03-29T03:00:01+02:00", "2026-03-30T02:00:00+02:00"});
    row("cronie: the gap's end minute comes after them", "0 2,3 * * *", "cronie", "Europe/Berlin",
        "2026-03-29T00:00:00+01:00",
        {"2026-03-29T03:00:00+02:00", "2026-03-29T03:00:01+02:00", "2026-03-30T02:00:00+02:00"});
    row("default: the gap's fire and the end minute are one", "0 2,3 * * *", "run-after,once",
        "Europe/Berlin", "2026-03-29T00:00:00+01:00",
        {"2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00"});
    row("cronie: a fixed time runs the repeated hour once", "30 2 * * *", "cronie", "Europe/Berlin",
        "2026-10-24T12:00:00+02:00", {"2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"});
    // An hour field of '*' makes a wildcard job too (cronie's HR_STAR).
    row("cronie: hourly skips the gap", "30 * * * *", "cronie", "Europe/Berlin",
        "2026-03-29T01:00:00+01:00", {"2026-03-29T01:30:00+01:00", "2026-03-29T03:30:00+02:00"});
    row("cronie: hourly runs the repeated hour twice", "30 * * * *", "cronie", "Europe/Berlin",
        "2026-10-25T01:00:00+02:00",
        {"2026-10-25T01:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00",
         "2026-10-25T03:30:00+01:00"});
    row("cronie in new york", "30 2 * * *", "cronie", "America/New_York",
        "2026-03-07T12:00:00-05:00", {"2026-03-08T03:00:00-04:00", "2026-03-09T02:30:00-04:00"});
    row("cronie: half-hour gap at lord howe", "15,45 2 * * *", "cronie", "Australia/Lord_Howe",
        "2026-10-03T12:00:00+10:30",
        {"2026-10-04T02:30:00+11:00", "2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00"});
}

void TestCronExpression::next_dstPolicy()
{
    QFETCH(QString, expression);
    QFETCH(QString, policy);
    QFETCH(QByteArray, zone);
    QFETCH(QString, from);
    QFETCH(QStringList, expected);
    const CronExpression parsed = CronExpression::parse(expression, CronDialect::Unix).value();
    const std::optional<DstPolicy> dst = DstPolicy::fromText(policy);
    QVERIFY(dst);
    QCOMPARE(dst->toText(), DstPolicy::fromText(dst->toText())->toText());
    const QTimeZone timeZone(zone);
    QDateTime at = QDateTime::fromString(from, Qt::ISODate);
    QStringList times;
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const std::optional<QDateTime> fire = parsed.next(at, timeZone, *dst);
        QVERIFY(fire);
        times << isoWithOffset(*fire);
        at = *fire;
    }
    QCOMPARE(times, expected);
    // And back: previous() walks the same fire times in reverse.
    for (qsizetype i = expected.size() - 2; i >= 0; --i) {
        const std::optional<QDateTime> fire = parsed.previous(at, timeZone, *dst);
        QVERIFY(fire);
        QCOMPARE(isoWithOffset(*fire), expected.at(i));
        at = *fire;
    }
}

void TestCronExpression::next_millisecondsStillStrictlyAfter()
{
    const CronExpression everySecond = CronExpression::parse(QStringLiteral("* * * * * *")).value();
    const QDateTime at =
        QDateTime::fromString(QStringLiteral("2026-01-01T00:00:00.999Z"), Qt::ISODateWithMs);
    QCOMPARE(isoWithOffset(*everySecond.next(at, QTimeZone("UTC"))),
             QStringLiteral("2026-01-01T00:00:01+00:00"));
    QCOMPARE(isoWithOffset(*everySecond.previous(at, QTimeZone("UTC"))),
             QStringLiteral("2026-01-01T00:00:00+00:00"));
}

void TestCronExpression::next_quartzYearsEnd()
{
    const CronExpression once = CronExpression::parse(QStringLiteral("0 0 0 1 1 ? 2030")).value();
    const QDateTime after(QDate(2030, 1, 2), QTime(0, 0), Qt::UTC);
    QVERIFY(!once.next(after, QTimeZone("UTC")));
    QVERIFY(once.previous(after, QTimeZone("UTC")));
}

void TestCronExpression::next_rebootAndAfterHaveNoCalendar()
{
    const CronExpression reboot = CronExpression::parse(QStringLiteral("@reboot")).value();
    QVERIFY(!reboot.next(QDateTime::currentDateTimeUtc(), QTimeZone("UTC")));
    const CronExpression after = CronExpression::parse(QStringLiteral("@after 2 hours")).value();
    QCOMPARE(after.kind(), CronExpression::Kind::After);
    QCOMPARE(after.intervalSeconds(), 7200);
}

QTEST_GUILESS_MAIN(TestCronExpression)
#include "tst_cronexpression.moc"
