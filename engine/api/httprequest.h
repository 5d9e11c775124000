#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace hg {

// One HTTP request as the server read it, whole: headers by lower-case name, the query's
// pairs decoded, the body (never more than the server's limit).
struct HttpRequest
{
    QByteArray method;
    QString path; // decoded, without the query
    QList<std::pair<QString, QString>> query;
    QHash<QByteArray, QByteArray> headers;
    QByteArray body;
    QHostAddress peer;

    QByteArray header(const char *lowerCaseName) const
    {
        return headers.value(QByteArray(lowerCaseName));
    }
    std::optional<QString> queryValue(const QString &name) const
    {
        for (const auto &[key, value] : query)
            if (key == name)
                return value;
        return std::nullopt;
    }
};

} // namespace hg
