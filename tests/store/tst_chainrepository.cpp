#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/removedruns.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestChainRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_keepsEveryField();
    void add_sameNameInAnotherProjectIsFine();
    void add_refusesDuplicateInProject();
    void add_refusesNegativeLimits();
    void byPath_unknownChainNamesThePath();
    void update_changesFields();
    void remove_cascadesToTasks();
    void remove_refusedWhileARunHasNotEndedNamingIt();
    void remove_keepsTheRecentEndsOfItsRuns();
};

void TestChainRepository::add_keepsEveryField()
{
    HG_TEST_STORE(t);
    const Result<Project> project = ProjectRepository(t.store()).add(QStringLiteral("ops"));
    Chain chain;
    chain.projectId = project->id;
    chain.name = QStringLiteral("nightly");
    chain.description = QStringLiteral("d");
    chain.enabled = false;
    chain.maxInstances = 3;
    chain.overlap = OverlapPolicy::Skip;
    chain.timeoutSeconds = 600;
    chain.selfDestruct = true;
    chain.exclusive = true;
    chain.clientName = QStringLiteral("worker-1");
    chain.onFailure = FailureStrategy::Continue;
    chain.priority = Priority::Highest;
    chain.notify = NotifyPolicy::All;
    chain.parameters = QJsonObject{{QStringLiteral("day"), QStringLiteral("mon")}};
    const Result<Chain> added = ChainRepository(t.store()).add(chain);
    QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    const Result<Chain> read = ChainRepository(t.store()).byPath(QStringLiteral("ops/nightly"));
    QVERIFY(read);
    QCOMPARE(read->id, added->id);
    QCOMPARE(read->description, chain.description);
    QCOMPARE(read->enabled, false);
    QCOMPARE(read->maxInstances, 3);
    QCOMPARE(read->overlap, OverlapPolicy::Skip);
    QCOMPARE(read->timeoutSeconds, 600);
    QCOMPARE(read->selfDestruct, true);
    QCOMPARE(read->exclusive, true);
    QCOMPARE(read->clientName, QStringLiteral("worker-1"));
    QCOMPARE(read->onFailure, FailureStrategy::Continue);
    QCOMPARE(read->priority, Priority::Highest);
    QCOMPARE(read->notify, NotifyPolicy::All);
    QCOMPARE(read->parameters, chain.parameters);
}

void TestChainRepository::add_sameNameInAnotherProjectIsFine()
{
    HG_TEST_STORE(t);
    QVERIFY(test::makeChain(t.store(), QStringLiteral("a"), QStringLiteral("nightly")).id > 0);
    QVERIFY(test::makeChain(t.store(), QStringLiteral("b"), QStringLiteral("nightly")).id > 0);
    QCOMPARE(ChainRepository(t.store()).list()->size(), 2);
}

void TestChainRepository::add_refusesDuplicateInProject()
{
    HG_TEST_STORE(t);
    const Chain first = test::makeChain(t.store(), QStringLiteral("a"), QStringLiteral("nightly"));
    Chain again;
    again.projectId = first.projectId;
    again.name = QStringLiteral("nightly");
    const Result<Chain> added = ChainRepository(t.store()).add(again);
    QCOMPARE(added.error().kind, ErrorKind::AlreadyExists);
    QVERIFY(added.error().message.contains(QLatin1String("'nightly' already exists")));
}

void TestChainRepository::add_refusesNegativeLimits()
{
    HG_TEST_STORE(t);
    const Result<Project> project = ProjectRepository(t.store()).add(QStringLiteral("a"));
    Chain chain;
    chain.projectId = project->id;
    chain.name = QStringLiteral("c");
    chain.maxInstances = -1;
    QCOMPARE(ChainRepository(t.store()).add(chain).error().kind, ErrorKind::Invalid);
}

void TestChainRepository::byPath_unknownChainNamesThePath()
{
    HG_TEST_STORE(t);
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("ops")));
    ChainRepository chains(t.store());
    QCOMPARE(chains.byPath(QStringLiteral("ops/none")).error().message,
             QStringLiteral("unknown chain 'ops/none'"));
    QCOMPARE(chains.byPath(QStringLiteral("nope/x")).error().message,
             QStringLiteral("unknown project 'nope'"));
    QCOMPARE(chains.byPath(QStringLiteral("bad")).error().kind, ErrorKind::Invalid);
}

void TestChainRepository::update_changesFields()
{
    HG_TEST_STORE(t);
    Chain chain = test::makeChain(t.store(), QStringLiteral("a"), QStringLiteral("c"));
    chain.name = QStringLiteral("renamed");
    chain.priority = Priority::Low;
    ChainRepository chains(t.store());
    QVERIFY(chains.update(chain));
    QCOMPARE(chains.byId(chain.id)->name, QStringLiteral("renamed"));
    QCOMPARE(chains.byId(chain.id)->priority, Priority::Low);
    QCOMPARE(chains.pathOf(chain.id)->toString(), QStringLiteral("a/renamed"));
}

