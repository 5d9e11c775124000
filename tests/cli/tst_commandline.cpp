#include "domain/version.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "store/commandrepository.h"
#include "store/occurrencerepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace hg;

class TestCommandLine final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void version_printsVersion();
    void help_listsEveryCommand();
    void definitions_builtThroughCommandsReadBackAsJson();
    void badInput_exitsTwoWithOneLineOnStderr_data();
    void badInput_exitsTwoWithOneLineOnStderr();
    void exportImportExport_documentsAreIdentical();
    void import_malformedOrTruncatedChangesNothing();
    void store_unwritablePathExitsOne();
    void store_newerSchemaExitsOneAndChangesNothing();
    void store_dbOptionWinsOverEnvironmentAndMayFollowCommand();
    void remove_commandsDeleteWhatTheyName();
    void cronNext_printsIsoTimesWithOffset();
    void cronNext_invalidExpressionExitsTwoWithNothingOnStdout_data();
    void cronNext_invalidExpressionExitsTwoWithNothingOnStdout();
    void cronExplain_describesAndWarns();
    void cronNext_jsonErrorNamesFieldAndColumn();
    void cronNextAndExplain_printJson();
    void scheduleAdd_validatesAndPinsTheDialect();
    void backfill_queuesTheScheduleFireTimesAsABatch();
    void missed_inboxListsRunsAndDismisses();
    void runsJson_saysWhatTriggeredARun();
    void alert_setShowAndClearWithClearErrors();
    void scheduleNext_listsTheFireTimesInTheSchedulesZone();
    void scheduleNext_marksTheDstChangesWithWhatTheyDo();
    void calendar_addListUseAndRemove();
    void connection_addListAndRemove();

private:
    struct Output
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Output run(const QStringList &arguments, const QProcessEnvironment &extra = {});
    Output runOn(test::TestStore &store, const QStringList &arguments);
    static QString dbArgument(const test::TestStore &store);
    void buildNightlyChain(test::TestStore &store);

    QTemporaryDir m_home;
};

TestCommandLine::Output TestCommandLine::run(const QStringList &arguments,
                                             const QProcessEnvironment &extra)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("HOURGLASS_DB"));
    // The default store must never be the user's real one.
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
    for (const QString &key : extra.keys())
        environment.insert(key, extra.value(key));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(HOURGLASS_BINARY), arguments);
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QString TestCommandLine::dbArgument(const test::TestStore &store)
{
    return store.location().backend() == StoreBackend::Sqlite ? store.location().sqlitePath()
                                                              : store.location().url().toString();
}

TestCommandLine::Output TestCommandLine::runOn(test::TestStore &store, const QStringList &arguments)
{
    return run(QStringList{QStringLiteral("--db"), dbArgument(store)} + arguments);
}

void TestCommandLine::buildNightlyChain(test::TestStore &t)
{
    const QList<QStringList> commands{
        {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("ops")},
        {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
         QStringLiteral("--max-instances"), QStringLiteral("2"), QStringLiteral("--timeout"),
         QStringLiteral("600"), QStringLiteral("--exclusive"), QStringLiteral("--client"),
         QStringLiteral("server-1"), QStringLiteral("--on-failure"), QStringLiteral("continue"),
         QStringLiteral("--priority"), QStringLiteral("high")},
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
         QStringLiteral("a"), QStringLiteral("--kind"), QStringLiteral("program"),
         QStringLiteral("--command"), QStringLiteral("/bin/echo"), QStringLiteral("--arg"),
         QStringLiteral("hello world"), QStringLiteral("--env"), QStringLiteral("GREETING=hi"),
         QStringLiteral("--retries"), QStringLiteral("2"), QStringLiteral("--retry-delay"),
         QStringLiteral("5")},
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
         QStringLiteral("b"), QStringLiteral("--kind"), QStringLiteral("shell"),
         QStringLiteral("--command"), QStringLiteral("echo b"), QStringLiteral("--after"),
         QStringLiteral("a")},
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
         QStringLiteral("c"), QStringLiteral("--kind"), QStringLiteral("builtin"),
         QStringLiteral("--command"), QStringLiteral("NoOp"), QStringLiteral("--after"),
         QStringLiteral("b:completion"), QStringLiteral("--ignore-error")},
        {QStringLiteral("dep"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
         QStringLiteral("c"), QStringLiteral("a"), QStringLiteral("--when"),
         QStringLiteral("failure")},
        {QStringLiteral("schedule"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
         QStringLiteral("30 2 * * 1-5"), QStringLiteral("--dialect"), QStringLiteral("unix"),
         QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--misfire"),
         QStringLiteral("all")},
    };
    for (const QStringList &command : commands) {
        const Output result = runOn(t, command);
        QVERIFY2(result.exitCode == 0,
                 qPrintable(command.join(QLatin1Char(' ')) + QLatin1String(": ") + result.err));
        QVERIFY2(result.err.isEmpty(), qPrintable(result.err));
    }
}

void TestCommandLine::version_printsVersion()
{
    const Output result = run({QStringLiteral("--version")});
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out.trimmed(), QStringLiteral("hourglass ") + hg::versionString());
}

