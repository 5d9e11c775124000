#include "httprequestspec.h"

#include "jsonfieldreader.h"

#include <algorithm>

namespace hg {

QStringList HttpRequestSpec::fieldNames()
{
    return {QStringLiteral("url"), QStringLiteral("method"), QStringLiteral("headers"),
            QStringLiteral("body"), QStringLiteral("expect_status")};
}

Status HttpRequestSpec::checkUrl(const QString &url, const QString &context)
{
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty()
        || (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https")))
        return Error::invalid(tr("%1: '%2' is not an http or https URL").arg(context, url));
    return {};
}

Result<HttpRequestSpec> HttpRequestSpec::fromJson(const QJsonObject &object, const QString &context,
                                                  const QString &defaultUrl)
{
    QString problem;
    JsonFieldReader fields(object, context, &problem);
    fields.rejectUnknownKeys(fieldNames());
    HttpRequestSpec spec;
    const QString url = defaultUrl.isEmpty() ? fields.requiredString(QStringLiteral("url"))
                                             : fields.string(QStringLiteral("url"), defaultUrl);
    const QString method = fields.string(QStringLiteral("method"), QStringLiteral("GET")).toUpper();
    static const QStringList methods{QStringLiteral("GET"),    QStringLiteral("POST"),
                                     QStringLiteral("PUT"),    QStringLiteral("PATCH"),
                                     QStringLiteral("DELETE"), QStringLiteral("HEAD")};
    if (!methods.contains(method))
        fields.fail(QStringLiteral("method"),
                    tr("'%1' is not one of %2").arg(method, methods.join(QLatin1String(", "))));
    spec.method = method.toLatin1();
    const QJsonObject headers = fields.object(QStringLiteral("headers"));
    // A name is an HTTP token and a value holds no control character: a name outside Latin-1
    // was stored as '?', and a line break in a value would start another header (the fuzzer).
    const auto isToken = [](const QString &name) {
        return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), [](QChar c) {
            return c.unicode() < 128
                   && (c.isLetterOrNumber() || QLatin1String("!#$%&'*+-.^_`|~").contains(c));
        });
    };
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        if (!isToken(it.key()))
            fields.fail(QStringLiteral("headers"),
                        tr("'%1' is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
                            .arg(it.key().left(60)));
        else if (!it.value().isString())
            fields.fail(QStringLiteral("headers"),
                        tr("the value of '%1' must be text").arg(it.key()));
        else if (const QString value = it.value().toString();
                 std::any_of(value.cbegin(), value.cend(), [](QChar c) {
                     return (c.unicode() < 0x20 && c != u'\t') || c.unicode() == 0x7f
                            || c.isSurrogate() || c.isNonCharacter();
                 }))
            fields.fail(QStringLiteral("headers"),
                        tr("the value of '%1' holds a control character").arg(it.key()));
        spec.headers.append({it.key().toLatin1(), it.value().toString().toUtf8()});
    }
    spec.body = fields.string(QStringLiteral("body")).toUtf8();
    const QJsonValue expect = object.value(QStringLiteral("expect_status"));
    const QJsonArray statuses = expect.isArray() ? expect.toArray() : QJsonArray{expect};
    for (const QJsonValue status : statuses) {
        if (status.isUndefined() || status.isNull())
            continue;
        const int code = status.toInt(-1);
        if (!status.isDouble() || code < 100 || code > 599)
            fields.fail(QStringLiteral("expect_status"),
                        tr("expected an HTTP status (100-599) or a list of them"));
        spec.expectedStatuses << code;
    }
    if (!problem.isEmpty())
        return Error::invalid(problem);
    if (const Status valid = checkUrl(url, context); !valid)
        return valid.error();
    spec.url = QUrl(url, QUrl::StrictMode);
    return spec;
}

bool HttpRequestSpec::statusIsExpected(int status) const
{
    if (expectedStatuses.isEmpty())
        return status >= 200 && status <= 299;
    return expectedStatuses.contains(status);
}

QString HttpRequestSpec::expectedStatusText() const
{
    if (expectedStatuses.isEmpty())
        return QStringLiteral("2xx");
    QStringList codes;
    for (int code : expectedStatuses)
        codes << QString::number(code);
    return codes.join(QLatin1String(", "));
}

} // namespace hg