void TestChainRepository::remove_cascadesToTasks()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("a"), QStringLiteral("c"));
    QVERIFY(test::makeTask(t.store(), chain.id, QStringLiteral("t")).id > 0);
    ChainRepository chains(t.store());
    QVERIFY(chains.remove(chain.id));
    QCOMPARE(chains.byId(chain.id).error().kind, ErrorKind::NotFound);
    QCOMPARE(chains.remove(chain.id).error().kind, ErrorKind::NotFound);
    QVERIFY(TaskRepository(t.store()).list(chain.id)->isEmpty());
}

// The runs (and their attempts) cascade with their chain: removed under a running engine, the
// engine lost its rows and serve ignored SIGTERM for good. A chain, its project or one of its
// tasks is removed only once every run of it has ended.
void TestChainRepository::remove_refusedWhileARunHasNotEndedNamingIt()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("a"), QStringLiteral("c"));
    const Task task = test::makeTask(t.store(), chain.id, QStringLiteral("t"));
    const Run run = test::queueRun(t.store(), chain.id);
    QVERIFY(RunRepository(t.store())
                .setState(run.id, RunState::Running, QDateTime::currentDateTimeUtc())
                .ok());
    ChainRepository chains(t.store());
    const Status chainRemoved = chains.remove(chain.id);
    QVERIFY(!chainRemoved.ok());
    QVERIFY2(chainRemoved.error().message.contains(QStringLiteral("a/c"))
                 && chainRemoved.error().message.contains(QString::number(run.id)),
             qPrintable(chainRemoved.error().message));
    const Status taskRemoved = TaskRepository(t.store()).remove(task.id);
    QVERIFY(!taskRemoved.ok());
    QVERIFY(taskRemoved.error().message.contains(QString::number(run.id)));
    const Status projectRemoved = ProjectRepository(t.store()).remove(QStringLiteral("a"), true);
    QVERIFY(!projectRemoved.ok());
    QVERIFY(projectRemoved.error().message.contains(QString::number(run.id)));
    QVERIFY(chains.byId(chain.id).ok());
    QVERIFY(RunRepository(t.store()).byId(run.id).ok());

    QVERIFY(RunRepository(t.store())
                .setState(run.id, RunState::Succeeded, QDateTime::currentDateTimeUtc())
                .ok());
    QVERIFY(TaskRepository(t.store()).remove(task.id).ok());
    QVERIFY(chains.remove(chain.id).ok());
}

// A self-destructing chain removes itself after a success: a waiter that saw its run running
// still learns how it ended. Runs that ended long before are not kept; a project's removal
// keeps its chains' ends too.
void TestChainRepository::remove_keepsTheRecentEndsOfItsRuns()
{
    HG_TEST_STORE(t);
    RunRepository runs(t.store());
    const Chain chain = test::makeChain(t.store(), QStringLiteral("a"), QStringLiteral("c"));
    const Run recent = test::queueRun(t.store(), chain.id);
    const Run old = test::queueRun(t.store(), chain.id);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY(runs.setState(recent.id, RunState::Succeeded, now).ok());
    QVERIFY(runs.setState(old.id, RunState::Failed, now.addSecs(-2 * 3600)).ok());
    QVERIFY(RemovedRuns::end(t.store(), recent.id).value() == std::nullopt); // not removed
    QVERIFY(ChainRepository(t.store()).remove(chain.id).ok());
    QVERIFY(!runs.byId(recent.id).ok());
    const std::optional<Run> kept = RemovedRuns::end(t.store(), recent.id).value();
    QVERIFY(kept.has_value());
    QCOMPARE(kept->state, RunState::Succeeded);
    QCOMPARE(kept->chainId, chain.id);
    QCOMPARE(kept->finishedAt.toMSecsSinceEpoch(), now.toMSecsSinceEpoch());
    QVERIFY(RemovedRuns::end(t.store(), old.id).value() == std::nullopt);

    const Chain other = test::makeChain(t.store(), QStringLiteral("b"), QStringLiteral("d"));
    const Run failed = test::queueRun(t.store(), other.id);
    QVERIFY(runs.setState(failed.id, RunState::Failed, now).ok());
    QVERIFY(ProjectRepository(t.store()).remove(QStringLiteral("b"), true).ok());
    QCOMPARE(RemovedRuns::end(t.store(), failed.id).value()->state, RunState::Failed);
}

QTEST_GUILESS_MAIN(TestChainRepository)
#include "tst_chainrepository.moc"
