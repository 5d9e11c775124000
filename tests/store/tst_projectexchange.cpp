#include "fixtures.h"
#include "store/alertrepository.h"
#include "store/calendarrepository.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/exampleproject.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/projectexporter.h"
#include "store/projectimporter.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace hg;

class TestProjectExchange final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exampleProject_roundTripsIdentically();
    void exportChain_containsOnlyThatChain();
    void import_badDocumentChangesNothing_data();
    void import_badDocumentChangesNothing();
    void import_intoExistingProjectAddsChains();
    void fileTriggers_roundTripWithTheirSettings();
    void dstRule_roundTrips();
    void alertRules_roundTrip();
    void notificationRoutes_travelByChannelName();
    void projectAndGlobalRoutes_travelWithTheirScope_once();
    void chainTriggers_travelByPath_andAMissingUpstreamChangesNothing();
    void calendar_travelsWithTheSchedulesThatUseIt();
};

namespace {

QByteArray exportAll(Store &store)
{
    const Result<QJsonObject> document = ProjectExporter(store).exportAll();
    return document ? QJsonDocument(document.value()).toJson() : QByteArray();
}

} // namespace

void TestProjectExchange::exampleProject_roundTripsIdentically()
{
    HG_TEST_STORE(source);
    QVERIFY(ExampleProject::install(source.store()));
    const QByteArray first = exportAll(source.store());
    QVERIFY(first.contains("daily-report"));

    HG_TEST_STORE(target);
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(target.store()).importDocument(first);
    QVERIFY2(summary, summary ? "" : qPrintable(summary.error().message));
    QCOMPARE(summary->projects, 1);
    QCOMPARE(summary->chains, 3);
    QCOMPARE(summary->tasks, 6);
    QCOMPARE(exportAll(target.store()), first);
}

void TestProjectExchange::exportChain_containsOnlyThatChain()
{
    HG_TEST_STORE(t);
    QVERIFY(ExampleProject::install(t.store()));
    const Result<QJsonObject> document = ProjectExporter(t.store()).exportProject(
        QStringLiteral("Examples"), QStringLiteral("heartbeat"));
    QVERIFY(document);
    const QJsonArray chains =
        document->value(QStringLiteral("projects"))[0][QStringLiteral("chains")].toArray();
    QCOMPARE(chains.size(), 1);
    QCOMPARE(chains[0][QStringLiteral("name")].toString(), QStringLiteral("heartbeat"));
    QCOMPARE(ProjectExporter(t.store())
                 .exportProject(QStringLiteral("Examples"), QStringLiteral("nope"))
                 .error()
                 .kind,
             ErrorKind::NotFound);
}

