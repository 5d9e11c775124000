#include "cron/isotime.h"
#include "scheduler/scheduleplan.h"

#include <QTest>

using namespace hg;

class TestSchedulePlan final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nextFire_cronInItsZone();
    void nextFire_onceFiresOnlyOnce();
    void nextFire_everyCountsFromTheLastFire();
    void nextFire_respectsTheActiveWindow();
    void nextAfterRunEnded_addsTheInterval();
    void missedFires_policies_data();
    void missedFires_policies();
    void missedFires_allIsBoundedByTheWindow();
};

namespace {

qint64 at(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODate).toMSecsSinceEpoch();
}

QString iso(qint64 ms, const char *zone = "UTC")
{
    return isoWithOffset(QDateTime::fromMSecsSinceEpoch(ms, QTimeZone(zone)));
}

SchedulePlan plan(const char *expression, ScheduleKind kind = ScheduleKind::Cron,
                  MisfirePolicy misfire = MisfirePolicy::Once, const char *zone = "UTC")
{
    Schedule s;
    s.id = 1;
    s.chainId = 1;
    s.kind = kind;
    s.expression = QString::fromLatin1(expression);
    s.timeZone = QString::fromLatin1(zone);
    s.misfire = misfire;
    return SchedulePlan::create(s, QTimeZone("UTC")).value();
}

} // namespace

void TestSchedulePlan::nextFire_cronInItsZone()
{
    const SchedulePlan p =
        plan("30 2 * * *", ScheduleKind::Cron, MisfirePolicy::Once, "Europe/Berlin");
    QCOMPARE(iso(*p.nextFireMs(at("2026-03-28T12:00:00+01:00")), "Europe/Berlin"),
             QStringLiteral("2026-03-29T03:00:00+02:00"));
}

void TestSchedulePlan::nextFire_onceFiresOnlyOnce()
{
    const SchedulePlan p =
        plan("2026-12-01T10:00:00", ScheduleKind::Once, MisfirePolicy::Once, "Asia/Kolkata");
    const auto first = p.nextFireMs(at("2026-11-30T00:00:00Z"));
    QCOMPARE(iso(*first, "Asia/Kolkata"), QStringLiteral("2026-12-01T10:00:00+05:30"));
    QVERIFY(!p.nextFireMs(*first));
}

void TestSchedulePlan::nextFire_everyCountsFromTheLastFire()
{
    const SchedulePlan p = plan("@every 90 minutes", ScheduleKind::Every);
    QCOMPARE(iso(*p.nextFireMs(at("2026-01-01T00:00:00Z"))),
             QStringLiteral("2026-01-01T01:30:00+00:00"));
}

void TestSchedulePlan::nextFire_respectsTheActiveWindow()
{
    Schedule s;
    s.id = 1;
    s.expression = QStringLiteral("0 * * * *");
    s.activeFrom = QDateTime::fromString(QStringLiteral("2026-01-01T10:30:00Z"), Qt::ISODate);
    s.activeUntil = QDateTime::fromString(QStringLiteral("2026-01-01T12:00:00Z"), Qt::ISODate);
    const SchedulePlan p = SchedulePlan::create(s, QTimeZone("UTC")).value();
    QCOMPARE(iso(*p.nextFireMs(at("2026-01-01T00:00:00Z"))),
             QStringLiteral("2026-01-01T11:00:00+00:00"));
    QCOMPARE(iso(*p.nextFireMs(at("2026-01-01T11:00:00Z"))),
             QStringLiteral("2026-01-01T12:00:00+00:00"));
    QVERIFY(!p.nextFireMs(at("2026-01-01T12:00:00Z")));
}

void TestSchedulePlan::nextAfterRunEnded_addsTheInterval()
{
    const SchedulePlan p = plan("@after 10 minutes", ScheduleKind::After);
    QVERIFY(!p.nextFireMs(at("2026-01-01T00:00:00Z")));
    QCOMPARE(iso(*p.nextAfterRunEnded(at("2026-01-01T00:00:05Z"))),
             QStringLiteral("2026-01-01T00:10:05+00:00"));
}

void TestSchedulePlan::missedFires_policies_data()
{
    QTest::addColumn<int>("policy");
    QTest::addColumn<QStringList>("expected");
    // Hourly, engine down from 03:10 to 07:20: 04:00 .. 07:00 were missed.
    QTest::newRow("skip runs nothing") << int(MisfirePolicy::Skip) << QStringList{};
    QTest::newRow("once runs the latest")
        << int(MisfirePolicy::Once) << QStringList{QStringLiteral("2026-01-01T07:00:00+00:00")};
    QTest::newRow("all runs each") << int(MisfirePolicy::All)
                                   << QStringList{QStringLiteral("2026-01-01T04:00:00+00:00"),
                                                  QStringLiteral("2026-01-01T05:00:00+00:00"),
                                                  QStringLiteral("2026-01-01T06:00:00+00:00"),
                                                  QStringLiteral("2026-01-01T07:00:00+00:00")};
}

void TestSchedulePlan::missedFires_policies()
{
    QFETCH(int, policy);
    QFETCH(QStringList, expected);
    const SchedulePlan p = plan("0 * * * *", ScheduleKind::Cron, MisfirePolicy(policy));
    QStringList missed;
    for (qint64 ms : p.missedFires(at("2026-01-01T03:10:00Z"), at("2026-01-01T07:20:00Z")))
        missed << iso(ms);
    QCOMPARE(missed, expected);
}

void TestSchedulePlan::missedFires_allIsBoundedByTheWindow()
{
    Schedule s;
    s.id = 1;
    s.expression = QStringLiteral("*/5 * * * *");
    s.misfire = MisfirePolicy::All;
    s.misfireWindowSeconds = 3600; // an hour of a ten-day outage
    const SchedulePlan p = SchedulePlan::create(s, QTimeZone("UTC")).value();
    const QList<qint64> missed =
        p.missedFires(at("2026-01-01T00:00:00Z"), at("2026-01-11T00:00:00Z"));
    QCOMPARE(missed.size(), 13); // 23:00 through 00:00, both ends of the window included
    QCOMPARE(iso(missed.first()), QStringLiteral("2026-01-10T23:00:00+00:00"));
}

QTEST_GUILESS_MAIN(TestSchedulePlan)
#include "tst_scheduleplan.moc"