void TestCommandLine::help_listsEveryCommand()
{
    const Output result = run({QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 0);
    for (const char *command : {"project add", "chain add", "chain show", "task add", "dep add",
                                "schedule add", "export", "import", "backup", "restore"})
        QVERIFY2(result.out.contains(QLatin1String(command)), command);
    const Output sub =
        run({QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("--help")});
    QCOMPARE(sub.exitCode, 0);
    QVERIFY(sub.out.contains(QLatin1String("--retry-delay")));
}

void TestCommandLine::definitions_builtThroughCommandsReadBackAsJson()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Output show = runOn(t, {QStringLiteral("chain"), QStringLiteral("show"),
                                  QStringLiteral("ops/nightly"), QStringLiteral("--json")});
    QCOMPARE(show.exitCode, 0);
    const QJsonObject chain = QJsonDocument::fromJson(show.out.toUtf8()).object();
    QCOMPARE(chain[QStringLiteral("path")].toString(), QStringLiteral("ops/nightly"));
    QCOMPARE(chain[QStringLiteral("maxInstances")].toInt(), 2);
    QCOMPARE(chain[QStringLiteral("timeoutSeconds")].toInt(), 600);
    QCOMPARE(chain[QStringLiteral("exclusive")].toBool(), true);
    QCOMPARE(chain[QStringLiteral("client")].toString(), QStringLiteral("server-1"));
    QCOMPARE(chain[QStringLiteral("onFailure")].toString(), QStringLiteral("continue"));
    QCOMPARE(chain[QStringLiteral("priority")].toString(), QStringLiteral("high"));
    const QJsonArray tasks = chain[QStringLiteral("tasks")].toArray();
    QCOMPARE(tasks.size(), 3);
    QCOMPARE(tasks[0][QStringLiteral("arguments")].toArray().first().toString(),
             QStringLiteral("hello world"));
    QCOMPARE(tasks[0][QStringLiteral("environment")][QStringLiteral("GREETING")].toString(),
             QStringLiteral("hi"));
    QCOMPARE(tasks[0][QStringLiteral("maxRetries")].toInt(), 2);
    QCOMPARE(tasks[2][QStringLiteral("ignoreError")].toBool(), true);
    QCOMPARE(chain[QStringLiteral("dependencies")].toArray().size(), 3);

    const Output taskList = runOn(t, {QStringLiteral("task"), QStringLiteral("list"),
                                      QStringLiteral("ops/nightly"), QStringLiteral("--json")});
    const QJsonArray listed = QJsonDocument::fromJson(taskList.out.toUtf8()).array();
    QCOMPARE(listed.size(), 3);
    const QJsonArray afterC = listed[2][QStringLiteral("after")].toArray();
    QCOMPARE(afterC.size(), 2);
    QCOMPARE(afterC[0][QStringLiteral("when")].toString(), QStringLiteral("failure"));

    const Output schedules =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--json")});
    const QJsonArray scheduleArray = QJsonDocument::fromJson(schedules.out.toUtf8()).array();
    QCOMPARE(scheduleArray.size(), 1);
    QCOMPARE(scheduleArray[0][QStringLiteral("timeZone")].toString(),
             QStringLiteral("Europe/Berlin"));
    QCOMPARE(scheduleArray[0][QStringLiteral("misfire")].toString(), QStringLiteral("all"));

    const Output projects =
        runOn(t, {QStringLiteral("project"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(
        QJsonDocument::fromJson(projects.out.toUtf8()).array()[0][QStringLiteral("chains")].toInt(),
        1);
    const Output chains = runOn(t, {QStringLiteral("chain"), QStringLiteral("list")});
    QVERIFY(chains.out.contains(QLatin1String("ops/nightly")));
}

void TestCommandLine::badInput_exitsTwoWithOneLineOnStderr_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const auto words = [](const char *text) {
        return QString::fromUtf8(text).split(QLatin1Char('|'));
    };
    QTest::newRow("unknown project")
        << words("chain|add|nope/x") << QStringLiteral("unknown project 'nope'");
    QTest::newRow("file trigger, relative glob")
        << words("trigger|add|ops/nightly|--file|in/*.csv")
        << QStringLiteral("--file: 'in/*.csv' is not an absolute path");
    QTest::newRow("file trigger, unknown event")
        << words("trigger|add|ops/nightly|--file|/srv/*.csv|--events|created,born")
        << QStringLiteral("--events: 'born' is not one of created, modified, deleted, moved");
    QTest::newRow("file trigger, no length")
        << words("trigger|add|ops/nightly|--file|/srv/*.csv|--settle|soon")
        << QStringLiteral("--settle: 'soon' is not a length of time");
    QTest::newRow("file trigger, unknown misfire")
        << words("trigger|add|ops/nightly|--file|/srv/*.csv|--misfire|later")
        << QStringLiteral("--misfire");
    QTest::newRow("file and after at once")
        << words("trigger|add|ops/nightly|--file|/srv/*.csv|--after|ops/nightly")
        << QStringLiteral("one trigger starts on one kind of thing");
    QTest::newRow("file setting without a file")
        << words("trigger|add|ops/nightly|--after|ops/nightly|--settle|2s")
        << QStringLiteral("--settle is a setting of file triggers");
    QTest::newRow("idle of seconds")
        << words("trigger|add|ops/nightly|--on-idle|30s")
        << QStringLiteral("--on-idle: whole minutes from 1 min to 7 d");
    QTest::newRow("idle of no length")
        << words("trigger|add|ops/nightly|--on-idle|a while")
        << QStringLiteral("--on-idle: 'a while' is not a length of time");
    QTest::newRow("two desktop events")
        << words("trigger|add|ops/nightly|--on-unlock|--on-resume")
        << QStringLiteral("--on-unlock and --on-resume: one trigger starts on one kind");
    QTest::newRow("file setting on a desktop trigger")
        << words("trigger|add|ops/nightly|--on-network|--settle|2s")
        << QStringLiteral("--settle is not a setting of --on-network");
    QTest::newRow("webhook with a file setting")
        << words("trigger|add|ops/nightly|--webhook|--settle|2s")
        << QStringLiteral("--settle is not a setting of --webhook");
    QTest::newRow("webhook header that is a credential")
        << words("trigger|add|ops/nightly|--webhook|--header|Authorization")
        << QStringLiteral("authorization carries a credential");
    QTest::newRow("header without a webhook")
        << words("trigger|add|ops/nightly|--after|ops/load|--header|x-a")
        << QStringLiteral("--header is a setting of webhook triggers");
    QTest::newRow("api options without --api")
        << words("serve|--api-insecure") << QStringLiteral("--api-insecure needs --api");
    QTest::newRow("token without a role")
        << words("token|add|ci") << QStringLiteral("--role is needed");
    QTest::newRow("token role unknown")
        << words("token|add|ci|--role|god") << QStringLiteral("god");
    QTest::newRow("negative id")
        << words("trigger|pause|-1")
        << QStringLiteral("'-1' is a negative number, and no id or count here is below 1");
    QTest::newRow("id with a sign")
        << words("trigger|rm|+5") << QStringLiteral("'+5' is not a trigger's id");
    QTest::newRow("id with a leading zero")
        << words("trigger|pause|05") << QStringLiteral("'05' is not a trigger's id");
    QTest::newRow("unknown chain")
        << words("task|list|ops/none") << QStringLiteral("unknown chain 'ops/none'");
    QTest::newRow("duplicate project")
        << words("project|add|ops") << QStringLiteral("project 'ops' already exists");
    QTest::newRow("duplicate chain")
        << words("chain|add|ops/nightly") << QStringLiteral("chain 'nightly' already exists");
    QTest::newRow("duplicate task") << words("task|add|ops/nightly|a|--kind|shell|--command|true")
                                    << QStringLiteral("task 'a' already exists");
    QTest::newRow("cycle") << words("dep|add|ops/nightly|a|c")
                           << QStringLiteral("cycle: c → a → c");
    QTest::newRow("after unknown task")
        << words("task|add|ops/nightly|d|--kind|shell|--command|true|--after|zzz")
        << QStringLiteral("unknown task 'zzz'");
    QTest::newRow("bad kind") << words("task|add|ops/nightly|d|--kind|magic|--command|x")
                              << QStringLiteral("--kind: 'magic' is not one of");
    QTest::newRow("bad number") << words("chain|add|ops/x|--max-instances|many")
                                << QStringLiteral("--max-instances: 'many' is not a whole number");
    QTest::newRow("bad zone") << words("schedule|add|ops/nightly|* * * * *|--tz|Mars/Base")
                              << QStringLiteral("unknown time zone 'Mars/Base'");
    QTest::newRow("not a path") << words("chain|show|ops")
                                << QStringLiteral("'ops' is not PROJECT/CHAIN");
    QTest::newRow("unknown command")
        << words("frobnicate") << QStringLiteral("unknown command 'frobnicate'");
    QTest::newRow("unknown verb") << words("project|explode")
                                  << QStringLiteral("unknown command 'project explode'");
    QTest::newRow("missing argument") << words("project|add") << QStringLiteral("missing NAME");
    QTest::newRow("unknown option")
        << words("project|list|--colour") << QStringLiteral("Unknown option 'colour'");
    QTest::newRow("schedule id not a number")
        << words("schedule|rm|x") << QStringLiteral("'x' is not a schedule id");
    QTest::newRow("unknown schedule")
        << words("schedule|rm|999") << QStringLiteral("unknown schedule 999");
    QTest::newRow("builtin argument")
        << words("task|add|ops/nightly|nap|--kind|builtin|--command|Sleep|--arg|{\"secs\": 1}")
        << QStringLiteral("task 'nap': Sleep.secs: unknown field (expected seconds)");
    QTest::newRow("backfill reversed range")
        << words("backfill|ops/nightly|--from|2026-11-09|--to|2026-11-02")
        << QStringLiteral("--from must not be after --to");
    QTest::newRow("backfill bad time")
        << words("backfill|ops/nightly|--from|yesterday|--to|2026-11-02")
        << QStringLiteral("--from: 'yesterday' is not an ISO 8601 date and time");
    QTest::newRow("backfill no fire times")
        << words("backfill|ops/nightly|--from|2026-11-07T00:00:00Z|--to|2026-11-08T23:00:00Z")
        << QStringLiteral("chain 'nightly' has no fire times between");
    QTest::newRow("backfill bad order")
        << words("backfill|ops/nightly|--from|2026-11-02|--to|2026-11-03|--order|random")
        << QStringLiteral("--order: 'random' is not one of oldest, newest");
}

void TestCommandLine::badInput_exitsTwoWithOneLineOnStderr()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Output result = runOn(t, arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY(result.out.isEmpty());
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
    QVERIFY2(result.err.startsWith(QLatin1String("hourglass: ")), qPrintable(result.err));
    QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
}

void TestCommandLine::exportImportExport_documentsAreIdentical()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.json"));
    QCOMPARE(runOn(t, {QStringLiteral("export"), QStringLiteral("--output"), first}).exitCode, 0);

    const QString emptyStore = dir.filePath(QStringLiteral("empty.db"));
    const Output imported =
        run({QStringLiteral("--db"), emptyStore, QStringLiteral("import"), first});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    const Output second = run({QStringLiteral("--db"), emptyStore, QStringLiteral("export")});
    QCOMPARE(second.exitCode, 0);
    QFile firstFile(first);
    QVERIFY(firstFile.open(QIODevice::ReadOnly));
    QCOMPARE(second.out.toUtf8(), firstFile.readAll());

    const Output oneChain = runOn(t, {QStringLiteral("export"), QStringLiteral("ops/nightly")});
    QCOMPARE(oneChain.exitCode, 0);
    QVERIFY(oneChain.out.contains(QLatin1String("\"nightly\"")));
}

void TestCommandLine::import_malformedOrTruncatedChangesNothing()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Output before = runOn(t, {QStringLiteral("export")});
    QTemporaryDir dir;
    const QByteArray document = before.out.toUtf8();
    QByteArray renamed = document;
    renamed.replace("\"ops\"", "\"ops2\"");
    renamed.replace("\"kind\": \"shell\"", "\"kind\": \"psychic\"");
    const QList<QByteArray> bad{document.left(document.size() * 2 / 3), QByteArray("{"), renamed};
    for (const QByteArray &content : bad) {
        QFile file(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(content);
        file.close();
        const Output result = runOn(t, {QStringLiteral("import"), file.fileName()});
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
        QCOMPARE(runOn(t, {QStringLiteral("export")}).out, before.out);
    }
    const Output missing =
        runOn(t, {QStringLiteral("import"), dir.filePath(QStringLiteral("none"))});
    QCOMPARE(missing.exitCode, 2);
}

void TestCommandLine::store_unwritablePathExitsOne()
{
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const Output result =
        run({QStringLiteral("--db"), blocker.fileName() + QLatin1String("/x/h.db"),
             QStringLiteral("project"), QStringLiteral("list")});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains(QLatin1String("cannot create store directory")),
             qPrintable(result.err));
    QVERIFY(result.out.isEmpty());
}

