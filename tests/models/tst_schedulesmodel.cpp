#include "cron/compiledcroncache.h"
#include "fixtures.h"
#include "schedulesmodel.h"
#include "store/chainrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hg;

// Listing schedules compiles each distinct expression once: the meaning column and the next
// fire time share one compiled expression, and a reload compiles nothing again.
class TestSchedulesModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void show_compilesEachExpressionOnce_data();
    void show_compilesEachExpressionOnce();
    void nextFire_inTheSchedulesZoneAndNoneWhenTheChainIsOff();
    void nextFire_goneByMovesOnToTheOneAfter();
};

void TestSchedulesModel::show_compilesEachExpressionOnce_data()
{
    QTest::addColumn<QStringList>("expressions");
    QTest::addColumn<qint64>("misses");
    QTest::addColumn<qint64>("hits");
    QTest::newRow("one") << QStringList{QStringLiteral("11 4 * * *")} << qint64(1) << qint64(1);
    QTest::newRow("three distinct")
        << QStringList{QStringLiteral("12 4 * * *"), QStringLiteral("@every 7 minutes"),
                       QStringLiteral("0 0 12 ? * MON#3")}
        << qint64(3) << qint64(3);
    QTest::newRow("one text three times")
        << QStringList{QStringLiteral("13 4 * * 1-5"), QStringLiteral("13 4 * * 1-5"),
                       QStringLiteral("13 4 * * 1-5")}
        << qint64(1) << qint64(5);
    // A one-off time and a start-up schedule have no expression to compile.
    QTest::newRow("nothing to compile")
        << QStringList{QStringLiteral("2030-01-01T00:00:00"), QStringLiteral("@reboot")}
        << qint64(0) << qint64(0);
}

void TestSchedulesModel::show_compilesEachExpressionOnce()
{
    QFETCH(QStringList, expressions);
    QFETCH(qint64, misses);
    QFETCH(qint64, hits);
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    for (const QString &expression : expressions) {
        Schedule schedule;
        schedule.chainId = chain.id;
        schedule.expression = expression;
        schedule.kind = inferScheduleKind(expression);
        const Result<Schedule> added = ScheduleRepository(t.store()).add(schedule);
        QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    }

    SchedulesModel model(t.store());
    model.setDefaultZone(QTimeZone("UTC"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    CompiledCronCache &cache = CompiledCronCache::shared();
    cache.clear(); // adding compiled them: start as a fresh process would
    const CompiledCronCache::Counters before = cache.counters();
    QVERIFY(model.show(chain.id));
    QCOMPARE(model.rowCount(), expressions.size());
    QCOMPARE(cache.counters().misses - before.misses, misses);
    QCOMPARE(cache.counters().hits - before.hits, hits);
    for (int row = 0; row < model.rowCount(); ++row)
        QVERIFY(!model.index(row, SchedulesModel::MeaningColumn).data().toString().isEmpty());

    // A reload finds everything compiled.
    const CompiledCronCache::Counters loaded = cache.counters();
    QVERIFY(model.reload());
    QCOMPARE(cache.counters().misses, loaded.misses);
    QCOMPARE(cache.counters().hits - loaded.hits, misses + hits);
}

// The Next fire column beside a Europe/Berlin schedule names its zone (it was the machine's
// time, unsaid); a switched-off chain fires nothing, so it lists no next fire.
void TestSchedulesModel::nextFire_inTheSchedulesZoneAndNoneWhenTheChainIsOff()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("0 9 * * *");
    schedule.kind = inferScheduleKind(schedule.expression);
    schedule.timeZone = QStringLiteral("Asia/Tokyo"); // never the machine's zone here
    QVERIFY(ScheduleRepository(t.store()).add(schedule));
    SchedulesModel model(t.store());
    model.setDefaultZone(QTimeZone("UTC"));
    QVERIFY(model.show(chain.id));
    const QModelIndex next = model.index(0, SchedulesModel::NextColumn);
    QVERIFY2(next.data().toString().contains(QLatin1String("09:00:00")),
             qPrintable(next.data().toString()));
    QVERIFY2(next.data().toString().contains(QLatin1String("JST"))
                 || next.data().toString().contains(QLatin1String("+09")),
             qPrintable(next.data().toString()));
    chain.enabled = false;
    QVERIFY(ChainRepository(t.store()).update(chain));
    QVERIFY(model.reload());
    const QModelIndex none = model.index(0, SchedulesModel::NextColumn);
    QCOMPARE(none.data().toString(), QStringLiteral("—"));
    QVERIFY(!none.data(SchedulesModel::NextFireRole).toDateTime().isValid());
    QVERIFY2(none.data(Qt::ToolTipRole).toString().contains(QLatin1String("switched off")),
             qPrintable(none.data(Qt::ToolTipRole).toString()));
}

// helper-1: a chain left open showed "next 20:41:00, in 4 s" at 20:41:43.
void TestSchedulesModel::nextFire_goneByMovesOnToTheOneAfter()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("0 9 * * *");
    schedule.kind = inferScheduleKind(schedule.expression);
    schedule.timeZone = QStringLiteral("UTC");
    QVERIFY(ScheduleRepository(t.store()).add(schedule));
    SchedulesModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.show(chain.id));
    const QModelIndex next = model.index(0, SchedulesModel::NextColumn);
    const QDateTime first = next.data(SchedulesModel::NextFireRole).toDateTime();
    QVERIFY(first.isValid());
    model.advancePastFires(first.toMSecsSinceEpoch() - 1); // not yet
    QCOMPARE(next.data(SchedulesModel::NextFireRole).toDateTime(), first);
    model.advancePastFires(first.toMSecsSinceEpoch()); // it came: the day after
    QCOMPARE(next.data(SchedulesModel::NextFireRole).toDateTime().toMSecsSinceEpoch(),
             first.addDays(1).toMSecsSinceEpoch());
}

QTEST_MAIN(TestSchedulesModel)
#include "tst_schedulesmodel.moc"
