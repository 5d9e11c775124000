#include "definitioneditor.h"
#include "fixtures.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace hg;

// Every definition edit of the GUI, its undo and its redo, on a real store.
class TestDefinitionEditor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void taskEdits_undoAndRedo();
    void refusedEdit_changesNothingAndPushesNothing();
    void deletedTask_comesBackWithItsDependencies();
    void deletedChain_comesBackAndOlderStepsStillFindIt();
    void projectAndChainEdits_undoAndRedo();
    void schedulesAndConditions_undoAndRedo();
};

namespace {

QStringList taskNames(Store &store, qint64 chainId)
{
    QStringList names;
    for (const Task &task : TaskRepository(store).list(chainId).value())
        names << task.name;
    return names;
}

QStringList edges(Store &store, qint64 chainId)
{
    QStringList out;
    for (const Dependency &edge : DependencyRepository(store).list(chainId).value())
        out << edge.upstreamName + QLatin1String("->") + edge.taskName + QLatin1Char(':')
                   + enumName(edge.condition);
    out.sort();
    return out;
}

// A task not yet in the store, as a form would build it.
Task taskFor(qint64 chainId, const QString &name, TaskKind kind, const QString &command)
{
    Task task;
    task.chainId = chainId;
    task.name = name;
    task.kind = kind;
    task.command = command;
    return task;
}

} // namespace

void TestDefinitionEditor::taskEdits_undoAndRedo()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    DefinitionEditor editor(t.store());
    QSignalSpy changed(&editor, &DefinitionEditor::chainChanged);
    Task task =
        taskFor(chain.id, QStringLiteral("a"), TaskKind::Program, QStringLiteral("/bin/true"));
    const Result<Task> added = editor.addTask(task);
    QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toLongLong(), chain.id);

    Task edited = added.value();
    edited.command = QStringLiteral("/bin/false");
    QVERIFY(editor.updateTask(edited));
    QVERIFY(editor.moveTasks({{edited.id, QPointF(40, 80)}}, QStringLiteral("Move a")));
    QCOMPARE(TaskRepository(t.store()).byId(edited.id)->position, QPointF(40, 80));
    QCOMPARE(TaskRepository(t.store()).byId(edited.id)->command, QStringLiteral("/bin/false"));
    QCOMPARE(editor.undoStack()->count(), 3);

    editor.undoStack()->undo(); // the move
    QVERIFY(!TaskRepository(t.store()).byId(edited.id)->position);
    editor.undoStack()->undo(); // the edit
    QCOMPARE(TaskRepository(t.store()).byId(edited.id)->command, QStringLiteral("/bin/true"));
    editor.undoStack()->undo(); // the add
    QVERIFY(taskNames(t.store(), chain.id).isEmpty());
    editor.undoStack()->redo();
    editor.undoStack()->redo();
    editor.undoStack()->redo();
    // Back with a new id; the later steps found it anyway.
    const Result<Task> again = TaskRepository(t.store()).byName(chain.id, QStringLiteral("a"));
    QVERIFY(again);
    QCOMPARE(again->command, QStringLiteral("/bin/false"));
    QCOMPARE(again->position, QPointF(40, 80));
    QCOMPARE(editor.currentId(DefinitionEditor::Entity::Task, added->id), again->id);
}

void TestDefinitionEditor::refusedEdit_changesNothingAndPushesNothing()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    DefinitionEditor editor(t.store());
    Task bad = taskFor(chain.id, QStringLiteral("nap"), TaskKind::Builtin, QStringLiteral("Sleep"));
    bad.arguments = QStringList{QStringLiteral("{\"secs\": 5}")};
    const Result<Task> refused = editor.addTask(bad);
    QVERIFY(!refused);
    // The same message as the command line gives.
    QCOMPARE(refused.error().message,
             QStringLiteral("task 'nap': Sleep.secs: unknown field (expected seconds)"));
    QCOMPARE(editor.undoStack()->count(), 0);
    QVERIFY(taskNames(t.store(), chain.id).isEmpty());

    const Task a = editor
                       .addTask(taskFor(chain.id, QStringLiteral("a"), TaskKind::Program,
                                        QStringLiteral("/bin/true")))
                       .value();
    const Task b = editor
                       .addTask(taskFor(chain.id, QStringLiteral("b"), TaskKind::Program,
                                        QStringLiteral("/bin/true")))
                       .value();
    QVERIFY(editor.addDependency(b.id, a.id, DependencyCondition::Success));
    const Status cycle = editor.addDependency(a.id, b.id, DependencyCondition::Success);
    QVERIFY(!cycle);
    QVERIFY2(cycle.error().message.contains(QLatin1String("cycle")),
             qPrintable(cycle.error().message));
    QCOMPARE(editor.undoStack()->count(), 3);
    QCOMPARE(edges(t.store(), chain.id), QStringList{QStringLiteral("a->b:success")});
}

