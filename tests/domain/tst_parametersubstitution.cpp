#include "domain/parametersubstitution.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace hg;

// ${name} placeholders: one pass, unknown names kept, JSON arguments substituted inside
// their strings only, SQL text never.
class TestParameterSubstitution final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void apply_data();
    void apply();
    void forRun_data();
    void forRun();
    void applyTo_data();
    void applyTo();
    void applyTo_jsonValueStaysJson_data();
    void applyTo_jsonValueStaysJson();
};

namespace {

using Values = QHash<QString, QString>;

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

} // namespace

void TestParameterSubstitution::apply_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<Values>("values");
    QTest::addColumn<QString>("expected");
    const Values ab{{QStringLiteral("a"), QStringLiteral("1")},
                    {QStringLiteral("b"), QStringLiteral("two")}};
    QTest::newRow("empty") << QString() << ab << QString();
    QTest::newRow("no placeholder")
        << QStringLiteral("echo a b") << ab << QStringLiteral("echo a b");
    QTest::newRow("one") << QStringLiteral("x=${a};") << ab << QStringLiteral("x=1;");
    QTest::newRow("adjacent and repeated")
        << QStringLiteral("${a}${b}${a}") << ab << QStringLiteral("1two1");
    QTest::newRow("dotted name") << QStringLiteral("run ${run.id}")
                                 << Values{{QStringLiteral("run.id"), QStringLiteral("7")}}
                                 << QStringLiteral("run 7");
    QTest::newRow("unknown name stays") << QStringLiteral("${a} ${unknown} ${HOME}") << ab
                                        << QStringLiteral("1 ${unknown} ${HOME}");
    QTest::newRow("name is case sensitive")
        << QStringLiteral("${A}") << ab << QStringLiteral("${A}");
    QTest::newRow("not a placeholder: empty, bad character, spaces, unclosed")
        << QStringLiteral("${} ${a-b} ${ a } ${a") << ab << QStringLiteral("${} ${a-b} ${ a } ${a");
    QTest::newRow("bare $a and $ before a brace pair")
        << QStringLiteral("$a $ {a} {a}") << ab << QStringLiteral("$a $ {a} {a}");
    // No escape syntax (see the header): a doubled $ or a backslash is kept literally.
    QTest::newRow("no escape: $$") << QStringLiteral("$${a}") << ab << QStringLiteral("$1");
    QTest::newRow("no escape: backslash")
        << QStringLiteral("\\${a}") << ab << QStringLiteral("\\1");
    QTest::newRow("value with ${...} is not expanded again")
        << QStringLiteral("[${a}]")
        << Values{{QStringLiteral("a"), QStringLiteral("${b}")},
                  {QStringLiteral("b"), QStringLiteral("x")}}
        << QStringLiteral("[${b}]");
    QTest::newRow("value naming itself does not loop")
        << QStringLiteral("${a}${a}") << Values{{QStringLiteral("a"), QStringLiteral("<${a}>")}}
        << QStringLiteral("<${a}><${a}>");
    QTest::newRow("value forming a placeholder with the text after it")
        << QStringLiteral("${a}b}")
        << Values{{QStringLiteral("a"), QStringLiteral("${")},
                  {QStringLiteral("b"), QStringLiteral("no")}}
        << QStringLiteral("${b}");
    QTest::newRow("empty value") << QStringLiteral("<${a}>")
                                 << Values{{QStringLiteral("a"), QString()}}
                                 << QStringLiteral("<>");
    QTest::newRow("quotes and backslashes pass through as text")
        << QStringLiteral("'${a}'") << Values{{QStringLiteral("a"), QStringLiteral("it's \"\\n\"")}}
        << QStringLiteral("'it's \"\\n\"'");
    QTest::newRow("unicode") << QStringLiteral("${ort} → ${a}")
                             << Values{{QStringLiteral("ort"), QStringLiteral("Zürich")},
                                       {QStringLiteral("a"), QStringLiteral("✓")}}
                             << QStringLiteral("Zürich → ✓");
}

void TestParameterSubstitution::apply()
{
    QFETCH(QString, text);
    QFETCH(Values, values);
    QTEST(ParameterSubstitution(values).apply(text), "expected");
}

