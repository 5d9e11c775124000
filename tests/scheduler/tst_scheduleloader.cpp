#include "scheduler/scheduleloader.h"

#include <QTest>

using namespace hg;

// Loading schedules and catching up with missed fires, without a store: the engine comes
// back at 07:20:00.5 UTC on 1 January 2026.
class TestScheduleLoader final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void load_data();
    void load();
    void load_keepsEachScheduleApart();
    void due_lateToleranceAndMisfirePolicy_data();
    void due_lateToleranceAndMisfirePolicy();
};

namespace {

const QString engineName = QStringLiteral("this-engine");

qint64 at(const QString &iso)
{
    return iso.isEmpty() ? -1 : QDateTime::fromString(iso, Qt::ISODateWithMs).toMSecsSinceEpoch();
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

const qint64 now = at(QStringLiteral("2026-01-01T07:20:00.500Z"));

Schedule schedule(qint64 id, ScheduleKind kind, const QString &expression, MisfirePolicy misfire)
{
    Schedule s;
    s.id = id;
    s.chainId = 1;
    s.kind = kind;
    s.expression = expression;
    s.timeZone = QStringLiteral("UTC");
    s.misfire = misfire;
    s.createdAt =
        QDateTime::fromMSecsSinceEpoch(at(QStringLiteral("2026-01-01T06:30:00Z")), Qt::UTC);
    return s;
}

ScheduleLoader loader()
{
    return ScheduleLoader(engineName, QTimeZone::utc(), 60000);
}

} // namespace

void TestScheduleLoader::load_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("misfire");
    QTest::addColumn<QString>("lastFire");   // empty: the schedule never fired
    QTest::addColumn<QString>("lastFinish"); // empty: that run has not ended
    QTest::addColumn<bool>("scheduleEnabled");
    QTest::addColumn<bool>("chainEnabled");
    QTest::addColumn<QString>("clientName");
    QTest::addColumn<bool>("firstLoad");
    QTest::addColumn<bool>("paused");
    QTest::addColumn<bool>("loaded");
    QTest::addColumn<QStringList>("fires");
    QTest::addColumn<QString>("next"); // empty: not in the fire queue

    const int cron = int(ScheduleKind::Cron);
    const int skip = int(MisfirePolicy::Skip);
    const int once = int(MisfirePolicy::Once);
    const int all = int(MisfirePolicy::All);
    const QString hourly = QStringLiteral("0 * * * *");
    const QString at3 = QStringLiteral("2026-01-01T03:00:00Z");
    const QString at3end = QStringLiteral("2026-01-01T03:00:05Z");
    const QString next8 = QStringLiteral("2026-01-01T08:00:00.000Z");
    const auto t = [](const char *time) {
        return QStringLiteral("2026-01-01T%1.000Z").arg(QLatin1String(time));
    };

