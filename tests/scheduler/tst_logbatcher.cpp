#include "scheduler/logbatcher.h"
#include "scheduler/runrecorder.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

// The log's writer while the store refuses writes: lines wait in memory up to a bound and
// beyond it are counted; when the engine must stop meanwhile, what still waits is counted
// too, so the marker the next engine writes accounts for every line.
class TestLogBatcher final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stopWhileHolding_pendingLinesAreCountedInTheMarker();
    void beyondTheHeldLimit_droppedAndPendingAddUpToAllLines();

private:
    static LogLine line(qint64 runId, qint64 taskRunId, int n);
    static qint64 counted(const QList<LogLine> &markers);
};

LogLine TestLogBatcher::line(qint64 runId, qint64 taskRunId, int n)
{
    return LogLine{0,
                   runId,
                   taskRunId,
                   LogStream::Stdout,
                   QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + n, Qt::UTC),
                   QStringLiteral("line %1").arg(n)};
}

qint64 TestLogBatcher::counted(const QList<LogLine> &markers)
{
    qint64 sum = 0;
    for (const LogLine &marker : markers)
        sum += marker.text.section(QLatin1Char(' '), 0, 0).toLongLong();
    return sum;
}

void TestLogBatcher::stopWhileHolding_pendingLinesAreCountedInTheMarker()
{
    HG_TEST_STORE(test);
    RunRecorder recorder(test.store());
    LogBatcher batcher(test.store(), recorder);
    recorder.hold(); // a run's end met the full disk before any batch of output did
    for (int n = 0; n < 3; ++n)
        batcher.add(line(1, 7, n));
    batcher.add(line(2, 9, 3));
    batcher.flush(); // holding: not even tried
    QCOMPARE(batcher.pendingCount(), 4);
    QVERIFY(batcher.droppedMarkers().isEmpty());

    batcher.countPendingAsDropped();
    QCOMPARE(batcher.pendingCount(), 0);
    const QList<LogLine> markers = batcher.droppedMarkers();
    QCOMPARE(markers.size(), 2);
    for (const LogLine &marker : markers) {
        QCOMPARE(marker.stream, LogStream::System);
        QCOMPARE(marker.text.section(QLatin1Char(' '), 0, 0).toInt(), marker.runId == 1 ? 3 : 1);
        QCOMPARE(marker.at, line(marker.runId, 0, marker.runId == 1 ? 0 : 3).at); // the first's
        QVERIFY(marker.text.contains(QLatin1String("lines of output were dropped here")));
    }
}

void TestLogBatcher::beyondTheHeldLimit_droppedAndPendingAddUpToAllLines()
{
    HG_TEST_STORE(test);
    RunRecorder recorder(test.store());
    LogBatcher batcher(test.store(), recorder);
    recorder.hold();
    const int total = int(LogBatcher::heldLineLimit) + 1234;
    for (int n = 0; n < total; ++n)
        batcher.add(line(1, 7, n));
    QCOMPARE(batcher.pendingCount(), LogBatcher::heldLineLimit);
    QCOMPARE(counted(batcher.droppedMarkers()), 1234);
    batcher.countPendingAsDropped();
    QCOMPARE(counted(batcher.droppedMarkers()), total);
}

QTEST_GUILESS_MAIN(TestLogBatcher)
#include "tst_logbatcher.moc"
