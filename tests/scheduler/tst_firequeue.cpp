#include "scheduler/firequeue.h"

#include <QTest>

using namespace hg;

class TestFireQueue final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void takeDue_returnsEarliestFirstAndOnlyDue();
    void set_replacesTheEarlierTime();
    void remove_dropsTheSchedule();
};

void TestFireQueue::takeDue_returnsEarliestFirstAndOnlyDue()
{
    FireQueue queue;
    queue.set(1, 300);
    queue.set(2, 100);
    queue.set(3, 200);
    QCOMPARE(queue.nextDueMs(), 100);
    const auto due = queue.takeDue(250);
    QCOMPARE(due.size(), std::size_t(2));
    QCOMPARE(due.at(0).scheduleId, 2);
    QCOMPARE(due.at(1).scheduleId, 3);
    QCOMPARE(queue.nextDueMs(), 300);
    QCOMPARE(queue.size(), 1);
}

void TestFireQueue::set_replacesTheEarlierTime()
{
    FireQueue queue;
    queue.set(1, 100);
    queue.set(1, 500); // the schedule changed: only the new time counts
    QCOMPARE(queue.nextDueMs(), 500);
    QVERIFY(queue.takeDue(400).empty());
    QCOMPARE(queue.takeDue(500).size(), std::size_t(1));
    QCOMPARE(queue.nextDueMs(), -1);
}

void TestFireQueue::remove_dropsTheSchedule()
{
    FireQueue queue;
    queue.set(1, 100);
    queue.set(2, 200);
    queue.remove(1);
    QVERIFY(!queue.contains(1));
    QCOMPARE(queue.nextDueMs(), 200);
}

QTEST_GUILESS_MAIN(TestFireQueue)
#include "tst_firequeue.moc"
