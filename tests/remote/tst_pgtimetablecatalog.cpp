#include "domain/connectionurl.h"
#include "pgtimetableschema.h"
#include "remote/pgtimetablecatalog.h"
#include "remote/pgtimetableconverter.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "store/projectexporter.h"
#include "store/projectimporter.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace hg;

// The pg_timetable console against the real PostgreSQL of scripts/test, on pg_timetable's own
// schema (5.x and 6.x, tests/support/pgtimetable) with jobs made through timetable.add_job
// and history written the way its worker writes it.
class TestPgTimetableCatalog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();
    void open_readsTheVersionAndTheServersZone_data() { versions(); }
    void open_readsTheVersionAndTheServersZone();
    void addJob_listsTheChainWithItsTaskAndParameters_data() { versions(); }
    void addJob_listsTheChainWithItsTaskAndParameters();
    void save_writesTasksInOneTransaction_data() { versions(); }
    void save_writesTasksInOneTransaction();
    void save_badScheduleOrTaskChangesNothing_data() { versions(); }
    void save_badScheduleOrTaskChangesNothing();
    void liveAndDelete_goThroughTheChainName_data() { versions(); }
    void liveAndDelete_goThroughTheChainName();
    void start_notifiesTheWorker_data() { versions(); }
    void start_notifiesTheWorker();
    void sessions_showWorkersAndTheirChains_data() { versions(); }
    void sessions_showWorkersAndTheirChains();
    void executions_pageByKeysetAndFilter_data() { versions(); }
    void executions_pageByKeysetAndFilter();
    void newerSchema_isReadOnly();
    void noSchema_saysSo();
    void importExport_roundTripsALinearChain();

private:
    void versions();
    QSqlDatabase &admin() { return m_admin; }
    // A fresh database holding pg_timetable `major`; the catalog opens on it.
    void makeDatabase(int major);
    Result<PgTimetableCatalog> openCatalog();

    QSqlDatabase m_admin;
    QSqlDatabase m_db; // the test's own connection to the pg_timetable database
    QString m_database;
    ConnectionProfile m_profile;
    std::unique_ptr<RemoteDatabase> m_remote;
    int m_serial = 0;
    int m_major = 6;
};

void TestPgTimetableCatalog::versions()
{
    QTest::addColumn<int>("major");
    QTest::newRow("5.x") << 5;
    QTest::newRow("6.x") << 6;
}

void TestPgTimetableCatalog::initTestCase()
{
    const QUrl url = test::postgresUrl();
    HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    m_admin = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
    m_admin.setHostName(url.host());
    m_admin.setPort(url.port(5432));
    m_admin.setUserName(url.userName());
    m_admin.setDatabaseName(url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
}

void TestPgTimetableCatalog::init()
{
    int major = 6;
    if (QTest::currentDataTag())
        major = QString::fromLatin1(QTest::currentDataTag()).left(1).toInt();
    makeDatabase(major);
}

void TestPgTimetableCatalog::makeDatabase(int major)
{
    m_major = major;
    m_database =
        QStringLiteral("hg_tt_%1_%2").arg(QCoreApplication::applicationPid()).arg(++m_serial);
    QSqlQuery q(m_admin);
    QVERIFY2(q.exec(QStringLiteral("CREATE DATABASE %1").arg(m_database)),
             qPrintable(q.lastError().text()));
    const QUrl url = test::postgresUrl();
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("tt"));
    m_db.setHostName(url.host());
    m_db.setPort(url.port(5432));
    m_db.setUserName(url.userName());
    m_db.setDatabaseName(m_database);
    QVERIFY2(m_db.open(), qPrintable(m_db.lastError().text()));
    const Status created = PgTimetableSchema::create(m_db, major);
    QVERIFY2(created, qPrintable(created ? QString() : created.error().message));
    QUrl remoteUrl = url;
    remoteUrl.setPath(QLatin1Char('/') + m_database);
    m_profile = ConnectionUrl::parse(QStringLiteral("tt"), ConnectionKind::PgTimetable,
                                     remoteUrl.toString())
                    .value();
    auto remote = RemoteDatabase::open(m_profile, {});
    QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message));
    m_remote = std::move(remote.value());
}

Result<PgTimetableCatalog> TestPgTimetableCatalog::openCatalog()
{
    return PgTimetableCatalog::open(*m_remote);
}