void TestCommandLine::store_newerSchemaExitsOneAndChangesNothing()
{
    HG_TEST_STORE(t);
    QSqlQuery bump(t.store().database());
    QVERIFY(bump.exec(
        QStringLiteral("INSERT INTO schema_version (version, applied_at) VALUES (9999, 0)")));
    t.close();
    const Output result =
        runOn(t, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("x")});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains(QLatin1String("schema version 9999, newer than")),
             qPrintable(result.err));
    // Nothing was added: removing the marker makes the store readable again, and empty.
    std::unique_ptr<Store> raw;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(t.location().backend() == StoreBackend::Sqlite
                                                        ? QStringLiteral("QSQLITE")
                                                        : QStringLiteral("QPSQL"),
                                                    QStringLiteral("raw"));
        if (t.location().backend() == StoreBackend::Sqlite) {
            db.setDatabaseName(t.location().sqlitePath());
        } else {
            db.setHostName(t.location().url().host());
            db.setPort(t.location().url().port());
            db.setUserName(t.location().url().userName());
            db.setDatabaseName(t.location().databaseName());
        }
        QVERIFY(db.open());
        QSqlQuery query(db);
        QVERIFY(query.exec(QStringLiteral("DELETE FROM schema_version WHERE version = 9999")));
        QVERIFY(query.exec(QStringLiteral("SELECT COUNT(*) FROM project")) && query.next());
        QCOMPARE(query.value(0).toInt(), 0);
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
}

