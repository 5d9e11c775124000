#include "fixtures.h"
#include "storedamage.h"
#include "storeopencheck.h"
#include "testservers.h"
#include "teststore.h"

#include <QLabel>
#include <QSemaphore>
#include <QSqlQuery>
#include <QTest>
#include <QTimer>

using namespace hg;

using namespace std::chrono_literals;

namespace {

// A check that ends once `released` is released (or fails after 20 s, never hangs).
StoreOpenCheck::Work waitFor(QSemaphore &released)
{
    return [&released] {
        return released.tryAcquire(1, 20000) ? Status()
                                             : Status(Error::runtime(QStringLiteral("hung")));
    };
}

} // namespace

// The desktop's first open of its store runs on a thread of its own (quick_check reads the whole
// file: seconds for a large store), the GUI thread answering meanwhile and saying what it checks.
class TestStoreOpenCheck final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void soundStore_passesAndTheWindowsOwnOpenNeedsNoCheck();
    void damagedStore_failsNamingTheDamage();
    void slowCheck_showsWhatItChecksWhileTheGuiThreadAnswers();
    void closingTheWindow_cancelsTheStart();
};

void TestStoreOpenCheck::soundStore_passesAndTheWindowsOwnOpenNeedsNoCheck()
{
    HG_TEST_STORE(t);
    test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("kept"));
    t.close();
    StoreOpenCheck check(t.location());
    QVERIFY2(check.run(), qPrintable(check.error().error().message));
    QVERIFY(!check.window()); // quick: no window flashed
    Store::Options options;
    options.alreadyChecked = true;
    QVERIFY(Store::open(t.location(), QStringLiteral("gui"), options));
}

void TestStoreOpenCheck::damagedStore_failsNamingTheDamage()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("c"));
    QSqlQuery fill(t.store().database()); // pages enough that one of the run table's can break
    QVERIFY(fill.exec(
        QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < "
                       "1999) INSERT INTO run (chain_id, trigger, scheduled_for, state, "
                       "created_at) SELECT %1, 'manual', n.i, 'succeeded', 0 FROM n")
            .arg(chain.id)));
    fill.finish();
    t.close();
    QCOMPARE(test::damageTablePage(t.location().sqlitePath(), QStringLiteral("run")), QString());
    StoreOpenCheck check(t.location());
    QVERIFY(!check.run());
    QCOMPARE(check.error().error().kind, ErrorKind::Damaged);
    QVERIFY2(check.error().error().message.contains(QLatin1String("damaged")),
             qPrintable(check.error().error().message));
}

void TestStoreOpenCheck::slowCheck_showsWhatItChecksWhileTheGuiThreadAnswers()
{
    HG_TEST_STORE(t);
    t.close();
    // The check waits until the GUI thread has served its timer three times with the window up:
    // it cannot end unless the GUI thread answers while it runs.
    QSemaphore answered;
    StoreOpenCheck check(t.location(), waitFor(answered), 0ms);
    int ticks = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, this, [&] {
        if (++ticks == 3)
            answered.release();
    });
    QString shown;
    connect(&check, &StoreOpenCheck::windowShown, this, [&] {
        shown = check.window()->findChild<QLabel *>()->text();
        tick.start(10);
    });
    QVERIFY2(check.run(), qPrintable(check.error().error().message));
    QVERIFY(ticks >= 3);
    QVERIFY2(shown.contains(t.location().sqlitePath()), qPrintable(shown));
    QVERIFY(!check.window()); // gone once the check is done
}

// helper-1: closing the window (or Escape) let the main window open a few seconds later anyway.
void TestStoreOpenCheck::closingTheWindow_cancelsTheStart()
{
    HG_TEST_STORE(t);
    t.close();
    QSemaphore closed;
    StoreOpenCheck check(t.location(), waitFor(closed), 0ms);
    connect(&check, &StoreOpenCheck::windowShown, this, [&] {
        QTest::keyClick(check.window(), Qt::Key_Escape);
        closed.release();
    });
    (void)check.run();
    QVERIFY(check.cancelled());
}

QTEST_MAIN(TestStoreOpenCheck)
#include "tst_storeopencheck.moc"