void TestPgTimetableCatalog::cleanup()
{
    m_remote.reset();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("tt"));
    if (!m_database.isEmpty()) {
        QSqlQuery q(m_admin);
        q.exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    }
}

void TestPgTimetableCatalog::cleanupTestCase()
{
    m_admin.close();
}

void TestPgTimetableCatalog::open_readsTheVersionAndTheServersZone()
{
    QFETCH(int, major);
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY2(catalog, qPrintable(catalog ? QString() : catalog.error().message));
    QCOMPARE(catalog->info().major, major);
    QVERIFY(!catalog->info().readOnly);
    QVERIFY(catalog->info().version.contains(major == 5 ? QLatin1String("00629")
                                                        : QLatin1String("00733")));
    QVERIFY(!catalog->info().timeZone.isEmpty());
    const Result<RemoteInfo> tested = RemoteProbe::inspect(*m_remote);
    QVERIFY(tested);
    QCOMPARE(tested->system, QStringLiteral("pg_timetable"));
}

void TestPgTimetableCatalog::addJob_listsTheChainWithItsTaskAndParameters()
{
    QSqlQuery q(m_db);
    QVERIFY2(q.exec(QStringLiteral("SELECT timetable.add_job('vacuum', '30 2 * * *', 'VACUUM "
                                   "ANALYZE', job_client_name => 'worker-1', job_max_instances "
                                   "=> 1)")),
             qPrintable(q.lastError().text()));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(catalog);
    PgtChain settings;
    settings.name = QStringLiteral("sleepy");
    settings.runAt = QStringLiteral("@every 10 minutes");
    settings.live = true;
    PgtTask task;
    task.kind = QStringLiteral("BUILTIN");
    task.command = QStringLiteral("Sleep");
    task.parameters << QStringLiteral("5");
    task.ignoreError = true;
    const Result<qint64> added = catalog->addJob(settings, task);
    QVERIFY2(added, qPrintable(added ? QString() : added.error().message));

    const Result<QList<PgtChain>> chains = catalog->chains();
    QVERIFY(chains);
    QCOMPARE(chains->size(), 2);
    QCOMPARE(chains->at(1).name, QStringLiteral("vacuum"));
    QCOMPARE(chains->at(1).runAt, QStringLiteral("30 2 * * *"));
    QCOMPARE(chains->at(1).maxInstances, std::optional<int>(1));
    QCOMPARE(chains->at(1).clientName, QStringLiteral("worker-1"));
    QVERIFY(chains->at(1).live);

    const Result<PgtChain> sleepy = catalog->chain(QStringLiteral("sleepy"));
    QVERIFY(sleepy);
    QCOMPARE(sleepy->id, added.value());
    QCOMPARE(sleepy->tasks.size(), 1);
    QCOMPARE(sleepy->tasks.at(0).kind, QStringLiteral("BUILTIN"));
    QCOMPARE(sleepy->tasks.at(0).parameters, QStringList{QStringLiteral("5")});
    QVERIFY(sleepy->tasks.at(0).autonomous); // add_job's own choice
    // A schedule pg_timetable's domain refuses is refused before it gets there, by field.
    settings.name = QStringLiteral("bad");
    settings.runAt = QStringLiteral("61 * * * *");
    const Result<qint64> bad = catalog->addJob(settings, task);
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.contains(QLatin1String("minute")),
             qPrintable(bad.error().message));
}

