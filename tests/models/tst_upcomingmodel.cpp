#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"
#include "upcomingmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hg;

// The coming week's fire times across all chains, soonest first.
class TestUpcomingModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void week_listsEveryFireSoonestFirst();
    void noisySchedule_isCut();
    void dropPast_leavesOutTheFiresGoneBy();

private:
    static void schedule(Store &store, qint64 chainId, const QString &expression,
                         const QString &zone = QStringLiteral("UTC"));
};

void TestUpcomingModel::schedule(Store &store, qint64 chainId, const QString &expression,
                                 const QString &zone)
{
    Schedule s;
    s.chainId = chainId;
    s.expression = expression;
    s.timeZone = zone;
    QVERIFY(ScheduleRepository(store).add(s));
}

void TestUpcomingModel::week_listsEveryFireSoonestFirst()
{
    HG_TEST_STORE(t);
    const Chain daily = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("daily"));
    const Chain often = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("often"));
    Chain off = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("off"));
    schedule(t.store(), daily.id, QStringLiteral("0 9 * * *"), QStringLiteral("Europe/Berlin"));
    schedule(t.store(), often.id, QStringLiteral("0 */6 * * *"));
    schedule(t.store(), off.id, QStringLiteral("* * * * *"));
    off.enabled = false;
    QVERIFY(ChainRepository(t.store()).update(off));

    UpcomingModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QDateTime from(QDate(2027, 1, 4), QTime(0, 0), Qt::UTC); // a Monday
    QVERIFY(model.reload(from, 7));
    QCOMPARE(model.rowCount(), 7 + 28);
    QDateTime previous;
    int dailyFires = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QDateTime at =
            model.data(model.index(row, 0), UpcomingModel::FireTimeRole).toDateTime();
        QVERIFY(!previous.isValid() || previous <= at);
        previous = at;
        if (model.data(model.index(row, 0), UpcomingModel::ChainIdRole).toLongLong() == daily.id) {
            ++dailyFires;
            QCOMPARE(at.time(), QTime(8, 0)); // 09:00 in Berlin in winter
            QCOMPARE(model.data(model.index(row, UpcomingModel::ScheduleColumn)).toString(),
                     QStringLiteral("0 9 * * * (Europe/Berlin)"));
        }
    }
    QCOMPARE(dailyFires, 7);
    QCOMPARE(model.data(model.index(0, UpcomingModel::ChainColumn)).toString(),
             QStringLiteral("p/often"));
}

void TestUpcomingModel::dropPast_leavesOutTheFiresGoneBy()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    schedule(t.store(), chain.id, QStringLiteral("0 */6 * * *"));
    UpcomingModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QDateTime from(QDate(2027, 1, 4), QTime(0, 0), Qt::UTC);
    QVERIFY(model.reload(from, 7));
    QCOMPARE(model.rowCount(), 28);
    QCOMPARE(model.dropPast(from.toMSecsSinceEpoch()), 0); // at the first fire: it stays
    QCOMPARE(model.dropPast(from.addSecs(13 * 3600).toMSecsSinceEpoch()), 3); // 0, 6, 12 h
    QCOMPARE(model.rowCount(), 25);
    QCOMPARE(model.data(model.index(0, 0), UpcomingModel::FireTimeRole).toDateTime(),
             from.addSecs(18 * 3600));
    QCOMPARE(model.dropPast(from.addDays(30).toMSecsSinceEpoch()), 25);
    QCOMPARE(model.rowCount(), 0);
}

void TestUpcomingModel::noisySchedule_isCut()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    schedule(t.store(), chain.id, QStringLiteral("* * * * * *"));
    UpcomingModel model(t.store());
    QVERIFY(model.reload(QDateTime(QDate(2027, 1, 4), QTime(0, 0), Qt::UTC), 7));
    QCOMPARE(model.rowCount(), UpcomingModel::perSchedule);
    QCOMPARE(model.truncatedSchedules(), 1);
    // The last listed fire says the schedule goes on (the timeline draws it to the end).
    const int last = model.rowCount() - 1;
    QVERIFY(model.index(last, 0).data(UpcomingModel::ContinuesRole).toBool());
    QVERIFY(!model.index(last - 1, 0).data(UpcomingModel::ContinuesRole).toBool());
}

QTEST_MAIN(TestUpcomingModel)
#include "tst_upcomingmodel.moc"
