#include "builtinarguments.h"

#include "httprequestspec.h"
#include "jsonfieldreader.h"

#include <QDir>

namespace hg {
namespace {

void requireAbsolutePath(JsonFieldReader &fields, const QString &key)
{
    const QString path = fields.requiredString(key);
    if (!path.isEmpty() && !QDir::isAbsolutePath(path))
        fields.fail(key, QStringLiteral("'%1' is not an absolute path").arg(path));
}

} // namespace

QStringList BuiltinArguments::names()
{
    return {QStringLiteral("NoOp"),        QStringLiteral("Sleep"),    QStringLiteral("Log"),
            QStringLiteral("HttpRequest"), QStringLiteral("Download"), QStringLiteral("CopyFile"),
            QStringLiteral("Notify")};
}

QString BuiltinArguments::example(const QString &builtin)
{
    if (builtin == QLatin1String("Sleep"))
        return QStringLiteral(R"({"seconds": 5})");
    if (builtin == QLatin1String("Log"))
        return QStringLiteral(R"({"message": "text"})");
    if (builtin == QLatin1String("HttpRequest"))
        return QStringLiteral(R"({"url": "https://example.org/hook", "method": "POST"})");
    if (builtin == QLatin1String("Download"))
        return QStringLiteral(
            R"({"url": "https://example.org/f.csv", "destination": "/tmp/f.csv"})");
    if (builtin == QLatin1String("CopyFile"))
        return QStringLiteral(R"({"source": "/tmp/a", "destination": "/tmp/b"})");
    if (builtin == QLatin1String("Notify"))
        return QStringLiteral(R"({"title": "Backup", "message": "done"})");
    return QStringLiteral("{}");
}

Result<QJsonObject> BuiltinArguments::parse(const QString &builtin, const QString &argumentText)
{
    if (!names().contains(builtin))
        return Error::invalid(QStringLiteral("unknown builtin '%1' (one of %2)")
                                  .arg(builtin, names().join(QLatin1String(", "))));
    const std::optional<QJsonObject> parsed = JsonFieldReader::parseObject(argumentText);
    if (!parsed)
        return Error::invalid(QStringLiteral("%1: the argument must be a JSON object, like %2")
                                  .arg(builtin, example(builtin)));
    const QJsonObject &object = *parsed;
    QString problem;
    JsonFieldReader fields(object, builtin, &problem);
    if (builtin == QLatin1String("NoOp")) {
        fields.rejectUnknownKeys({});
    } else if (builtin == QLatin1String("Sleep")) {
        fields.rejectUnknownKeys({QStringLiteral("seconds")});
        const double seconds = fields.number(QStringLiteral("seconds"), -1);
        if (problem.isEmpty() && (seconds <= 0 || seconds > 86400))
            fields.fail(QStringLiteral("seconds"),
                        QStringLiteral("must be a number above 0 and at most 86400"));
    } else if (builtin == QLatin1String("Log")) {
        fields.rejectUnknownKeys({QStringLiteral("message")});
        fields.requiredString(QStringLiteral("message"));
    } else if (builtin == QLatin1String("HttpRequest")) {
        if (const Result<HttpRequestSpec> spec = HttpRequestSpec::fromJson(object, builtin); !spec)
            return spec.error();
    } else if (builtin == QLatin1String("Download")) {
        fields.rejectUnknownKeys({QStringLiteral("url"), QStringLiteral("destination"),
                                  QStringLiteral("overwrite"), QStringLiteral("headers")});
        const QString url = fields.requiredString(QStringLiteral("url"));
        requireAbsolutePath(fields, QStringLiteral("destination"));
        fields.boolean(QStringLiteral("overwrite"), false);
        fields.object(QStringLiteral("headers"));
        if (problem.isEmpty()) {
            if (const Status valid =
                    HttpRequestSpec::checkUrl(url, builtin + QLatin1String(".url"));
                !valid)
                return valid.error();
        }
    } else if (builtin == QLatin1String("CopyFile")) {
        fields.rejectUnknownKeys(
            {QStringLiteral("source"), QStringLiteral("destination"), QStringLiteral("overwrite")});
        requireAbsolutePath(fields, QStringLiteral("source"));
        requireAbsolutePath(fields, QStringLiteral("destination"));
        fields.boolean(QStringLiteral("overwrite"), false);
    } else if (builtin == QLatin1String("Notify")) {
        fields.rejectUnknownKeys({QStringLiteral("message"), QStringLiteral("title")});
        fields.requiredString(QStringLiteral("message"));
        fields.string(QStringLiteral("title"));
    }
    if (!problem.isEmpty())
        return Error::invalid(problem);
    return object;
}

} // namespace hg