    QTest::newRow("downtime, skip: nothing, then the next hour")
        << cron << hourly << skip << at3 << at3end << true << true << QString() << true << false
        << true << QStringList{} << next8;
    QTest::newRow("downtime, once: the latest missed hour")
        << cron << hourly << once << at3 << at3end << true << true << QString() << true << false
        << true << QStringList{t("07:00:00")} << next8;
    QTest::newRow("downtime, all: every missed hour, oldest first")
        << cron << hourly << all << at3 << at3end << true << true << QString() << true << false
        << true << QStringList{t("04:00:00"), t("05:00:00"), t("06:00:00"), t("07:00:00")} << next8;
    QTest::newRow("never fired: missed since it was made (06:30)")
        << cron << hourly << all << QString() << QString() << true << true << QString() << true
        << false << true << QStringList{t("07:00:00")} << next8;
    QTest::newRow("nothing missed")
        << cron << hourly << all << t("07:00:00") << QString() << true << true << QString() << false
        << false << true << QStringList{} << next8;
    QTest::newRow("a reload (not the first load) catches up the same way")
        << cron << hourly << once << at3 << at3end << true << true << QString() << false << false
        << true << QStringList{t("07:00:00")} << next8;
    QTest::newRow("paused: nothing fires, due at the first missed hour")
        << cron << hourly << all << at3 << at3end << true << true << QString() << true << true
        << true << QStringList{} << t("04:00:00");
    QTest::newRow("disabled schedule is not loaded")
        << cron << hourly << all << at3 << at3end << false << true << QString() << true << false
        << false << QStringList{} << QString();
    QTest::newRow("disabled chain is not loaded")
        << cron << hourly << all << at3 << at3end << true << false << QString() << true << false
        << false << QStringList{} << QString();
    QTest::newRow("chain for another engine is not loaded")
        << cron << hourly << all << at3 << at3end << true << true << QStringLiteral("elsewhere")
        << true << false << false << QStringList{} << QString();
    QTest::newRow("chain for this engine is loaded")
        << cron << hourly << skip << at3 << at3end << true << true << engineName << true << false
        << true << QStringList{} << next8;
    QTest::newRow("bad expression is not loaded")
        << cron << QStringLiteral("61 * * * *") << all << at3 << at3end << true << true << QString()
        << true << false << false << QStringList{} << QString();
    QTest::newRow("@reboot on the first load fires now, in whole seconds")
        << int(ScheduleKind::Startup) << QStringLiteral("@reboot") << once << QString() << QString()
        << true << true << QString() << true << false << true << QStringList{t("07:20:00")}
        << QString();
    QTest::newRow("@reboot on a reload does not fire")
        << int(ScheduleKind::Startup) << QStringLiteral("@reboot") << once << QString() << QString()
        << true << true << QString() << false << false << true << QStringList{} << QString();
    QTest::newRow("@reboot while paused does not fire")
        << int(ScheduleKind::Startup) << QStringLiteral("@reboot") << once << QString() << QString()
        << true << true << QString() << true << true << true << QStringList{} << QString();
    QTest::newRow("@after never fired: due now")
        << int(ScheduleKind::After) << QStringLiteral("@after 10 minutes") << once << QString()
        << QString() << true << true << QString() << true << false << true << QStringList{}
        << QStringLiteral("2026-01-01T07:20:00.500Z");
    QTest::newRow("@after: the interval after the last run ended")
        << int(ScheduleKind::After) << QStringLiteral("@after 10 minutes") << once << t("07:00:00")
        << t("07:15:00") << true << true << QString() << true << false << true << QStringList{}
        << t("07:25:00");
    QTest::newRow("@after that came due while down: now")
        << int(ScheduleKind::After) << QStringLiteral("@after 10 minutes") << all << t("05:00:00")
        << t("06:00:00") << true << true << QString() << true << false << true << QStringList{}
        << QStringLiteral("2026-01-01T07:20:00.500Z");
    QTest::newRow("@after whose last run has not ended: not queued")
        << int(ScheduleKind::After) << QStringLiteral("@after 10 minutes") << once << t("07:00:00")
        << QString() << true << true << QString() << true << false << true << QStringList{}
        << QString();
    QTest::newRow("once, missed while down, policy once")
        << int(ScheduleKind::Once) << QStringLiteral("2026-01-01T07:00:00") << once << QString()
        << QString() << true << true << QString() << true << false << true
        << QStringList{t("07:00:00")} << QString();
}

void TestScheduleLoader::load()
{
    QFETCH(int, kind);
    QFETCH(QString, expression);
    QFETCH(int, misfire);
    QFETCH(QString, lastFire);
    QFETCH(QString, lastFinish);
    QFETCH(bool, scheduleEnabled);
    QFETCH(bool, chainEnabled);
    QFETCH(QString, clientName);
    QFETCH(bool, firstLoad);
    QFETCH(bool, paused);
    QFETCH(bool, loaded);
    QFETCH(QStringList, fires);
    QFETCH(QString, next);

    Schedule s = schedule(7, ScheduleKind(kind), expression, MisfirePolicy(misfire));
    s.enabled = scheduleEnabled;
    Chain chain;
    chain.id = 1;
    chain.enabled = chainEnabled;
    chain.clientName = clientName;
    QHash<qint64, RunRepository::ScheduleHistory> history;
    if (!lastFire.isEmpty())
        history.insert(s.id, RunRepository::ScheduleHistory{at(lastFire), at(lastFinish),
                                                            lastFinish.isEmpty()});
    const ScheduleLoader::Loaded result =
        loader().load({s}, {{chain.id, chain}}, history, now, firstLoad, paused);

    QCOMPARE(result.plans.contains(s.id), loaded);
    QStringList fired;
    for (const ScheduleLoader::Fire &fire : result.fires) {
        QCOMPARE(fire.scheduleId, s.id);
        fired << iso(fire.fireMs);
    }
    QCOMPARE(fired, fires);
    QStringList queued;
    for (const FireQueue::Due &entry : result.next) {
        QCOMPARE(entry.scheduleId, s.id);
        queued << iso(entry.dueMs);
    }
    QCOMPARE(queued, next.isEmpty() ? QStringList{} : QStringList{next});
}