void TestParameterSubstitution::forRun_data()
{
    QTest::addColumn<QJsonObject>("chainParameters");
    QTest::addColumn<QJsonObject>("runParameters");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("built-ins") << QJsonObject() << QJsonObject()
                               << QStringLiteral("${chain.name} ${run.id} ${run.scheduled_for}")
                               << QStringLiteral("nightly 42 2026-11-01T02:30:00Z");
    QTest::newRow("chain parameter")
        << json(R"({"target": "default"})") << QJsonObject() << QStringLiteral("to ${target}")
        << QStringLiteral("to default");
    QTest::newRow("--param over the chain's")
        << json(R"({"target": "default", "region": "eu"})") << json(R"({"target": "prod"})")
        << QStringLiteral("${target} in ${region}") << QStringLiteral("prod in eu");
    QTest::newRow("built-ins over parameters of the same name")
        << json(R"({"run.id": "chain", "chain.name": "x"})") << json(R"({"run.id": "run"})")
        << QStringLiteral("${run.id} ${chain.name}") << QStringLiteral("42 nightly");
    QTest::newRow("scalars as text")
        << json(R"({"n": 3, "f": 1.5, "yes": true, "none": null})") << QJsonObject()
        << QStringLiteral("${n} ${f} ${yes} <${none}>") << QStringLiteral("3 1.5 true <>");
    // Nested JSON values: compact JSON (they used to vanish, see valueText()).
    QTest::newRow("nested object and array values as compact JSON")
        << json(R"({"o": {"k": [1, "two"]}, "a": [{"x": null}]})") << QJsonObject()
        << QStringLiteral("${o} ${a}") << QStringLiteral(R"({"k":[1,"two"]} [{"x":null}])");
    QTest::newRow("a parameter holding a placeholder stays as written")
        << json(R"({"p": "${run.id}"})") << QJsonObject() << QStringLiteral("${p}")
        << QStringLiteral("${run.id}");
}

void TestParameterSubstitution::forRun()
{
    QFETCH(QJsonObject, chainParameters);
    QFETCH(QJsonObject, runParameters);
    QFETCH(QString, text);
    Chain chain;
    chain.name = QStringLiteral("nightly");
    chain.parameters = chainParameters;
    Run run;
    run.id = 42;
    run.parameters = runParameters;
    run.scheduledFor = QDateTime(QDate(2026, 11, 1), QTime(3, 30), QTimeZone(3600));
    QTEST(ParameterSubstitution::forRun(run, chain).apply(text), "expected");
}

void TestParameterSubstitution::applyTo_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expectedCommand");
    QTest::addColumn<QStringList>("expectedArguments");
    const auto kind = [](TaskKind k) {
        return int(k);
    };
    QTest::newRow("program: command and arguments as text")
        << kind(TaskKind::Program) << QStringLiteral("/bin/${tool}")
        << QStringList{QStringLiteral("${x}"), QStringLiteral(R"({"a": "${x}"})")}
        << QStringLiteral("/bin/echo")
        << QStringList{QStringLiteral("say \"hi\""), QStringLiteral(R"({"a": "say "hi""})")};
    QTest::newRow("shell: command substituted")
        << kind(TaskKind::Shell) << QStringLiteral("echo ${x} $HOME ${HOME}") << QStringList()
        << QStringLiteral("echo say \"hi\" $HOME ${HOME}") << QStringList();
    QTest::newRow("sql: text never, bound arguments yes")
        << kind(TaskKind::Sql) << QStringLiteral("SELECT '${x}', ?")
        << QStringList{QStringLiteral("${x}")} << QStringLiteral("SELECT '${x}', ?")
        << QStringList{QStringLiteral("say \"hi\"")};
    QTest::newRow("builtin: JSON argument escaped inside its strings")
        << kind(TaskKind::Builtin) << QStringLiteral("Log")
        << QStringList{QStringLiteral(R"({"message": "${x}"})")} << QStringLiteral("Log")
        << QStringList{QStringLiteral(R"({"message":"say \"hi\""})")};
    QTest::newRow("builtin: nested objects and arrays, keys untouched")
        << kind(TaskKind::Builtin) << QStringLiteral("HttpRequest")
        << QStringList{QStringLiteral(
               R"({"${x}": {"list": ["${tool}", 1, {"deep": "${tool}"}], "n": 2, "b": false}})")}
        << QStringLiteral("HttpRequest")
        << QStringList{
               QStringLiteral(R"({"${x}":{"b":false,"list":["echo",1,{"deep":"echo"}],"n":2}})")};
    QTest::newRow("builtin: text that is not a JSON object is substituted as text")
        << kind(TaskKind::Builtin) << QStringLiteral("Log")
        << QStringList{QStringLiteral(R"(["${tool}"])"), QStringLiteral("${tool} {")}
        << QStringLiteral("Log")
        << QStringList{QStringLiteral(R"(["echo"])"), QStringLiteral("echo {")};
    QTest::newRow("http: JSON argument")
        << kind(TaskKind::Http) << QStringLiteral("https://example.org/${tool}")
        << QStringList{QStringLiteral(R"({"body": "${x}"})")}
        << QStringLiteral("https://example.org/echo")
        << QStringList{QStringLiteral(R"({"body":"say \"hi\""})")};
    // A COPY's statement is SQL, never substituted ("; DROP TABLE t" ran, helper-7); its file
    // and program are, as a PROGRAM task's arguments are.
    QTest::newRow("COPY builtin: sql kept, file substituted")
        << kind(TaskKind::Builtin) << QStringLiteral("CopyFromFile")
        << QStringList{QStringLiteral(
               R"({"sql": "COPY t FROM STDIN ${x}", "file": "/in/${tool}"})")}
        << QStringLiteral("CopyFromFile")
        << QStringList{QStringLiteral(R"({"file":"/in/echo","sql":"COPY t FROM STDIN ${x}"})")};
    QTest::newRow("subchain: path substituted")
        << kind(TaskKind::Subchain) << QStringLiteral("ops/${tool}") << QStringList()
        << QStringLiteral("ops/echo") << QStringList();
}

