#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QUrl>

namespace hg {

// One HTTP request of an HTTP task or an HttpRequest/Download builtin, read from JSON:
//   {"url": "https://…", "method": "POST", "headers": {"Name": "value"}, "body": "…",
//    "expect_status": 204 | [200, 201]}
// Without expect_status any 2xx status is success. Retries are the task's own retries.
struct HttpRequestSpec
{
    Q_DECLARE_TR_FUNCTIONS(hg::HttpRequestSpec)

public:
    QUrl url;
    QByteArray method = QByteArrayLiteral("GET");
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QList<int> expectedStatuses; // empty: 200-299

    static QStringList fieldNames();
    // `context` names the task or builtin in errors. An empty `url` in the object is allowed
    // when `defaultUrl` (an HTTP task's command) is set.
    static Result<HttpRequestSpec> fromJson(const QJsonObject &object, const QString &context,
                                            const QString &defaultUrl = {});
    static Status checkUrl(const QString &url, const QString &context);

    bool statusIsExpected(int status) const;
    QString expectedStatusText() const; // "2xx" or "200, 201"
};

} // namespace hg