void TestPgTimetableCatalog::save_writesTasksInOneTransaction()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('etl', '0 * * * *', 'SELECT 1')")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(catalog);
    PgtChain chain = catalog->chain(QStringLiteral("etl")).value();
    chain.runAt = QStringLiteral("15 * * * 1-5");
    chain.maxInstances = 2;
    chain.tasks[0].command = QStringLiteral("SELECT $1::int + 1");
    chain.tasks[0].parameters = {QStringLiteral("[41]")};
    PgtTask load;
    load.order = 20;
    load.name = QStringLiteral("load");
    load.kind = QStringLiteral("PROGRAM");
    load.command = QStringLiteral("/bin/echo");
    load.parameters = {QStringLiteral("[\"a\"]"), QStringLiteral("[\"b\"]")};
    load.timeoutMs = 5000;
    chain.tasks << load;
    const Status saved = catalog->save(chain);
    QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().message));

    QVERIFY(q.exec(QStringLiteral("SELECT t.task_order, t.kind, t.command, t.timeout, "
                                  "(SELECT string_agg(p.value::text, '|' ORDER BY p.order_id) "
                                  "FROM timetable.parameter p WHERE p.task_id = t.task_id) "
                                  "FROM timetable.task t ORDER BY t.task_order")));
    QVERIFY(q.next());
    QCOMPARE(q.value(2).toString(), QStringLiteral("SELECT $1::int + 1"));
    QCOMPARE(q.value(4).toString(), QStringLiteral("[41]"));
    QVERIFY(q.next());
    QCOMPARE(q.value(1).toString(), QStringLiteral("PROGRAM"));
    QCOMPARE(q.value(3).toInt(), 5000);
    QCOMPARE(q.value(4).toString(), QStringLiteral("[\"a\"]|[\"b\"]"));
    QVERIFY(!q.next());
    QVERIFY(q.exec(QStringLiteral("SELECT run_at, max_instances FROM timetable.chain")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("15 * * * 1-5"));
    QCOMPARE(q.value(1).toInt(), 2);

    // Dropping the first task deletes its row and its parameters.
    chain = catalog->chain(QStringLiteral("etl")).value();
    chain.tasks.removeFirst();
    QVERIFY(catalog->save(chain));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM timetable.task")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM timetable.parameter")) && q.next());
    QCOMPARE(q.value(0).toInt(), 2);
}

void TestPgTimetableCatalog::save_badScheduleOrTaskChangesNothing()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('etl', '0 * * * *', 'SELECT 1')")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(catalog);
    const PgtChain original = catalog->chain(QStringLiteral("etl")).value();

    PgtChain badSchedule = original;
    badSchedule.runAt = QStringLiteral("0 24 * * *");
    badSchedule.tasks[0].command = QStringLiteral("SELECT 2");
    const Status refused = catalog->save(badSchedule);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, QStringLiteral("hour"));

    // A failure inside the transaction (the second task's parameter is not JSON for the
    // server's cast) rolls back what came before it.
    PgtChain badTask = original;
    badTask.tasks[0].command = QStringLiteral("SELECT 3");
    PgtTask second;
    second.order = 20;
    second.command = QStringLiteral("SELECT 4");
    second.kind = QStringLiteral("NOT_A_KIND");
    badTask.tasks << second;
    QVERIFY(!catalog->save(badTask));
    // The server refuses what our checks let through: a chain name another chain has.
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('other', '0 * * * *', 'SELECT 1')")));
    PgtChain clash = original;
    clash.tasks[0].command = QStringLiteral("SELECT 5");
    clash.name = QStringLiteral("other");
    const Status duplicate = catalog->save(clash);
    QVERIFY(!duplicate);
    QVERIFY2(duplicate.error().message.contains(QLatin1String("remote 'tt'")),
             qPrintable(duplicate.error().message));

    QVERIFY(q.exec(QStringLiteral("SELECT command FROM timetable.task t JOIN timetable.chain c "
                                  "USING (chain_id) WHERE chain_name = 'etl'")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("SELECT 1"));
    QVERIFY(!q.next());
}

void TestPgTimetableCatalog::liveAndDelete_goThroughTheChainName()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('etl', '0 * * * *', 'SELECT 1')")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(catalog->setLive(QStringLiteral("etl"), false));
    QVERIFY(!catalog->chain(QStringLiteral("etl"))->live);
    QVERIFY(catalog->setLive(QStringLiteral("etl"), true));
    QVERIFY(catalog->chain(QStringLiteral("etl"))->live);
    QCOMPARE(catalog->setLive(QStringLiteral("nope"), true).error().kind, ErrorKind::NotFound);
    QVERIFY(catalog->deleteJob(QStringLiteral("etl")));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM timetable.task")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    const Status again = catalog->deleteJob(QStringLiteral("etl"));
    QCOMPARE(again.error().kind, ErrorKind::NotFound);
}

