#include "chain/backfilldialog.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QListWidget>
#include <QPushButton>
#include <QTest>

using namespace hg;

// Backfill from the chain's context menu: the fire times it will queue runs for are listed
// before anything is queued; Queue writes the batch.
class TestBackfillDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void range_listsTheFireTimesThenQueuesThem();
    void emptyRange_saysWhyAndQueuesNothing();

private:
    static Chain dailyChain(Store &store);
    static QDateTime utc(int day, int hour)
    {
        return QDateTime(QDate(2026, 3, day), QTime(hour, 0), QTimeZone::utc());
    }
};

Chain TestBackfillDialog::dailyChain(Store &store)
{
    const Project project = ProjectRepository(store).add(QStringLiteral("p")).value();
    Chain chain;
    chain.projectId = project.id;
    chain.name = QStringLiteral("nightly");
    chain = ChainRepository(store).add(chain).value();
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("0 2 * * *");
    schedule.dialect = CronDialect::Unix;
    schedule.timeZone = QStringLiteral("UTC");
    (void)ScheduleRepository(store).add(schedule);
    return chain;
}

void TestBackfillDialog::range_listsTheFireTimesThenQueuesThem()
{
    HG_TEST_STORE(t);
    const Chain chain = dailyChain(t.store());
    BackfillDialog dialog(t.store(), chain, QTimeZone::utc());
    dialog.setRange(utc(1, 0), utc(4, 0)); // 1, 2 and 3 March at 02:00
    dialog.setParallel(2);
    dialog.setNewestFirst(true);
    QCOMPARE(dialog.preview()->count(), 3);
    QCOMPARE(dialog.summary(), QStringLiteral("3 run(s) of nightly, newest first, 2 at a time."));
    QCOMPARE(dialog.queueButton()->text(), QStringLiteral("&Queue 3 run(s)"));
    QVERIFY(RunRepository(t.store()).list({})->isEmpty()); // nothing queued yet
    dialog.queueButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.queued().size(), 3);
    QCOMPARE(dialog.queued().at(0).scheduledFor.toUTC(), utc(3, 2)); // newest first
    QCOMPARE(dialog.queued().at(0).trigger, RunTrigger::Backfill);
    QCOMPARE(RunRepository(t.store()).list({})->size(), 3);
}

void TestBackfillDialog::emptyRange_saysWhyAndQueuesNothing()
{
    HG_TEST_STORE(t);
    const Chain chain = dailyChain(t.store());
    BackfillDialog dialog(t.store(), chain, QTimeZone::utc());
    dialog.setRange(utc(1, 3), utc(1, 4));
    QCOMPARE(dialog.preview()->count(), 0);
    QVERIFY2(dialog.summary().contains(QStringLiteral("no fire times")),
             qPrintable(dialog.summary()));
    QVERIFY(!dialog.queueButton()->isEnabled());
    dialog.setRange(utc(4, 0), utc(1, 0));
    QVERIFY2(dialog.summary().contains(QStringLiteral("must not be after")),
             qPrintable(dialog.summary()));
    QVERIFY(!dialog.queueButton()->isEnabled());
}

QTEST_MAIN(TestBackfillDialog)
#include "tst_backfilldialog.moc"
