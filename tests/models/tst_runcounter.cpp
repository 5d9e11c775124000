#include "runcounter.h"

#include <QSignalSpy>
#include <QTest>

using namespace hg;
using namespace Qt::StringLiterals;

// The one count of active, queued and failed runs that the status bar and the tray share.
class TestRunCounter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void events_giveTheCounts_data();
    void events_giveTheCounts();
};

namespace {

// "7:running" is run 7 now running; "7s:failed" the same for a subchain run.
Run runFrom(const QString &event)
{
    const QStringList parts = event.split(QLatin1Char(':'));
    QString id = parts.at(0);
    Run run;
    if (id.endsWith(QLatin1Char('s'))) {
        run.trigger = RunTrigger::Subchain;
        id.chop(1);
    }
    run.id = id.toLongLong();
    const std::optional<RunState> state = enumFromString<RunState>(parts.at(1));
    if (!state)
        qFatal("no such state: %s", qPrintable(parts.at(1)));
    run.state = *state;
    return run;
}

} // namespace

void TestRunCounter::events_giveTheCounts_data()
{
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<int>("active");
    QTest::addColumn<int>("queued");
    QTest::addColumn<int>("failed");
    QTest::addColumn<bool>("lastFailed");
    QTest::addColumn<int>("emitted"); // countsChanged only on a real change

    QTest::newRow("nothing") << QStringList{} << 0 << 0 << 0 << false << 0;
    QTest::newRow("queued") << QStringList{u"1:queued"_s, u"2:waiting"_s} << 0 << 2 << 0 << false
                            << 2;
    QTest::newRow("queued then running")
        << QStringList{u"1:queued"_s, u"1:running"_s} << 1 << 0 << 0 << false << 2;
    QTest::newRow("paused is active")
        << QStringList{u"1:running"_s, u"1:paused"_s} << 1 << 0 << 0 << false << 1;
    QTest::newRow("the same event twice")
        << QStringList{u"1:running"_s, u"1:running"_s} << 1 << 0 << 0 << false << 1;
    QTest::newRow("succeeded") << QStringList{u"1:running"_s, u"1:succeeded"_s} << 0 << 0 << 0
                               << false << 2;
    QTest::newRow("failed") << QStringList{u"1:running"_s, u"1:failed"_s} << 0 << 0 << 1 << true
                            << 2;
    QTest::newRow("timed out counts as failed")
        << QStringList{u"1:running"_s, u"1:timed_out"_s} << 0 << 0 << 1 << true << 2;
    QTest::newRow("cancelled is no failure")
        << QStringList{u"1:running"_s, u"1:cancelled"_s} << 0 << 0 << 0 << false << 2;
    QTest::newRow("a success after a failure")
        << QStringList{u"1:failed"_s, u"2:running"_s, u"2:succeeded"_s} << 0 << 0 << 1 << false
        << 3;
    QTest::newRow("failures add up")
        << QStringList{u"1:failed"_s, u"2:timed_out"_s, u"3:running"_s} << 1 << 0 << 2 << true << 3;
    QTest::newRow("a subchain's failure is its parent's")
        << QStringList{u"1:running"_s, u"2s:running"_s, u"2s:failed"_s} << 1 << 0 << 0 << false
        << 3;
    QTest::newRow("interrupted leaves the counts")
        << QStringList{u"1:running"_s, u"2:queued"_s, u"1:interrupted"_s, u"2:interrupted"_s} << 0
        << 0 << 0 << false << 4;
    QTest::newRow("several at once")
        << QStringList{u"1:running"_s, u"2:running"_s, u"3:queued"_s,
                       u"4:queued"_s,  u"3:running"_s, u"1:succeeded"_s}
        << 2 << 1 << 0 << false << 6;
}

void TestRunCounter::events_giveTheCounts()
{
    QFETCH(QStringList, events);
    QFETCH(int, active);
    QFETCH(int, queued);
    QFETCH(int, failed);
    QFETCH(bool, lastFailed);
    QFETCH(int, emitted);

    RunCounter counter;
    QSignalSpy changed(&counter, &RunCounter::countsChanged);
    for (const QString &event : events)
        counter.applyRun(runFrom(event));

    const RunCounts counts = counter.counts();
    QCOMPARE(counts.active, active);
    QCOMPARE(counts.queued, queued);
    QCOMPARE(counts.failed, failed);
    QCOMPARE(counts.lastFailed, lastFailed);
    QCOMPARE(changed.count(), emitted);
    if (emitted > 0) // the signal carries what counts() says
        QVERIFY(changed.constLast().at(0).value<RunCounts>() == counts);
}

QTEST_GUILESS_MAIN(TestRunCounter)
#include "tst_runcounter.moc"
