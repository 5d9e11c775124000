#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"
#include "base/result.h"

#include <QCoreApplication>
#include <QHash>

namespace hg {

class ApiAuthGate;
class Store;
struct ChainTrigger;

// POST /hooks/<id>: a webhook trigger's run. The caller proves itself by the signature of the
// raw body (X-Hourglass-Signature: sha256=<hex HMAC-SHA256>, GitHub's scheme), not by a
// token; a wrong one counts as a failed authentication. X-Hourglass-Delivery (or
// Idempotency-Key) makes a repeat return the first run: the run is keyed by it in the store.
// The body's top-level JSON fields reach the run as ${trigger.body.FIELD}, the body as
// ${trigger.body}, and the allow-listed headers as ${trigger.header.NAME}.
class ApiHooks final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiHooks)

public:
    ApiHooks(Store &store, ApiAuthGate &gate)
        : m_store(store)
        , m_gate(gate)
    {}
    HttpResponse handle(const HttpRequest &request, const QString &hookId);
    // A webhook trigger has this hook id (before its body is read).
    bool knows(const QString &hookId);

private:
    // The hook's signing secret, read once from where secrets are kept.
    Result<QByteArray> secretOf(const ChainTrigger &trigger);
    Result<qint64> startRun(const ChainTrigger &trigger, const HttpRequest &request,
                            const QString &delivery, bool &replayed);

    Store &m_store;
    ApiAuthGate &m_gate;
    QHash<QString, QByteArray> m_secrets;
};

} // namespace hg