void TestPgTimetableCatalog::start_notifiesTheWorker()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('etl', '0 * * * *', 'SELECT 1')")));
    QVERIFY(q.next());
    const qint64 chainId = q.value(0).toLongLong();
    // The worker listens on a channel named after itself.
    QStringList payloads;
    QVERIFY(m_db.driver()->subscribeToNotification(QStringLiteral("worker-7")));
    connect(m_db.driver(), &QSqlDriver::notification, this,
            [&payloads](const QString &, QSqlDriver::NotificationSource, const QVariant &payload) {
                payloads << payload.toString();
            });
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(catalog->start(QStringLiteral("etl"), QStringLiteral("worker-7")));
    QTRY_COMPARE(payloads.size(), 1);
    const QJsonObject start = QJsonDocument::fromJson(payloads.at(0).toUtf8()).object();
    QCOMPARE(start.value(QStringLiteral("ConfigID")).toInteger(), chainId);
    QCOMPARE(start.value(QStringLiteral("Command")).toString(), QStringLiteral("START"));
    QVERIFY(catalog->stop(QStringLiteral("etl"), QStringLiteral("worker-7")));
    QTRY_COMPARE(payloads.size(), 2);
    QVERIFY(payloads.at(1).contains(QLatin1String("\"STOP\"")));
    QCOMPARE(catalog->start(QStringLiteral("etl"), {}).error().kind, ErrorKind::Invalid);
    QCOMPARE(catalog->start(QStringLiteral("nope"), QStringLiteral("w")).error().kind,
             ErrorKind::NotFound);
    m_db.driver()->unsubscribeFromNotification(QStringLiteral("worker-7"));
}

void TestPgTimetableCatalog::sessions_showWorkersAndTheirChains()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('etl', '0 * * * *', 'SELECT 1')")));
    QVERIFY(q.next());
    QVERIFY(PgTimetableSchema::registerSession(m_db, 4242, QStringLiteral("worker-1")));
    QVERIFY(PgTimetableSchema::markChainRunning(m_db, q.value(0).toLongLong(),
                                                QStringLiteral("worker-1")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    const Result<QList<PgtSession>> sessions = catalog->sessions();
    QVERIFY(sessions);
    QCOMPARE(sessions->size(), 1);
    QCOMPARE(sessions->at(0).clientName, QStringLiteral("worker-1"));
    QCOMPARE(sessions->at(0).clientPid, 4242);
    QCOMPARE(sessions->at(0).activeChains, QStringList{QStringLiteral("etl")});
}

void TestPgTimetableCatalog::executions_pageByKeysetAndFilter()
{
    QFETCH(int, major);
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('a', '0 * * * *', 'SELECT 1'), "
                                  "timetable.add_job('b', '0 * * * *', 'SELECT 2')")));
    QVERIFY(q.next());
    const qint64 a = q.value(0).toLongLong();
    const qint64 b = q.value(1).toLongLong();
    for (int i = 0; i < 250; ++i) {
        PgTimetableSchema::Execution e;
        e.chainId = i % 2 ? b : a;
        e.taskId = e.chainId;
        e.txid = 1000 + i;
        e.returnCode = i % 10 == 0 ? 1 : 0;
        e.output = QStringLiteral("row %1").arg(i);
        e.params = QStringLiteral("[%1]").arg(i);
        QVERIFY(PgTimetableSchema::recordExecution(m_db, e, major));
    }
    const Result<PgTimetableCatalog> catalog = openCatalog();
    PgtExecutionFilter filter;
    filter.limit = 200;
    const Result<QList<PgtExecution>> first = catalog->executions(filter);
    QVERIFY2(first, qPrintable(first ? QString() : first.error().message));
    QCOMPARE(first->size(), 200);
    QCOMPARE(first->at(0).txid, 1249); // newest first
    QCOMPARE(first->at(0).params, major == 6 ? QStringLiteral("[249]") : QString());
    filter.before = PgtExecutionKey::after(first->last());
    const Result<QList<PgtExecution>> second = catalog->executions(filter);
    QCOMPARE(second->size(), 50);
    QCOMPARE(second->at(0).txid, first->last().txid - 1);
    QCOMPARE(second->last().txid, 1000);

    filter = {};
    filter.failedOnly = true;
    const Result<QList<PgtExecution>> failed = catalog->executions(filter);
    QCOMPARE(failed->size(), 25);
    QVERIFY(std::all_of(failed->cbegin(), failed->cend(),
                        [](const PgtExecution &e) { return e.failed(); }));
    filter = {};
    filter.chainName = QStringLiteral("b");
    const Result<QList<PgtExecution>> onlyB = catalog->executions(filter);
    QCOMPARE(onlyB->size(), 125);
    QCOMPARE(onlyB->at(0).chainName, QStringLiteral("b"));
    filter = {};
    filter.since = QDateTime::currentDateTimeUtc().addSecs(60);
    QCOMPARE(catalog->executions(filter)->size(), 0);
}

