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
    void calendar_excludedDaysArePassedOver();
    void calendar_onlyItsDays();
    void calendar_daysAreTheSchedulesZone();
    void calendar_missedOnceIsTheLatestAllowed();
    void calendar_afterMovesToTheNextAllowedDay();
    void dstPolicy_reachesThePlan();
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

namespace {

constexpr quint8 weekend = (1u << Qt::Saturday) | (1u << Qt::Sunday);

SchedulePlan withCalendar(const char *expression, CalendarMode mode, CalendarDays days,
                          const char *zone = "UTC", ScheduleKind kind = ScheduleKind::Cron)
{
    Schedule s;
    s.id = 1;
    s.chainId = 1;
    s.kind = kind;
    s.expression = QString::fromLatin1(expression);
    s.timeZone = QString::fromLatin1(zone);
    s.calendarId = 7;
    s.calendarMode = mode;
    s.calendarDays = std::make_shared<const CalendarDays>(std::move(days));
    return SchedulePlan::create(s, QTimeZone("UTC")).value();
}

QDate day(const char *iso)
{
    return QDate::fromString(QString::fromLatin1(iso), Qt::ISODate);
}

QStringList walk(const SchedulePlan &p, qint64 from, int count, const char *zone = "UTC")
{
    QStringList out;
    for (std::optional<qint64> at = p.nextFireMs(from); at && out.size() < count;
         at = p.nextFireMs(*at))
        out << iso(*at, zone);
    return out;
}

} // namespace

void TestSchedulePlan::calendar_excludedDaysArePassedOver()
{
    // Every six hours, not at weekends nor on Christmas Eve (a Thursday in 2026).
    const SchedulePlan p =
        withCalendar("0 */6 * * *", CalendarMode::Exclude,
                     CalendarDays(weekend, {{day("2026-12-24"), day("2026-12-24")}}));
    QCOMPARE(walk(p, at("2026-12-23T17:00:00Z"), 3),
             (QStringList{QStringLiteral("2026-12-23T18:00:00+00:00"),
                          QStringLiteral("2026-12-25T00:00:00+00:00"),
                          QStringLiteral("2026-12-25T06:00:00+00:00")}));
    QCOMPARE(walk(p, at("2026-12-25T19:00:00Z"), 1),
             QStringList{QStringLiteral("2026-12-28T00:00:00+00:00")}); // the weekend between
    QVERIFY(p.ruledOutByCalendar(at("2026-12-26T12:00:00Z")));
    QCOMPARE(*p.nextCandidateMs(at("2026-12-23T19:00:00Z")), at("2026-12-24T00:00:00Z"));
}

void TestSchedulePlan::calendar_onlyItsDays()
{
    // Only on the last working day of each quarter, say; here two listed days.
    const SchedulePlan p = withCalendar("30 17 * * *", CalendarMode::Only,
                                        CalendarDays(0, {{day("2026-12-31"), day("2026-12-31")},
                                                         {day("2027-03-31"), day("2027-03-31")}}));
    QCOMPARE(walk(p, at("2026-11-26T00:00:00Z"), 5),
             (QStringList{QStringLiteral("2026-12-31T17:30:00+00:00"),
                          QStringLiteral("2027-03-31T17:30:00+00:00")})); // and then no more
    const SchedulePlan weekends =
        withCalendar("0 10 * * *", CalendarMode::Only, CalendarDays(weekend, {}));
    QCOMPARE(walk(weekends, at("2026-11-26T00:00:00Z"), 3),
             (QStringList{QStringLiteral("2026-11-28T10:00:00+00:00"),
                          QStringLiteral("2026-11-29T10:00:00+00:00"),
                          QStringLiteral("2026-12-05T10:00:00+00:00")}));
}

void TestSchedulePlan::calendar_daysAreTheSchedulesZone()
{
    // 23:30 in Tokyo is 14:30 UTC the same day: the calendar day is Tokyo's.
    const SchedulePlan p =
        withCalendar("30 23 * * *", CalendarMode::Exclude,
                     CalendarDays(0, {{day("2026-12-25"), day("2026-12-25")}}), "Asia/Tokyo");
    QCOMPARE(walk(p, at("2026-12-24T15:00:00Z"), 1, "Asia/Tokyo"),
             QStringList{QStringLiteral("2026-12-26T23:30:00+09:00")});
}

void TestSchedulePlan::calendar_missedOnceIsTheLatestAllowed()
{
    Schedule s;
    s.id = 1;
    s.chainId = 1;
    s.expression = QStringLiteral("0 9 * * *");
    s.timeZone = QStringLiteral("UTC");
    s.misfire = MisfirePolicy::Once;
    s.misfireWindowSeconds = 7 * 86400;
    s.calendarId = 7;
    s.calendarDays = std::make_shared<const CalendarDays>(weekend, QList<CalendarDays::Range>{});
    const SchedulePlan p = SchedulePlan::create(s, QTimeZone("UTC")).value();
    // Asleep from Thursday to Sunday evening: Friday's 09:00 is the one to run, not Sunday's.
    const QList<qint64> missed =
        p.missedFires(at("2026-11-26T12:00:00Z"), at("2026-11-29T20:00:00Z"));
    QCOMPARE(missed, QList<qint64>{at("2026-11-27T09:00:00Z")});
}

void TestSchedulePlan::calendar_afterMovesToTheNextAllowedDay()
{
    const SchedulePlan p = withCalendar("@after 2 hours", CalendarMode::Exclude,
                                        CalendarDays(weekend, {}), "UTC", ScheduleKind::After);
    QCOMPARE(*p.nextAfterRunEnded(at("2026-11-26T10:00:00Z")), at("2026-11-26T12:00:00Z"));
    // Ending late on Friday: not on Saturday, at the start of Monday.
    QCOMPARE(*p.nextAfterRunEnded(at("2026-11-27T23:00:00Z")), at("2026-11-30T00:00:00Z"));
}

void TestSchedulePlan::dstPolicy_reachesThePlan()
{
    Schedule s;
    s.id = 1;
    s.chainId = 1;
    s.expression = QStringLiteral("*/15 2 * * *");
    s.timeZone = QStringLiteral("Europe/Berlin");
    s.dst = DstPolicy::cronie();
    const SchedulePlan p = SchedulePlan::create(s, QTimeZone("UTC")).value();
    QCOMPARE(iso(*p.nextFireMs(at("2026-03-28T12:00:00+01:00")), "Europe/Berlin"),
             QStringLiteral("2026-03-30T02:00:00+02:00"));
    const QList<DstEffect::Change> changes =
        p.dstChanges(at("2026-03-28T12:00:00+01:00"), at("2026-03-30T12:00:00+02:00"));
    QCOMPARE(changes.size(), 1);
    QVERIFY(changes.at(0).springForward);
    QCOMPARE(changes.at(0).wallTimes.size(), 4);
    // A day the calendar rules out has nothing to say about its clock change.
    s.calendarId = 7;
    s.calendarDays = std::make_shared<const CalendarDays>(quint8(1u << Qt::Sunday),
                                                          QList<CalendarDays::Range>{});
    const SchedulePlan sundaysOff = SchedulePlan::create(s, QTimeZone("UTC")).value();
    QVERIFY(sundaysOff.dstChanges(at("2026-03-28T12:00:00+01:00"), at("2026-03-30T12:00:00+02:00"))
                .isEmpty());
}

QTEST_GUILESS_MAIN(TestSchedulePlan)
#include "tst_scheduleplan.moc"
