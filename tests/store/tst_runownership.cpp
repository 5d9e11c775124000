#include "backendtests.h"
#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/runownership.h"
#include "testservers.h"
#include "teststore.h"

#include <QSet>
#include <QTest>

using namespace hg;

// Claims of queued runs: the best chain priority first, then the oldest; a chain with a
// client name only for the engine of that name; and, on PostgreSQL, two engines claiming at
// once never take the same run (SKIP LOCKED) and neither waits for the other.
class TestRunOwnership final : public QObject
{
    Q_OBJECT
    // Functions for one backend only: not run (nor skipped) on the other.
    Q_CLASSINFO("postgresqlOnly", "claimQueued_twoSessionsAtOnceTakeDifferentRuns")

private Q_SLOTS:
    void claimQueued_bestPriorityFirstThenOldest();
    void claimQueued_leavesOtherClientsChains();
    void claimQueued_twoSessionsAtOnceTakeDifferentRuns();

private:
    static qint64 chainOf(Store &store, const QString &name, Priority priority,
                          const QString &clientName = {});
    static QList<qint64> queue(Store &store, qint64 chainId, int count);
};

qint64 TestRunOwnership::chainOf(Store &store, const QString &name, Priority priority,
                                 const QString &clientName)
{
    Chain chain = test::makeChain(store, QStringLiteral("p"), name);
    chain.priority = priority;
    chain.clientName = clientName;
    return ChainRepository(store).update(chain) ? chain.id : 0;
}

QList<qint64> TestRunOwnership::queue(Store &store, qint64 chainId, int count)
{
    QList<qint64> ids;
    for (int i = 0; i < count; ++i)
        ids << test::queueRun(store, chainId).id;
    return ids;
}

void TestRunOwnership::claimQueued_bestPriorityFirstThenOldest()
{
    HG_TEST_STORE(t);
    // Queued oldest first: the low chain's runs, then medium, then highest.
    const QList<qint64> low =
        queue(t.store(), chainOf(t.store(), QStringLiteral("low"), Priority::Low), 3);
    const QList<qint64> medium =
        queue(t.store(), chainOf(t.store(), QStringLiteral("medium"), Priority::Medium), 3);
    const QList<qint64> highest =
        queue(t.store(), chainOf(t.store(), QStringLiteral("highest"), Priority::Highest), 2);
    RunOwnership ownership(t.store());
    const Fence fence{1, 1};
    const Result<QList<qint64>> first = ownership.claimQueued(fence, QStringLiteral("me"), 4);
    QVERIFY(first);
    QCOMPARE(first.value(), (QList<qint64>{medium[0], medium[1], highest[0], highest[1]}));
    const Result<QList<qint64>> rest = ownership.claimQueued(fence, QStringLiteral("me"), 10);
    QVERIFY(rest);
    QCOMPARE(rest.value(), (QList<qint64>{low[0], low[1], low[2], medium[2]}));
    const Result<QList<qint64>> none = ownership.claimQueued(fence, QStringLiteral("me"), 10);
    QVERIFY(none);
    QVERIFY(none->isEmpty());
}

void TestRunOwnership::claimQueued_leavesOtherClientsChains()
{
    HG_TEST_STORE(t);
    const QList<qint64> theirs = queue(t.store(),
                                       chainOf(t.store(), QStringLiteral("theirs"),
                                               Priority::Highest, QStringLiteral("elsewhere")),
                                       2);
    const QList<qint64> anyones =
        queue(t.store(), chainOf(t.store(), QStringLiteral("any"), Priority::Lowest), 2);
    RunOwnership ownership(t.store());
    const Result<QList<qint64>> mine = ownership.claimQueued({1, 1}, QStringLiteral("me"), 10);
    QVERIFY(mine);
    QCOMPARE(mine.value(), anyones);
    const Result<QList<qint64>> elsewhere =
        ownership.claimQueued({2, 1}, QStringLiteral("elsewhere"), 10);
    QVERIFY(elsewhere);
    QCOMPARE(elsewhere.value(), theirs);
}

void TestRunOwnership::claimQueued_twoSessionsAtOnceTakeDifferentRuns()
{
    HG_TEST_STORE(t);
    const qint64 chainId = chainOf(t.store(), QStringLiteral("c"), Priority::Medium);
    const QList<qint64> queued = queue(t.store(), chainId, 12);
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("other-engine"));
    QList<qint64> mine;
    QList<qint64> theirs;
    // The first claim is still uncommitted (its rows locked) while the other engine claims.
    QVERIFY(t.store().transaction([&]() -> Status {
        const Result<QList<qint64>> claimed =
            RunOwnership(t.store()).claimQueued({1, 1}, QStringLiteral("a"), 5);
        if (!claimed)
            return claimed.error();
        mine = claimed.value();
        const Result<QList<qint64>> beside =
            RunOwnership(*other).claimQueued({2, 1}, QStringLiteral("b"), 20);
        if (!beside)
            return beside.error();
        theirs = beside.value();
        return Status{};
    }));
    QCOMPARE(mine, queued.mid(0, 5));
    QCOMPARE(theirs, queued.mid(5));
}

HG_BACKEND_TEST_GUILESS_MAIN(TestRunOwnership)
#include "tst_runownership.moc"
