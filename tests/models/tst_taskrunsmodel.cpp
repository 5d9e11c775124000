#include "fixtures.h"
#include "scheduler/engine.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "taskrunsmodel.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hg;

// A run's attempts, fed by a real engine's events.
class TestTaskRunsModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void engineEvents_fillTheAttemptsOfTheShownRun();
};

void TestTaskRunsModel::engineEvents_fillTheAttemptsOfTheShownRun()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task flaky = test::addTask(t.store(), chain.id, QStringLiteral("flaky"), TaskKind::Shell,
                               QStringLiteral("[ \"$HOURGLASS_ATTEMPT\" = 2 ]"));
    flaky.maxRetries = 1;
    QVERIFY(TaskRepository(t.store()).update(flaky));
    const Run run = test::queueRun(t.store(), chain.id);
    const Run other = test::queueRun(t.store(), chain.id);

    TaskRunsModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.show(run.id));
    QCOMPARE(model.rowCount(), 0);
    EngineConfig config = test::engineConfig(t);
    config.runSchedules = false;
    Engine engine(config);
    connect(&engine, &Engine::taskRunChanged, &model, &TaskRunsModel::applyTaskRun);
    engine.start();
    engine.admitRun(run.id);
    engine.admitRun(other.id);
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).byId(run.id)->state, RunState::Succeeded,
                              15000);
    QCOMPARE(model.rowCount(), 2); // attempt 1 failed, attempt 2 succeeded; none of `other`
    QCOMPARE(model.data(model.index(0, TaskRunsModel::TaskColumn)).toString(),
             QStringLiteral("flaky"));
    QCOMPARE(model.data(model.index(0, TaskRunsModel::StateColumn)).toString(),
             QStringLiteral("failed"));
    QCOMPARE(model.data(model.index(1, TaskRunsModel::AttemptColumn)).toInt(), 2);
    QCOMPARE(model.data(model.index(1, TaskRunsModel::StateColumn)).toString(),
             QStringLiteral("succeeded"));
    QVERIFY(model.data(model.index(1, 0), TaskRunsModel::EndRole).toDateTime().isValid());

    TaskRunsModel reread(t.store()); // the same from the store alone
    QVERIFY(reread.show(run.id));
    QCOMPARE(reread.rowCount(), 2);
    QCOMPARE(reread.data(reread.index(1, TaskRunsModel::StateColumn)).toString(),
             QStringLiteral("succeeded"));
}

QTEST_MAIN(TestTaskRunsModel)
#include "tst_taskrunsmodel.moc"