void TestPgTimetableCatalog::newerSchema_isReadOnly()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("INSERT INTO timetable.migration VALUES "
                                  "(16, '00792 Add ability to enable and disable tasks')")));
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('etl', '0 * * * *', 'SELECT 1')")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(catalog);
    QVERIFY(catalog->info().readOnly);
    QVERIFY(catalog->info().warning.contains(QLatin1String("newer than 6.x")));
    QVERIFY(catalog->chains()); // reading still works
    const Status refused = catalog->setLive(QStringLiteral("etl"), false);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.contains(QLatin1String("read only")));
    QVERIFY(!catalog->deleteJob(QStringLiteral("etl")));
    QVERIFY(catalog->chain(QStringLiteral("etl"))->live);
}

void TestPgTimetableCatalog::noSchema_saysSo()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("DROP SCHEMA timetable CASCADE")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    QVERIFY(!catalog);
    QCOMPARE(catalog.error().kind, ErrorKind::NotFound);
    QVERIFY2(catalog.error().message.contains(QLatin1String("no pg_timetable schema")),
             qPrintable(catalog.error().message));
}

void TestPgTimetableCatalog::importExport_roundTripsALinearChain()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_job('report', '30 7 * * 1-5', "
                                  "'SELECT $1', '[\"x\"]'::jsonb, job_ignore_errors => false)")));
    QVERIFY(q.next());
    QVERIFY(q.exec(QStringLiteral("SELECT timetable.add_task('PROGRAM', '/bin/true', task_id) "
                                  "FROM timetable.task")));
    const Result<PgTimetableCatalog> catalog = openCatalog();
    const PgtChain chain = catalog->chain(QStringLiteral("report")).value();
    QCOMPARE(chain.tasks.size(), 2);

    HG_TEST_STORE(local);
    const Result<QJsonObject> document = PgTimetableConverter::toDocument(
        chain, QStringLiteral("ops"), QStringLiteral("tt"), catalog->info().timeZone);
    QVERIFY(document);
    // The SQL task runs on the remote's database: its profile must exist locally.
    QJsonObject withProfile = document.value();
    withProfile.insert(
        QStringLiteral("connections"),
        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("tt")},
                               {QStringLiteral("kind"), QStringLiteral("pgtimetable")}}});
    const auto imported =
        ProjectImporter(local.store()).importDocument(QJsonDocument(withProfile).toJson());
    QVERIFY2(imported, qPrintable(imported ? QString() : imported.error().message));
    QCOMPARE(imported->tasks, 2);

    const Result<QJsonObject> exported =
        ProjectExporter(local.store())
            .exportProject(QStringLiteral("ops"), QStringLiteral("report"));
    QVERIFY(exported);
    QJsonObject chainObject = ProjectExporter::firstChain(*exported);
    chainObject.insert(QStringLiteral("name"), QStringLiteral("report-copy"));
    const Result<PgtChain> back = PgTimetableConverter::fromChainObject(chainObject);
    QVERIFY2(back, qPrintable(back ? QString() : back.error().message));
    QVERIFY(catalog->create(back.value()));
    const PgtChain copy = catalog->chain(QStringLiteral("report-copy")).value();
    QCOMPARE(copy.runAt, chain.runAt);
    QCOMPARE(copy.tasks.size(), 2);
    QCOMPARE(copy.tasks.at(0).command, QStringLiteral("SELECT $1"));
    QCOMPARE(copy.tasks.at(0).parameters, QStringList{QStringLiteral("[\"x\"]")});
    QCOMPARE(copy.tasks.at(1).kind, QStringLiteral("PROGRAM"));
    QCOMPARE(copy.tasks.at(1).command, QStringLiteral("/bin/true"));

    // Exported again under a name the remote has: refused, naming it, and nothing written.
    const Result<qint64> again = catalog->create(back.value());
    QVERIFY(!again);
    QCOMPARE(again.error().kind, ErrorKind::AlreadyExists);
    QVERIFY2(again.error().message.contains(QLatin1String("a chain named 'report-copy' already")),
             qPrintable(again.error().message));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM timetable.task")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 4);
}

QTEST_GUILESS_MAIN(TestPgTimetableCatalog)
#include "tst_pgtimetablecatalog.moc"
