#include "base/longtimer.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <limits>

using namespace hg;

// Durations are 64-bit milliseconds: a delay past QTimer's int (about 24.8 days) neither
// wraps into a short one nor is lost; it is re-armed in steps until its deadline.
class TestLongTimer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { LongTimer::setStepLimitForTest(std::numeric_limits<int>::max()); }
    void beyondIntMilliseconds_doesNotFireEarly();
    void longDelay_reArmedInStepsUntilItsDeadline();
    void stop_keepsItFromFiring();
    void aCenturyAtMost();
};

void TestLongTimer::beyondIntMilliseconds_doesNotFireEarly()
{
    // 4,294,968 s: as int milliseconds this wrapped to 0.7 s.
    LongTimer timer;
    QSignalSpy fired(&timer, &LongTimer::timeout);
    timer.start(qint64(4294968) * 1000);
    QVERIFY(timer.isActive());
    QVERIFY(timer.remainingMs() > qint64(4294967) * 1000);
    QVERIFY(!fired.wait(1500));
}

void TestLongTimer::longDelay_reArmedInStepsUntilItsDeadline()
{
    LongTimer::setStepLimitForTest(50);
    LongTimer timer;
    QSignalSpy fired(&timer, &LongTimer::timeout);
    QElapsedTimer elapsed;
    elapsed.start();
    timer.start(400); // eight steps
    QVERIFY(fired.wait(30000));
    QCOMPARE(fired.count(), 1);
    QVERIFY2(elapsed.elapsed() >= 390, qPrintable(QString::number(elapsed.elapsed())));
    QVERIFY(!timer.isActive());
}

void TestLongTimer::stop_keepsItFromFiring()
{
    LongTimer::setStepLimitForTest(20);
    LongTimer timer;
    QSignalSpy fired(&timer, &LongTimer::timeout);
    // Two seconds: it is stopped after a few steps, long before it is due however slow the
    // machine, and the wait below outlasts its deadline.
    timer.start(2000);
    QTRY_VERIFY_WITH_TIMEOUT(timer.remainingMs() < 1900, 30000); // a few steps have passed
    timer.stop();
    QVERIFY(!fired.wait(2500));
    QCOMPARE(fired.count(), 0);
}

void TestLongTimer::aCenturyAtMost()
{
    LongTimer timer;
    timer.start(std::numeric_limits<qint64>::max());
    QVERIFY(timer.remainingMs() <= LongTimer::maximumMs);
    QVERIFY(timer.remainingMs() > LongTimer::maximumMs - 60000);
}

QTEST_GUILESS_MAIN(TestLongTimer)
#include "tst_longtimer.moc"
