#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"
#include "base/result.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QStringList>

#include <functional>

namespace hg {

class ApiRouter;
class Store;

// The operate endpoints: start, stop, pause, resume, rerun, enable, disable, decide on missed
// runs. They write commands and rows to the store as the
// command line does; whichever engine serves the store carries them out.
class ApiControls final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiControls)

public:
    explicit ApiControls(Store &store)
        : m_store(store)
    {}
    void addRoutes(ApiRouter &router);

private:
    HttpResponse start(const HttpRequest &request, const QStringList &captures);
    HttpResponse control(const QString &verb, const QStringList &captures);
    // A run made by `make`, once per Idempotency-Key within `scope` (a repeat: 200 and the
    // first run); 201 and the new run otherwise.
    HttpResponse makeOnce(const HttpRequest &request, const QString &scope,
                          const QString &chainPath, const std::function<Result<Run>()> &make);
    HttpResponse rerun(const HttpRequest &request, const QStringList &captures);
    HttpResponse enable(const QStringList &captures, bool enabled);
    HttpResponse decide(const HttpRequest &request, const QStringList &captures);

    Store &m_store;
    qint64 m_keysPrunedAtMs = 0;
};

} // namespace hg
