#include "apiadmin.h"

#include "api/apianswers.h"
#include "api/apijson.h"
#include "api/apirouter.h"
#include "store/apitokenrepository.h"
#include "store/notifychannelrepository.h"
#include "store/projectexporter.h"
#include "store/projectimporter.h"

#include <QJsonArray>

namespace hg {

void ApiAdmin::addRoutes(ApiRouter &router)
{
    router.add("GET", QStringLiteral("/api/v1/tokens"), ApiRole::Admin,
               [this](const HttpRequest &, const QStringList &) { return tokens(); });
    router.add("POST", QStringLiteral("/api/v1/tokens"), ApiRole::Admin,
               [this](const HttpRequest &r, const QStringList &) { return addToken(r); });
    router.add("DELETE", QStringLiteral("/api/v1/tokens/{}"), ApiRole::Admin,
               [this](const HttpRequest &, const QStringList &c) { return removeToken(c); });
    router.add("GET", QStringLiteral("/api/v1/channels"), ApiRole::Admin,
               [this](const HttpRequest &, const QStringList &) { return channels(); });
    router.add("GET", QStringLiteral("/api/v1/export"), ApiRole::Admin,
               [this](const HttpRequest &r, const QStringList &) { return exportDefinitions(r); });
    router.add("POST", QStringLiteral("/api/v1/import"), ApiRole::Admin,
               [this](const HttpRequest &r, const QStringList &) { return importDefinitions(r); });
}

HttpResponse ApiAdmin::tokens()
{
    const Result<QList<ApiToken>> list = ApiTokenRepository(m_store).list();
    if (!list)
        return ApiAnswers::fromError(list.error());
    QJsonArray array;
    for (const ApiToken &t : list.value())
        array << QJsonObject{{QStringLiteral("name"), t.name},
                             {QStringLiteral("role"), enumName(t.role)},
                             {QStringLiteral("prefix"), t.prefix},
                             {QStringLiteral("createdAt"), apijson::time(t.createdAt)},
                             {QStringLiteral("expiresAt"), apijson::time(t.expiresAt)},
                             {QStringLiteral("lastUsedAt"), apijson::time(t.lastUsedAt)}};
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("tokens"), array}});
}

HttpResponse ApiAdmin::addToken(const HttpRequest &request)
{
    const QStringList fields{QStringLiteral("name"), QStringLiteral("role"),
                             QStringLiteral("expires")};
    const Result<QJsonObject> body = ApiAnswers::bodyWith(request, fields);
    if (!body)
        return ApiAnswers::fromError(body.error());
    for (const QString &field : fields)
        if (Status s = ApiAnswers::expect(body.value(), field, QJsonValue::String);
            !s && !(field == QLatin1String("expires") && body->value(field).isNull()))
            return ApiAnswers::fromError(s.error());
    const std::optional<ApiRole> role =
        enumFromString<ApiRole>(body->value(QStringLiteral("role")).toString());
    if (!role)
        return HttpResponse::error(400, tr("role must be one of %1").arg(enumChoices<ApiRole>()),
                                   QStringLiteral("role"));
    QDateTime expires;
    if (body->value(QStringLiteral("expires")).isString()) {
        expires = QDateTime::fromString(body->value(QStringLiteral("expires")).toString(),
                                        Qt::ISODateWithMs);
        if (!expires.isValid() || expires <= QDateTime::currentDateTimeUtc())
            return HttpResponse::error(400, tr("expires must be an ISO 8601 time to come"),
                                       QStringLiteral("expires"));
    }
    const Result<ApiTokenRepository::Made> made = ApiTokenRepository(m_store).make(
        body->value(QStringLiteral("name")).toString(), *role, expires);
    if (!made)
        return ApiAnswers::fromError(made.error());
    return HttpResponse::json(
        201, QJsonObject{{QStringLiteral("name"), made->token.name},
                         {QStringLiteral("role"), enumName(made->token.role)},
                         {QStringLiteral("prefix"), made->token.prefix},
                         {QStringLiteral("expiresAt"), apijson::time(made->token.expiresAt)},
                         {QStringLiteral("token"), made->text}});
}

HttpResponse ApiAdmin::removeToken(const QStringList &captures)
{
    if (Status s = ApiTokenRepository(m_store).remove(captures.at(0)); !s)
        return ApiAnswers::fromError(s.error());
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("removed"), captures.at(0)}});
}

HttpResponse ApiAdmin::channels()
{
    const Result<QList<NotifyChannel>> list = NotifyChannelRepository(m_store).list();
    if (!list)
        return ApiAnswers::fromError(list.error());
    QJsonArray array;
    for (const NotifyChannel &c : list.value())
        array << QJsonObject{{QStringLiteral("name"), c.name},
                             {QStringLiteral("kind"), enumName(c.kind)},
                             // A URL that carries a token (Slack's) is a secret: not shown.
                             {QStringLiteral("url"), c.urlIsSecret ? QString() : c.url},
                             {QStringLiteral("urlIsSecret"), c.urlIsSecret},
                             {QStringLiteral("hasSecrets"), !c.secretKey.isEmpty()},
                             {QStringLiteral("default"), c.isDefault},
                             {QStringLiteral("to"), QJsonArray::fromStringList(c.to)},
                             {QStringLiteral("createdAt"), apijson::time(c.createdAt)}};
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("channels"), array}});
}

HttpResponse ApiAdmin::exportDefinitions(const HttpRequest &request)
{
    ProjectExporter exporter(m_store);
    const std::optional<QString> project = request.queryValue(QStringLiteral("project"));
    const std::optional<QString> chain = request.queryValue(QStringLiteral("chain"));
    if (chain && !project)
        return HttpResponse::error(400, tr("chain needs project"), QStringLiteral("chain"));
    const Result<QJsonObject> document =
        project ? exporter.exportProject(*project, chain) : exporter.exportAll();
    if (!document)
        return ApiAnswers::fromError(document.error());
    return HttpResponse::json(200, document.value());
}

HttpResponse ApiAdmin::importDefinitions(const HttpRequest &request)
{
    ProjectImporter importer(m_store);
    const bool check =
        request.queryValue(QStringLiteral("check")).value_or(QString()) == QLatin1String("1");
    const Result<ProjectImporter::Summary> summary =
        check ? importer.checkDocument(request.body) : importer.importDocument(request.body);
    if (!summary)
        return ApiAnswers::fromError(summary.error());
    return HttpResponse::json(
        check ? 200 : 201,
        QJsonObject{{QStringLiteral("checked"), check},
                    {QStringLiteral("projects"), summary->projects},
                    {QStringLiteral("chains"), summary->chains},
                    {QStringLiteral("tasks"), summary->tasks},
                    {QStringLiteral("schedules"), summary->schedules},
                    {QStringLiteral("notes"), QJsonArray::fromStringList(summary->notes)}});
}

} // namespace hg
