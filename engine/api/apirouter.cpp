#include "apirouter.h"

namespace hg {

void ApiRouter::add(const QByteArray &method, const QString &pattern, ApiRole role, Handler handler)
{
    m_routes.append(
        Route{method, pattern, pattern.split(QLatin1Char('/')), role, std::move(handler)});
}

ApiRouter::Found ApiRouter::find(const QByteArray &method, const QString &path) const
{
    const QStringList parts = path.split(QLatin1Char('/'));
    Found found;
    for (const Route &route : m_routes) {
        if (route.segments.size() != parts.size())
            continue;
        QStringList captures;
        bool matches = true;
        for (qsizetype i = 0; i < parts.size() && matches; ++i) {
            if (route.segments.at(i) == QLatin1String("{}")) {
                matches = !parts.at(i).isEmpty();
                captures << parts.at(i);
            } else {
                matches = route.segments.at(i) == parts.at(i);
            }
        }
        if (!matches)
            continue;
        if (route.method != method) {
            if (!found.otherMethods.contains(route.method))
                found.otherMethods << route.method;
            continue;
        }
        found.route = &route;
        found.captures = captures;
        return found;
    }
    return found;
}

} // namespace hg
