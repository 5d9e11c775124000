#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"

#include <QCoreApplication>
#include <QStringList>

namespace hg {

class ApiRouter;
class Store;

// The admin endpoints: tokens (made, listed, removed), the notification channels (listed,
// never their secrets) and the definitions, exported and imported as `hourglass export` and
// `import` do (an import is one transaction: all of it or nothing).
class ApiAdmin final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiAdmin)

public:
    explicit ApiAdmin(Store &store)
        : m_store(store)
    {}
    void addRoutes(ApiRouter &router);

private:
    HttpResponse tokens();
    HttpResponse addToken(const HttpRequest &request);
    HttpResponse removeToken(const QStringList &captures);
    HttpResponse channels();
    HttpResponse exportDefinitions(const HttpRequest &request);
    HttpResponse importDefinitions(const HttpRequest &request);

    Store &m_store;
};

} // namespace hg
