#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"

#include <QCoreApplication>
#include <QStringList>

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
    HttpResponse rerun(const HttpRequest &request, const QStringList &captures);
    HttpResponse enable(const QStringList &captures, bool enabled);
    HttpResponse decide(const HttpRequest &request, const QStringList &captures);

    Store &m_store;
    qint64 m_keysPrunedAtMs = 0;
};

} // namespace hg
