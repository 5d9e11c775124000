#include "httpresponse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hg {

HttpResponse HttpResponse::json(int status, const QJsonValue &value)
{
    HttpResponse response;
    response.status = status;
    const QJsonDocument document =
        value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    response.body = document.toJson(QJsonDocument::Compact);
    response.body.append('\n');
    return response;
}

HttpResponse HttpResponse::error(int status, const QString &message, const QString &field)
{
    return json(status, QJsonObject{{QStringLiteral("error"), message},
                                    {QStringLiteral("field"),
                                     field.isEmpty() ? QJsonValue() : QJsonValue(field)}});
}

HttpResponse HttpResponse::text(int status, const QByteArray &contentType, const QByteArray &body)
{
    HttpResponse response;
    response.status = status;
    response.contentType = contentType;
    response.body = body;
    return response;
}

} // namespace hg
