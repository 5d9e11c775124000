#include "scheduler/clock.h"
#include "scheduler/clockwatch.h"

#include <QTest>

using namespace hg;

// Sleeps and steps of the wall clock told apart from time passing, on a hand-moved clock.
class TestClockWatch final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timePassing_isNoJump();
    void sleep_forwardStep_andStepBack_areToldApart();
    void lengths_readAsTheTwoLargestUnits();
};

void TestClockWatch::timePassing_isNoJump()
{
    ManualClock clock(1'000'000);
    ClockWatch watch(clock);
    ClockWatch::Jump jump;
    clock.advanceMs(3600'000); // a long pause of the engine's thread is no jump either
    QVERIFY(!watch.look(&jump));
    clock.stepWallMs(1500); // within the tolerance: two clocks read one after the other
    QVERIFY(!watch.look(&jump));
}

void TestClockWatch::sleep_forwardStep_andStepBack_areToldApart()
{
    ManualClock clock(1'000'000);
    ClockWatch watch(clock);
    ClockWatch::Jump jump;
    clock.advanceMs(400);
    clock.sleepMs(7 * 3600'000);
    clock.advanceMs(300);
    QVERIFY(watch.look(&jump));
    QCOMPARE(jump.kind, ClockWatch::JumpKind::Sleep);
    QCOMPARE(jump.fromMs, 1'000'700);
    QCOMPARE(jump.toMs, 1'000'700 + 7 * 3600'000);
    QVERIFY(!watch.look(&jump)); // said once

    clock.stepWallMs(6 * 3600'000);
    QVERIFY(watch.look(&jump));
    QCOMPARE(jump.kind, ClockWatch::JumpKind::StepForward);
    QCOMPARE(jump.lengthMs(), 6 * 3600'000);

    clock.stepWallMs(-3600'000);
    QVERIFY(watch.look(&jump));
    QCOMPARE(jump.kind, ClockWatch::JumpKind::StepBack);
    QCOMPARE(jump.lengthMs(), -3600'000);
}

void TestClockWatch::lengths_readAsTheTwoLargestUnits()
{
    QCOMPARE(ClockWatch::describeLength((7 * 60 + 12) * 60'000 + 5000),
             QStringLiteral("7 h 12 min"));
    QCOMPARE(ClockWatch::describeLength(-3600'000), QStringLiteral("1 h"));
    QCOMPARE(ClockWatch::describeLength(200'000), QStringLiteral("3 min 20 s"));
    QCOMPARE(ClockWatch::describeLength(26 * 3600'000), QStringLiteral("1 d 2 h"));
    QCOMPARE(ClockWatch::describeLength(0), QStringLiteral("0 s"));
}

QTEST_GUILESS_MAIN(TestClockWatch)
#include "tst_clockwatch.moc"
