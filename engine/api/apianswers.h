#pragma once

#include "api/httprequest.h"
#include "api/httpresponse.h"
#include "base/result.h"
#include "domain/chain.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace hg {

class Store;

// What every endpoint needs to read a request and say a failure, alike everywhere.
class ApiAnswers final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiAnswers)

public:
    // An Error as its status: NotFound 404, Invalid 400, AlreadyExists 409, Unavailable 503,
    // Damaged 503 (read-only store), the rest 500 with the message (never a trace).
    static HttpResponse fromError(const Error &error);
    // The body as a JSON object; an empty body is {}. A body that is not one is Invalid,
    // naming where it broke.
    static Result<QJsonObject> bodyObject(const HttpRequest &request);
    static Result<qint64> runId(const QString &text);
    // PROJECT and CHAIN from the path's two captures.
    static Result<Chain> chain(Store &store, const QString &project, const QString &chain);
    // A field's value must be of this JSON type; named when it is not.
    static Status expect(const QJsonObject &body, const QString &field, QJsonValue::Type type);
    // Fields a body may hold; any other is named, so a misspelt one is not silently ignored.
    static Status onlyFields(const QJsonObject &body, const QStringList &known);
    // bodyObject() holding no field but `known`.
    static Result<QJsonObject> bodyWith(const HttpRequest &request, const QStringList &known);
    // A run's parameters from body.parameters: strings, numbers and booleans, as text (what
    // ${K} gives a task); none may begin with "trigger." (a trigger's own).
    static Result<QJsonObject> runParameters(const QJsonObject &body);
};

} // namespace hg