void TestDefinitionEditor::deletedTask_comesBackWithItsDependencies()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task a = test::addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Program,
                                 QStringLiteral("/bin/true"));
    const Task b = test::addTask(t.store(), chain.id, QStringLiteral("b"), TaskKind::Program,
                                 QStringLiteral("/bin/true"));
    const Task c = test::addTask(t.store(), chain.id, QStringLiteral("c"), TaskKind::Program,
                                 QStringLiteral("/bin/true"));
    QVERIFY(
        DependencyRepository(t.store()).add(chain.id, b.id, a.id, DependencyCondition::Success));
    QVERIFY(
        DependencyRepository(t.store()).add(chain.id, c.id, b.id, DependencyCondition::Completion));
    const QStringList before = edges(t.store(), chain.id);

    DefinitionEditor editor(t.store());
    QVERIFY(editor.removeTask(b.id));
    QCOMPARE(taskNames(t.store(), chain.id),
             (QStringList{QStringLiteral("a"), QStringLiteral("c")}));
    QVERIFY(edges(t.store(), chain.id).isEmpty());
    editor.undoStack()->undo();
    QCOMPARE(edges(t.store(), chain.id), before);
    editor.undoStack()->redo();
    QVERIFY(edges(t.store(), chain.id).isEmpty());
    editor.undoStack()->undo();
    QCOMPARE(edges(t.store(), chain.id), before);
}

void TestDefinitionEditor::deletedChain_comesBackAndOlderStepsStillFindIt()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    DefinitionEditor editor(t.store());
    const Task a = editor
                       .addTask(taskFor(chain.id, QStringLiteral("a"), TaskKind::Program,
                                        QStringLiteral("/bin/true")))
                       .value();
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("*/5 * * * *");
    const Schedule added = editor.addSchedule(schedule).value();
    QVERIFY(editor.removeChain(chain.id));
    QVERIFY(!ChainRepository(t.store()).byId(chain.id));

    editor.undoStack()->undo(); // the chain is back, tasks and schedules with it
    const Result<Chain> back = ChainRepository(t.store()).byPath(QStringLiteral("p/c"));
    QVERIFY(back);
    QCOMPARE(taskNames(t.store(), back->id), QStringList{QStringLiteral("a")});
    QCOMPARE(ScheduleRepository(t.store()).list(back->id)->size(), 1);
    QCOMPARE(editor.currentId(DefinitionEditor::Entity::Chain, chain.id), back->id);

    editor.undoStack()->undo(); // the schedule, by its new id
    QVERIFY(ScheduleRepository(t.store()).list(back->id)->isEmpty());
    editor.undoStack()->undo(); // the task, by its new id
    QVERIFY(taskNames(t.store(), back->id).isEmpty());
    QVERIFY(editor.currentId(DefinitionEditor::Entity::Schedule, added.id) != 0);
    QVERIFY(a.id > 0);
    editor.undoStack()->redo();
    editor.undoStack()->redo();
    QCOMPARE(taskNames(t.store(), back->id), QStringList{QStringLiteral("a")});
    QCOMPARE(ScheduleRepository(t.store()).list(back->id)->size(), 1);
}