void TestScheduleLoader::load_keepsEachScheduleApart()
{
    // Two schedules of one chain, one of another engine's chain: fires in schedule order.
    Schedule a = schedule(1, ScheduleKind::Cron, QStringLiteral("0 * * * *"), MisfirePolicy::Once);
    Schedule b = schedule(2, ScheduleKind::Cron, QStringLiteral("30 * * * *"), MisfirePolicy::All);
    Schedule c = schedule(3, ScheduleKind::Cron, QStringLiteral("* * * * *"), MisfirePolicy::All);
    c.chainId = 2;
    Chain mine;
    mine.id = 1;
    Chain theirs;
    theirs.id = 2;
    theirs.clientName = QStringLiteral("elsewhere");
    const ScheduleLoader::Loaded result =
        loader().load({a, b, c}, {{1, mine}, {2, theirs}}, {},
                      at(QStringLiteral("2026-01-01T08:40:00Z")), true, false);
    QCOMPARE(result.plans.size(), 2);
    QCOMPARE(result.fires,
             (QList<ScheduleLoader::Fire>{{1, at(QStringLiteral("2026-01-01T08:00:00Z"))},
                                          {2, at(QStringLiteral("2026-01-01T07:30:00Z"))},
                                          {2, at(QStringLiteral("2026-01-01T08:30:00Z"))}}));
    QCOMPARE(result.next.size(), 2);
}

void TestScheduleLoader::due_lateToleranceAndMisfirePolicy_data()
{
    QTest::addColumn<int>("misfire");
    QTest::addColumn<QString>("lookedAt");
    QTest::addColumn<QStringList>("fires");
    QTest::addColumn<QString>("next");
    const auto t = [](const char *time) {
        return QStringLiteral("2026-01-01T%1.000Z").arg(QLatin1String(time));
    };
    // Hourly, due at 07:00, late tolerance one minute.
    QTest::newRow("on time") << int(MisfirePolicy::Skip) << t("07:00:00")
                             << QStringList{t("07:00:00")} << t("08:00:00");
    QTest::newRow("late within the tolerance fires anyway, skip or not")
        << int(MisfirePolicy::Skip) << t("07:01:00") << QStringList{t("07:00:00")} << t("08:00:00");
    QTest::newRow("past the tolerance, skip: missed")
        << int(MisfirePolicy::Skip) << QStringLiteral("2026-01-01T07:01:00.001Z") << QStringList{}
        << t("08:00:00");
    QTest::newRow("past the tolerance, once")
        << int(MisfirePolicy::Once) << t("07:05:00") << QStringList{t("07:00:00")} << t("08:00:00");
    QTest::newRow("hours late (sleep), once: the latest")
        << int(MisfirePolicy::Once) << t("09:30:00") << QStringList{t("09:00:00")} << t("10:00:00");
    QTest::newRow("hours late (sleep), all: each, from the due one")
        << int(MisfirePolicy::All) << t("09:30:00")
        << QStringList{t("07:00:00"), t("08:00:00"), t("09:00:00")} << t("10:00:00");
    QTest::newRow("hours late (sleep), skip")
        << int(MisfirePolicy::Skip) << t("09:30:00") << QStringList{} << t("10:00:00");
}

void TestScheduleLoader::due_lateToleranceAndMisfirePolicy()
{
    QFETCH(int, misfire);
    QFETCH(QString, lookedAt);
    const Schedule s =
        schedule(1, ScheduleKind::Cron, QStringLiteral("0 * * * *"), MisfirePolicy(misfire));
    const SchedulePlan plan = SchedulePlan::create(s, QTimeZone::utc()).value();
    const ScheduleLoader::DueFires due =
        loader().due(plan, at(QStringLiteral("2026-01-01T07:00:00Z")), at(lookedAt));
    QStringList fired;
    for (qint64 ms : due.fires)
        fired << iso(ms);
    QTEST(fired, "fires");
    QVERIFY(due.next);
    QTEST(iso(*due.next), "next");
}

QTEST_GUILESS_MAIN(TestScheduleLoader)
#include "tst_scheduleloader.moc"
