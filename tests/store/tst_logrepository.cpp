#include "fixtures.h"
#include "statementrecorder.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestLogRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void append_batchIsReadBackInOrder();
    void read_followsFromLastSeenId();
    void append_badRunWritesNothing();
    void append_500Lines_fewStatements_eachLineKnowsItsId();
};

namespace {

qint64 makeRun(Store &store)
{
    const Chain chain = test::makeChain(store, QStringLiteral("p"), QStringLiteral("c"));
    Run run;
    run.chainId = chain.id;
    const Result<Run> inserted = RunRepository(store).insert(run);
    return inserted ? inserted->id : 0;
}

QList<LogLine> lines(qint64 runId, int count, int from = 0)
{
    QList<LogLine> batch;
    for (int i = from; i < from + count; ++i)
        batch << LogLine{0,
                         runId,
                         0,
                         i % 3 == 0 ? LogStream::Stderr : LogStream::Stdout,
                         QDateTime::currentDateTimeUtc(),
                         QStringLiteral("line %1 – ünïcode").arg(i)};
    return batch;
}

} // namespace

void TestLogRepository::append_batchIsReadBackInOrder()
{
    HG_TEST_STORE(t);
    const qint64 run = makeRun(t.store());
    LogRepository log(t.store());
    QList<LogLine> batch = lines(run, 500);
    QVERIFY(log.append(batch));
    const Result<QList<LogLine>> read = log.read(run, 0, 1000);
    QVERIFY(read);
    QCOMPARE(read->size(), 500);
    QCOMPARE(batch.first().id, read->first().id); // append tells each line its id
    QCOMPARE(batch.last().id, read->last().id);
    const Result<QList<LogLine>> tail = log.readTail(run, 3);
    QCOMPARE(tail->size(), 3);
    QCOMPARE(tail->last().id, batch.last().id);
    QCOMPARE(tail->first().text, QStringLiteral("line 497 – ünïcode"));
    QCOMPARE(read->at(0).text, QStringLiteral("line 0 – ünïcode"));
    QCOMPARE(read->at(0).stream, LogStream::Stderr);
    QCOMPARE(read->at(499).text, QStringLiteral("line 499 – ünïcode"));
}

// A batch is a few many-row statements, not one a line: a server far away or a store that
// refuses now and then (one statement in 20) still takes it. Each line still learns its id.
void TestLogRepository::append_500Lines_fewStatements_eachLineKnowsItsId()
{
    HG_TEST_STORE(t);
    const qint64 run = makeRun(t.store());
    LogRepository log(t.store());
    QList<LogLine> first = lines(run, 7);
    QVERIFY(log.append(first));
    QList<LogLine> batch = lines(run, 500, 7);
    int statements = 0;
    {
        const test::StatementRecorder recorder(t.store());
        QVERIFY(log.append(batch));
        statements = int(recorder.statements().size());
    }
    QVERIFY2(statements <= 6, qPrintable(QString::number(statements)));
    const Result<QList<LogLine>> read = log.read(run, first.last().id, 1000);
    QVERIFY(read);
    QCOMPARE(read->size(), batch.size());
    for (qsizetype i = 0; i < batch.size(); ++i) {
        QCOMPARE(read->at(i).id, batch.at(i).id);
        QCOMPARE(read->at(i).text, batch.at(i).text);
    }
}

void TestLogRepository::read_followsFromLastSeenId()
{
    HG_TEST_STORE(t);
    const qint64 run = makeRun(t.store());
    LogRepository log(t.store());
    QList<LogLine> ten = lines(run, 10);
    QVERIFY(log.append(ten));
    const Result<QList<LogLine>> first = log.read(run, 0, 4);
    QCOMPARE(first->size(), 4);
    QList<LogLine> more = lines(run, 5, 10);
    QVERIFY(log.append(more));
    const Result<QList<LogLine>> rest = log.read(run, first->last().id, 100);
    QCOMPARE(rest->size(), 11);
    QCOMPARE(rest->first().text, QStringLiteral("line 4 – ünïcode"));
    QCOMPARE(rest->last().text, QStringLiteral("line 14 – ünïcode"));
}

void TestLogRepository::append_badRunWritesNothing()
{
    HG_TEST_STORE(t);
    const qint64 run = makeRun(t.store());
    QList<LogLine> batch = lines(run, 3);
    batch << LogLine{
        0, 999999, 0, LogStream::System, QDateTime::currentDateTimeUtc(), QStringLiteral("orphan")};
    LogRepository log(t.store());
    QVERIFY(!log.append(batch));
    QVERIFY(log.read(run)->isEmpty()); // the batch is one transaction
}

QTEST_GUILESS_MAIN(TestLogRepository)
#include "tst_logrepository.moc"
