#include "executorrun.h"
#include "executors/builtinexecutor.h"
#include "executors/executorfactory.h"

#include <QSignalSpy>
#include <QTest>

using namespace hg;

// The BUILTIN tasks: the factory picks an executor by the parsed builtin, and the engine's own
// builtins run from their typed arguments.
class TestBuiltinExecutor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void factory_picksByBuiltin_data();
    void factory_picksByBuiltin();
    void run_data();
    void run();
    void sleep_stoppedByTimeout();
};

void TestBuiltinExecutor::factory_picksByBuiltin_data()
{
    QTest::addColumn<QString>("builtin");
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("executor"); // class name, or the start of the error
    const auto row = [](const char *label, const char *builtin, const char *argument,
                        const char *executor) {
        QTest::newRow(label) << QString::fromUtf8(builtin) << QString::fromUtf8(argument)
                             << QString::fromUtf8(executor);
    };
    row("noop", "NoOp", "", "hg::BuiltinExecutor");
    row("sleep", "Sleep", R"({"seconds": 1})", "hg::BuiltinExecutor");
    row("log", "Log", R"({"message": "m"})", "hg::BuiltinExecutor");
    row("notify", "Notify", R"({"message": "m"})", "hg::BuiltinExecutor");
    row("request", "HttpRequest", R"({"url": "https://example.org"})", "hg::HttpExecutor");
    row("download", "Download", R"({"url": "https://example.org/f", "destination": "/f"})",
        "hg::HttpExecutor");
    row("copy", "CopyFile", R"({"source": "/a", "destination": "/b"})", "hg::FileCopyExecutor");
    row("unknown", "Nap", "", "unknown builtin 'Nap'");
    row("bad argument", "Sleep", R"({"seconds": 0})", "Sleep.seconds");
}

void TestBuiltinExecutor::factory_picksByBuiltin()
{
    QFETCH(QString, builtin);
    QFETCH(QString, argument);
    QFETCH(QString, executor);
    const EngineConfig config;
    ExecutorContext context;
    context.task.name = QStringLiteral("t");
    context.task.kind = TaskKind::Builtin;
    context.task.command = builtin;
    if (!argument.isEmpty())
        context.task.arguments = QStringList{argument};
    context.config = &config;
    const Result<std::unique_ptr<TaskExecutor>> made = ExecutorFactory::create(context);
    if (!executor.startsWith(QLatin1String("hg::"))) {
        QVERIFY(!made);
        QVERIFY2(made.error().message.contains(executor), qPrintable(made.error().message));
        return;
    }
    QVERIFY2(made, made ? "" : qPrintable(made.error().message));
    QCOMPARE(QString::fromLatin1(made.value()->metaObject()->className()), executor);
}

void TestBuiltinExecutor::run_data()
{
    QTest::addColumn<int>("builtin");
    QTest::addColumn<QString>("argument");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("notification"); // "title|message", empty: none
    QTest::newRow("noop") << int(Builtin::NoOp) << QString() << int(RunState::Succeeded)
                          << QString() << QString();
    QTest::newRow("log") << int(Builtin::Log) << QStringLiteral(R"({"message": "hello"})")
                         << int(RunState::Succeeded) << QStringLiteral("hello") << QString();
    QTest::newRow("notify with title")
        << int(Builtin::Notify) << QStringLiteral(R"({"title": "Backup", "message": "done"})")
        << int(RunState::Succeeded) << QStringLiteral("notification: Backup: done")
        << QStringLiteral("Backup|done");
    QTest::newRow("notify without title")
        << int(Builtin::Notify) << QStringLiteral(R"({"message": "done"})")
        << int(RunState::Succeeded) << QStringLiteral("notification: done")
        << QStringLiteral("|done");
    QTest::newRow("sleep") << int(Builtin::Sleep) << QStringLiteral(R"({"seconds": 0.05})")
                           << int(RunState::Succeeded) << QString() << QString();
    // Network and file builtins have their own executors.
    QTest::newRow("copy is not the engine's")
        << int(Builtin::CopyFile) << QStringLiteral(R"({"source": "/a", "destination": "/b"})")
        << int(RunState::Failed) << QString() << QString();
}

void TestBuiltinExecutor::run()
{
    QFETCH(int, builtin);
    QFETCH(QString, argument);
    QFETCH(int, state);
    QFETCH(QString, output);
    QFETCH(QString, notification);
    Result<BuiltinArguments> parsed = BuiltinArguments::parse(Builtin(builtin), argument);
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    BuiltinExecutor executor(std::move(parsed.value()), 0);
    QSignalSpy notified(&executor, &TaskExecutor::notificationRequested);
    const test::ExecutorRun ran = test::runExecutor(executor);
    QVERIFY(ran.finished);
    QCOMPARE(int(ran.outcome.state), state);
    QCOMPARE(ran.text(), output);
    if (notification.isEmpty()) {
        QCOMPARE(notified.size(), 0);
    } else {
        QCOMPARE(notified.size(), 1);
        QCOMPARE(notified.at(0).at(0).toString() + QLatin1Char('|')
                     + notified.at(0).at(1).toString(),
                 notification);
    }
}

void TestBuiltinExecutor::sleep_stoppedByTimeout()
{
    BuiltinExecutor executor(
        BuiltinArguments::parse(Builtin::Sleep, QStringLiteral(R"({"seconds": 30})")).value(), 50);
    const test::ExecutorRun ran = test::runExecutor(executor);
    QVERIFY(ran.finished);
    QCOMPARE(ran.outcome.state, RunState::TimedOut);
}

QTEST_GUILESS_MAIN(TestBuiltinExecutor)
#include "tst_builtinexecutor.moc"