void TestParameterSubstitution::applyTo()
{
    QFETCH(int, kind);
    QFETCH(QString, command);
    QFETCH(QStringList, arguments);
    const ParameterSubstitution substitution({{QStringLiteral("x"), QStringLiteral("say \"hi\"")},
                                              {QStringLiteral("tool"), QStringLiteral("echo")}});
    Task task;
    task.kind = TaskKind(kind);
    task.command = command;
    task.arguments = arguments;
    task.environment = json(R"({"WHAT": "${x}", "KEEP": "${PATH}"})");
    const Task applied = substitution.applyTo(task);
    QTEST(applied.command, "expectedCommand");
    QTEST(applied.arguments, "expectedArguments");
    QCOMPARE(applied.environment.value(QStringLiteral("WHAT")).toString(),
             QStringLiteral("say \"hi\""));
    QCOMPARE(applied.environment.value(QStringLiteral("KEEP")).toString(),
             QStringLiteral("${PATH}"));
}

void TestParameterSubstitution::applyTo_jsonValueStaysJson_data()
{
    QTest::addColumn<QString>("value");
    QTest::newRow("quote") << QStringLiteral("a\"b");
    QTest::newRow("backslash") << QStringLiteral("C:\\temp\\");
    QTest::newRow("closing brace and quote") << QStringLiteral("\"}, \"x\": {\"");
    QTest::newRow("newline and tab") << QStringLiteral("line\n\tnext");
    QTest::newRow("placeholder") << QStringLiteral("${other}");
}

void TestParameterSubstitution::applyTo_jsonValueStaysJson()
{
    // Whatever the value, the argument still parses and carries exactly that value.
    QFETCH(QString, value);
    const ParameterSubstitution substitution(
        {{QStringLiteral("v"), value}, {QStringLiteral("other"), QStringLiteral("no")}});
    Task task;
    task.kind = TaskKind::Builtin;
    task.command = QStringLiteral("Log");
    task.arguments = {QStringLiteral(R"({"message": "<${v}>", "nested": [{"m": "${v}"}]})")};
    const QString argument = substitution.applyTo(task).arguments.first();
    QJsonParseError error;
    const QJsonDocument parsed = QJsonDocument::fromJson(argument.toUtf8(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject object = parsed.object();
    QCOMPARE(object.value(QStringLiteral("message")).toString(), QStringLiteral("<%1>").arg(value));
    QCOMPARE(object.value(QStringLiteral("nested"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("m"))
                 .toString(),
             value);
}

QTEST_GUILESS_MAIN(TestParameterSubstitution)
#include "tst_parametersubstitution.moc"
