#include "apihooks.h"

#include "api/apiauthgate.h"
#include "notify/channelsecrets.h"
#include "scheduler/runcontrol.h"
#include "store/apirequestkeyrepository.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/occurrencerepository.h"
#include "store/store.h"
#include "store/storequery.h"
#include "store/triggerrunwriter.h"

#include <QJsonDocument>
#include <QLocale>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>
#include <QUuid>

namespace hg {
namespace {

bool sameBytes(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return difference == 0;
}

// A value for a parameter: text as it is, anything else as compact JSON.
QString asParameter(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble()) // the shortest text that reads back the same: 0.1, not 0.1000…01
        return QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
    return {};
}

} // namespace

HttpResponse ApiHooks::handle(const HttpRequest &request, const QString &hookId)
{
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    if (request.method != "POST") {
        HttpResponse response = HttpResponse::error(405, tr("a hook is called with POST"));
        response.headers.emplaceBack("Allow", "POST");
        return response;
    }
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(m_store).list();
    if (!triggers)
        return HttpResponse::error(
            503, tr("the store cannot be read: %1").arg(triggers.error().message));
    const ChainTrigger *trigger = nullptr;
    for (const ChainTrigger &t : triggers.value())
        if (t.kind == TriggerKind::Webhook && t.webhook.hookId == hookId)
            trigger = &t;
    // An unknown hook is a failure too: hook ids are not to be found by trying.
    if (!trigger) {
        HttpResponse response = m_gate.refuse(request.peer, nowMs, tr("no such hook"));
        if (response.status == 401)
            response.status = 404;
        return response;
    }
    const QByteArray signature = request.header("x-hourglass-signature");
    if (!signature.toLower().startsWith("sha256="))
        return m_gate.refuse(request.peer, nowMs,
                             tr("no signature: send X-Hourglass-Signature: sha256=<hex "
                                "HMAC-SHA256 of the body>"));
    const Result<QByteArray> secret = secretOf(*trigger);
    if (!secret)
        return HttpResponse::error(
            503,
            tr("the hook's secret cannot be read on this machine: %1").arg(secret.error().message));
    const QByteArray expected =
        QMessageAuthenticationCode::hash(request.body, secret.value(), QCryptographicHash::Sha256)
            .toHex();
    if (!sameBytes(signature.mid(7).toLower(), expected))
        return m_gate.refuse(request.peer, nowMs, tr("the signature does not match the body"));
    if (trigger->paused) {
        // A fire while paused, as a schedule's: a ledger row says it came and did not run.
        Occurrence row;
        row.triggerId = trigger->id;
        row.chainId = trigger->chainId;
        row.outcome = OccurrenceOutcome::Paused;
        row.firstFireMs = row.lastFireMs = nowMs;
        row.detail = tr("webhook delivery %1")
                         .arg(QString::fromLatin1(request.header("x-hourglass-delivery")).left(80));
        (void)OccurrenceRepository(m_store).insert(row);
        return HttpResponse::error(
            409, tr("trigger %1 is paused (`hourglass trigger resume %1`)").arg(trigger->id));
    }
    QByteArray deliveryHeader = request.header("x-hourglass-delivery");
    if (deliveryHeader.isNull())
        deliveryHeader = request.header("idempotency-key");
    const QString delivery = deliveryHeader.isNull()
                                 ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                 : QString::fromLatin1(deliveryHeader);
    if (Status s = ApiRequestKeyRepository::check(delivery); !s)
        return HttpResponse::error(400,
                                   tr("X-Hourglass-Delivery is 1 to 200 printable ASCII "
                                      "characters"),
                                   QStringLiteral("X-Hourglass-Delivery"));
    bool replayed = false;
    const Result<qint64> run = startRun(*trigger, request, delivery, replayed);
    if (!run) {
        if (run.error().kind == ErrorKind::Invalid || run.error().kind == ErrorKind::NotFound)
            return HttpResponse::error(409, run.error().message, run.error().field);
        return HttpResponse::error(run.error().kind == ErrorKind::Unavailable ? 503 : 500,
                                   run.error().message);
    }
    HttpResponse response =
        HttpResponse::json(202, QJsonObject{{QStringLiteral("run"), run.value()},
                                            {QStringLiteral("chain"), trigger->path},
                                            {QStringLiteral("delivery"), delivery},
                                            {QStringLiteral("replayed"), replayed}});
    if (replayed)
        response.headers.emplaceBack("Idempotent-Replayed", "true");
    return response;
}

