#include "domain/builtinarguments.h"

#include <QTest>

using namespace hg;

// Each builtin's JSON argument, parsed once into its typed form.
class TestBuiltinArguments final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void names_areTheStoredText_data();
    void names_areTheStoredText();
    void parse_data();
    void parse();
    void parse_givesTypedFields();
    void examples_parse();
};

void TestBuiltinArguments::names_areTheStoredText_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("builtin");
    QTest::newRow("NoOp") << QStringLiteral("NoOp") << int(Builtin::NoOp);
    QTest::newRow("Sleep") << QStringLiteral("Sleep") << int(Builtin::Sleep);
    QTest::newRow("Log") << QStringLiteral("Log") << int(Builtin::Log);
    QTest::newRow("HttpRequest") << QStringLiteral("HttpRequest") << int(Builtin::HttpRequest);
    QTest::newRow("Download") << QStringLiteral("Download") << int(Builtin::Download);
    QTest::newRow("CopyFile") << QStringLiteral("CopyFile") << int(Builtin::CopyFile);
    QTest::newRow("Notify") << QStringLiteral("Notify") << int(Builtin::Notify);
}

void TestBuiltinArguments::names_areTheStoredText()
{
    QFETCH(QString, name);
    QFETCH(int, builtin);
    QCOMPARE(enumName(Builtin(builtin)), name);
    QCOMPARE(enumFromString<Builtin>(name), std::optional<Builtin>(Builtin(builtin)));
    QVERIFY(BuiltinArguments::all().contains(Builtin(builtin)));
    QVERIFY(BuiltinArguments::names().contains(name));
}

void TestBuiltinArguments::parse_data()
{
    QTest::addColumn<QString>("builtin");
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("problem"); // empty: valid
    const auto row = [](const char *label, const char *builtin, const char *argument,
                        const char *problem) {
        QTest::newRow(label) << QString::fromUtf8(builtin) << QString::fromUtf8(argument)
                             << QString::fromUtf8(problem);
    };
    // Valid.
    row("noop blank", "NoOp", "", "");
    row("noop empty object", "NoOp", "{}", "");
    row("sleep", "Sleep", R"({"seconds": 2.5})", "");
    row("log", "Log", R"({"message": "hi"})", "");
    row("request", "HttpRequest", R"({"url": "https://example.org", "method": "post"})", "");
    row("download", "Download",
        R"({"url": "https://example.org/f", "destination": "/tmp/f", "headers": {"A": "b"}})", "");
    row("copy", "CopyFile", R"({"source": "/a", "destination": "/b", "overwrite": true})", "");
    row("notify", "Notify", R"({"message": "done", "title": "Backup"})", "");
    // Missing fields.
    row("sleep missing seconds", "Sleep", "{}", "Sleep.seconds: must be a number above 0");
    row("log missing message", "Log", "{}", "Log.message: missing");
    row("notify missing message", "Notify", R"({"title": "x"})", "Notify.message: missing");
    row("copy missing destination", "CopyFile", R"({"source": "/a"})",
        "CopyFile.destination: missing");
    row("download missing url", "Download", R"({"destination": "/tmp/f"})",
        "Download.url: missing");
    row("request missing url", "HttpRequest", "{}", "HttpRequest.url: missing");
    // Wrong types and values.
    row("not json", "Sleep", "2", "Sleep: the argument must be a JSON object, like");
    row("json array", "Log", "[]", "Log: the argument must be a JSON object");
    row("seconds as text", "Sleep", R"({"seconds": "5"})", "Sleep.seconds: expected a number");
    row("seconds too many", "Sleep", R"({"seconds": 90000})", "at most 86400");
    row("message as number", "Log", R"({"message": 5})", "Log.message");
    row("overwrite as text", "CopyFile",
        R"({"source": "/a", "destination": "/b", "overwrite": "yes"})", "CopyFile.overwrite");
    row("relative source", "CopyFile", R"({"source": "a", "destination": "/b"})",
        "CopyFile.source: 'a' is not an absolute path");
    row("headers as list", "Download", R"({"url": "https://x.org", "destination": "/f",
        "headers": []})",
        "Download.headers");
    row("header value not text", "Download",
        R"({"url": "https://x.org", "destination": "/f", "headers": {"A": 1}})",
        "the value of 'A' must be text");
    row("download ftp", "Download", R"({"url": "ftp://x/y", "destination": "/f"})",
        "Download.url: 'ftp://x/y' is not an http or https URL");
    row("request bad method", "HttpRequest", R"({"url": "https://x.org", "method": "FETCH"})",
        "HttpRequest.method: 'FETCH' is not one of GET");
    row("unknown field", "Sleep", R"({"secs": 1})", "Sleep.secs: unknown field");
    row("noop takes nothing", "NoOp", R"({"x": 1})", "NoOp.x: unknown field");
    // Unknown builtins, by exact name.
    row("unknown", "Nap", "{}", "unknown builtin 'Nap' (one of NoOp, Sleep, Log, HttpRequest");
    row("wrong case", "sleep", R"({"seconds": 1})", "unknown builtin 'sleep'");
    row("empty name", "", "{}", "unknown builtin ''");
}

