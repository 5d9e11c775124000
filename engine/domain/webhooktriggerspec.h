#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace hg {

// A webhook trigger's settings (chain_trigger.settings, JSON). hookId is the random part of
// its path (/hooks/<hookId>: not a row id, so hooks cannot be counted through); secretKey
// names its signing secret where secrets are kept (ChannelSecrets: the keychain, or a file
// only its owner reads), never the store. headers: the request headers (lower case) a run
// may read as ${trigger.header.NAME}; no other header reaches a run.
struct WebhookTriggerSpec
{
    Q_DECLARE_TR_FUNCTIONS(hg::WebhookTriggerSpec)

public:
    QString hookId;
    QString secretKey;
    QStringList headers;

    static constexpr int mostHeaders = 20;
    // "" when it holds, else the problem, naming the option as the CLI names it.
    QString problem() const;
    QString toJson() const;
    static WebhookTriggerSpec fromJson(const QString &json);
    // 24 hex digits from the system's random source.
    static QString newHookId();
    QString path() const { return QStringLiteral("/hooks/") + hookId; }
    bool operator==(const WebhookTriggerSpec &other) const = default;
};

} // namespace hg
