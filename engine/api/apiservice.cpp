#include "apiservice.h"

#include "store/store.h"

#include <QElapsedTimer>
#include <QFile>

namespace hg {

ApiService::ApiService(Store &store, std::function<void(const QString &)> log)
    : m_store(store)
    , m_gate(store, std::move(log))
    , m_reads(store, [this] { return m_admittedTokenId; })
    , m_controls(store)
    , m_admin(store)
    , m_hooks(store, m_gate)
{
    m_reads.addRoutes(m_router);
    m_controls.addRoutes(m_router);
    m_admin.addRoutes(m_router);
    m_router.add("GET", QStringLiteral("/metrics"), ApiRole::Metrics,
                 [this](const HttpRequest &, const QStringList &) {
                     return HttpResponse::text(200, "text/plain; version=0.0.4; charset=utf-8",
                                               m_metrics.render(m_store));
                 });
}

HttpResponse ApiService::handle(const HttpRequest &request)
{
    QElapsedTimer took;
    took.start();
    QString tokenName;
    HttpResponse response = route(request, tokenName);
    m_metrics.countRequest(response.status);
    ++m_requestCount;
    m_recent.append(Served{QDateTime::currentMSecsSinceEpoch(), request.method,
                           request.path.left(200), response.status, took.elapsed(), tokenName});
    if (m_recent.size() > 50)
        m_recent.removeFirst();
    return response;
}

HttpResponse ApiService::route(const HttpRequest &request, QString &tokenName)
{
    // Text from outside: a path with a control character is no name of ours.
    for (const QChar c : request.path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return HttpResponse::error(400, tr("the path holds a control character"));
    if (request.path.contains(QLatin1String("%00")))
        return HttpResponse::error(400, tr("the path holds a NUL (%00)"));
    // The document that says all this needs no token: it holds nothing of the store.
    if (request.path == QLatin1String("/api/v1/openapi.json") && request.method == "GET") {
        QFile document(QStringLiteral(":/api/openapi.json"));
        if (!document.open(QIODevice::ReadOnly))
            return HttpResponse::error(500, tr("the OpenAPI document is not in this build"));
        return HttpResponse::text(200, "application/json", document.readAll());
    }
    const QLatin1String hooks("/hooks/");
    if (request.path.startsWith(hooks)) {
        const QString hookId = request.path.mid(hooks.size());
        if (!hookId.isEmpty() && !hookId.contains(QLatin1Char('/')))
            return m_hooks.handle(request, hookId);
    }
    const ApiRouter::Found found = m_router.find(request.method, request.path);
    if (!found.route) {
        if (found.otherMethods.isEmpty())
            return HttpResponse::error(404, tr("no endpoint %1 (GET /api/v1/openapi.json lists "
                                               "them)")
                                                .arg(request.path.left(200)));
        HttpResponse response =
            HttpResponse::error(405, tr("%1 is answered to %2 only")
                                         .arg(request.path.left(200),
                                              QString::fromLatin1(found.otherMethods.join(", "))));
        response.headers.emplaceBack("Allow", found.otherMethods.join(", "));
        return response;
    }
    const ApiAuthGate::Admitted admitted =
        m_gate.admit(request, found.route->role, QDateTime::currentMSecsSinceEpoch());
    if (admitted.token)
        tokenName = admitted.token->name;
    if (admitted.refusal)
        return *admitted.refusal;
    m_admittedTokenId = admitted.token ? admitted.token->id : 0;
    return found.route->handler(request, found.captures);
}

std::optional<HttpResponse> ApiService::preflight(const HttpRequest &request)
{
    const QLatin1String hooks("/hooks/");
    if (request.path.startsWith(hooks)) {
        if (m_hooks.knows(request.path.mid(hooks.size())))
            return std::nullopt;
        return handle(request); // its refusal, counted as a failure
    }
    const ApiRouter::Found found = m_router.find(request.method, request.path);
    if (!found.route)
        return std::nullopt; // answered whole, and small: the body is not kept past its limit
    const ApiAuthGate::Admitted admitted =
        m_gate.admit(request, found.route->role, QDateTime::currentMSecsSinceEpoch());
    if (!admitted.refusal)
        return std::nullopt;
    // Counted and listed as any answer (not admitted twice: a failure counts once).
    m_metrics.countRequest(admitted.refusal->status);
    ++m_requestCount;
    m_recent.append(Served{QDateTime::currentMSecsSinceEpoch(), request.method,
                           request.path.left(200), admitted.refusal->status, 0,
                           admitted.token ? admitted.token->name : QString()});
    if (m_recent.size() > 50)
        m_recent.removeFirst();
    return admitted.refusal;
}

} // namespace hg