void TestCommandLine::store_dbOptionWinsOverEnvironmentAndMayFollowCommand()
{
    QTemporaryDir dir;
    const QString fromEnv = dir.filePath(QStringLiteral("env.db"));
    const QString fromOption = dir.filePath(QStringLiteral("option.db"));
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("HOURGLASS_DB"), fromEnv);
    QCOMPARE(run({QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("in-env")},
                 environment)
                 .exitCode,
             0);
    QCOMPARE(run({QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("in-option"),
                  QStringLiteral("--db"), fromOption},
                 environment)
                 .exitCode,
             0);
    const Output envList = run({QStringLiteral("project"), QStringLiteral("list")}, environment);
    QVERIFY(envList.out.contains(QLatin1String("in-env")));
    QVERIFY(!envList.out.contains(QLatin1String("in-option")));
    const Output optionList =
        run({QStringLiteral("--db"), fromOption, QStringLiteral("project"), QStringLiteral("list")},
            environment);
    QVERIFY(optionList.out.contains(QLatin1String("in-option")));
    // Neither went to the default store in the data directory.
    QVERIFY(!QFile::exists(m_home.filePath(QStringLiteral("hourglass/hourglass.db"))));
}

void TestCommandLine::remove_commandsDeleteWhatTheyName()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(runOn(t, {QStringLiteral("dep"), QStringLiteral("rm"), QStringLiteral("ops/nightly"),
                       QStringLiteral("c"), QStringLiteral("a")})
                 .exitCode,
             0);
    QCOMPARE(runOn(t, {QStringLiteral("dep"), QStringLiteral("rm"), QStringLiteral("ops/nightly"),
                       QStringLiteral("c"), QStringLiteral("a")})
                 .exitCode,
             2);
    QCOMPARE(runOn(t, {QStringLiteral("task"), QStringLiteral("rm"), QStringLiteral("ops/nightly"),
                       QStringLiteral("c")})
                 .exitCode,
             0);
    const Output tasks = runOn(t, {QStringLiteral("task"), QStringLiteral("list"),
                                   QStringLiteral("ops/nightly"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(tasks.out.toUtf8()).array().size(), 2);
    const Output schedules =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--json")});
    const QString id = QString::number(QJsonDocument::fromJson(schedules.out.toUtf8())
                                           .array()[0][QStringLiteral("id")]
                                           .toInteger());
    QCOMPARE(runOn(t, {QStringLiteral("schedule"), QStringLiteral("rm"), id}).exitCode, 0);
    QCOMPARE(
        runOn(t, {QStringLiteral("project"), QStringLiteral("rm"), QStringLiteral("ops")}).exitCode,
        2);
    QCOMPARE(
        runOn(t, {QStringLiteral("chain"), QStringLiteral("rm"), QStringLiteral("ops/nightly")})
            .exitCode,
        0);
    QCOMPARE(
        runOn(t, {QStringLiteral("project"), QStringLiteral("rm"), QStringLiteral("ops")}).exitCode,
        0);
    QVERIFY(QJsonDocument::fromJson(runOn(t, {QStringLiteral("project"), QStringLiteral("list"),
                                              QStringLiteral("--json")})
                                        .out.toUtf8())
                .array()
                .isEmpty());
}

void TestCommandLine::cronNext_printsIsoTimesWithOffset()
{
    const Output result = run(
        {QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("30 2 * * *"),
         QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--from"),
         QStringLiteral("2026-03-28T12:00:00"), QStringLiteral("--count"), QStringLiteral("2")});
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QStringLiteral("2026-03-29T03:00:00+02:00\n2026-03-30T02:30:00+02:00\n"));
    QVERIFY(result.err.isEmpty());
    const Output utc = run(
        {QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("0 0 1 1 *"),
         QStringLiteral("--tz"), QStringLiteral("UTC"), QStringLiteral("--from"),
         QStringLiteral("2026-06-01T00:00:00Z"), QStringLiteral("--count"), QStringLiteral("1")});
    QCOMPARE(utc.out, QStringLiteral("2027-01-01T00:00:00+00:00\n"));
    const Output fiveByDefault =
        run({QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("*/5 * * * *")});
    QCOMPARE(fiveByDefault.out.count(QLatin1Char('\n')), 5);
    // Per schedule, a DST rule: cronie leaves a wildcard job's skipped times out.
    const Output cronie =
        run({QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("*/15 2 * * *"),
             QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--from"),
             QStringLiteral("2026-03-29T01:00:00"), QStringLiteral("--count"), QStringLiteral("1"),
             QStringLiteral("--dst"), QStringLiteral("cronie")});
    QCOMPARE(cronie.out, QStringLiteral("2026-03-30T02:00:00+02:00\n"));
    const Output badRule =
        run({QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("* * * * *"),
             QStringLiteral("--dst"), QStringLiteral("sometimes")});
    QCOMPARE(badRule.exitCode, 2);
    QVERIFY2(badRule.err.contains(QStringLiteral("'sometimes' is not a DST rule")),
             qPrintable(badRule.err));
}

void TestCommandLine::cronNext_invalidExpressionExitsTwoWithNothingOnStdout_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("hour out of range")
        << QStringList{QStringLiteral("0 24 * * *")}
        << QStringLiteral("hourglass: cron: hour field (column 3): 24 is out of range 0-23\n");
    QTest::newRow("never fires") << QStringList{QStringLiteral("0 0 30 2 *")}
                                 << QStringLiteral("never fires");
    QTest::newRow("quartz without ?")
        << QStringList{QStringLiteral("0 0 12 * * * 2030")} << QStringLiteral("Quartz needs '?'");
    QTest::newRow("bad zone") << QStringList{QStringLiteral("* * * * *"), QStringLiteral("--tz"),
                                             QStringLiteral("Nowhere/City")}
                              << QStringLiteral("unknown time zone 'Nowhere/City'");
    QTest::newRow("bad from") << QStringList{QStringLiteral("* * * * *"), QStringLiteral("--from"),
                                             QStringLiteral("yesterday")}
                              << QStringLiteral("--from: 'yesterday' is not an ISO 8601");
    QTest::newRow("bad dialect") << QStringList{
        QStringLiteral("* * * * *"), QStringLiteral("--dialect"),
        QStringLiteral("fcron")} << QStringLiteral("--dialect: 'fcron' is not one of");
}

void TestCommandLine::cronNext_invalidExpressionExitsTwoWithNothingOnStdout()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Output result =
        run(QStringList{QStringLiteral("cron"), QStringLiteral("next")} + arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY(result.out.isEmpty());
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
    QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
}

