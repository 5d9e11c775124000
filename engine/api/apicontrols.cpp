#include "apicontrols.h"

#include "api/apianswers.h"
#include "api/apijson.h"
#include "api/apirouter.h"
#include "scheduler/missedrunsinbox.h"
#include "scheduler/runcontrol.h"
#include "store/apirequestkeyrepository.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "store/store.h"

#include <QJsonArray>

namespace hg {

void ApiControls::addRoutes(ApiRouter &router)
{
    router.add("POST", QStringLiteral("/api/v1/chains/{}/{}/runs"), ApiRole::Operate,
               [this](const HttpRequest &r, const QStringList &c) { return start(r, c); });
    for (const char *verbText : {"stop", "pause", "resume"}) {
        const QString verb = QString::fromLatin1(verbText);
        router.add(
            "POST", QStringLiteral("/api/v1/runs/{}/") + verb, ApiRole::Operate,
            [this, verb](const HttpRequest &, const QStringList &c) { return control(verb, c); });
    }
    router.add("POST", QStringLiteral("/api/v1/runs/{}/rerun"), ApiRole::Operate,
               [this](const HttpRequest &r, const QStringList &c) { return rerun(r, c); });
    router.add("POST", QStringLiteral("/api/v1/chains/{}/{}/enable"), ApiRole::Operate,
               [this](const HttpRequest &, const QStringList &c) { return enable(c, true); });
    router.add("POST", QStringLiteral("/api/v1/chains/{}/{}/disable"), ApiRole::Operate,
               [this](const HttpRequest &, const QStringList &c) { return enable(c, false); });
    router.add("POST", QStringLiteral("/api/v1/missed/{}/{}/decide"), ApiRole::Operate,
               [this](const HttpRequest &r, const QStringList &c) { return decide(r, c); });
}

HttpResponse ApiControls::start(const HttpRequest &request, const QStringList &captures)
{
    const Result<Chain> chain = ApiAnswers::chain(m_store, captures.at(0), captures.at(1));
    if (!chain)
        return ApiAnswers::fromError(chain.error());
    const Result<QJsonObject> body = ApiAnswers::bodyWith(request, {QStringLiteral("parameters")});
    if (!body)
        return ApiAnswers::fromError(body.error());
    const Result<QJsonObject> parameters = ApiAnswers::runParameters(body.value());
    if (!parameters)
        return ApiAnswers::fromError(parameters.error());
    const QString path = captures.at(0) + QLatin1Char('/') + captures.at(1);
    return makeOnce(request, QStringLiteral("chain:%1").arg(chain->id), path,
                    [&] { return RunControl(m_store).start(chain->id, parameters.value()); });
}

HttpResponse ApiControls::makeOnce(const HttpRequest &request, const QString &scope,
                                   const QString &chainPath,
                                   const std::function<Result<Run>()> &make)
{
    const QString key = QString::fromLatin1(request.header("idempotency-key"));
    if (!request.header("idempotency-key").isNull())
        if (Status s = ApiRequestKeyRepository::check(key); !s)
            return ApiAnswers::fromError(s.error());
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    ApiRequestKeyRepository keys(m_store);
    if (!key.isEmpty() && nowMs - m_keysPrunedAtMs > qint64(3600) * 1000) {
        m_keysPrunedAtMs = nowMs;
        (void)keys.removeBefore(nowMs - ApiRequestKeyRepository::keptMs);
    }
    std::optional<qint64> earlier;
    Run made;
    // The key is claimed in the run's own transaction: two requests with it make one run.
    const Status written = m_store.transaction([&]() -> Status {
        if (!key.isEmpty()) {
            const Result<std::optional<qint64>> claimed = keys.claim(scope, key, nowMs);
            if (!claimed)
                return claimed.error();
            earlier = claimed.value();
            if (earlier)
                return {};
        }
        const Result<Run> run = make();
        if (!run)
            return run.error();
        made = run.value();
        return key.isEmpty() ? Status{} : keys.setRun(scope, key, made.id);
    });
    if (!written)
        return ApiAnswers::fromError(written.error());
    if (earlier) {
        const Result<Run> run = RunRepository(m_store).byId(*earlier);
        if (!run)
            return ApiAnswers::fromError(run.error());
        HttpResponse response = HttpResponse::json(200, apijson::run(run.value(), chainPath));
        response.headers.emplaceBack("Idempotent-Replayed", "true");
        return response;
    }
    HttpResponse response = HttpResponse::json(201, apijson::run(made, chainPath));
    response.headers.emplaceBack("Location", "/api/v1/runs/" + QByteArray::number(made.id));
    return response;
}

HttpResponse ApiControls::control(const QString &verb, const QStringList &captures)
{
    const Result<qint64> id = ApiAnswers::runId(captures.at(0));
    if (!id)
        return ApiAnswers::fromError(id.error());
    const Result<Run> run = RunRepository(m_store).byId(id.value());
    if (!run)
        return ApiAnswers::fromError(run.error());
    if (isTerminal(run->state))
        return HttpResponse::error(
            409, tr("run %1 has already ended (%2)").arg(run->id).arg(enumName(run->state)));
    if (verb == QLatin1String("resume") && run->state != RunState::Paused)
        return HttpResponse::error(
            409, tr("run %1 is not paused (%2)").arg(run->id).arg(enumName(run->state)));
    if (verb == QLatin1String("pause") && run->state == RunState::Paused)
        return HttpResponse::error(409, tr("run %1 is paused already").arg(run->id));
    const CommandKind kind = verb == QLatin1String("stop")    ? CommandKind::Stop
                             : verb == QLatin1String("pause") ? CommandKind::Pause
                                                              : CommandKind::Resume;
    if (Status s = RunControl(m_store).control(kind, run->id); !s)
        return ApiAnswers::fromError(s.error());
    return HttpResponse::json(202, QJsonObject{{QStringLiteral("run"), run->id},
                                               {QStringLiteral("command"), verb},
                                               {QStringLiteral("state"), enumName(run->state)}});
}

HttpResponse ApiControls::rerun(const HttpRequest &request, const QStringList &captures)
{
    const Result<qint64> id = ApiAnswers::runId(captures.at(0));
    if (!id)
        return ApiAnswers::fromError(id.error());
    const Result<QJsonObject> body = ApiAnswers::bodyWith(request, {QStringLiteral("failedOnly")});
    if (!body)
        return ApiAnswers::fromError(body.error());
    if (Status s = ApiAnswers::expect(body.value(), QStringLiteral("failedOnly"), QJsonValue::Bool);
        !s)
        return ApiAnswers::fromError(s.error());
    const Result<Run> original = RunRepository(m_store).byId(id.value());
    if (!original)
        return ApiAnswers::fromError(original.error());
    if (!isTerminal(original->state))
        return HttpResponse::error(
            409,
            tr("run %1 has not ended yet (%2)").arg(original->id).arg(enumName(original->state)));
    const bool failedOnly = body->value(QStringLiteral("failedOnly")).toBool();
    const Result<ChainPath> path = ChainRepository(m_store).pathOf(original->chainId);
    return makeOnce(request, QStringLiteral("rerun:%1").arg(original->id),
                    path ? path->toString() : QString(),
                    [&] { return RunControl(m_store).rerun(original->id, failedOnly); });
}

HttpResponse ApiControls::enable(const QStringList &captures, bool enabled)
{
    Result<Chain> chain = ApiAnswers::chain(m_store, captures.at(0), captures.at(1));
    if (!chain)
        return ApiAnswers::fromError(chain.error());
    if (chain->enabled != enabled) {
        chain->enabled = enabled;
        if (Status s = ChainRepository(m_store).update(chain.value()); !s)
            return ApiAnswers::fromError(s.error());
    }
    const QString path = captures.at(0) + QLatin1Char('/') + captures.at(1);
    return HttpResponse::json(
        200, QJsonObject{{QStringLiteral("chain"), path}, {QStringLiteral("enabled"), enabled}});
}

HttpResponse ApiControls::decide(const HttpRequest &request, const QStringList &captures)
{
    const Result<Chain> chain = ApiAnswers::chain(m_store, captures.at(0), captures.at(1));
    if (!chain)
        return ApiAnswers::fromError(chain.error());
    const QStringList fields{QStringLiteral("choice"), QStringLiteral("parallel"),
                             QStringLiteral("keep")};
    const Result<QJsonObject> body = ApiAnswers::bodyWith(request, fields);
    if (!body)
        return ApiAnswers::fromError(body.error());
    for (const auto &[field, type] :
         {std::pair{fields.at(0), QJsonValue::String}, std::pair{fields.at(1), QJsonValue::Double},
          std::pair{fields.at(2), QJsonValue::Bool}})
        if (Status s = ApiAnswers::expect(body.value(), field, type); !s)
            return ApiAnswers::fromError(s.error());
    const QString choice = body->value(QStringLiteral("choice")).toString();
    MissedRunsInbox::Decision decision;
    if (choice == QLatin1String("run-all"))
        decision.choice = MissedRunsInbox::Choice::RunAll;
    else if (choice == QLatin1String("run-latest"))
        decision.choice = MissedRunsInbox::Choice::RunLatest;
    else if (choice == QLatin1String("dismiss"))
        decision.choice = MissedRunsInbox::Choice::Dismiss;
    else
        return HttpResponse::error(400, tr("choice must be run-all, run-latest or dismiss"),
                                   QStringLiteral("choice"));
    const double parallel = body->value(QStringLiteral("parallel")).toDouble(1);
    if (parallel < 1 || parallel > 1000 || parallel != std::floor(parallel))
        return HttpResponse::error(400, tr("parallel must be a whole number from 1 to 1000"),
                                   QStringLiteral("parallel"));
    decision.parallel = int(parallel);
    decision.keep = body->value(QStringLiteral("keep")).toBool();
    MissedRunsInbox inbox(m_store);
    const Result<MissedRunsInbox::Waiting> waiting = inbox.waiting(chain->id);
    if (!waiting)
        return ApiAnswers::fromError(waiting.error());
    if (waiting->count == 0)
        return HttpResponse::error(409,
                                   tr("no missed runs of %1 wait for a decision")
                                       .arg(captures.at(0) + QLatin1Char('/') + captures.at(1)));
    const Result<MissedRunsInbox::Decided> decided = inbox.decide(chain.value(), decision);
    if (!decided)
        return ApiAnswers::fromError(decided.error());
    QJsonArray runs;
    for (const Run &run : decided->runs)
        runs << run.id;
    return HttpResponse::json(
        200, QJsonObject{{QStringLiteral("runs"), runs},
                         {QStringLiteral("kept"),
                          decided->kept ? QJsonValue(enumName(*decided->kept)) : QJsonValue()}});
}

} // namespace hg
