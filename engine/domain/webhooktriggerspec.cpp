#include "webhooktriggerspec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>

namespace hg {

QString WebhookTriggerSpec::problem() const
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{24}$"));
    if (!hex.match(hookId).hasMatch())
        return tr("a hook's id is 24 hex digits");
    if (headers.size() > mostHeaders)
        return tr("--header: %1 headers at most").arg(mostHeaders);
    // A header's name as RFC 9110 spells a token; never the ones that carry credentials.
    static const QRegularExpression token(QStringLiteral("^[a-z0-9!#$%&'*+.^_`|~-]{1,64}$"));
    for (const QString &name : headers) {
        if (!token.match(name).hasMatch())
            return tr("--header: '%1' is not a header's name").arg(name.left(64));
        if (name == QLatin1String("authorization") || name == QLatin1String("cookie")
            || name == QLatin1String("proxy-authorization")
            || name == QLatin1String("x-hourglass-signature"))
            return tr("--header: %1 carries a credential and never reaches a run").arg(name);
    }
    return {};
}

QString WebhookTriggerSpec::toJson() const
{
    const QJsonObject object{{QStringLiteral("hook"), hookId},
                             {QStringLiteral("secret_key"), secretKey},
                             {QStringLiteral("headers"), QJsonArray::fromStringList(headers)}};
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

WebhookTriggerSpec WebhookTriggerSpec::fromJson(const QString &json)
{
    const QJsonObject object = QJsonDocument::fromJson(json.toUtf8()).object();
    WebhookTriggerSpec spec;
    spec.hookId = object.value(QLatin1String("hook")).toString();
    spec.secretKey = object.value(QLatin1String("secret_key")).toString();
    for (const QJsonValue name : object.value(QLatin1String("headers")).toArray())
        spec.headers << name.toString();
    return spec;
}

QString WebhookTriggerSpec::newHookId()
{
    quint32 words[3];
    QRandomGenerator::system()->fillRange(words);
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex());
}

} // namespace hg