bool ApiHooks::knows(const QString &hookId)
{
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(m_store).list();
    if (!triggers)
        return true; // the store away: the request is answered (503) with its body
    return std::any_of(triggers->cbegin(), triggers->cend(), [&hookId](const ChainTrigger &t) {
        return t.kind == TriggerKind::Webhook && t.webhook.hookId == hookId;
    });
}

Result<QByteArray> ApiHooks::secretOf(const ChainTrigger &trigger)
{
    const auto cached = m_secrets.constFind(trigger.webhook.secretKey);
    if (cached != m_secrets.constEnd())
        return cached.value();
    const Result<QJsonObject> secrets = ChannelSecrets().lookup(trigger.webhook.secretKey);
    if (!secrets)
        return secrets.error();
    const QByteArray secret = secrets->value(QStringLiteral("secret")).toString().toUtf8();
    if (secret.isEmpty())
        return Error::notFound(tr("no secret is kept for hook %1").arg(trigger.webhook.hookId));
    m_secrets.insert(trigger.webhook.secretKey, secret);
    return secret;
}

Result<qint64> ApiHooks::startRun(const ChainTrigger &trigger, const HttpRequest &request,
                                  const QString &delivery, bool &replayed)
{
    const Result<Chain> chain = ChainRepository(m_store).byId(trigger.chainId);
    if (!chain)
        return chain.error();
    if (!chain->enabled)
        return Error::invalid(tr("%1 is disabled").arg(trigger.path));
    QJsonObject parameters{{QStringLiteral("trigger.hook"), trigger.webhook.hookId},
                           {QStringLiteral("trigger.delivery"), delivery}};
    // What reaches a run is also its tasks' environment (HOURGLASS_TRIGGER_BODY_FIELD), which
    // the kernel bounds (128 KiB a variable, a few MB in all): at most 64 KiB a value and
    // 256 KiB in all are passed; what is left out is counted in trigger.body_left_out.
    constexpr qsizetype mostPerValue = qsizetype(64) * 1024;
    qsizetype budget = qsizetype(256) * 1024;
    int leftOut = 0;
    const auto pass = [&](const QString &key, const QString &value) {
        if (value.size() > mostPerValue || value.size() > budget || value.contains(QChar(0))) {
            ++leftOut;
            return;
        }
        budget -= value.size();
        parameters.insert(key, value);
    };
    // The body as text when it is UTF-8 (a binary body reaches the run as nothing).
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString body = utf8(request.body);
    if (!utf8.hasError())
        pass(QStringLiteral("trigger.body"), body);
    else
        ++leftOut;
    const QJsonDocument document = QJsonDocument::fromJson(request.body);
    if (document.isObject()) {
        // Names a variable can carry, each once whatever its case: "x=evil" would write
        // another variable, and "a" beside "A" one over the other.
        static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,63}$"));
        QSet<QString> taken;
        const QJsonObject fields = document.object();
        for (auto it = fields.constBegin(); it != fields.constEnd(); ++it) {
            if (!name.match(it.key()).hasMatch() || taken.contains(it.key().toUpper())) {
                ++leftOut;
                continue;
            }
            taken.insert(it.key().toUpper());
            pass(QStringLiteral("trigger.body.") + it.key(), asParameter(it.value()));
        }
    }
    // A header's dashes become underscores: ${trigger.header.x_github_event}.
    for (const QString &header : trigger.webhook.headers) {
        const QByteArray value = request.header(header.toLatin1().constData());
        if (!value.isNull())
            pass(QStringLiteral("trigger.header.")
                     + QString(header).replace(QLatin1Char('-'), QLatin1Char('_')),
                 QString::fromUtf8(value));
    }
    if (leftOut > 0)
        parameters.insert(QStringLiteral("trigger.body_left_out"), QString::number(leftOut));
    qint64 runId = 0;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    const QString key = QStringLiteral("webhook|") + delivery;
    const Status written = m_store.transaction([&]() -> Status {
        const Result<std::optional<qint64>> inserted =
            TriggerRunWriter::insert(m_store, trigger.id, trigger.chainId, key, parameters, nowMs,
                                     tr("start a run of a webhook"));
        if (!inserted)
            return inserted.error();
        if (inserted.value()) {
            runId = *inserted.value();
            return RunControl(m_store).enqueue(CommandKind::Start, runId);
        }
        replayed = true;
        StoreQuery q(m_store, QStringLiteral("SELECT id FROM run WHERE trigger_id = ? AND "
                                             "trigger_key = ?"));
        q.bind(trigger.id).bind(key);
        if (Status s = q.execSingle(tr("read a webhook's run"), tr("the run went away")); !s)
            return s;
        runId = q.int64(0);
        return {};
    });
    if (!written)
        return written.error();
    return runId;
}

} // namespace hg