void TestDefinitionEditor::projectAndChainEdits_undoAndRedo()
{
    HG_TEST_STORE(t);
    DefinitionEditor editor(t.store());
    QSignalSpy tree(&editor, &DefinitionEditor::treeChanged);
    const Project project = editor.addProject(QStringLiteral("ops")).value();
    const Chain chain = editor.addChain(project.id, QStringLiteral("nightly")).value();
    QVERIFY(editor.addTask(
        taskFor(chain.id, QStringLiteral("a"), TaskKind::Program, QStringLiteral("/bin/true"))));
    QVERIFY(editor.renameProject(project.id, QStringLiteral("operations")));
    Chain disabled = chain;
    disabled.enabled = false;
    QVERIFY(editor.updateChain(disabled));
    const Chain copy = editor.duplicateChain(chain.id).value();
    QCOMPARE(copy.name, QStringLiteral("nightly copy"));
    QCOMPARE(taskNames(t.store(), copy.id), QStringList{QStringLiteral("a")});
    QCOMPARE(editor.duplicateChain(chain.id)->name, QStringLiteral("nightly copy 2"));
    QVERIFY(tree.count() >= 5);
    QCOMPARE(editor.addProject(QStringLiteral("operations")).error().kind,
             ErrorKind::AlreadyExists);

    QVERIFY(editor.removeProject(project.id));
    QVERIFY(ProjectRepository(t.store()).list()->isEmpty());
    editor.undoStack()->undo(); // the project and its three chains
    QCOMPARE(ChainRepository(t.store()).list()->size(), 3);
    editor.undoStack()->undo(); // the second copy
    editor.undoStack()->undo(); // the first copy
    QCOMPARE(ChainRepository(t.store()).list()->size(), 1);
    editor.undoStack()->undo(); // enabled again
    QVERIFY(ChainRepository(t.store()).byPath(QStringLiteral("operations/nightly"))->enabled);
    editor.undoStack()->undo(); // the old name
    QVERIFY(ChainRepository(t.store()).byPath(QStringLiteral("ops/nightly")));
    editor.undoStack()->undo(); // the task
    editor.undoStack()->undo(); // the chain
    editor.undoStack()->undo(); // the project
    QVERIFY(ProjectRepository(t.store()).list()->isEmpty());
    while (editor.undoStack()->canRedo())
        editor.undoStack()->redo();
    QCOMPARE(ChainRepository(t.store()).list()->size(), 0); // the last step deleted it all
    editor.undoStack()->undo();
    QCOMPARE(ChainRepository(t.store()).list()->size(), 3);
    QVERIFY(!ChainRepository(t.store()).byPath(QStringLiteral("operations/nightly"))->enabled);
}

void TestDefinitionEditor::schedulesAndConditions_undoAndRedo()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task a = test::addTask(t.store(), chain.id, QStringLiteral("a"), TaskKind::Program,
                                 QStringLiteral("/bin/true"));
    const Task b = test::addTask(t.store(), chain.id, QStringLiteral("b"), TaskKind::Program,
                                 QStringLiteral("/bin/true"));
    DefinitionEditor editor(t.store());
    QVERIFY(editor.addDependency(b.id, a.id, DependencyCondition::Success));
    QVERIFY(editor.setDependencyCondition(b.id, a.id, DependencyCondition::Failure));
    QCOMPARE(edges(t.store(), chain.id), QStringList{QStringLiteral("a->b:failure")});
    editor.undoStack()->undo();
    QCOMPARE(edges(t.store(), chain.id), QStringList{QStringLiteral("a->b:success")});
    QVERIFY(editor.removeDependency(b.id, a.id));
    QVERIFY(edges(t.store(), chain.id).isEmpty());
    editor.undoStack()->undo();
    QCOMPARE(edges(t.store(), chain.id), QStringList{QStringLiteral("a->b:success")});

    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("0 7 * * *");
    Schedule added = editor.addSchedule(schedule).value();
    Schedule bad = added;
    bad.expression = QStringLiteral("0 24 * * *");
    const Status refused = editor.updateSchedule(bad);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("column")),
             qPrintable(refused.error().message));
    added.expression = QStringLiteral("0 8 * * *");
    QVERIFY(editor.updateSchedule(added));
    QVERIFY(editor.removeSchedule(added.id));
    editor.undoStack()->undo();
    editor.undoStack()->undo();
    QCOMPARE(ScheduleRepository(t.store()).list(chain.id)->constFirst().expression,
             QStringLiteral("0 7 * * *"));
}

QTEST_MAIN(TestDefinitionEditor)
#include "tst_definitioneditor.moc"
