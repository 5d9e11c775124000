#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"
#include "base/result.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <functional>

namespace hg {

class ApiRouter;
class Store;
struct Chain;

// The read endpoints: chains, runs with their attempts and logs, the missed-runs inbox and
// the engines, each as one JSON answer read on the API's own store connection.
class ApiReads final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiReads)

public:
    // tokenId: who asks the request being answered (0: none), for the streams it opens.
    ApiReads(Store &store, std::function<qint64()> tokenId)
        : m_store(store)
        , m_tokenId(std::move(tokenId))
    {}
    void addRoutes(ApiRouter &router);

    static constexpr int maxRunsPerPage = 1000;
    static constexpr int maxLinesPerPage = 10000;
    static constexpr int maxFollowers = 128;
    static constexpr int maxFollowersPerToken = 16;

private:
    HttpResponse chains(const HttpRequest &request);
    HttpResponse chain(const QStringList &captures);
    HttpResponse runs(const HttpRequest &request);
    HttpResponse run(const QStringList &captures);
    HttpResponse log(const HttpRequest &request, const QStringList &captures);
    HttpResponse missed();
    HttpResponse engines();
    // Chains with their schedules (and each one's next fire), triggers and newest run.
    Result<QJsonArray> describe(const QList<Chain> &chains);

    Store &m_store;
    std::function<qint64()> m_tokenId;
    QObject m_followers; // the ApiLogFollowers of open event streams
};

} // namespace hg
