#include "domain/taskvalidator.h"
#include "fixtures.h"
#include "store/connectionprofilerepository.h"
#include "store/definitionchangerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QTest>

using namespace hg;

class TestTaskRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setPosition_isNoDefinitionChange();
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
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("connection");
    QTest::addColumn<QString>("problem");
    const auto row = [](const char *name, TaskKind kind, const char *command, const char *argument,
                        const char *problem, const char *connection = "") {
        QTest::newRow(name) << int(kind) << QString::fromUtf8(command)
                            << QString::fromUtf8(argument) << QString::fromUtf8(connection)
                            << QString::fromUtf8(problem);
    };
    row("program ok", TaskKind::Program, "/bin/true", "", "");
    row("empty command", TaskKind::Shell, "  ", "", "needs a command");
    row("builtin known", TaskKind::Builtin, "Sleep", R"({"seconds": 2})", "");
    row("builtin unknown", TaskKind::Builtin, "Nap", "", "unknown builtin 'Nap'");
    row("sleep without seconds", TaskKind::Builtin, "Sleep", "",
        "Sleep.seconds: must be a number above 0");
    row("sleep misspelt", TaskKind::Builtin, "Sleep", R"({"secs": 2})",
        "Sleep.secs: unknown field (expected seconds)");
    row("sleep not json", TaskKind::Builtin, "Sleep", "2", "Sleep: the argument must be a JSON");
    row("log without message", TaskKind::Builtin, "Log", "{}", "Log.message: missing");
    row("copy relative", TaskKind::Builtin, "CopyFile",
        R"({"source": "a.txt", "destination": "/tmp/b"})",
        "CopyFile.source: 'a.txt' is not an absolute path");
    row("download bad url", TaskKind::Builtin, "Download",
        R"({"url": "ftp://x/y", "destination": "/tmp/y"})", "not an http or https URL");
    row("request bad method", TaskKind::Builtin, "HttpRequest",
        R"({"url": "https://example.org", "method": "FETCH"})",
        "HttpRequest.method: 'FETCH' is not one of GET");
    row("notify ok", TaskKind::Builtin, "Notify", R"({"message": "done"})", "");
    row("http ok", TaskKind::Http, "https://example.org/x", "", "");
    row("http with request", TaskKind::Http, "https://example.org/x",
        R"({"method": "POST", "body": "{}", "expect_status": [200, 201]})", "");
    row("http bad status", TaskKind::Http, "https://example.org/x", R"({"expect_status": 999})",
        "expect_status: expected an HTTP status");
    row("http bad scheme", TaskKind::Http, "ftp://x", "", "not an http or https URL");
    row("subchain ok", TaskKind::Subchain, "p/other", "", "");
    row("subchain bad", TaskKind::Subchain, "other", "", "not PROJECT/CHAIN");
    row("connection on program", TaskKind::Program, "/bin/true", "",
        "only sql tasks and the COPY builtins take a connection", "db");
}

void TestTaskRepository::validate()
{
    QFETCH(int, kind);
    QFETCH(QString, command);
    QFETCH(QString, argument);
    QFETCH(QString, connection);
    QFETCH(QString, problem);
    Task task;
    task.name = QStringLiteral("t");
    task.kind = TaskKind(kind);
    task.command = command;
    if (!argument.isEmpty())
        task.arguments = QStringList{argument};
    task.connectionName = connection;
    const Status status = TaskValidator::validate(task);
    QVERIFY2(status.ok() == problem.isEmpty(), status ? "ok" : qPrintable(status.error().message));
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

// The engine reloads when the definition revision moves: dragging a node must not move it,
// editing what the task runs must.
void TestTaskRepository::setPosition_isNoDefinitionChange()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    Task task = test::makeTask(t.store(), chain.id, QStringLiteral("t"));
    QVERIFY(task.id > 0);
    DefinitionChangeRepository changes(t.store());
    const qint64 before = changes.revision().value();
    QVERIFY(TaskRepository(t.store()).setPosition(task.id, QPointF(40, 80)));
    QCOMPARE(changes.revision().value(), before);
    QCOMPARE(TaskRepository(t.store()).byId(task.id)->position,
             std::optional<QPointF>(QPointF(40, 80)));
    QVERIFY(TaskRepository(t.store()).setPosition(task.id, std::nullopt));
    QCOMPARE(TaskRepository(t.store()).byId(task.id)->position, std::nullopt);
    task.command = QStringLiteral("/bin/false");
    QVERIFY(TaskRepository(t.store()).update(task));
    QVERIFY(changes.revision().value() > before);
    QCOMPARE(changes.since(before)->chainIds, QSet<qint64>{chain.id});
    QCOMPARE(TaskRepository(t.store()).setPosition(task.id + 1000, QPointF()).error().kind,
             ErrorKind::NotFound);
}

QTEST_GUILESS_MAIN(TestTaskRepository)
#include "tst_taskrepository.moc"
