#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/definitionchangerepository.h"
#include "store/dependencyrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSqlQuery>
#include <QTest>

using namespace hg;

// The change feed the engine reloads by: each edit names the chain it touched, an edit the
// engine does not run on (a description, a canvas position) names none, and a reader the
// feed no longer reaches is told to reload everything.
class TestDefinitionChanges final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void edits_nameTheirChain();
    void noEngineColumn_isNoChange();
    void movedSchedule_namesBothChains();
    void deletedChain_isNamed();
    void pruned_readerReloadsEverything();
};

namespace {

Schedule cronSchedule(qint64 chainId, const QString &expression)
{
    Schedule schedule;
    schedule.chainId = chainId;
    schedule.kind = ScheduleKind::Cron;
    schedule.expression = expression;
    return schedule;
}

} // namespace

void TestDefinitionChanges::edits_nameTheirChain()
{
    HG_TEST_STORE(t);
    const Chain a = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("a"));
    Chain b = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("b"));
    DefinitionChangeRepository feed(t.store());
    qint64 seen = feed.revision().value();
    const auto changedSince = [&] {
        const Result<DefinitionChangeRepository::Changes> changes = feed.since(seen);
        if (!changes || !changes->complete)
            return QSet<qint64>{-1};
        seen = changes->revision;
        return changes->chainIds;
    };

    const Task first = test::makeTask(t.store(), a.id, QStringLiteral("first"));
    QCOMPARE(changedSince(), QSet<qint64>{a.id});
    Task second = test::makeTask(t.store(), a.id, QStringLiteral("second"));
    QVERIFY(DependencyRepository(t.store()).add(a.id, second.id, first.id,
                                                DependencyCondition::Success));
    QCOMPARE(changedSince(), QSet<qint64>{a.id});
    second.command = QStringLiteral("echo edited");
    QVERIFY(TaskRepository(t.store()).update(second));
    QCOMPARE(changedSince(), QSet<qint64>{a.id});

    Result<Schedule> schedule =
        ScheduleRepository(t.store()).add(cronSchedule(b.id, QStringLiteral("*/5 * * * *")));
    QVERIFY(schedule);
    QCOMPARE(changedSince(), QSet<qint64>{b.id});
    b.maxInstances = 2;
    QVERIFY(ChainRepository(t.store()).update(b));
    QCOMPARE(changedSince(), QSet<qint64>{b.id});
    schedule->dst = DstPolicy::cronie(); // the DST rule changes fire times: the engine reloads
    QVERIFY(ScheduleRepository(t.store()).update(schedule.value()));
    QCOMPARE(changedSince(), QSet<qint64>{b.id});
    // Nothing since: the same revision, nothing named.
    const Result<DefinitionChangeRepository::Changes> none = feed.since(seen);
    QVERIFY(none && none->complete);
    QCOMPARE(none->revision, seen);
    QVERIFY(none->chainIds.isEmpty());
}

void TestDefinitionChanges::noEngineColumn_isNoChange()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task task = test::makeTask(t.store(), chain.id, QStringLiteral("t"));
    DefinitionChangeRepository feed(t.store());
    const qint64 before = feed.revision().value();
    chain.description = QStringLiteral("what it is for");
    QVERIFY(ChainRepository(t.store()).update(chain));
    QVERIFY(TaskRepository(t.store()).setPosition(task.id, QPointF(10, 20)));
    QVERIFY(TaskRepository(t.store()).update(TaskRepository(t.store()).byId(task.id).value()));
    QCOMPARE(feed.revision().value(), before);
}

void TestDefinitionChanges::movedSchedule_namesBothChains()
{
    HG_TEST_STORE(t);
    const Chain from = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("from"));
    const Chain to = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("to"));
    const Schedule schedule = ScheduleRepository(t.store())
                                  .add(cronSchedule(from.id, QStringLiteral("0 * * * *")))
                                  .value();
    DefinitionChangeRepository feed(t.store());
    const qint64 before = feed.revision().value();
    // Hourglass never moves a schedule, but any client of a shared store may.
    QSqlQuery move(t.store().database());
    QVERIFY(move.exec(QStringLiteral("UPDATE schedule SET chain_id = %1 WHERE id = %2")
                          .arg(to.id)
                          .arg(schedule.id)));
    const Result<DefinitionChangeRepository::Changes> changes = feed.since(before);
    QVERIFY(changes && changes->complete);
    QCOMPARE(changes->chainIds, (QSet<qint64>{from.id, to.id}));
}

void TestDefinitionChanges::deletedChain_isNamed()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task first = test::makeTask(t.store(), chain.id, QStringLiteral("first"));
    const Task second = test::makeTask(t.store(), chain.id, QStringLiteral("second"));
    QVERIFY(DependencyRepository(t.store()).add(chain.id, second.id, first.id,
                                                DependencyCondition::Success));
    QVERIFY(ScheduleRepository(t.store()).add(cronSchedule(chain.id, QStringLiteral("@daily"))));
    DefinitionChangeRepository feed(t.store());
    const qint64 before = feed.revision().value();
    QVERIFY(ChainRepository(t.store()).remove(chain.id)); // its tasks and schedule go with it
    const Result<DefinitionChangeRepository::Changes> changes = feed.since(before);
    QVERIFY(changes && changes->complete);
    QCOMPARE(changes->chainIds, QSet<qint64>{chain.id});
    QVERIFY(changes->revision > before);
}

void TestDefinitionChanges::pruned_readerReloadsEverything()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    DefinitionChangeRepository feed(t.store());
    const qint64 before = feed.revision().value();
    test::makeTask(t.store(), chain.id, QStringLiteral("a"));
    test::makeTask(t.store(), chain.id, QStringLiteral("b"));
    QVERIFY(feed.prune(3600 * 1000).value() == 0); // recent: kept
    // Age the first change past the hour the feed keeps.
    QSqlQuery age(t.store().database());
    QVERIFY(age.exec(QStringLiteral("UPDATE definition_change SET changed_at = changed_at - "
                                    "7200000 WHERE revision = %1")
                         .arg(before + 1)));
    QVERIFY(feed.prune(3600 * 1000).value() >= 1);
    const Result<DefinitionChangeRepository::Changes> behind = feed.since(before);
    QVERIFY(behind);
    QVERIFY(!behind->complete);
    QCOMPARE(behind->revision, feed.revision().value());
    // A reader past the gap still reads on.
    const Result<DefinitionChangeRepository::Changes> after = feed.since(before + 1);
    QVERIFY(after && after->complete);
    QCOMPARE(after->chainIds, QSet<qint64>{chain.id});
}

QTEST_GUILESS_MAIN(TestDefinitionChanges)
#include "tst_definitionchanges.moc"