void TestCommandLine::cronExplain_describesAndWarns()
{
    const Output result =
        run({QStringLiteral("cron"), QStringLiteral("explain"), QStringLiteral("30 2 * * 1-5"),
             QStringLiteral("--tz"), QStringLiteral("Europe/Berlin")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(
        result.out.startsWith(QLatin1String("At 02:30 on Monday through Friday, Europe/Berlin\n")),
        qPrintable(result.out));
    QVERIFY(result.out.contains(QLatin1String("dialect: unix")));
    const Output warned =
        run({QStringLiteral("cron"), QStringLiteral("explain"), QStringLiteral("0 9 1 * 1"),
             QStringLiteral("--dialect"), QStringLiteral("pgtimetable")});
    QVERIFY(warned.out.contains(
        QLatin1String("warning: day-of-month and day-of-week are both restricted")));
}

void TestCommandLine::cronNext_jsonErrorNamesFieldAndColumn()
{
    const Output result = run({QStringLiteral("cron"), QStringLiteral("next"),
                               QStringLiteral("0 24 * * *"), QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 2);
    const QJsonObject error = QJsonDocument::fromJson(result.out.toUtf8()).object();
    QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("hour"));
    QCOMPARE(error.value(QStringLiteral("column")).toInt(), 3);
    QVERIFY(
        error.value(QStringLiteral("error")).toString().contains(QLatin1String("out of range")));

    // An error that lies in no field carries nulls for both.
    const Output zone =
        run({QStringLiteral("cron"), QStringLiteral("explain"), QStringLiteral("* * * * *"),
             QStringLiteral("--tz"), QStringLiteral("Mars/Olympus"), QStringLiteral("--json")});
    QCOMPARE(zone.exitCode, 2);
    const QJsonObject zoneError = QJsonDocument::fromJson(zone.out.toUtf8()).object();
    QVERIFY(zoneError.value(QStringLiteral("field")).isNull());
    QVERIFY(zoneError.value(QStringLiteral("column")).isNull());
}

void TestCommandLine::cronNextAndExplain_printJson()
{
    const Output next =
        run({QStringLiteral("cron"), QStringLiteral("next"), QStringLiteral("0 0 1 1 *"),
             QStringLiteral("--tz"), QStringLiteral("UTC"), QStringLiteral("--from"),
             QStringLiteral("2026-06-01T00:00:00Z"), QStringLiteral("--count"), QStringLiteral("2"),
             QStringLiteral("--json")});
    QCOMPARE(next.exitCode, 0);
    const QJsonArray fires = QJsonDocument::fromJson(next.out.toUtf8()).array();
    QCOMPARE(fires.size(), 2);
    QCOMPARE(fires.at(0).toString(), QStringLiteral("2027-01-01T00:00:00+00:00"));
    const Output explain =
        run({QStringLiteral("cron"), QStringLiteral("explain"), QStringLiteral("30 2 * * 1-5"),
             QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--json")});
    QCOMPARE(explain.exitCode, 0);
    const QJsonObject described = QJsonDocument::fromJson(explain.out.toUtf8()).object();
    QCOMPARE(described.value(QStringLiteral("description")).toString(),
             QStringLiteral("At 02:30 on Monday through Friday, Europe/Berlin"));
    QCOMPARE(described.value(QStringLiteral("dialect")).toString(), QStringLiteral("unix"));
}

void TestCommandLine::scheduleAdd_validatesAndPinsTheDialect()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Output bad = runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"),
                                 QStringLiteral("ops/nightly"), QStringLiteral("61 * * * *")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QLatin1String("minute field (column 1): 61 is out of range 0-59")),
             qPrintable(bad.err));
    QCOMPARE(runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"),
                       QStringLiteral("ops/nightly"), QStringLiteral("0 0 12 ? * MON#2")})
                 .exitCode,
             0);
    QCOMPARE(runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"),
                       QStringLiteral("ops/nightly"), QStringLiteral("@every 15 minutes")})
                 .exitCode,
             0);
    const Output list =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--json")});
    const QJsonArray schedules = QJsonDocument::fromJson(list.out.toUtf8()).array();
    QCOMPARE(schedules.size(), 3);
    QCOMPARE(schedules[1][QStringLiteral("dialect")].toString(), QStringLiteral("quartz"));
    QCOMPARE(schedules[2][QStringLiteral("dialect")].toString(), QStringLiteral("pgtimetable"));
    QCOMPARE(schedules[2][QStringLiteral("kind")].toString(), QStringLiteral("every"));
}

void TestCommandLine::scheduleNext_listsTheFireTimesInTheSchedulesZone()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Output list =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--json")});
    const qint64 id =
        QJsonDocument::fromJson(list.out.toUtf8()).array().at(0)[QStringLiteral("id")].toInteger();
    const Output next =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("next"), QString::number(id),
                  QStringLiteral("--count"), QStringLiteral("7"), QStringLiteral("--json")});
    QCOMPARE(next.exitCode, 0);
    const QJsonObject answer = QJsonDocument::fromJson(next.out.toUtf8()).object();
    QCOMPARE(answer[QStringLiteral("timeZone")].toString(), QStringLiteral("Europe/Berlin"));
    const QJsonArray fires = answer[QStringLiteral("next")].toArray();
    QCOMPARE(fires.size(), 7);
    // 30 2 * * 1-5 in Berlin: weekdays at 02:30 there, in the future, each after the one before.
    const QTimeZone berlin("Europe/Berlin");
    QDateTime previous = QDateTime::currentDateTimeUtc();
    for (const QJsonValue &fire : fires) {
        const QDateTime at = QDateTime::fromString(fire.toString(), Qt::ISODate).toTimeZone(berlin);
        QVERIFY2(at > previous, qPrintable(fire.toString()));
        QCOMPARE(at.time(), QTime(2, 30));
        QVERIFY(at.date().dayOfWeek() <= 5);
        previous = at;
    }
    const Output text =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("next"), QString::number(id),
                  QStringLiteral("--count"), QStringLiteral("3")});
    QCOMPARE(text.exitCode, 0);
    QCOMPARE(text.out.trimmed().split(QLatin1Char('\n')).size(), 3);
    const Output missing =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("next"), QString::number(id + 1000)});
    QCOMPARE(missing.exitCode, 2); // as any command given something that is not there
    QVERIFY2(missing.err.contains(QString::number(id + 1000)), qPrintable(missing.err));
}

