#include "builtinarguments.h"

#include "builtinreaders.h"
#include "jsonfieldreader.h"

#include <QDir>

namespace hg {
namespace {

QString absolutePath(JsonFieldReader &fields, const QString &key)
{
    const QString path = fields.requiredString(key);
    // An empty path ("destination": "") is not absolute either (the fuzzer found it accepted);
    // when the key is missing, the reader keeps its first problem, "missing".
    if (!QDir::isAbsolutePath(path))
        fields.fail(
            key, QCoreApplication::translate("hg::BuiltinArguments", "'%1' is not an absolute path")
                     .arg(path));
    return path;
}

// Each reader records the first problem in the reader's error and returns what it could read.
BuiltinArguments::Arguments readSleep(JsonFieldReader &fields, const QString &problem)
{
    fields.rejectUnknownKeys({QStringLiteral("seconds")});
    SleepArguments sleep;
    sleep.seconds = fields.number(QStringLiteral("seconds"), -1);
    if (problem.isEmpty() && (sleep.seconds <= 0 || sleep.seconds > 86400))
        fields.fail(QStringLiteral("seconds"),
                    QCoreApplication::translate("hg::BuiltinArguments",
                                                "must be a number above 0 and at most 86400"));
    return sleep;
}

BuiltinArguments::Arguments readLog(JsonFieldReader &fields)
{
    fields.rejectUnknownKeys({QStringLiteral("message")});
    return LogArguments{fields.requiredString(QStringLiteral("message"))};
}

Result<BuiltinArguments::Arguments> readDownload(const QJsonObject &object, JsonFieldReader &fields,
                                                 const QString &problem)
{
    const QString builtin = enumName(Builtin::Download);
    fields.rejectUnknownKeys({QStringLiteral("url"), QStringLiteral("destination"),
                              QStringLiteral("overwrite"), QStringLiteral("headers")});
    const QString url = fields.requiredString(QStringLiteral("url"));
    DownloadArguments download;
    download.destination = absolutePath(fields, QStringLiteral("destination"));
    download.overwrite = fields.boolean(QStringLiteral("overwrite"), false);
    fields.object(QStringLiteral("headers"));
    if (!problem.isEmpty())
        return Error::invalid(problem);
    if (const Status valid = HttpRequestSpec::checkUrl(url, builtin + QLatin1String(".url"));
        !valid)
        return valid.error();
    // The request is what HttpRequest would read from the same url and headers.
    QJsonObject request{{QStringLiteral("url"), url}};
    if (object.contains(QStringLiteral("headers")))
        request.insert(QStringLiteral("headers"), object.value(QStringLiteral("headers")));
    Result<HttpRequestSpec> spec = HttpRequestSpec::fromJson(request, builtin);
    if (!spec)
        return spec.error();
    download.request = std::move(spec.value());
    return BuiltinArguments::Arguments(std::move(download));
}

BuiltinArguments::Arguments readCopyFile(JsonFieldReader &fields)
{
    fields.rejectUnknownKeys(
        {QStringLiteral("source"), QStringLiteral("destination"), QStringLiteral("overwrite")});
    CopyFileArguments copy;
    copy.source = absolutePath(fields, QStringLiteral("source"));
    copy.destination = absolutePath(fields, QStringLiteral("destination"));
    copy.overwrite = fields.boolean(QStringLiteral("overwrite"), false);
    return copy;
}

BuiltinArguments::Arguments readNotify(JsonFieldReader &fields)
{
    fields.rejectUnknownKeys({QStringLiteral("message"), QStringLiteral("title")});
    NotifyArguments notify;
    notify.message = fields.requiredString(QStringLiteral("message"));
    notify.title = fields.string(QStringLiteral("title"));
    return notify;
}

} // namespace

BuiltinArguments::BuiltinArguments(Builtin builtin, QJsonObject json, Arguments arguments)
    : m_builtin(builtin)
    , m_json(std::move(json))
    , m_arguments(std::move(arguments))
{}

QList<Builtin> BuiltinArguments::all()
{
    QList<Builtin> builtins;
    for (const auto &entry : EnumNames<Builtin>::table())
        builtins << entry.first;
    return builtins;
}

QStringList BuiltinArguments::names()
{
    QStringList names;
    for (Builtin builtin : all())
        names << enumName(builtin);
    return names;
}

QString BuiltinArguments::example(Builtin builtin)
{
    switch (builtin) {
    case Builtin::NoOp:
        break;
    case Builtin::Sleep:
        return QStringLiteral(R"({"seconds": 5})");
    case Builtin::Log:
        return QStringLiteral(R"({"message": "text"})");
    case Builtin::HttpRequest:
        return QStringLiteral(R"({"url": "https://example.org/hook", "method": "POST"})");
    case Builtin::Download:
        return QStringLiteral(
            R"({"url": "https://example.org/f.csv", "destination": "/tmp/f.csv"})");
    case Builtin::CopyFile:
        return QStringLiteral(R"({"source": "/tmp/a", "destination": "/tmp/b"})");
    case Builtin::Notify:
        return QStringLiteral(R"({"title": "Backup", "message": "done"})");
    case Builtin::SendMail:
        return QStringLiteral(
            R"x({"server": "smtp://mail.example.org", "from": "me@example.org", )x"
            R"x("to": ["you@example.org"], "subject": "Report", "body": "…"})x");
    case Builtin::CopyFromFile:
        return QStringLiteral(
            R"x({"sql": "COPY t FROM STDIN (FORMAT csv)", "file": "/srv/t.csv"})x");
    case Builtin::CopyToFile:
        return QStringLiteral(
            R"x({"sql": "COPY t TO STDOUT (FORMAT csv)", "file": "/srv/t.csv"})x");
    case Builtin::CopyFromProgram:
        return QStringLiteral(
            R"x({"sql": "COPY t FROM STDIN", "program": "zcat", "arguments": ["/srv/t.gz"]})x");
    case Builtin::CopyToProgram:
        return QStringLiteral(R"x({"sql": "COPY t TO STDOUT", "program": "gzip"})x");
    }
    return QStringLiteral("{}");
}

bool BuiltinArguments::isCopy(Builtin builtin)
{
    return builtin == Builtin::CopyFromFile || builtin == Builtin::CopyToFile
           || builtin == Builtin::CopyFromProgram || builtin == Builtin::CopyToProgram;
}

bool BuiltinArguments::isCopy(const QString &builtin)
{
    const std::optional<Builtin> known = enumFromString<Builtin>(builtin);
    return known && isCopy(*known);
}

Result<BuiltinArguments> BuiltinArguments::parse(const QString &builtin,
                                                 const QString &argumentText)
{
    const std::optional<Builtin> known = enumFromString<Builtin>(builtin);
    if (!known)
        return Error::invalid(
            tr("unknown builtin '%1' (one of %2)").arg(builtin, names().join(QLatin1String(", "))));
    return parse(*known, argumentText);
}

Result<BuiltinArguments> BuiltinArguments::parse(Builtin builtin, const QString &argumentText)
{
    const QString name = enumName(builtin);
    const std::optional<QJsonObject> parsed = JsonFieldReader::parseObject(argumentText);
    if (!parsed)
        return Error::invalid(
            tr("%1: the argument must be a JSON object, like %2").arg(name, example(builtin)));
    const QJsonObject &object = *parsed;
    QString problem;
    JsonFieldReader fields(object, name, &problem);
    Arguments arguments;
    switch (builtin) {
    case Builtin::NoOp:
        fields.rejectUnknownKeys({});
        break;
    case Builtin::Sleep:
        arguments = readSleep(fields, problem);
        break;
    case Builtin::Log:
        arguments = readLog(fields);
        break;
    case Builtin::HttpRequest: {
        Result<HttpRequestSpec> spec = HttpRequestSpec::fromJson(object, name);
        if (!spec)
            return spec.error();
        arguments = std::move(spec.value());
        break;
    }
    case Builtin::Download: {
        Result<Arguments> download = readDownload(object, fields, problem);
        if (!download)
            return download.error();
        arguments = std::move(download.value());
        break;
    }
    case Builtin::CopyFile:
        arguments = readCopyFile(fields);
        break;
    case Builtin::Notify:
        arguments = readNotify(fields);
        break;
    case Builtin::SendMail:
        arguments = builtinreaders::readSendMail(fields);
        break;
    case Builtin::CopyFromFile:
    case Builtin::CopyToFile:
    case Builtin::CopyFromProgram:
    case Builtin::CopyToProgram:
        arguments = builtinreaders::readCopyData(builtin, fields);
        break;
    }
    if (!problem.isEmpty())
        return Error::invalid(problem);
    return BuiltinArguments(builtin, object, std::move(arguments));
}

} // namespace hg
