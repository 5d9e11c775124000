#include "domain/taskvalidator.h"

#include <QHash>
#include <QTest>

using namespace hg;

// The rules every task meets before it is stored, whatever its kind.
class TestTaskValidator final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validate_data();
    void validate();
};

namespace {

// A change to the one valid program task of each row.
enum class Tweak {
    None,
    SecondArgument,
    Environment,
    BadEnvironment,
    NegativeTimeout,
    Backoff,
    HugeBackoff,
    RelativeFolder,
    WindowsFolder
};

} // namespace

void TestTaskValidator::validate_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("connection");
    QTest::addColumn<int>("tweak");
    QTest::addColumn<QString>("problem"); // empty: valid
    const auto row = [](const char *label, TaskKind kind, const char *command, const char *argument,
                        const char *problem, Tweak tweak = Tweak::None, const char *connection = "",
                        const char *name = "t") {
        QTest::newRow(label) << QString::fromUtf8(name) << int(kind) << QString::fromUtf8(command)
                             << QString::fromUtf8(argument) << QString::fromUtf8(connection)
                             << int(tweak) << QString::fromUtf8(problem);
    };
    row("program ok", TaskKind::Program, "/bin/true", "", "");
    row("blank name", TaskKind::Program, "/bin/true", "", "name", Tweak::None, "", " ");
    row("slash in name", TaskKind::Program, "/bin/true", "", "name", Tweak::None, "", "a/b");
    row("blank command", TaskKind::Shell, "  ", "", "task 't': a shell task needs a command");
    row("sql with connection", TaskKind::Sql, "SELECT 1", "", "", Tweak::None, "db");
    row("connection on shell", TaskKind::Shell, "true", "",
        "only sql tasks and the COPY builtins take a connection", Tweak::None, "db");
    row("builtin ok", TaskKind::Builtin, "Log", R"({"message": "hi"})", "");
    row("builtin unknown", TaskKind::Builtin, "Nap", "", "task 't': unknown builtin 'Nap'");
    row("builtin bad argument", TaskKind::Builtin, "Sleep", R"({"seconds": "x"})",
        "task 't': Sleep.seconds");
    row("builtin two arguments", TaskKind::Builtin, "NoOp", "{}",
        "a builtin takes one JSON argument", Tweak::SecondArgument);
    row("http ok", TaskKind::Http, "https://example.org/x", "", "");
    row("http not an object", TaskKind::Http, "https://example.org/x", "[1]",
        "an http task takes one JSON argument with url, method");
    row("http bad url", TaskKind::Http, "example", "", "is not an http or https URL");
    row("subchain ok", TaskKind::Subchain, "ops/nightly", "", "");
    row("subchain bad", TaskKind::Subchain, "nightly", "", "task 't': subchain");
    row("environment ok", TaskKind::Program, "/bin/true", "", "", Tweak::Environment);
    row("environment with =", TaskKind::Program, "/bin/true", "", "bad environment name 'A=B'",
        Tweak::BadEnvironment);
    row("negative timeout", TaskKind::Program, "/bin/true", "", "must not be negative",
        Tweak::NegativeTimeout);
    row("backoff below one", TaskKind::Program, "/bin/true", "",
        "retry backoff must be between 1 and 100", Tweak::Backoff);
    // 1e308 was accepted: its third retry was due after the end of time.
    row("backoff huge", TaskKind::Program, "/bin/true", "",
        "retry backoff must be between 1 and 100", Tweak::HugeBackoff);
    row("relative folder", TaskKind::Program, "/bin/true", "", "is relative",
        Tweak::RelativeFolder);
    row("windows folder kept as imported", TaskKind::Program, "/bin/true", "", "",
        Tweak::WindowsFolder);
}

void TestTaskValidator::validate()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    QFETCH(QString, command);
    QFETCH(QString, argument);
    QFETCH(QString, connection);
    QFETCH(int, tweak);
    QFETCH(QString, problem);
    Task task;
    task.name = name;
    task.kind = TaskKind(kind);
    task.command = command;
    if (!argument.isEmpty())
        task.arguments = QStringList{argument};
    task.connectionName = connection;
    switch (Tweak(tweak)) {
    case Tweak::None:
        break;
    case Tweak::SecondArgument:
        task.arguments << QStringLiteral("{}");
        break;
    case Tweak::Environment:
        task.environment.insert(QStringLiteral("A"), QStringLiteral("1"));
        break;
    case Tweak::BadEnvironment:
        task.environment.insert(QStringLiteral("A=B"), QStringLiteral("1"));
        break;
    case Tweak::NegativeTimeout:
        task.timeoutSeconds = -1;
        break;
    case Tweak::Backoff:
        task.retryBackoff = 0.5;
        break;
    case Tweak::HugeBackoff:
        task.retryBackoff = 1e308;
        break;
    case Tweak::RelativeFolder:
        task.workingDirectory = QStringLiteral("reports/daily");
        break;
    case Tweak::WindowsFolder:
        task.workingDirectory = QStringLiteral("C:\\Reports");
        break;
    }
    const Status status = TaskValidator::validate(task);
    QVERIFY2(status.ok() == problem.isEmpty(), status ? "ok" : qPrintable(status.error().message));
    if (problem.isEmpty())
        return;
    QVERIFY2(status.error().message.contains(problem), qPrintable(status.error().message));
    QCOMPARE(status.error().kind, ErrorKind::Invalid);
    // Each refusal names the field a form shows it beside.
    static const QHash<QString, QString> fields{
        {QStringLiteral("blank name"), TaskValidator::nameField},
        {QStringLiteral("slash in name"), TaskValidator::nameField},
        {QStringLiteral("blank command"), TaskValidator::commandField},
        {QStringLiteral("connection on shell"), TaskValidator::connectionField},
        {QStringLiteral("builtin unknown"), TaskValidator::argumentsField},
        {QStringLiteral("builtin bad argument"), TaskValidator::argumentsField},
        {QStringLiteral("builtin two arguments"), TaskValidator::argumentsField},
        {QStringLiteral("http not an object"), TaskValidator::argumentsField},
        {QStringLiteral("http bad url"), TaskValidator::argumentsField},
        {QStringLiteral("subchain bad"), TaskValidator::commandField},
        {QStringLiteral("environment with ="), TaskValidator::environmentField},
        {QStringLiteral("negative timeout"), TaskValidator::limitsField},
        {QStringLiteral("backoff below one"), TaskValidator::limitsField},
        {QStringLiteral("backoff huge"), TaskValidator::limitsField},
        {QStringLiteral("relative folder"), TaskValidator::workingDirectoryField},
    };
    QCOMPARE(status.error().field, fields.value(QString::fromUtf8(QTest::currentDataTag())));
}

QTEST_GUILESS_MAIN(TestTaskValidator)
#include "tst_taskvalidator.moc"