void TestProjectExchange::import_badDocumentChangesNothing_data()
{
    QTest::addColumn<QByteArray>("document");
    QTest::addColumn<QString>("problem");
    const QByteArray good = ExampleProject::document();
    QTest::newRow("truncated") << good.left(good.size() / 2) << QStringLiteral("malformed JSON");
    QTest::newRow("not json") << QByteArray("hello") << QStringLiteral("malformed JSON");
    QTest::newRow("array") << QByteArray("[]") << QStringLiteral("not a JSON object");
    QTest::newRow("wrong format") << QByteArray(R"({"format":"other","version":1})")
                                  << QStringLiteral("not an Hourglass export");
    QTest::newRow("future version")
        << QByteArray(R"({"format":"hourglass-export","version":99,"projects":[]})")
        << QStringLiteral("version 99 is not supported");
    QByteArray badKind = good;
    badKind.replace("\"kind\": \"shell\"", "\"kind\": \"telepathy\"");
    QTest::newRow("bad enum late in the file")
        << badKind << QStringLiteral("'telepathy' is not one of");
    QByteArray cycle = good;
    cycle.replace(R"({ "task": "tidy-up", "upstream": "report", "when": "completion" })",
                  R"({ "task": "tidy-up", "upstream": "report", "when": "completion" },
                     { "task": "count-files", "upstream": "tidy-up", "when": "success" })");
    QTest::newRow("cycle") << cycle << QStringLiteral("cycle");
    QByteArray wrongType = good;
    wrongType.replace("\"maxInstances\": 1", "\"maxInstances\": \"one\"");
    QTest::newRow("wrong type") << wrongType
                                << QStringLiteral("maxInstances: expected a whole number");
    // A channel is checked as `channel add` checks it (helper-8: these were taken, defaulted).
    const auto withChannel = [&good](const QByteArray &channel) {
        QByteArray document = good;
        document.replace("\"projects\":",
                         QByteArray("\"channels\": [" + channel + "], \"projects\":"));
        return document;
    };
    QTest::newRow("channel of a bad format") << withChannel(
        R"({"name": "h", "kind": "webhook", "url": "https://x.example/h", "format": "bogus"})")
                                             << QStringLiteral("'bogus' is not a webhook body");
    QTest::newRow("channel of a bad kind")
        << withChannel(R"({"name": "s", "kind": "sms", "url": "tel:1"})")
        << QStringLiteral("'sms' is not a kind of channel");
    QTest::newRow("channel CA a FIFO-like device") << withChannel(
        R"({"name": "m", "kind": "email", "url": "smtp://m.example", "ca": "/dev/stdout", "from": "a@example.org", "to": ["b@example.org"]})")
                                                   << QStringLiteral("is not a readable PEM file");
    QTest::newRow("two channels of one name")
        << withChannel(R"({"name": "d", "kind": "desktop"}, {"name": "d", "kind": "desktop"})")
        << QStringLiteral("a second channel named 'd'");
    QByteArray badDst = good;
    badDst.replace("\"kind\": \"cron\", \"misfire\"",
                   "\"dst\": \"sometimes\", \"kind\": \"cron\", \"misfire\"");
    QTest::newRow("bad DST rule") << badDst << QStringLiteral("'sometimes' is not a DST rule");
    QByteArray badDeadline = good;
    badDeadline.replace("\"maxInstances\": 1",
                        "\"alerts\": {\"deadline\": \"0 25 * * *\"}, \"maxInstances\": 1");
    QTest::newRow("bad alert deadline") << badDeadline << QStringLiteral("alerts.deadline:");
    QByteArray badAlertKey = good;
    badAlertKey.replace("\"maxInstances\": 1",
                        "\"alerts\": {\"lateAfter\": 5}, \"maxInstances\": 1");
    QTest::newRow("unknown alert key")
        << badAlertKey << QStringLiteral("alerts.lateAfter: unknown field");
}

void TestProjectExchange::alertRules_roundTrip()
{
    HG_TEST_STORE(source);
    QVERIFY(ExampleProject::install(source.store()));
    const Chain chain = ChainRepository(source.store()).list()->constFirst();
    AlertRules rules;
    rules.lateAfterMs = 90000;
    rules.longerThanFactor = 3;
    rules.shorterThanMs = 1500;
    rules.deadline = QStringLiteral("0 7 * * 1-5");
    rules.deadlineZone = QStringLiteral("Europe/Berlin");
    QVERIFY(AlertRepository(source.store()).setRules(chain.id, rules));
    const QByteArray exported = exportAll(source.store());
    QVERIFY2(exported.contains("\"lateAfterSeconds\": 90"), exported.constData());

    HG_TEST_STORE(target);
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(target.store()).importDocument(exported);
    QVERIFY2(summary, summary ? "" : qPrintable(summary.error().message));
    const Result<Chain> imported =
        ChainRepository(target.store())
            .byPath(ChainRepository(source.store()).pathOf(chain.id).value());
    QVERIFY(imported);
    QCOMPARE(AlertRepository(target.store()).rules(imported->id).value(), rules);
    QCOMPARE(exportAll(target.store()), exported);
}

// A chain's own routes go with it by the channel's name; a route to the default e-mail channel
// names none. The channels they name go too, without their secrets, which stay home (the
// document says a channel had some, and the import tells the user to give them). A store
// with its own channel of that name keeps it.
void TestProjectExchange::notificationRoutes_travelByChannelName()
{
    HG_TEST_STORE(source);
    QVERIFY(ExampleProject::install(source.store()));
    const Chain chain = ChainRepository(source.store()).list()->constFirst();
    NotifyChannel hook;
    hook.name = QStringLiteral("ops-hook");
    hook.kind = ChannelKind::Webhook;
    hook.url = QStringLiteral("https://hooks.example.org/hourglass");
    hook.secretKey = QStringLiteral("hourglass-channel:ops-hook:0123"); // its signing secret
    hook.floodLimit = 3;
    const Result<NotifyChannel> added = NotifyChannelRepository(source.store()).add(hook);
    QVERIFY(added);
    NotifyRoute toHook;
    toHook.channelId = added->id;
    toHook.chainId = chain.id;
    toHook.events = {NotifyEvent::Failure, NotifyEvent::Recovery};
    QVERIFY(NotifyRouteRepository(source.store()).add(toHook));
    NotifyRoute toDefault;
    toDefault.chainId = chain.id;
    toDefault.events = {NotifyEvent::Output};
    toDefault.recipients = {QStringLiteral("ops@example.org")};
    QVERIFY(NotifyRouteRepository(source.store()).add(toDefault));
    const QByteArray exported = exportAll(source.store());
    QVERIFY2(exported.contains("\"channel\": \"ops-hook\""), exported.constData());
    QVERIFY(exported.contains("hooks.example.org"));
    QVERIFY(exported.contains("\"secretsLeftBehind\": true"));
    QVERIFY(!exported.contains("0123")); // not even where its secrets are kept

    HG_TEST_STORE(lacking);
    const Result<ProjectImporter::Summary> created =
        ProjectImporter(lacking.store()).importDocument(exported);
    QVERIFY2(created, created ? "" : qPrintable(created.error().message));
    const Result<NotifyChannel> arrived =
        NotifyChannelRepository(lacking.store()).byName(hook.name);
    QVERIFY(arrived);
    QCOMPARE(arrived->url, hook.url);
    QCOMPARE(arrived->floodLimit, 3);
    // A key of its own that holds nothing yet: it sends nothing until given its secrets.
    QVERIFY(!arrived->secretKey.isEmpty());
    QVERIFY(arrived->secretKey != hook.secretKey);
    QVERIFY2(created->notes.join(QLatin1Char(' ')).contains(QLatin1String("without its secrets")),
             qPrintable(created->notes.join(QLatin1Char(' '))));
    QCOMPARE(NotifyRouteRepository(lacking.store()).list()->size(), 2);

    HG_TEST_STORE(target);
    hook.url = QStringLiteral("https://elsewhere.example.org/hook"); // its own, of that name
    hook.secretKey.clear();
    QVERIFY(NotifyChannelRepository(target.store()).add(hook));
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(target.store()).importDocument(exported);
    QVERIFY2(summary, summary ? "" : qPrintable(summary.error().message));
    QVERIFY(summary->notes.isEmpty());
    const Result<QList<NotifyRoute>> routes = NotifyRouteRepository(target.store()).list();
    QVERIFY(routes);
    QCOMPARE(routes->size(), 2);
    QCOMPARE(NotifyChannelRepository(target.store()).byName(hook.name)->url, hook.url);
}

void TestProjectExchange::projectAndGlobalRoutes_travelWithTheirScope_once()
{
    HG_TEST_STORE(source);
    QVERIFY(ExampleProject::install(source.store()));
    const Project project = ProjectRepository(source.store()).list()->constFirst();
    NotifyChannel desk;
    desk.name = QStringLiteral("desk");
    desk.kind = ChannelKind::Desktop;
    const Result<NotifyChannel> added = NotifyChannelRepository(source.store()).add(desk);
    QVERIFY(added);
    NotifyRoute projectRoute;
    projectRoute.channelId = added->id;
    projectRoute.projectId = project.id;
    projectRoute.events = {NotifyEvent::Failure, NotifyEvent::Missed};
    QVERIFY(NotifyRouteRepository(source.store()).add(projectRoute));
    NotifyRoute globalRoute;
    globalRoute.events = {NotifyEvent::Engine};
    globalRoute.recipients = {QStringLiteral("ops@example.org")};
    QVERIFY(NotifyRouteRepository(source.store()).add(globalRoute));

    // The whole store carries both; one project its own routes, and not the global ones.
    const QByteArray all = exportAll(source.store());
    QVERIFY2(all.contains("\"engine\""), all.constData());
    QVERIFY(all.contains("\"channel\": \"desk\""));
    const Result<QJsonObject> one = ProjectExporter(source.store()).exportProject(project.name);
    QVERIFY(one);
    QVERIFY(!one->contains(QLatin1String("notifications")));
    QCOMPARE(one->value(QLatin1String("projects"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QLatin1String("notifications"))
                 .toArray()
                 .size(),
             1);
    const Result<QJsonObject> chainOnly =
        ProjectExporter(source.store())
            .exportProject(project.name, ChainRepository(source.store()).list()->constFirst().name);
    QVERIFY(chainOnly);
    QVERIFY(!QJsonDocument(chainOnly.value()).toJson().contains("\"desk\""));

    HG_TEST_STORE(target);
    const Result<ProjectImporter::Summary> first =
        ProjectImporter(target.store()).importDocument(all);
    QVERIFY2(first, first ? "" : qPrintable(first.error().message));
    const Result<QList<NotifyRoute>> routes = NotifyRouteRepository(target.store()).list();
    QVERIFY(routes);
    QCOMPARE(routes->size(), 2);
    for (const NotifyRoute &route : routes.value()) {
        QCOMPARE(route.chainId, 0);
        if (route.projectId > 0) {
            QCOMPARE(route.channelName, QStringLiteral("desk"));
            QCOMPARE(route.events, projectRoute.events);
        } else {
            QCOMPARE(route.channelId, 0); // the default e-mail channel
            QCOMPARE(route.recipients, globalRoute.recipients);
        }
    }
    QCOMPARE(exportAll(target.store()), all);
    // Read again without its chains (they are there): the project's and the global routes
    // are there already and not added twice.
    QJsonObject again = QJsonDocument::fromJson(all).object();
    QJsonArray projects = again.value(QLatin1String("projects")).toArray();
    QJsonObject projectObject = projects.at(0).toObject();
    projectObject.insert(QStringLiteral("chains"), QJsonArray());
    projects.replace(0, projectObject);
    again.insert(QStringLiteral("projects"), projects);
    const Result<ProjectImporter::Summary> second =
        ProjectImporter(target.store()).importDocument(QJsonDocument(again).toJson());
    QVERIFY2(second, second ? "" : qPrintable(second.error().message));
    QCOMPARE(NotifyRouteRepository(target.store()).list()->size(), 2);
}

void TestProjectExchange::chainTriggers_travelByPath_andAMissingUpstreamChangesNothing()
{
    HG_TEST_STORE(source);
    // The downstream first: it is imported before its upstream, which comes later.
    const Chain b = test::makeChain(source.store(), QStringLiteral("ops"), QStringLiteral("b"));
    const Chain a = test::makeChain(source.store(), QStringLiteral("ops"), QStringLiteral("z-a"));
    const Chain c = test::makeChain(source.store(), QStringLiteral("etl"), QStringLiteral("c"));
    ChainTrigger trigger;
    trigger.chainId = b.id;
    trigger.upstreams = {{a.id, QStringLiteral("ops/z-a")}, {c.id, QStringLiteral("etl/c")}};
    trigger.on = TriggerOn::Finished;
    trigger.withinMs = 7200000;
    trigger.paused = true;
    QVERIFY(ChainTriggerRepository(source.store()).add(trigger));
    const QByteArray all = exportAll(source.store());
    QVERIFY2(all.contains("\"triggers\""), all.constData());

    HG_TEST_STORE(target);
    const Result<ProjectImporter::Summary> imported =
        ProjectImporter(target.store()).importDocument(all);
    QVERIFY2(imported, imported ? "" : qPrintable(imported.error().message));
    const Result<QList<ChainTrigger>> arrived = ChainTriggerRepository(target.store()).list();
    QVERIFY(arrived);
    QCOMPARE(arrived->size(), 1);
    QCOMPARE(arrived->at(0).path, QStringLiteral("ops/b"));
    QCOMPARE(arrived->at(0).upstreams.size(), 2);
    QCOMPARE(arrived->at(0).on, TriggerOn::Finished);
    QCOMPARE(arrived->at(0).withinMs, qint64(7200000));
    QVERIFY(arrived->at(0).paused);
    QCOMPARE(exportAll(target.store()), all);

    // One project alone names an upstream in another project the new store lacks: refused,
    // naming it, and nothing is written.
    const Result<QJsonObject> ops =
        ProjectExporter(source.store()).exportProject(QStringLiteral("ops"));
    QVERIFY(ops);
    HG_TEST_STORE(lacking);
    const Result<ProjectImporter::Summary> refused =
        ProjectImporter(lacking.store()).importDocument(QJsonDocument(ops.value()).toJson());
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("no chain etl/c")),
             qPrintable(refused.error().message));
    QVERIFY(ProjectRepository(lacking.store()).list()->isEmpty());
}

void TestProjectExchange::fileTriggers_roundTripWithTheirSettings()
{
    HG_TEST_STORE(source);
    const Chain c = test::makeChain(source.store(), QStringLiteral("ops"), QStringLiteral("in"));
    StoreQuery named(source.store(),
                     QStringLiteral("UPDATE chain SET client_name = 'box' WHERE id = ?"));
    named.bind(c.id);
    QVERIFY(named.exec(QStringLiteral("test")));
    ChainTrigger trigger;
    trigger.kind = TriggerKind::File;
    trigger.chainId = c.id;
    trigger.path = QStringLiteral("ops/in");
    trigger.file.glob = QStringLiteral("/srv/in/**/*.csv");
    trigger.file.events = {FileEvent::Created, FileEvent::Deleted};
    trigger.file.settleMs = 500;
    trigger.file.batchMs = 30000;
    trigger.file.maxPerMinute = 5;
    trigger.file.pollMs = 2000;
    trigger.file.misfire = MisfirePolicy::Once;
    trigger.paused = true;
    QVERIFY(ChainTriggerRepository(source.store()).add(trigger));
    // A desktop trigger travels the same way.
    ChainTrigger idle;
    idle.kind = TriggerKind::Desktop;
    idle.chainId = c.id;
    idle.path = QStringLiteral("ops/in");
    idle.desktop.event = DesktopEvent::Idle;
    idle.desktop.idleMs = 600'000;
    QVERIFY(ChainTriggerRepository(source.store()).add(idle));
    const QByteArray all = exportAll(source.store());
    QVERIFY2(all.contains("/srv/in/**/*.csv"), all.constData());
    HG_TEST_STORE(target);
    const Result<ProjectImporter::Summary> imported =
        ProjectImporter(target.store()).importDocument(all);
    QVERIFY2(imported, imported ? "" : qPrintable(imported.error().message));
    const Result<QList<ChainTrigger>> arrived = ChainTriggerRepository(target.store()).list();
    QVERIFY(arrived);
    QCOMPARE(arrived->size(), 2);
    QCOMPARE(arrived->at(0).kind, TriggerKind::File);
    QVERIFY(arrived->at(0).file == trigger.file);
    QVERIFY(arrived->at(0).paused);
    QCOMPARE(arrived->at(1).kind, TriggerKind::Desktop);
    QVERIFY(arrived->at(1).desktop == idle.desktop);
    QVERIFY(!arrived->at(1).paused);
    QCOMPARE(exportAll(target.store()), all);

    // An event this Hourglass does not know is refused, naming it; nothing is imported.
    QByteArray unknown = all;
    unknown.replace("\"idle\"", "\"lid-closed\"");
    HG_TEST_STORE(refused);
    const Result<ProjectImporter::Summary> wrong =
        ProjectImporter(refused.store()).importDocument(unknown);
    QVERIFY(!wrong);
    QVERIFY2(wrong.error().message.contains(QLatin1String("event: one of unlock")),
             qPrintable(wrong.error().message));
    QCOMPARE(ChainTriggerRepository(refused.store()).list().value().size(), 0);
}

void TestProjectExchange::dstRule_roundTrips()
{
    // The first schedule (a unix one; cronie's rule is refused on a seconds field).
    QByteArray document = ExampleProject::document();
    document.insert(document.indexOf("\"kind\": \"cron\", \"misfire\""), "\"dst\": \"cronie\", ");
    HG_TEST_STORE(t);
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(t.store()).importDocument(document);
    QVERIFY2(summary, summary ? "" : qPrintable(summary.error().message));
    const QByteArray exported = exportAll(t.store());
    QCOMPARE(exported.count("\"dst\": \"cronie\""), document.count("\"dst\": \"cronie\""));
    QCOMPARE(exported.count("\"dst\""),
             exported.count("\"dst\": \"cronie\"")); // defaults unwritten
}

void TestProjectExchange::import_badDocumentChangesNothing()
{
    QFETCH(QByteArray, document);
    QFETCH(QString, problem);
    HG_TEST_STORE(t);
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("existing")));
    const QByteArray before = exportAll(t.store());
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(t.store()).importDocument(document);
    QVERIFY(!summary);
    QVERIFY2(summary.error().message.contains(problem), qPrintable(summary.error().message));
    QVERIFY(summary.error().isUserError());
    QCOMPARE(exportAll(t.store()), before);
}

