#include "api/apimetrics.h"
#include "api/apiservice.h"
#include "apiclient.h"
#include "backendtests.h"
#include "testservers.h"
#include "teststore.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

using namespace hg;

// The API's parts in process: the OpenAPI document and the routes say the same, the router
// matches exactly, roles include what they should, and the metrics' text holds for any chain
// name.
class TestApiService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openapi_listsEveryRouteAndNoOther();
    void router_matchesSegmentsExactly();
    void roles_includeTheLesserOnes();
    void metrics_escapeLabelsAndCountOnce();
};

void TestApiService::openapi_listsEveryRouteAndNoOther()
{
    HG_TEST_STORE(t);
    ApiService service(t.store(), [](const QString &) {});
    QFile file(QStringLiteral(":/api/openapi.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject paths =
        QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("paths")).toObject();
    static const QRegularExpression parameter(QStringLiteral("\\{[A-Za-z]+\\}"));
    QSet<QString> documented;
    for (auto it = paths.constBegin(); it != paths.constEnd(); ++it)
        for (const QString &method : it.value().toObject().keys())
            documented.insert(method.toUpper() + QLatin1Char(' ')
                              + QString(it.key()).replace(parameter, QStringLiteral("{}")));
    QSet<QString> routed;
    for (const ApiRouter::Route &route : service.router().routes())
        routed.insert(QString::fromLatin1(route.method) + QLatin1Char(' ') + route.pattern);
    // Answered before the router: the document itself and the hooks.
    routed.insert(QStringLiteral("GET /api/v1/openapi.json"));
    routed.insert(QStringLiteral("POST /hooks/{}"));
    QCOMPARE(documented.size(), routed.size());
    QCOMPARE(documented, routed);
    // Each documented role is the route's.
    for (const ApiRouter::Route &route : service.router().routes()) {
        QString key;
        for (auto it = paths.constBegin(); it != paths.constEnd(); ++it)
            if (QString(it.key()).replace(parameter, QStringLiteral("{}")) == route.pattern)
                key = it.key();
        const QJsonObject operation = paths.value(key)
                                          .toObject()
                                          .value(QString::fromLatin1(route.method).toLower())
                                          .toObject();
        QCOMPARE(operation.value(QStringLiteral("x-hourglass-role")).toString(),
                 enumName(route.role));
    }
}

void TestApiService::router_matchesSegmentsExactly()
{
    ApiRouter router;
    router.add("GET", QStringLiteral("/api/v1/runs/{}"), ApiRole::Read,
               [](const HttpRequest &, const QStringList &) { return HttpResponse(); });
    router.add("POST", QStringLiteral("/api/v1/runs/{}/stop"), ApiRole::Operate,
               [](const HttpRequest &, const QStringList &) { return HttpResponse(); });
    ApiRouter::Found found = router.find("GET", QStringLiteral("/api/v1/runs/12"));
    QVERIFY(found.route);
    QCOMPARE(found.captures, QStringList{QStringLiteral("12")});
    QVERIFY(!router.find("GET", QStringLiteral("/api/v1/runs/12/")).route);
    QVERIFY(!router.find("GET", QStringLiteral("/api/v1/runs/")).route);
    QVERIFY(!router.find("GET", QStringLiteral("/api/v1//runs/12")).route);
    QVERIFY(!router.find("GET", QStringLiteral("/API/v1/runs/12")).route);
    found = router.find("GET", QStringLiteral("/api/v1/runs/12/stop"));
    QVERIFY(!found.route);
    QCOMPARE(found.otherMethods, QList<QByteArray>{"POST"});
}

void TestApiService::roles_includeTheLesserOnes()
{
    QVERIFY(ApiToken::allows(ApiRole::Admin, ApiRole::Operate));
    QVERIFY(ApiToken::allows(ApiRole::Admin, ApiRole::Metrics));
    QVERIFY(ApiToken::allows(ApiRole::Operate, ApiRole::Read));
    QVERIFY(ApiToken::allows(ApiRole::Read, ApiRole::Metrics));
    QVERIFY(!ApiToken::allows(ApiRole::Read, ApiRole::Operate));
    QVERIFY(!ApiToken::allows(ApiRole::Operate, ApiRole::Admin));
    QVERIFY(!ApiToken::allows(ApiRole::Metrics, ApiRole::Read));
    QVERIFY(ApiToken::allows(ApiRole::Metrics, ApiRole::Metrics));
}

void TestApiService::metrics_escapeLabelsAndCountOnce()
{
    HG_TEST_STORE(t);
    ApiMetrics metrics;
    Run run;
    run.id = 7;
    run.chainId = 1;
    run.trigger = RunTrigger::Schedule;
    run.scheduledFor = QDateTime::fromMSecsSinceEpoch(1'000'000, Qt::UTC);
    run.startedAt = QDateTime::fromMSecsSinceEpoch(1'000'250, Qt::UTC);
    run.state = RunState::Running;
    const QString name = QStringLiteral("p/a \"quoted\" \\ back\nslash");
    metrics.observe(run, name);
    metrics.observe(run, name); // the same start told twice counts once
    run.state = RunState::Failed;
    run.finishedAt = QDateTime::fromMSecsSinceEpoch(1'003'250, Qt::UTC);
    metrics.observe(run, name);
    metrics.observe(run, name); // and the same end
    const QByteArray text = metrics.render(t.store());
    QVERIFY2(text.contains("hourglass_runs_finished_total{chain=\"p/a \\\"quoted\\\" \\\\ "
                           "back\\nslash\",state=\"failed\"} 1"),
             text.constData());
    QVERIFY(text.contains("hourglass_start_lateness_seconds_count 1"));
    QVERIFY(text.contains("hourglass_start_lateness_seconds_bucket{le=\"0.25\"} 1"));
    QVERIFY(text.contains("hourglass_start_lateness_seconds_bucket{le=\"0.1\"} 0"));
    QVERIFY(text.contains("hourglass_run_duration_seconds_sum{chain="));
    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    HG_REQUIRE_PART(!promtool.isEmpty(), "promtool (Debian's prometheus package)");
    const QByteArray problems = test::promtoolProblems(promtool, text);
    QVERIFY2(problems.isEmpty(), problems.constData());
}

HG_BACKEND_TEST_GUILESS_MAIN(TestApiService)
#include "tst_apiservice.moc"
