#include "fixtures.h"
#include "store/connectionprofilerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestTaskRepository final : public QObject
{
    Q_OBJECT

private slots:
    void add_keepsEveryField();
    void add_refusesDuplicateInChain();
    void validate_data();
    void validate();
    void add_unknownConnectionIsNotFound();
    void update_savesCanvasPosition();
    void remove_unknownIsNotFound();
};

void TestTaskRepository::add_keepsEveryField()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    ConnectionProfile profile;
    profile.name = QStringLiteral("warehouse");
    QVERIFY(ConnectionProfileRepository(t.store()).add(profile));
    Task task;
    task.chainId = chain.id;
    task.name = QStringLiteral("load");
    task.kind = TaskKind::Sql;
    task.command = QStringLiteral("SELECT $1");
    task.arguments = {QStringLiteral("a b"), QStringLiteral("ç")};
    task.workingDirectory = QStringLiteral("/tmp");
    task.environment = QJsonObject{{QStringLiteral("K"), QStringLiteral("V")}};
    task.connectionName = QStringLiteral("warehouse");
    task.ignoreError = true;
    task.autonomous = true;
    task.timeoutSeconds = 30;
    task.maxRetries = 4;
    task.retryDelaySeconds = 7;
    task.retryBackoff = 1.5;
    task.priority = Priority::High;
    TaskRepository tasks(t.store());
    const Result<Task> added = tasks.add(task);
    QVERIFY2(added, added ? "" : qPrintable(added.error().message));
    const Result<Task> read = tasks.byName(chain.id, QStringLiteral("load"));
    QVERIFY(read);
    QCOMPARE(read->kind, TaskKind::Sql);
    QCOMPARE(read->command, task.command);
    QCOMPARE(read->arguments, task.arguments);
    QCOMPARE(read->workingDirectory, task.workingDirectory);
    QCOMPARE(read->environment, task.environment);
    QCOMPARE(read->connectionName, task.connectionName);
    QCOMPARE(read->ignoreError, true);
    QCOMPARE(read->autonomous, true);
    QCOMPARE(read->timeoutSeconds, 30);
    QCOMPARE(read->maxRetries, 4);
    QCOMPARE(read->retryDelaySeconds, 7);
    QCOMPARE(read->retryBackoff, 1.5);
    QCOMPARE(read->priority, Priority::High);
    QVERIFY(!read->position);
}

void TestTaskRepository::add_refusesDuplicateInChain()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    QVERIFY(test::makeTask(t.store(), chain.id, QStringLiteral("a")).id > 0);
    Task again;
    again.chainId = chain.id;
    again.name = QStringLiteral("a");
    again.command = QStringLiteral("/bin/true");
    const Result<Task> added = TaskRepository(t.store()).add(again);
    QCOMPARE(added.error().kind, ErrorKind::AlreadyExists);
    QCOMPARE(added.error().message, QStringLiteral("task 'a' already exists in this chain"));
}

void TestTaskRepository::validate_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("connection");
    QTest::addColumn<QString>("problem");
    QTest::newRow("program ok") << int(TaskKind::Program) << QStringLiteral("/bin/true")
                                << QString() << QString();
    QTest::newRow("empty command") << int(TaskKind::Shell) << QStringLiteral("  ") << QString()
                                   << QStringLiteral("needs a command");
    QTest::newRow("builtin known")
        << int(TaskKind::Builtin) << QStringLiteral("Sleep") << QString() << QString();
    QTest::newRow("builtin unknown") << int(TaskKind::Builtin) << QStringLiteral("Nap") << QString()
                                     << QStringLiteral("unknown builtin 'Nap'");
    QTest::newRow("http ok") << int(TaskKind::Http) << QStringLiteral("https://example.org/x")
                             << QString() << QString();
    QTest::newRow("http bad scheme") << int(TaskKind::Http) << QStringLiteral("ftp://x")
                                     << QString() << QStringLiteral("not an http or https URL");
    QTest::newRow("subchain ok") << int(TaskKind::Subchain) << QStringLiteral("p/other")
                                 << QString() << QString();
    QTest::newRow("subchain bad") << int(TaskKind::Subchain) << QStringLiteral("other") << QString()
                                  << QStringLiteral("not PROJECT/CHAIN");
    QTest::newRow("connection on program")
        << int(TaskKind::Program) << QStringLiteral("/bin/true") << QStringLiteral("db")
        << QStringLiteral("only sql tasks take a connection");
}

void TestTaskRepository::validate()
{
    QFETCH(int, kind);
    QFETCH(QString, command);
    QFETCH(QString, connection);
    QFETCH(QString, problem);
    Task task;
    task.name = QStringLiteral("t");
    task.kind = TaskKind(kind);
    task.command = command;
    task.connectionName = connection;
    const Status status = TaskRepository::validate(task);
    QCOMPARE(status.ok(), problem.isEmpty());
    if (!problem.isEmpty())
        QVERIFY2(status.error().message.contains(problem), qPrintable(status.error().message));
}

void TestTaskRepository::add_unknownConnectionIsNotFound()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task task;
    task.chainId = chain.id;
    task.name = QStringLiteral("q");
    task.kind = TaskKind::Sql;
    task.command = QStringLiteral("SELECT 1");
    task.connectionName = QStringLiteral("missing");
    const Result<Task> added = TaskRepository(t.store()).add(task);
    QCOMPARE(added.error().kind, ErrorKind::NotFound);
    QCOMPARE(added.error().message, QStringLiteral("unknown connection 'missing'"));
}

void TestTaskRepository::update_savesCanvasPosition()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task task = test::makeTask(t.store(), chain.id, QStringLiteral("a"));
    task.position = QPointF(12.5, -40);
    TaskRepository tasks(t.store());
    QVERIFY(tasks.update(task));
    QCOMPARE(tasks.byId(task.id)->position, std::optional<QPointF>(QPointF(12.5, -40)));
}

void TestTaskRepository::remove_unknownIsNotFound()
{
    HG_TEST_STORE(t);
    QCOMPARE(TaskRepository(t.store()).remove(999).error().kind, ErrorKind::NotFound);
}

QTEST_GUILESS_MAIN(TestTaskRepository)
#include "tst_taskrepository.moc"
