#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"
#include "domain/apitoken.h"

#include <QList>
#include <QStringList>

#include <functional>

namespace hg {

// The API's endpoints by method and path pattern: "/api/v1/runs/{}" captures one segment
// (percent-decoded, never empty). Routes are matched segment by segment, so a trailing slash
// or a doubled one is a different path (404), never a looser match.
class ApiRouter final
{
public:
    using Handler = std::function<HttpResponse(const HttpRequest &, const QStringList &captures)>;
    struct Route
    {
        QByteArray method;
        QString pattern;
        QStringList segments;
        ApiRole role = ApiRole::Read;
        Handler handler;
    };
    struct Found
    {
        const Route *route = nullptr;
        QStringList captures;
        QList<QByteArray> otherMethods; // the path is known, under these methods
    };

    void add(const QByteArray &method, const QString &pattern, ApiRole role, Handler handler);
    Found find(const QByteArray &method, const QString &path) const;
    const QList<Route> &routes() const { return m_routes; }

private:
    QList<Route> m_routes;
};

} // namespace hg
