#include "fixtures.h"
#include "logmodel.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hg;

// The live log: a bounded buffer that starts from the store and follows the engine's batches.
class TestLogModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void follow_startsWithTheStoredTail();
    void batches_appendOnlyThisRunsNewLines();
    void fullBuffer_dropsTheOldestLines();
    void taskRun_showsOnlyItsLines();
    void find_andTextForCopy();

private:
    static QList<LogLine> lines(qint64 runId, int from, int count, qint64 taskRunId = 0);
};

QList<LogLine> TestLogModel::lines(qint64 runId, int from, int count, qint64 taskRunId)
{
    QList<LogLine> batch;
    for (int i = from; i < from + count; ++i)
        batch << LogLine{0,
                         runId,
                         taskRunId,
                         i % 4 == 3 ? LogStream::Stderr : LogStream::Stdout,
                         QDateTime::currentDateTimeUtc(),
                         QStringLiteral("line %1").arg(i)};
    return batch;
}

void TestLogModel::follow_startsWithTheStoredTail()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    QList<LogLine> stored = lines(run.id, 0, 250);
    QVERIFY(LogRepository(t.store()).append(stored));
    LogModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(100);
    QVERIFY(model.follow(run.id));
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(model.data(model.index(0)).toString(), QStringLiteral("line 150"));
    QCOMPARE(model.data(model.index(99)).toString(), QStringLiteral("line 249"));
    QCOMPARE(model.data(model.index(1), LogModel::StreamRole).toInt(),
             int(LogStream::Stderr)); // 151
}

void TestLogModel::batches_appendOnlyThisRunsNewLines()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    const Run other = test::queueRun(t.store(), chain.id);
    QList<LogLine> first = lines(run.id, 0, 10);
    QVERIFY(LogRepository(t.store()).append(first));
    LogModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.follow(run.id));
    QCOMPARE(model.rowCount(), 10);
    model.appendLines(first); // the batch the store read already had: not twice
    QCOMPARE(model.rowCount(), 10);
    QList<LogLine> next = lines(run.id, 10, 5) + lines(other.id, 0, 5);
    QVERIFY(LogRepository(t.store()).append(next));
    model.appendLines(next);
    QCOMPARE(model.rowCount(), 15);
    QCOMPARE(model.data(model.index(14)).toString(), QStringLiteral("line 14"));
}

void TestLogModel::fullBuffer_dropsTheOldestLines()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    LogModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(100);
    QVERIFY(model.follow(run.id));
    model.appendLines(lines(run.id, 0, 70));
    model.appendLines(lines(run.id, 70, 70));
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(model.data(model.index(0)).toString(), QStringLiteral("line 40"));
    model.appendLines(lines(run.id, 140, 250)); // a batch larger than the buffer
    QCOMPARE(model.rowCount(), 100);
    QCOMPARE(model.data(model.index(0)).toString(), QStringLiteral("line 290"));
    QCOMPARE(model.data(model.index(99)).toString(), QStringLiteral("line 389"));
}

void TestLogModel::taskRun_showsOnlyItsLines()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    LogModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.follow(run.id, 7));
    model.setTaskName(7, QStringLiteral("dump"));
    model.appendLines(lines(run.id, 0, 4, 7) + lines(run.id, 4, 4, 8));
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.data(model.index(0)).toString(), QStringLiteral("dump | line 0"));
    QCOMPARE(model.data(model.index(3)).toString(), QStringLiteral("dump ! line 3"));
}

void TestLogModel::find_andTextForCopy()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    LogModel model(t.store());
    QVERIFY(model.follow(run.id));
    model.appendLines(lines(run.id, 0, 30));
    QCOMPARE(model.find(QStringLiteral("LINE 2"), 0), 2);
    QCOMPARE(model.find(QStringLiteral("line 2"), 3), 20);
    QCOMPARE(model.find(QStringLiteral("line 2"), 29, false), 29);
    QCOMPARE(model.find(QStringLiteral("nothing"), 0), -1);
    QCOMPARE(model.text(1, 3), QStringLiteral("line 1\nline 2\nline 3"));
}

QTEST_MAIN(TestLogModel)
#include "tst_logmodel.moc"
