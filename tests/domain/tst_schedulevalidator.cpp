#include "cron/compiledcroncache.h"
#include "domain/schedulevalidator.h"

#include <QTest>

using namespace hg;

// The rules every schedule meets before it is stored, and how it is stored.
class TestScheduleValidator final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validate_data();
    void validate();
    void normalized_data();
    void normalized();
    void validate_compilesThroughTheSharedCache();
};

namespace {

const QDateTime jan2026(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
const QDateTime jan2027(QDate(2027, 1, 1), QTime(0, 0), Qt::UTC);

} // namespace

void TestScheduleValidator::validate_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<int>("misfireWindow");
    QTest::addColumn<QDateTime>("from");
    QTest::addColumn<QDateTime>("until");
    QTest::addColumn<QString>("problem"); // empty: valid
    QTest::addColumn<int>("column");      // of the fault in the expression, 0: none
    const int cron = int(ScheduleKind::Cron);
    const int autoDialect = int(CronDialect::Auto);
    QTest::newRow("cron ok") << QStringLiteral("0 3 * * *") << cron << autoDialect
                             << QStringLiteral("Asia/Kolkata") << 3600 << QDateTime() << QDateTime()
                             << QString() << 0;
    QTest::newRow("blank") << QStringLiteral("  ") << cron << autoDialect << QString() << 0
                           << QDateTime() << QDateTime()
                           << QStringLiteral("schedule expression is empty") << 0;
    QTest::newRow("unknown zone") << QStringLiteral("0 3 * * *") << cron << autoDialect
                                  << QStringLiteral("Mars/Olympus") << 0 << QDateTime()
                                  << QDateTime()
                                  << QStringLiteral("unknown time zone 'Mars/Olympus'") << 0;
    QTest::newRow("hour out of range")
        << QStringLiteral("5 24 * * *") << cron << int(CronDialect::Unix) << QString() << 0
        << QDateTime() << QDateTime() << QStringLiteral("hour") << 3;
    QTest::newRow("quartz only in quartz")
        << QStringLiteral("0 0 12 ? * MON#2") << cron << int(CronDialect::Unix) << QString() << 0
        << QDateTime() << QDateTime() << QStringLiteral("cron:") << 0;
    QTest::newRow("quartz ok") << QStringLiteral("0 0 12 ? * MON#2") << cron
                               << int(CronDialect::Quartz) << QString() << 0 << QDateTime()
                               << QDateTime() << QString() << 0;
    QTest::newRow("once ok") << QStringLiteral("2026-12-24T18:00:00") << int(ScheduleKind::Once)
                             << autoDialect << QString() << 0 << QDateTime() << QDateTime()
                             << QString() << 0;
    QTest::newRow("once not a time")
        << QStringLiteral("tomorrow") << int(ScheduleKind::Once) << autoDialect << QString() << 0
        << QDateTime() << QDateTime() << QStringLiteral("is not an ISO 8601 date and time") << 0;
    QTest::newRow("every ok") << QStringLiteral("@every 90 seconds") << int(ScheduleKind::Every)
                              << autoDialect << QString() << 0 << QDateTime() << QDateTime()
                              << QString() << 0;
    QTest::newRow("after bad interval")
        << QStringLiteral("@after soon") << int(ScheduleKind::After) << autoDialect << QString()
        << 0 << QDateTime() << QDateTime() << QStringLiteral("soon") << 0;
    QTest::newRow("startup ok") << QStringLiteral("@reboot") << int(ScheduleKind::Startup)
                                << autoDialect << QString() << 0 << QDateTime() << QDateTime()
                                << QString() << 0;
    QTest::newRow("negative misfire window")
        << QStringLiteral("@daily") << cron << autoDialect << QString() << -1 << QDateTime()
        << QDateTime() << QStringLiteral("misfire window must not be negative") << 0;
    QTest::newRow("window ok") << QStringLiteral("@daily") << cron << autoDialect << QString() << 0
                               << jan2026 << jan2027 << QString() << 0;
    QTest::newRow("window backwards")
        << QStringLiteral("@daily") << cron << autoDialect << QString() << 0 << jan2027 << jan2026
        << QStringLiteral("active window ends before it starts") << 0;
    QTest::newRow("window empty") << QStringLiteral("@daily") << cron << autoDialect << QString()
                                  << 0 << jan2026 << jan2026
                                  << QStringLiteral("active window ends before it starts") << 0;
}