void TestCommandLine::scheduleNext_marksTheDstChangesWithWhatTheyDo()
{
    HG_TEST_STORE(t);
    QCOMPARE(
        runOn(t, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}).exitCode,
        0);
    QCOMPARE(
        runOn(t, {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}).exitCode,
        0);
    const Output added = runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"),
                                   QStringLiteral("p/c"), QStringLiteral("*/15 2 * * *"),
                                   QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"),
                                   QStringLiteral("--dst"), QStringLiteral("cronie")});
    QCOMPARE(added.exitCode, 0);
    const qint64 id = added.out.trimmed().toLongLong();
    const Output listed =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(listed.out.toUtf8())
                 .array()
                 .at(0)[QStringLiteral("dst")]
                 .toString(),
             QStringLiteral("cronie"));
    // Its window opens two days before Berlin's next spring-forward, whenever the test runs.
    const QTimeZone berlin("Europe/Berlin");
    QTimeZone::OffsetData change = berlin.nextTransition(QDateTime::currentDateTimeUtc());
    while (change.daylightTimeOffset == 0)
        change = berlin.nextTransition(change.atUtc);
    Schedule schedule = ScheduleRepository(t.store()).byId(id).value();
    schedule.activeFrom = change.atUtc.addDays(-2);
    QVERIFY(ScheduleRepository(t.store()).update(schedule));
    const Output next =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("next"), QString::number(id),
                  QStringLiteral("--count"), QStringLiteral("12")});
    QCOMPARE(next.exitCode, 0);
    const QStringList lines = next.out.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 13); // twelve fire times and the change among them
    const qsizetype note = lines.indexOf(
        QRegularExpression(QStringLiteral("^DST: .* the clocks go forward from 02:00 to 03:00; "
                                          "the gap takes 02:00, 02:15, 02:30, 02:45: skipped, "
                                          "as cronie skips a wildcard job's times$")));
    QVERIFY2(note == 8, qPrintable(next.out)); // after two days of four fire times each
    QVERIFY2(!next.out.contains(QStringLiteral("T03:00:00+02:00")), qPrintable(next.out));
    const Output json = runOn(t, {QStringLiteral("schedule"), QStringLiteral("next"),
                                  QString::number(id), QStringLiteral("--json")});
    const QJsonObject answer = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(answer[QStringLiteral("dst")].toString(), QStringLiteral("cronie"));
    QCOMPARE(answer[QStringLiteral("dstChanges")].toArray().size(), 1);
}

void TestCommandLine::calendar_addListUseAndRemove()
{
    HG_TEST_STORE(t);
    QTemporaryDir dir;
    QFile ics(dir.filePath(QStringLiteral("holidays.ics")));
    QVERIFY(ics.open(QIODevice::WriteOnly));
    ics.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\n"
              "UID:xmas@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20261225\r\n"
              "DTEND;VALUE=DATE:20261226\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Christmas Day\r\n"
              "END:VEVENT\r\nEND:VCALENDAR\r\n");
    ics.close();
    QCOMPARE(runOn(t, {QStringLiteral("calendar"), QStringLiteral("add"),
                       QStringLiteral("holidays"), QStringLiteral("--ics"), ics.fileName(),
                       QStringLiteral("--dates"), QStringLiteral("2026-12-28..2026-12-31")})
                 .exitCode,
             0);
    QCOMPARE(runOn(t, {QStringLiteral("calendar"), QStringLiteral("add"),
                       QStringLiteral("weekends"), QStringLiteral("--weekends")})
                 .exitCode,
             0);
    const Output badDate =
        runOn(t, {QStringLiteral("calendar"), QStringLiteral("add"), QStringLiteral("odd"),
                  QStringLiteral("--dates"), QStringLiteral("2026-12-24,2026-13-01")});
    QCOMPARE(badDate.exitCode, 2);
    QVERIFY2(badDate.err.contains(QStringLiteral("'2026-13-01' is not a date")),
             qPrintable(badDate.err));
    const Output notIcs =
        runOn(t, {QStringLiteral("calendar"), QStringLiteral("add"), QStringLiteral("odd"),
                  QStringLiteral("--ics"), dir.filePath(QStringLiteral("missing.ics"))});
    QCOMPARE(notIcs.exitCode, 2);
    const Output listed =
        runOn(t, {QStringLiteral("calendar"), QStringLiteral("list"), QStringLiteral("--json")});
    const QJsonArray calendars = QJsonDocument::fromJson(listed.out.toUtf8()).array();
    QCOMPARE(calendars.size(), 2);
    QCOMPARE(calendars.at(0)[QStringLiteral("name")].toString(), QStringLiteral("holidays"));
    QVERIFY(calendars.at(0)[QStringLiteral("ranges")].toArray().size() > 70); // to 2100
    QCOMPARE(calendars.at(1)[QStringLiteral("weekdays")].toArray().size(), 2);

    QCOMPARE(
        runOn(t, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}).exitCode,
        0);
    QCOMPARE(
        runOn(t, {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}).exitCode,
        0);
    const Output added =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"), QStringLiteral("p/c"),
                  QStringLiteral("0 9 * * *"), QStringLiteral("--tz"), QStringLiteral("UTC"),
                  QStringLiteral("--exclude"), QStringLiteral("holidays")});
    QCOMPARE(added.exitCode, 0);
    const QString id = added.out.trimmed();
    const Output next =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("next"), id, QStringLiteral("--count"),
                  QStringLiteral("400"), QStringLiteral("--json")});
    const QJsonArray fires =
        QJsonDocument::fromJson(next.out.toUtf8()).object()[QStringLiteral("next")].toArray();
    QCOMPARE(fires.size(), 400);
    for (const QJsonValue &fire : fires) {
        // Christmas Day every year (the file's yearly rule), and 28 to 31 December 2026.
        const QDate day = QDateTime::fromString(fire.toString(), Qt::ISODate).date();
        QVERIFY2(!(day.month() == 12 && day.day() == 25), qPrintable(fire.toString()));
        QVERIFY2(day < QDate(2026, 12, 28) || day > QDate(2026, 12, 31),
                 qPrintable(fire.toString()));
    }
    const Output both = runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"),
                                  QStringLiteral("p/c"), QStringLiteral("0 9 * * *"),
                                  QStringLiteral("--exclude"), QStringLiteral("holidays"),
                                  QStringLiteral("--only"), QStringLiteral("weekends")});
    QCOMPARE(both.exitCode, 2);
    const Output unknown =
        runOn(t, {QStringLiteral("schedule"), QStringLiteral("add"), QStringLiteral("p/c"),
                  QStringLiteral("0 9 * * *"), QStringLiteral("--only"), QStringLiteral("nope")});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains(QStringLiteral("no calendar named 'nope'")),
             qPrintable(unknown.err));
    // In use, a calendar stays; once free, it goes.
    const Output refused =
        runOn(t, {QStringLiteral("calendar"), QStringLiteral("rm"), QStringLiteral("holidays")});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QStringLiteral("used by schedule %1 (p/c)").arg(id)),
             qPrintable(refused.err));
    QCOMPARE(runOn(t, {QStringLiteral("schedule"), QStringLiteral("rm"), id}).exitCode, 0);
    QCOMPARE(
        runOn(t, {QStringLiteral("calendar"), QStringLiteral("rm"), QStringLiteral("holidays")})
            .exitCode,
        0);
}

