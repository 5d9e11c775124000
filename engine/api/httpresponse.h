#pragma once

#include "httpstream.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <memory>
#include <utility>

namespace hg {

// An answer: a status, its headers and a body given whole, or a stream written later.
struct HttpResponse
{
    int status = 200;
    QByteArray contentType = "application/json";
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    std::shared_ptr<HttpStream> stream;

    static HttpResponse json(int status, const QJsonValue &value);
    // {"error": message, "field": field}; field null when the fault is not in one field.
    static HttpResponse error(int status, const QString &message, const QString &field = {});
    static HttpResponse text(int status, const QByteArray &contentType, const QByteArray &body);
};

} // namespace hg