void TestScheduleValidator::validate()
{
    QFETCH(QString, expression);
    QFETCH(int, kind);
    QFETCH(int, dialect);
    QFETCH(QString, zone);
    QFETCH(int, misfireWindow);
    QFETCH(QDateTime, from);
    QFETCH(QDateTime, until);
    QFETCH(QString, problem);
    QFETCH(int, column);
    Schedule s;
    s.expression = expression;
    s.kind = ScheduleKind(kind);
    s.dialect = CronDialect(dialect);
    s.timeZone = zone;
    s.misfireWindowSeconds = misfireWindow;
    s.activeFrom = from;
    s.activeUntil = until;
    const Status status = ScheduleValidator::validate(s);
    QVERIFY2(status.ok() == problem.isEmpty(), status ? "ok" : qPrintable(status.error().message));
    if (problem.isEmpty())
        return;
    QVERIFY2(status.error().message.contains(problem), qPrintable(status.error().message));
    QCOMPARE(status.error().kind, ErrorKind::Invalid);
    if (column > 0)
        QCOMPARE(status.error().column, column);
}

void TestScheduleValidator::normalized_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<QString>("storedExpression");
    QTest::addColumn<int>("storedDialect");
    QTest::newRow("trimmed, unix detected")
        << QStringLiteral("  0 3 * * *  ") << int(ScheduleKind::Cron) << int(CronDialect::Auto)
        << QStringLiteral("0 3 * * *") << int(CronDialect::Unix);
    QTest::newRow("seconds detected")
        << QStringLiteral("*/10 * * * * *") << int(ScheduleKind::Cron) << int(CronDialect::Auto)
        << QStringLiteral("*/10 * * * * *") << int(CronDialect::Seconds);
    QTest::newRow("quartz detected")
        << QStringLiteral("0 0 12 ? * MON#2") << int(ScheduleKind::Cron) << int(CronDialect::Auto)
        << QStringLiteral("0 0 12 ? * MON#2") << int(CronDialect::Quartz);
    QTest::newRow("explicit dialect kept")
        << QStringLiteral("0 3 * * *") << int(ScheduleKind::Cron) << int(CronDialect::PgTimetable)
        << QStringLiteral("0 3 * * *") << int(CronDialect::PgTimetable);
    QTest::newRow("once keeps auto")
        << QStringLiteral(" 2026-12-24T18:00:00 ") << int(ScheduleKind::Once)
        << int(CronDialect::Auto) << QStringLiteral("2026-12-24T18:00:00")
        << int(CronDialect::Auto);
}

void TestScheduleValidator::normalized()
{
    QFETCH(QString, expression);
    QFETCH(int, kind);
    QFETCH(int, dialect);
    Schedule s;
    s.expression = expression;
    s.kind = ScheduleKind(kind);
    s.dialect = CronDialect(dialect);
    const Result<Schedule> stored = ScheduleValidator::normalized(s);
    QVERIFY2(stored, stored ? "" : qPrintable(stored.error().message));
    QTEST(stored->expression, "storedExpression");
    QTEST(int(stored->dialect), "storedDialect");
}

void TestScheduleValidator::validate_compilesThroughTheSharedCache()
{
    // A text no other test uses: the first check compiles it, the second finds it.
    Schedule s;
    s.expression = QStringLiteral("17 3 */2 * *");
    CompiledCronCache &cache = CompiledCronCache::shared();
    const CompiledCronCache::Counters before = cache.counters();
    QVERIFY(ScheduleValidator::validate(s));
    QVERIFY(ScheduleValidator::validate(s));
    QCOMPARE(cache.counters().misses, before.misses + 1);
    QCOMPARE(cache.counters().hits, before.hits + 1);
}

QTEST_GUILESS_MAIN(TestScheduleValidator)
#include "tst_schedulevalidator.moc"