void TestProjectExchange::import_intoExistingProjectAddsChains()
{
    HG_TEST_STORE(t);
    QVERIFY(ProjectRepository(t.store()).add(QStringLiteral("Examples")));
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(t.store()).importDocument(ExampleProject::document());
    QVERIFY(summary);
    QCOMPARE(summary->projects, 0);
    QCOMPARE(summary->chains, 3);
    // A second import collides on the chains and changes nothing.
    const Result<ProjectImporter::Summary> again =
        ProjectImporter(t.store()).importDocument(ExampleProject::document());
    QCOMPARE(again.error().kind, ErrorKind::AlreadyExists);
}

void TestProjectExchange::calendar_travelsWithTheSchedulesThatUseIt()
{
    HG_TEST_STORE(source);
    QVERIFY(ExampleProject::install(source.store()));
    Calendar holidays;
    holidays.name = QStringLiteral("holidays");
    holidays.weekdays = 1u << Qt::Sunday;
    holidays.ranges = {{QDate(2026, 12, 24), QDate(2026, 12, 26), QStringLiteral("Christmas")}};
    const qint64 calendarId = CalendarRepository(source.store()).add(holidays)->id;
    Calendar unused = holidays;
    unused.name = QStringLiteral("unused");
    QVERIFY(CalendarRepository(source.store()).add(unused));
    Schedule schedule = ScheduleRepository(source.store()).list()->constFirst();
    schedule.calendarId = calendarId;
    schedule.calendarMode = CalendarMode::Only;
    QVERIFY(ScheduleRepository(source.store()).update(schedule));
    const QByteArray first = exportAll(source.store());
    QVERIFY(first.contains("\"calendar\": \"holidays\""));
    QVERIFY(!first.contains("unused")); // only the calendars the exported schedules use

    HG_TEST_STORE(target);
    const Result<ProjectImporter::Summary> summary =
        ProjectImporter(target.store()).importDocument(first);
    QVERIFY2(summary, summary ? "" : qPrintable(summary.error().message));
    const Result<Calendar> imported = CalendarRepository(target.store()).byName(holidays.name);
    QVERIFY(imported);
    QCOMPARE(imported->weekdays, holidays.weekdays);
    QCOMPARE(imported->ranges.size(), 1);
    QCOMPARE(imported->ranges.at(0).summary, QStringLiteral("Christmas"));
    QCOMPARE(exportAll(target.store()), first);
    // A schedule naming a calendar the document does not carry is refused, nothing written.
    QByteArray orphan = first;
    orphan.replace("\"name\": \"holidays\"", "\"name\": \"other\"");
    HG_TEST_STORE(third);
    const Result<ProjectImporter::Summary> refused =
        ProjectImporter(third.store()).importDocument(orphan);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("no calendar named 'holidays'")),
             qPrintable(refused.error().message));
    QCOMPARE(CalendarRepository(third.store()).list()->size(), 0);
}

QTEST_GUILESS_MAIN(TestProjectExchange)
#include "tst_projectexchange.moc"
