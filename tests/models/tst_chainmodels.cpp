#include "dependenciesmodel.h"
#include "fixtures.h"
#include "scheduler/engine.h"
#include "schedulesmodel.h"
#include "statepresentation.h"
#include "store/dependencyrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "tasksmodel.h"
#include "testservers.h"
#include "teststore.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hg;

// The models of one chain's definition: tasks (with their last state from a real engine),
// dependencies and schedules.
class TestChainModels final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tasks_showTheLastStateAndFollowTheEngine();
    void dependencies_listTheEdges();
    void schedules_explainAndGiveTheNextFire();
};

void TestChainModels::tasks_showTheLastStateAndFollowTheEngine()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task good = test::addTask(t.store(), chain.id, QStringLiteral("good"), TaskKind::Program,
                                    QStringLiteral("/bin/true"));
    const Task bad = test::addTask(t.store(), chain.id, QStringLiteral("bad"), TaskKind::Program,
                                   QStringLiteral("/bin/false"));
    // After `good`: a failure ends the run, and would cancel `good` if they ran side by side.
    QVERIFY(DependencyRepository(t.store()).add(chain.id, bad.id, good.id,
                                                DependencyCondition::Success));
    const Chain other = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("other"));
    test::addTask(t.store(), other.id, QStringLiteral("elsewhere"), TaskKind::Program,
                  QStringLiteral("/bin/true"));

    TasksModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.show(chain.id));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(!model.lastState(good.id));
    QCOMPARE(model.index(model.rowOf(good.id), TasksModel::StateColumn).data().toString(),
             QStringLiteral("never ran"));

    EngineConfig config = test::engineConfig(t);
    config.runSchedules = false;
    Engine engine(config);
    connect(&engine, &Engine::taskRunChanged, &model, &TasksModel::applyTaskRun);
    engine.start();
    const Run run = test::queueRun(t.store(), chain.id);
    engine.admitRun(run.id);
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(run.id)->state), 15000);
    QTRY_COMPARE(model.lastState(good.id), std::optional(RunState::Succeeded));
    QCOMPARE(model.lastState(bad.id), std::optional(RunState::Failed));
    QCOMPARE(model.index(model.rowOf(bad.id), TasksModel::NameColumn)
                 .data(Qt::DecorationRole)
                 .value<QColor>(),
             StatePresentation::fill(RunState::Failed));

    TasksModel reread(t.store()); // the same from the store: the chain's latest run
    QVERIFY(reread.show(chain.id));
    QCOMPARE(reread.lastState(bad.id), std::optional(RunState::Failed));
    QVERIFY(reread.show(other.id));
    QCOMPARE(reread.rowCount(), 1);
    QVERIFY(!reread.lastState(good.id));
}

void TestChainModels::dependencies_listTheEdges()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task a = test::makeTask(t.store(), chain.id, QStringLiteral("a"));
    const Task b = test::makeTask(t.store(), chain.id, QStringLiteral("b"));
    QVERIFY(
        DependencyRepository(t.store()).add(chain.id, b.id, a.id, DependencyCondition::Completion));
    DependenciesModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.show(chain.id));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, DependenciesModel::UpstreamColumn).data().toString(),
             QStringLiteral("a"));
    QCOMPARE(model.index(0, DependenciesModel::ConditionColumn).data().toString(),
             QStringLiteral("completion"));
    QCOMPARE(model.index(0, 0).data(DependenciesModel::TaskIdRole).toLongLong(), b.id);
    QVERIFY(model.show(0));
    QCOMPARE(model.rowCount(), 0);
}

void TestChainModels::schedules_explainAndGiveTheNextFire()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("30 7 * * 1-5");
    schedule.timeZone = QStringLiteral("Europe/Berlin");
    QVERIFY(ScheduleRepository(t.store()).add(schedule));
    schedule.expression = QStringLiteral("*/10 * * * *");
    schedule.enabled = false;
    QVERIFY(ScheduleRepository(t.store()).add(schedule));

    SchedulesModel model(t.store());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.show(chain.id));
    QCOMPARE(model.rowCount(), 2);
    const QString meaning = model.index(0, SchedulesModel::MeaningColumn).data().toString();
    QVERIFY2(meaning.contains(QLatin1String("07:30")), qPrintable(meaning));
    const QDateTime next = model.index(0, 0).data(SchedulesModel::NextFireRole).toDateTime();
    QVERIFY(next > QDateTime::currentDateTime());
    QCOMPARE(next.toTimeZone(QTimeZone("Europe/Berlin")).time(), QTime(7, 30));
    QCOMPARE(model.index(1, SchedulesModel::EnabledColumn).data(Qt::CheckStateRole).toInt(),
             int(Qt::Unchecked));
    QVERIFY(!model.index(1, 0).data(SchedulesModel::NextFireRole).toDateTime().isValid());
}

QTEST_MAIN(TestChainModels)
#include "tst_chainmodels.moc"