void TestBuiltinArguments::parse()
{
    QFETCH(QString, builtin);
    QFETCH(QString, argument);
    QFETCH(QString, problem);
    const Result<BuiltinArguments> parsed = BuiltinArguments::parse(builtin, argument);
    QVERIFY2(parsed.ok() == problem.isEmpty(), parsed ? "ok" : qPrintable(parsed.error().message));
    if (!problem.isEmpty()) {
        QVERIFY2(parsed.error().message.contains(problem), qPrintable(parsed.error().message));
        QCOMPARE(parsed.error().kind, ErrorKind::Invalid);
        return;
    }
    QCOMPARE(parsed->name(), builtin);
    QCOMPARE(int(parsed->builtin()), int(*enumFromString<Builtin>(builtin)));
}

void TestBuiltinArguments::parse_givesTypedFields()
{
    const auto parse = [](Builtin builtin, const char *json) {
        Result<BuiltinArguments> parsed = BuiltinArguments::parse(builtin, QString::fromUtf8(json));
        if (!parsed)
            qWarning() << parsed.error().message;
        return parsed;
    };
    const Result<BuiltinArguments> sleep = parse(Builtin::Sleep, R"({"seconds": 2.5})");
    QVERIFY(sleep);
    QCOMPARE(sleep->as<SleepArguments>().seconds, 2.5);

    const Result<BuiltinArguments> log = parse(Builtin::Log, R"({"message": "hi"})");
    QVERIFY(log);
    QCOMPARE(log->as<LogArguments>().message, QStringLiteral("hi"));

    const Result<BuiltinArguments> notify = parse(Builtin::Notify, R"({"message": "m"})");
    QVERIFY(notify);
    QCOMPARE(notify->as<NotifyArguments>().message, QStringLiteral("m"));
    QCOMPARE(notify->as<NotifyArguments>().title, QString());

    const Result<BuiltinArguments> copy =
        parse(Builtin::CopyFile, R"({"source": "/a", "destination": "/b", "overwrite": true})");
    QVERIFY(copy);
    QCOMPARE(copy->as<CopyFileArguments>().source, QStringLiteral("/a"));
    QCOMPARE(copy->as<CopyFileArguments>().destination, QStringLiteral("/b"));
    QCOMPARE(copy->as<CopyFileArguments>().overwrite, true);

    const Result<BuiltinArguments> download =
        parse(Builtin::Download,
              R"({"url": "https://example.org/f", "destination": "/f", "headers": {"A": "b"}})");
    QVERIFY(download);
    const DownloadArguments &d = download->as<DownloadArguments>();
    QCOMPARE(d.request.url, QUrl(QStringLiteral("https://example.org/f")));
    QCOMPARE(d.request.method, QByteArrayLiteral("GET"));
    QCOMPARE(d.request.headers.size(), 1);
    QCOMPARE(d.destination, QStringLiteral("/f"));
    QCOMPARE(d.overwrite, false);

    const Result<BuiltinArguments> request =
        parse(Builtin::HttpRequest, R"({"url": "https://example.org", "method": "post"})");
    QVERIFY(request);
    QCOMPARE(request->as<HttpRequestSpec>().method, QByteArrayLiteral("POST"));
    QCOMPARE(request->json().value(QStringLiteral("method")).toString(), QStringLiteral("post"));

    const Result<BuiltinArguments> noop = parse(Builtin::NoOp, "");
    QVERIFY(noop);
    QVERIFY(std::holds_alternative<std::monostate>(noop->arguments()));
}

void TestBuiltinArguments::examples_parse()
{
    for (Builtin builtin : BuiltinArguments::all()) {
        const Result<BuiltinArguments> parsed =
            BuiltinArguments::parse(builtin, BuiltinArguments::example(builtin));
        QVERIFY2(parsed, qPrintable(enumName(builtin)));
        QCOMPARE(int(parsed->builtin()), int(builtin));
    }
}

QTEST_GUILESS_MAIN(TestBuiltinArguments)
#include "tst_builtinarguments.moc"