void TestCommandLine::backfill_queuesTheScheduleFireTimesAsABatch()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    // 30 2 * * 1-5 in Berlin, over Monday 2 to Sunday 8 November 2026: five weekdays.
    const Output result = runOn(
        t, {QStringLiteral("backfill"), QStringLiteral("ops/nightly"), QStringLiteral("--from"),
            QStringLiteral("2026-11-02T00:00:00+01:00"), QStringLiteral("--to"),
            QStringLiteral("2026-11-08T23:59:59+01:00"), QStringLiteral("--parallel"),
            QStringLiteral("2"), QStringLiteral("--order"), QStringLiteral("newest")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(
        result.err.contains(QLatin1String("queued 5 backfill runs of ops/nightly, 2 at a time, "
                                          "newest first")),
        qPrintable(result.err));
    const QStringList lines = result.out.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 6); // header and five runs, newest first
    QVERIFY(lines.at(1).endsWith(QLatin1String("2026-11-06T01:30:00+00:00")));
    QVERIFY(lines.at(5).endsWith(QLatin1String("2026-11-02T01:30:00+00:00")));

    RunFilter all;
    const QList<Run> runs = RunRepository(t.store()).list(all).value();
    QCOMPARE(runs.size(), 5);
    const qint64 batch = runs.last().id; // the list is newest id first; the batch is the first
    for (const Run &run : runs) {
        QCOMPARE(run.trigger, RunTrigger::Backfill);
        QCOMPARE(run.state, RunState::Queued);
        QCOMPARE(run.batchId, batch);
        QCOMPARE(run.batchParallel, 2);
    }
    QCOMPARE(CommandRepository(t.store()).pending()->size(), 5);
}

void TestCommandLine::alert_setShowAndClearWithClearErrors()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    Output result = runOn(
        t, {QStringLiteral("alert"), QStringLiteral("set"), QStringLiteral("ops/nightly"),
            QStringLiteral("--late"), QStringLiteral("90s"), QStringLiteral("--longer-than"),
            QStringLiteral("3x"), QStringLiteral("--shorter-than"), QStringLiteral("5 seconds"),
            QStringLiteral("--deadline"), QStringLiteral("0 7 * * 1-5"),
            QStringLiteral("--deadline-zone"), QStringLiteral("Europe/Berlin")});
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out.trimmed(), QStringLiteral("alerts of ops/nightly set"));
    result = runOn(t, {QStringLiteral("alert"), QStringLiteral("show"),
                       QStringLiteral("ops/nightly"), QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 0);
    const QJsonObject rules = QJsonDocument::fromJson(result.out.toUtf8())
                                  .object()
                                  .value(QStringLiteral("rules"))
                                  .toObject();
    QCOMPARE(rules[QStringLiteral("lateAfterMs")].toInteger(), 90000);
    QCOMPARE(rules[QStringLiteral("longerThanFactor")].toDouble(), 3.0);
    QCOMPARE(rules[QStringLiteral("shorterThanMs")].toInteger(), 5000);
    QCOMPARE(rules[QStringLiteral("deadline")].toString(), QStringLiteral("0 7 * * 1-5"));
    QCOMPARE(rules[QStringLiteral("deadlineZone")].toString(), QStringLiteral("Europe/Berlin"));
    // Only what is given changes.
    QCOMPARE(
        runOn(t, {QStringLiteral("alert"), QStringLiteral("set"), QStringLiteral("ops/nightly"),
                  QStringLiteral("--late"), QStringLiteral("off")})
            .exitCode,
        0);
    result =
        runOn(t, {QStringLiteral("alert"), QStringLiteral("show"), QStringLiteral("ops/nightly")});
    QVERIFY2(result.out.contains(QLatin1String("late after:   -")), qPrintable(result.out));
    QVERIFY2(result.out.contains(QLatin1String("longer than:  3x the median")),
             qPrintable(result.out));
    QVERIFY2(result.out.contains(QLatin1String("deadline:     0 7 * * 1-5 (Europe/Berlin)")),
             qPrintable(result.out));

    // Bad input names the option and what is wrong, and changes nothing.
    result =
        runOn(t, {QStringLiteral("alert"), QStringLiteral("set"), QStringLiteral("ops/nightly"),
                  QStringLiteral("--longer-than"), QStringLiteral("soon")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QLatin1String("--longer-than: 'soon' is not a length of time")),
             qPrintable(result.err));
    result =
        runOn(t, {QStringLiteral("alert"), QStringLiteral("set"), QStringLiteral("ops/nightly"),
                  QStringLiteral("--deadline"), QStringLiteral("0 25 * * *")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QLatin1String("--deadline:"))
                 && result.err.contains(QLatin1String("hour")),
             qPrintable(result.err));
    result =
        runOn(t, {QStringLiteral("alert"), QStringLiteral("set"), QStringLiteral("ops/nightly"),
                  QStringLiteral("--deadline-zone"), QStringLiteral("Mars/Olympus")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QLatin1String("'Mars/Olympus' is not a time zone")),
             qPrintable(result.err));
    const Chain chain = ChainRepository(t.store()).byPath(QStringLiteral("ops/nightly")).value();
    QCOMPARE(AlertRepository(t.store()).rules(chain.id)->deadline, QStringLiteral("0 7 * * 1-5"));

    QCOMPARE(
        runOn(t, {QStringLiteral("alert"), QStringLiteral("clear"), QStringLiteral("ops/nightly")})
            .exitCode,
        0);
    QVERIFY(!AlertRepository(t.store()).rules(chain.id)->isSet());
}

