#include "apianswers.h"

#include "store/chainrepository.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>

namespace hg {

HttpResponse ApiAnswers::fromError(const Error &error)
{
    switch (error.kind) {
    case ErrorKind::NotFound:
        return HttpResponse::error(404, error.message, error.field);
    case ErrorKind::Invalid:
        return HttpResponse::error(400, error.message, error.field);
    case ErrorKind::AlreadyExists:
        return HttpResponse::error(409, error.message, error.field);
    case ErrorKind::Unavailable:
    case ErrorKind::Damaged:
        return HttpResponse::error(503, error.message, error.field);
    case ErrorKind::Storage:
    case ErrorKind::Fenced:
    case ErrorKind::Runtime:
        break;
    }
    return HttpResponse::error(500, error.message, error.field);
}

Result<QJsonObject> ApiAnswers::bodyObject(const HttpRequest &request)
{
    if (request.body.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error::invalid(tr("the body is not JSON: %1 at byte %2")
                                  .arg(parseError.errorString())
                                  .arg(parseError.offset));
    if (!document.isObject())
        return Error::invalid(tr("the body is not a JSON object"));
    return document.object();
}

Result<qint64> ApiAnswers::runId(const QString &text)
{
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    if (!ok || id <= 0 || text.startsWith(QLatin1Char('+')))
        return Error::invalid(tr("'%1' is not a run id").arg(text.left(40)));
    return id;
}

Result<Chain> ApiAnswers::chain(Store &store, const QString &project, const QString &chain)
{
    return ChainRepository(store).byPath(project + QLatin1Char('/') + chain);
}

Status ApiAnswers::expect(const QJsonObject &body, const QString &field, QJsonValue::Type type)
{
    if (!body.contains(field) || body.value(field).type() == type)
        return {};
    static const QHash<int, QString> names{{QJsonValue::Bool, QStringLiteral("a boolean")},
                                           {QJsonValue::Double, QStringLiteral("a number")},
                                           {QJsonValue::String, QStringLiteral("a string")},
                                           {QJsonValue::Array, QStringLiteral("an array")},
                                           {QJsonValue::Object, QStringLiteral("an object")}};
    return Error::invalidField(field, 0, tr("%1 must be %2").arg(field, names.value(type)));
}

Status ApiAnswers::onlyFields(const QJsonObject &body, const QStringList &known)
{
    for (auto it = body.constBegin(); it != body.constEnd(); ++it)
        if (!known.contains(it.key()))
            return Error::invalidField(
                it.key().left(60), 0,
                tr("unknown field '%1' (known: %2)")
                    .arg(it.key().left(60), known.join(QLatin1String(", "))));
    return {};
}

Result<QJsonObject> ApiAnswers::bodyWith(const HttpRequest &request, const QStringList &known)
{
    Result<QJsonObject> body = bodyObject(request);
    if (!body)
        return body;
    if (Status s = onlyFields(body.value(), known); !s)
        return s.error();
    return body;
}

Result<QJsonObject> ApiAnswers::runParameters(const QJsonObject &body)
{
    if (Status s = expect(body, QStringLiteral("parameters"), QJsonValue::Object); !s)
        return s.error();
    QJsonObject parameters;
    const QJsonObject given = body.value(QStringLiteral("parameters")).toObject();
    for (auto it = given.constBegin(); it != given.constEnd(); ++it) {
        const QString field = QStringLiteral("parameters.") + it.key().left(60);
        if (it.key().isEmpty() || it.key().startsWith(QLatin1String("trigger.")))
            return Error::invalidField(field, 0,
                                       tr("a parameter's name is not empty and does not begin "
                                          "with 'trigger.'"));
        const QJsonValue value = it.value();
        if (value.isString())
            parameters.insert(it.key(), value);
        else if (value.isBool())
            parameters.insert(it.key(),
                              value.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
        else if (value.isDouble())
            parameters.insert(
                it.key(), QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest));
        else
            return Error::invalidField(field, 0,
                                       tr("a parameter is a string, a number or a boolean"));
    }
    return parameters;
}

} // namespace hg
