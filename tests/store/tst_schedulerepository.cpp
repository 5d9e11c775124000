#include "domain/schedulevalidator.h"
#include "fixtures.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestScheduleRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_keepsEveryField();
    void inferKind_data();
    void inferKind();
    void validate_data();
    void validate();
    void add_unknownChainIsNotFound();
    void remove_byId();
};

void TestScheduleRepository::add_keepsEveryField()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule s;
    s.chainId = chain.id;
    s.expression = QStringLiteral("  0 3 * * *  ");
    s.dialect = CronDialect::Unix;
    s.timeZone = QStringLiteral("Europe/Berlin");
    s.misfire = MisfirePolicy::All;
    s.misfireWindowSeconds = 3600;
    s.activeFrom = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    s.activeUntil = QDateTime(QDate(2027, 1, 1), QTime(0, 0), Qt::UTC);
    s.enabled = false;
    s.dst = DstPolicy::cronie();
    ScheduleRepository schedules(t.store());
    const Result<Schedule> added = schedules.add(s);
    QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    const Result<Schedule> read = schedules.byId(added->id);
    QVERIFY(read);
    QCOMPARE(read->expression, QStringLiteral("0 3 * * *"));
    QCOMPARE(read->dialect, CronDialect::Unix);
    QCOMPARE(read->timeZone, s.timeZone);
    QCOMPARE(read->misfire, MisfirePolicy::All);
    QCOMPARE(read->misfireWindowSeconds, 3600);
    QCOMPARE(read->activeFrom, s.activeFrom);
    QCOMPARE(read->activeUntil, s.activeUntil);
    QCOMPARE(read->enabled, false);
    QCOMPARE(read->dst, DstPolicy::cronie());
    QCOMPARE(schedules.list(chain.id)->size(), 1);
    Schedule edited = read.value();
    edited.dst = DstPolicy{DstPolicy::Gap::Skip, DstPolicy::Overlap::Both};
    QVERIFY(schedules.update(edited));
    QCOMPARE(schedules.byId(added->id)->dst.toText(), QStringLiteral("skip,both"));
}

void TestScheduleRepository::inferKind_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("kind");
    QTest::newRow("cron") << QStringLiteral("*/5 * * * *") << int(ScheduleKind::Cron);
    QTest::newRow("macro") << QStringLiteral("@daily") << int(ScheduleKind::Cron);
    QTest::newRow("reboot") << QStringLiteral("@reboot") << int(ScheduleKind::Startup);
    QTest::newRow("every") << QStringLiteral("@every 10 seconds") << int(ScheduleKind::Every);
    QTest::newRow("after") << QStringLiteral("@after 2 hours") << int(ScheduleKind::After);
    QTest::newRow("once") << QStringLiteral("2026-12-01T10:00:00+01:00") << int(ScheduleKind::Once);
}

void TestScheduleRepository::inferKind()
{
    QFETCH(QString, expression);
    QTEST(int(inferScheduleKind(expression)), "kind");
}

void TestScheduleRepository::validate_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("problem");
    QTest::newRow("ok") << QStringLiteral("0 3 * * *") << QStringLiteral("Asia/Kolkata")
                        << QString();
    QTest::newRow("empty") << QStringLiteral(" ") << QString() << QStringLiteral("empty");
    QTest::newRow("bad zone") << QStringLiteral("0 3 * * *") << QStringLiteral("Mars/Olympus")
                              << QStringLiteral("unknown time zone 'Mars/Olympus'");
    QTest::newRow("cronie on whole minutes")
        << QStringLiteral("cronie:0 30 2 * * *") << QString() << QString();
    QTest::newRow("cronie at second 30")
        << QStringLiteral("cronie:30 30 2 * * *") << QString()
        << QStringLiteral("the cronie DST rule needs fire times on whole minutes");
}

void TestScheduleRepository::validate()
{
    QFETCH(QString, expression);
    QFETCH(QString, zone);
    QFETCH(QString, problem);
    Schedule s;
    s.expression = expression;
    if (s.expression.startsWith(QLatin1String("cronie:"))) {
        s.expression.remove(0, 7);
        s.dst = DstPolicy::cronie();
    }
    s.timeZone = zone;
    const Status status = ScheduleValidator::validate(s);
    QCOMPARE(status.ok(), problem.isEmpty());
    if (!problem.isEmpty())
        QVERIFY2(status.error().message.contains(problem), qPrintable(status.error().message));
}

void TestScheduleRepository::add_unknownChainIsNotFound()
{
    HG_TEST_STORE(t);
    Schedule s;
    s.chainId = 4242;
    s.expression = QStringLiteral("* * * * *");
    QCOMPARE(ScheduleRepository(t.store()).add(s).error().kind, ErrorKind::NotFound);
}

void TestScheduleRepository::remove_byId()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule s;
    s.chainId = chain.id;
    s.expression = QStringLiteral("@hourly");
    ScheduleRepository schedules(t.store());
    const Result<Schedule> added = schedules.add(s);
    QVERIFY(added);
    QVERIFY(schedules.remove(added->id));
    QCOMPARE(schedules.remove(added->id).error().message,
             QStringLiteral("unknown schedule %1").arg(added->id));
}

QTEST_GUILESS_MAIN(TestScheduleRepository)
#include "tst_schedulerepository.moc"
