#pragma once

#include "api/apiadmin.h"
#include "api/apiauthgate.h"
#include "api/apicontrols.h"
#include "api/apihooks.h"
#include "api/apimetrics.h"
#include "api/apireads.h"
#include "api/apirouter.h"

#include <QCoreApplication>
#include <QList>

#include <functional>

namespace hg {

class Store;

// The API as one handler: the route found, the caller admitted by its token and role, the
// endpoint answered, the request counted. Every answer is JSON (but /metrics); every fault
// is {"error", "field"} with its status.
class ApiService final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiService)

public:
    struct Served
    {
        qint64 atMs = 0;
        QByteArray method;
        QString path;
        int status = 0;
        qint64 tookMs = 0;
        QString token; // its name; empty without one
    };

    ApiService(Store &store, std::function<void(const QString &)> log);
    HttpResponse handle(const HttpRequest &request);
    // With the headers alone: a refusal that needs no body (no such endpoint, no token, an
    // unknown hook), answered before the body is read.
    std::optional<HttpResponse> preflight(const HttpRequest &request);

    ApiMetrics &metrics() { return m_metrics; }
    ApiAuthGate &gate() { return m_gate; }
    const ApiRouter &router() const { return m_router; }
    // The last requests answered, newest last (at most 50).
    const QList<Served> &recent() const { return m_recent; }
    qint64 requestCount() const { return m_requestCount; }
    qint64 lastRequestAtMs() const { return m_recent.isEmpty() ? 0 : m_recent.last().atMs; }

private:
    HttpResponse route(const HttpRequest &request, QString &tokenName);

    Store &m_store;
    ApiRouter m_router;
    ApiAuthGate m_gate;
    ApiReads m_reads;
    ApiControls m_controls;
    ApiAdmin m_admin;
    ApiHooks m_hooks;
    ApiMetrics m_metrics;
    QList<Served> m_recent;
    qint64 m_requestCount = 0;
    qint64 m_admittedTokenId = 0; // of the request being answered
};

} // namespace hg
