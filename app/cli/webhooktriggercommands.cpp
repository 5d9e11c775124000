// trigger add PROJECT/CHAIN --webhook: a chain started by a signed POST to the local API.
#include "base/terminaltext.h"
#include "clicontext.h"
#include "notify/channelsecrets.h"
#include "scheduler/triggertext.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "subcommands.h"

#include <QRandomGenerator>

namespace hg {

int addWebhookTrigger(CliContext &context, Store &store, const QCommandLineParser &parser)
{
    const QString path = parser.positionalArguments().at(0);
    const Result<Chain> chain = ChainRepository(store).byPath(path);
    if (!chain)
        return context.fail(chain.error());
    ChainTrigger trigger;
    trigger.kind = TriggerKind::Webhook;
    trigger.chainId = chain->id;
    trigger.path = path;
    trigger.paused = parser.isSet(QStringLiteral("paused"));
    trigger.webhook.hookId = WebhookTriggerSpec::newHookId();
    for (const QString &value : parser.values(QStringLiteral("header")))
        for (const QString &name : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!trigger.webhook.headers.contains(name.trimmed().toLower()))
                trigger.webhook.headers << name.trimmed().toLower();
    if (const QString problem = trigger.webhook.problem(); !problem.isEmpty())
        return context.usage(terminaltext::escaped(problem));
    // The signing secret: 256 random bits, kept as a channel's secrets are (the keychain, or
    // a file only its owner reads), shown once here and never written to the store.
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    const QString secret = QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex());
    trigger.webhook.secretKey = QStringLiteral("hourglass-webhook:%1").arg(trigger.webhook.hookId);
    const ChannelSecrets keeper;
    const Result<QString> kept =
        keeper.store(trigger.webhook.secretKey, QJsonObject{{QStringLiteral("secret"), secret}});
    if (!kept)
        return context.fail(kept.error());
    const Result<ChainTrigger> added = ChainTriggerRepository(store).add(trigger);
    if (!added) {
        (void)keeper.forget(trigger.webhook.secretKey);
        return added.error().kind == ErrorKind::Invalid ? context.usage(added.error().message)
                                                        : context.fail(added.error());
    }
    context.out() << "trigger " << added->id << ": " << terminaltext::escaped(path.left(300))
                  << " starts " << triggertext::describe(added.value()) << '\n'
                  << "hook:   " << added->webhook.path() << '\n'
                  << "secret: " << secret << '\n';
    context.out().flush();
    context.err() << "hourglass: the secret is shown only now (kept in " << kept.value()
                  << "); sign each request's body with it: X-Hourglass-Signature: sha256=<hex "
                     "HMAC-SHA256>\n";
    return ExitOk;
}

void forgetWebhookSecret(CliContext &context, const ChainTrigger &trigger)
{
    if (trigger.kind != TriggerKind::Webhook || trigger.webhook.secretKey.isEmpty())
        return;
    if (Status s = ChannelSecrets().forget(trigger.webhook.secretKey); !s)
        context.err() << "hourglass: the hook's secret could not be forgotten: "
                      << terminaltext::escaped(s.error().message) << '\n';
}

} // namespace hg