void TestCommandLine::runsJson_saysWhatTriggeredARun()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Chain chain = ChainRepository(t.store()).byPath(QStringLiteral("ops/nightly")).value();
    Run run;
    run.chainId = chain.id;
    run.trigger = RunTrigger::Trigger;
    run.scheduledFor = QDateTime::currentDateTimeUtc();
    run.parameters = {{QStringLiteral("trigger.path"), QStringLiteral("/srv/in/a.csv")},
                      {QStringLiteral("trigger.event"), QStringLiteral("created")},
                      {QStringLiteral("day"), QStringLiteral("monday")}};
    QVERIFY(RunRepository(t.store()).insert(run));
    const Output result = runOn(t, {QStringLiteral("runs"), QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 0);
    const QJsonObject listed = QJsonDocument::fromJson(result.out.toUtf8()).array()[0].toObject();
    QCOMPARE(listed[QStringLiteral("trigger")].toString(), QStringLiteral("trigger"));
    QCOMPARE(listed[QStringLiteral("triggerText")].toString(),
             QStringLiteral("file /srv/in/a.csv created"));
    // The trigger's own parameters, without their prefix; the chain's others are not its.
    QCOMPARE(listed[QStringLiteral("triggerDetail")].toObject(),
             (QJsonObject{{QStringLiteral("path"), QStringLiteral("/srv/in/a.csv")},
                          {QStringLiteral("event"), QStringLiteral("created")}}));
}

void TestCommandLine::missed_inboxListsRunsAndDismisses()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    const Chain chain = ChainRepository(t.store()).byPath(QStringLiteral("ops/nightly")).value();
    const Schedule schedule = ScheduleRepository(t.store()).list(chain.id)->first();
    QVERIFY(schedule.dialect != CronDialect::Quartz);
    // What an engine under misfire policy ask leaves after three nights down (30 2 * * 1-5 in
    // Berlin: Tuesday to Thursday, 3 to 5 November 2026), as tst_occurrenceledger has it.
    Occurrence missed;
    missed.scheduleId = schedule.id;
    missed.chainId = chain.id;
    missed.outcome = OccurrenceOutcome::Missed;
    missed.cause = OccurrenceCause::Down;
    missed.firstFireMs = QDateTime::fromString(QStringLiteral("2026-11-03T01:30:00Z"), Qt::ISODate)
                             .toMSecsSinceEpoch();
    missed.lastFireMs = QDateTime::fromString(QStringLiteral("2026-11-05T01:30:00Z"), Qt::ISODate)
                            .toMSecsSinceEpoch();
    missed.count = 3;
    missed.inbox = InboxState::Pending;
    QVERIFY(OccurrenceRepository(t.store()).insert(missed));

    Output result = runOn(t, {QStringLiteral("missed")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains(QRegularExpression(QStringLiteral("ops/nightly +3 "))),
             qPrintable(result.out));
    result = runOn(t, {QStringLiteral("missed"), QStringLiteral("run"),
                       QStringLiteral("ops/nightly"), QStringLiteral("--keep")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains(QLatin1String("queued 3 runs of ops/nightly")),
             qPrintable(result.out));
    QVERIFY2(result.out.contains(QLatin1String("misfire policy is now all")),
             qPrintable(result.out));
    // The three fire times became a backfill batch, oldest first; the inbox is empty.
    QList<Run> runs = RunRepository(t.store()).list(RunFilter{}).value();
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs.last().scheduledFor.toMSecsSinceEpoch(), missed.firstFireMs);
    QCOMPARE(runs.first().scheduledFor.toMSecsSinceEpoch(), missed.lastFireMs);
    QCOMPARE(runs.first().trigger, RunTrigger::Backfill);
    QCOMPARE(ScheduleRepository(t.store()).byId(schedule.id)->misfire, MisfirePolicy::All);
    QCOMPARE(runOn(t, {QStringLiteral("missed")}).out.trimmed(),
             QStringLiteral("no missed runs wait for a decision"));
    result = runOn(
        t, {QStringLiteral("missed"), QStringLiteral("dismiss"), QStringLiteral("ops/nightly")});
    QCOMPARE(result.exitCode, 2); // nothing waits: a name that names nothing, as elsewhere
    QVERIFY2(result.err.contains(QLatin1String("no missed runs of ops/nightly")),
             qPrintable(result.err));

    // The ledger keeps the row, with the decision, beside the runs.
    result = runOn(t, {QStringLiteral("occurrences"), QStringLiteral("ops/nightly"),
                       QStringLiteral("--since"), QStringLiteral("2026-11-01T00:00:00Z"),
                       QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 0);
    const QJsonArray rows = QJsonDocument::fromJson(result.out.toUtf8())
                                .object()
                                .value(QStringLiteral("occurrences"))
                                .toArray();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first()[QStringLiteral("outcome")].toString(), QStringLiteral("missed"));
    QCOMPARE(rows.first()[QStringLiteral("inbox")].toString(), QStringLiteral("run"));
    QCOMPARE(rows.first()[QStringLiteral("count")].toInt(), 3);
}

void TestCommandLine::connection_addListAndRemove()
{
    HG_TEST_STORE(t);
    buildNightlyChain(t);
    if (QTest::currentTestFailed())
        return;
    Output result =
        runOn(t, {QStringLiteral("connection"), QStringLiteral("add"), QStringLiteral("warehouse"),
                  QStringLiteral("--kind"), QStringLiteral("postgresql"), QStringLiteral("--host"),
                  QStringLiteral("db.example.org"), QStringLiteral("--port"),
                  QStringLiteral("5433"), QStringLiteral("--database"), QStringLiteral("dwh"),
                  QStringLiteral("--user"), QStringLiteral("etl")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    result = runOn(t, {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("ops/nightly"),
                       QStringLiteral("load"), QStringLiteral("--kind"), QStringLiteral("sql"),
                       QStringLiteral("--command"), QStringLiteral("CALL load(?)"),
                       QStringLiteral("--arg"), QStringLiteral("${run.scheduled_for}"),
                       QStringLiteral("--connection"), QStringLiteral("warehouse")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    result =
        runOn(t, {QStringLiteral("connection"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 0);
    const QJsonArray list = QJsonDocument::fromJson(result.out.toUtf8()).array();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first()[QStringLiteral("port")].toInt(), 5433);
    QCOMPARE(list.first()[QStringLiteral("kind")].toString(), QStringLiteral("postgresql"));
    // Still used by a task: kept.
    result =
        runOn(t, {QStringLiteral("connection"), QStringLiteral("rm"), QStringLiteral("warehouse")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(QLatin1String("still used by a task")), qPrintable(result.err));
    QCOMPARE(runOn(t, {QStringLiteral("task"), QStringLiteral("rm"), QStringLiteral("ops/nightly"),
                       QStringLiteral("load")})
                 .exitCode,
             0);
    QCOMPARE(
        runOn(t, {QStringLiteral("connection"), QStringLiteral("rm"), QStringLiteral("warehouse")})
            .exitCode,
        0);
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
