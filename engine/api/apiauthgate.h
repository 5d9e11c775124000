#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"
#include "domain/apitoken.h"

#include <QCoreApplication>
#include <QHash>

#include <functional>
#include <optional>

namespace hg {

class Store;

// Who a request is: its bearer token checked against the store, its role against what the
// endpoint needs. Failures are counted per client address: past maxFailures in a minute its
// further failures are answered 429 until the minute is over (good credentials still pass).
// Failures are logged once a minute per address, with their count and never the token.
class ApiAuthGate final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiAuthGate)

public:
    static constexpr int maxFailures = 20;
    static constexpr qint64 windowMs = 60000;

    ApiAuthGate(Store &store, std::function<void(const QString &)> log)
        : m_store(store)
        , m_log(std::move(log))
    {}

    // Loopback clients may read /metrics without a token (`--api-metrics-open`).
    void setMetricsOpenOnLoopback(bool open) { m_metricsOpen = open; }

    struct Admitted
    {
        std::optional<ApiToken> token; // none: admitted without one (open metrics)
        std::optional<HttpResponse> refusal;
    };
    Admitted admit(const HttpRequest &request, ApiRole needed, qint64 nowMs);
    // For callers that check a credential of their own (a webhook's signature): the 429 while
    // the address is over its failures, and a failure counted and answered 401.
    std::optional<HttpResponse> limited(const QHostAddress &peer, qint64 nowMs);
    HttpResponse refuse(const QHostAddress &peer, qint64 nowMs, const QString &why);

private:
    struct Failures
    {
        qint64 windowStartMs = 0;
        int count = 0;
        int unlogged = 0;
        qint64 loggedAtMs = 0;
    };
    Store &m_store;
    std::function<void(const QString &)> m_log;
    bool m_metricsOpen = false;
    QHash<QString, Failures> m_failures;
};

} // namespace hg
