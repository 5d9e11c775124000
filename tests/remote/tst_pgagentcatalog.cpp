#include "domain/connectionurl.h"
#include "remote/pgagentcalendar.h"
#include "remote/pgagentcatalog.h"
#include "remote/pgagentconverter.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "store/chainrepository.h"
#include "store/connectionprofilerepository.h"
#include "store/dependencyrepository.h"
#include "store/projectimporter.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonDocument>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// The pgAgent console on pgAgent's own schema — CREATE EXTENSION pgagent from Debian's package,
// in the PostgreSQL of scripts/test — and the real pgagent daemon running a job it started.
class TestPgAgentCatalog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void open_readsTheSchemaVersionAndZone();
    void noSchema_saysHowToMakeIt();
    void job_stepsInTheAgentsOrderSchedulesWithExceptions();
    void next_agreesWithPgaNextSchedule_data();
    void next_agreesWithPgaNextSchedule();
    void enableDisable_theTriggerKeepsTheNextRun();
    void runNow_theRealAgentRunsItAndItsHistoryReadsBack();
    void import_becomesALocalChain();
    void commandLine_listsShowsStartsEnablesRunsAndImports();

private:
    QSqlDatabase connect(const QString &name, const QString &database);
    qint64 addJob(const QString &name);
    qint64 addSchedule(qint64 job, const QString &columns, const QString &values);

    QSqlDatabase m_admin;
    QSqlDatabase m_db;
    QString m_database;
    ConnectionProfile m_profile;
    std::unique_ptr<RemoteDatabase> m_remote;
    std::optional<PgAgentCatalog> m_catalog;
};

QSqlDatabase TestPgAgentCatalog::connect(const QString &name, const QString &database)
{
    const QUrl url = test::postgresUrl();
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    db.setHostName(url.host());
    db.setPort(url.port(5432));
    db.setUserName(url.userName());
    db.setDatabaseName(database);
    return db;
}

void TestPgAgentCatalog::initTestCase()
{
    const QUrl url = test::postgresUrl();
    HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    m_admin = connect(QStringLiteral("admin"), url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
    QSqlQuery q(m_admin);
    QVERIFY(q.exec(
        QStringLiteral("SELECT count(*) FROM pg_available_extensions WHERE name = 'pgagent'")));
    QVERIFY(q.next());
    if (q.value(0).toInt() == 0) {
        if (test::requireServers())
            QFAIL("the pgagent extension is not installed (Debian package pgagent)");
        QSKIP("the pgagent extension is not installed (Debian package pgagent)");
    }
    m_database = QStringLiteral("hg_pga_%1").arg(QCoreApplication::applicationPid());
    QVERIFY2(q.exec(QStringLiteral("CREATE DATABASE %1").arg(m_database)),
             qPrintable(q.lastError().text()));
    m_db = connect(QStringLiteral("pga"), m_database);
    QVERIFY2(m_db.open(), qPrintable(m_db.lastError().text()));
    QVERIFY2(QSqlQuery(m_db).exec(QStringLiteral("CREATE EXTENSION pgagent")),
             qPrintable(m_db.lastError().text()));
    QUrl remoteUrl = url;
    remoteUrl.setPath(QLatin1Char('/') + m_database);
    m_profile =
        ConnectionUrl::parse(QStringLiteral("pga"), ConnectionKind::PgAgent, remoteUrl.toString())
            .value();
    auto remote = RemoteDatabase::open(m_profile, {});
    QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message));
    m_remote = std::move(remote.value());
    Result<PgAgentCatalog> catalog = PgAgentCatalog::open(*m_remote);
    QVERIFY2(catalog, qPrintable(catalog ? QString() : catalog.error().message));
    m_catalog.emplace(catalog.value());
}

void TestPgAgentCatalog::init()
{
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("DELETE FROM pgagent.pga_job")));
}

void TestPgAgentCatalog::cleanupTestCase()
{
    m_catalog.reset();
    m_remote.reset();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("pga"));
    if (!m_database.isEmpty())
        QSqlQuery(m_admin).exec(
            QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
}

qint64 TestPgAgentCatalog::addJob(const QString &name)
{
    // As pgAdmin's job dialog writes it.
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "INSERT INTO pgagent.pga_job (jobjclid, jobname, jobdesc, jobhostagent, jobenabled) "
        "SELECT jclid, ?, 'made by the test', '', true FROM pgagent.pga_jobclass "
        "WHERE jclname = 'Routine Maintenance' RETURNING jobid"));
    q.addBindValue(name);
    if (!q.exec() || !q.next())
        qWarning() << q.lastError().text();
    return q.value(0).toLongLong();
}

qint64 TestPgAgentCatalog::addSchedule(qint64 job, const QString &columns, const QString &values)
{
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("INSERT INTO pgagent.pga_schedule (jscjobid, jscname%1) VALUES "
                               "(%2, 's%2'%3) RETURNING jscid")
                    .arg(columns.isEmpty() ? QString() : QStringLiteral(", ") + columns)
                    .arg(job)
                    .arg(values.isEmpty() ? QString() : QStringLiteral(", ") + values))
        || !q.next())
        qWarning() << q.lastError().text();
    return q.value(0).toLongLong();
}

void TestPgAgentCatalog::open_readsTheSchemaVersionAndZone()
{
    QCOMPARE(m_catalog->schemaVersion(), 4);
    QVERIFY(m_catalog->serverZone().isValid());
    const Result<RemoteInfo> info = RemoteProbe::inspect(*m_remote);
    QVERIFY(info);
    QCOMPARE(info->version, QStringLiteral("schema 4"));
    QCOMPARE(info->major, 4);
    QVERIFY(!info->readOnly);
}

void TestPgAgentCatalog::noSchema_saysHowToMakeIt()
{
    QUrl url = test::postgresUrl();
    const ConnectionProfile plain =
        ConnectionUrl::parse(QStringLiteral("plain"), ConnectionKind::PgAgent, url.toString())
            .value();
    auto remote = RemoteDatabase::open(plain, {});
    QVERIFY(remote);
    const Result<PgAgentCatalog> catalog = PgAgentCatalog::open(*remote.value());
    QVERIFY(!catalog);
    QVERIFY2(catalog.error().message.contains(QStringLiteral("CREATE EXTENSION pgagent")),
             qPrintable(catalog.error().message));
}

void TestPgAgentCatalog::job_stepsInTheAgentsOrderSchedulesWithExceptions()
{
    const qint64 job = addJob(QStringLiteral("nightly"));
    QSqlQuery q(m_db);
    QVERIFY2(
        q.exec(
            QStringLiteral(
                "INSERT INTO pgagent.pga_jobstep (jstjobid, jstname, jstkind, jstcode, jstdbname, "
                "jstconnstr, jstonerror, jstenabled) VALUES "
                "(%1, 'b second', 'b', 'echo two', '', '', 'i', true), "
                "(%1, 'a first', 's', 'SELECT 1', current_database(), '', 'f', true), "
                "(%1, 'c third', 's', 'SELECT 3', '', 'host=elsewhere dbname=x', 's', false)")
                .arg(job)),
        qPrintable(q.lastError().text()));
    const qint64 schedule = addSchedule(
        job, QStringLiteral("jscminutes, jschours"),
        QStringLiteral("(SELECT array_agg(i = 15) FROM generate_series(0,59) i), "
                       "(SELECT array_agg(i IN (1, 13)) FROM generate_series(0,23) i)"));
    QVERIFY(q.exec(QStringLiteral("INSERT INTO pgagent.pga_exception (jexscid, jexdate, jextime) "
                                  "VALUES (%1, '2030-01-01', NULL), (%1, NULL, '13:15')")
                       .arg(schedule)));

    const Result<PgAgentJob> read = m_catalog->job(QStringLiteral("nightly"));
    QVERIFY2(read, qPrintable(read ? QString() : read.error().message));
    QCOMPARE(read->jobClass, QStringLiteral("Routine Maintenance"));
    QCOMPARE(read->steps.size(), 3);
    QCOMPARE(read->steps.at(0).name, QStringLiteral("a first"));
    QCOMPARE(read->steps.at(0).kind, QLatin1Char('s'));
    QCOMPARE(read->steps.at(0).database, m_database);
    QCOMPARE(read->steps.at(1).onError, QLatin1Char('i'));
    QCOMPARE(read->steps.at(2).connection, QStringLiteral("host=elsewhere dbname=x"));
    QCOMPARE(read->steps.at(2).enabled, false);
    QCOMPARE(read->schedules.size(), 1);
    QVERIFY(read->schedules.at(0).minutes.at(15));
    QVERIFY(!read->schedules.at(0).minutes.at(14));
    QVERIFY(read->schedules.at(0).hours.at(13));
    QCOMPARE(read->schedules.at(0).exceptions.size(), 2);
    QCOMPARE(read->schedules.at(0).exceptions.at(0).date, QDate(2030, 1, 1));
    QCOMPARE(read->schedules.at(0).exceptions.at(1).time, QTime(13, 15));
    // By id too, and an unknown job is named.
    QVERIFY(m_catalog->job(QString::number(job)));
    QVERIFY(
        m_catalog->job(QStringLiteral("nope")).error().message.contains(QStringLiteral("'nope'")));
    // The exceptions: never on 2030-01-01, never at 13:15; so only 01:15 on other days.
    const QList<QDateTime> fires = PgAgentCalendar::next(
        read->schedules.at(0), QDateTime(QDate(2029, 12, 31), QTime(12, 0), QTimeZone::utc()),
        QTimeZone::utc(), 2);
    QCOMPARE(fires,
             (QList<QDateTime>{QDateTime(QDate(2030, 1, 2), QTime(1, 15), QTimeZone::utc()),
                               QDateTime(QDate(2030, 1, 3), QTime(1, 15), QTimeZone::utc())}));
}

void TestPgAgentCatalog::next_agreesWithPgaNextSchedule_data()
{
    QTest::addColumn<QString>("columns");
    QTest::addColumn<QString>("values");
    const QString minute30 =
        QStringLiteral("(SELECT array_agg(i = 30) FROM generate_series(0,59) i)");
    const QString hour2 = QStringLiteral("(SELECT array_agg(i = 2) FROM generate_series(0,23) i)");
    const QString at0230 = minute30 + QStringLiteral(", ") + hour2;
    const auto days = [](int day) {
        return QStringLiteral("(SELECT array_agg(i = %1) FROM generate_series(1,32) i)").arg(day);
    };
    QTest::newRow("every minute") << QString() << QString();
    QTest::newRow("weekday nights") << QStringLiteral("jscminutes, jschours, jscweekdays")
                                    << at0230 + QStringLiteral(", '{f,t,t,t,t,t,f}'");
    QTest::newRow("last day only") << QStringLiteral("jscminutes, jschours, jscmonthdays")
                                   << at0230 + QStringLiteral(", ") + days(32);
    QTest::newRow("day 13 and friday")
        << QStringLiteral("jscminutes, jschours, jscweekdays, jscmonthdays")
        << at0230 + QStringLiteral(", '{f,f,f,f,f,t,f}', ") + days(13);
    QTest::newRow("some months, every 15 min")
        << QStringLiteral("jscminutes, jscmonths")
        << QStringLiteral("(SELECT array_agg(i %1 15 = 0) FROM generate_series(0,59) i), "
                          "'{f,t,f,f,f,t,f,f,f,f,f,t}'")
               .arg(QLatin1Char('%'));
    QTest::newRow("starts later") << QStringLiteral("jscstart, jscminutes, jschours")
                                  << QStringLiteral("now() + interval '40 days', ") + at0230;
}

// pga_next_schedule() is pgAgent's own calculation: the first fire after the server's now()
// must be ours too.
void TestPgAgentCatalog::next_agreesWithPgaNextSchedule()
{
    QFETCH(QString, columns);
    QFETCH(QString, values);
    const qint64 job = addJob(QStringLiteral("timing"));
    const qint64 id = addSchedule(job, columns, values);
    QVERIFY(id > 0);
    QSqlQuery q(m_db);
    QVERIFY2(
        q.exec(QStringLiteral(
                   "SELECT now(), pgagent.pga_next_schedule(jscid, jscstart, jscend, jscminutes, "
                   "jschours, jscweekdays, jscmonthdays, jscmonths) FROM pgagent.pga_schedule "
                   "WHERE jscid = %1")
                   .arg(id)),
        qPrintable(q.lastError().text()));
    QVERIFY(q.next());
    const QDateTime now = q.value(0).toDateTime();
    const QDateTime reference = q.value(1).toDateTime();
    const PgAgentJob read = m_catalog->job(QStringLiteral("timing")).value();
    const QList<QDateTime> ours =
        PgAgentCalendar::next(read.schedules.at(0), now, m_catalog->serverZone(), 5);
    QVERIFY(!ours.isEmpty());
    QCOMPARE(ours.at(0).toUTC(), reference.toUTC());
    for (qsizetype i = 1; i < ours.size(); ++i)
        QVERIFY(ours.at(i) > ours.at(i - 1));
}

void TestPgAgentCatalog::enableDisable_theTriggerKeepsTheNextRun()
{
    const qint64 job = addJob(QStringLiteral("toggled"));
    addSchedule(job, QString(), QString());
    QVERIFY(m_catalog->setEnabled(job, false));
    PgAgentJob read = m_catalog->job(QStringLiteral("toggled")).value();
    QCOMPARE(read.enabled, false);
    QVERIFY(!read.nextRun.isValid());
    QVERIFY(m_catalog->setEnabled(job, true));
    read = m_catalog->job(QStringLiteral("toggled")).value();
    QCOMPARE(read.enabled, true);
    QVERIFY(read.nextRun.isValid()); // pga_job_trigger computed it
    QVERIFY(!m_catalog->setEnabled(job + 1000, true));
}

void TestPgAgentCatalog::runNow_theRealAgentRunsItAndItsHistoryReadsBack()
{
    const QString agent = QStandardPaths::findExecutable(QStringLiteral("pgagent"));
    if (agent.isEmpty()) {
        if (test::requireServers())
            QFAIL("pgagent is not installed (Debian package pgagent)");
        QSKIP("pgagent is not installed (Debian package pgagent)");
    }
    const qint64 job = addJob(QStringLiteral("started by hourglass"));
    QSqlQuery q(m_db);
    QVERIFY2(
        q.exec(
            QStringLiteral(
                "INSERT INTO pgagent.pga_jobstep (jstjobid, jstname, jstkind, jstcode, jstdbname, "
                "jstonerror) VALUES "
                "(%1, '1 sql', 's', 'CREATE TABLE IF NOT EXISTS ran (at timestamptz); "
                "INSERT INTO ran VALUES (now())', current_database(), 'f'), "
                "(%1, '2 shell', 'b', 'echo hello from the agent', '', 'f')")
                .arg(job)),
        qPrintable(q.lastError().text()));
    // Never due by its schedule (a minute in the year 2100 only): only "run now" starts it.
    addSchedule(job, QStringLiteral("jscstart"), QStringLiteral("'2100-01-01 00:00+00'"));
    QVERIFY(m_catalog->runs(job, 10)->isEmpty());

    const QUrl url = test::postgresUrl();
    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::MergedChannels);
    daemon.start(agent, {QStringLiteral("-f"), QStringLiteral("-t"), QStringLiteral("1"),
                         QStringLiteral("hostaddr=%1 port=%2 dbname=%3 user=%4")
                             .arg(url.host())
                             .arg(url.port(5432))
                             .arg(m_database, url.userName())});
    QVERIFY(daemon.waitForStarted());
    QVERIFY(m_catalog->runNow(job));
    QTRY_VERIFY_WITH_TIMEOUT(!m_catalog->runs(job, 10)->isEmpty()
                                 && m_catalog->runs(job, 10)->constFirst().status
                                        != QLatin1Char('r'),
                             30000);
    daemon.terminate();
    daemon.waitForFinished(5000);

    const PgAgentRun run = m_catalog->runs(job, 10)->constFirst();
    QVERIFY2(run.status == QLatin1Char('s'), qPrintable(QString::fromUtf8(daemon.readAll())));
    QCOMPARE(run.job, QStringLiteral("started by hourglass"));
    QVERIFY(run.durationMs >= 0);
    QCOMPARE(run.steps.size(), 2);
    QCOMPARE(run.steps.at(0).step, QStringLiteral("1 sql"));
    QCOMPARE(run.steps.at(1).status, QLatin1Char('s'));
    QVERIFY2(run.steps.at(1).output.contains(QStringLiteral("hello from the agent")),
             qPrintable(run.steps.at(1).output));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM ran")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QVERIFY(m_catalog->job(QString::number(job))->lastRun.isValid());
    QCOMPARE(m_catalog->runs(0, 10)->size(), 1); // every job's history
}

void TestPgAgentCatalog::import_becomesALocalChain()
{
    const qint64 job = addJob(QStringLiteral("nightly report"));
    QSqlQuery q(m_db);
    QVERIFY(q.exec(
        QStringLiteral(
            "INSERT INTO pgagent.pga_jobstep (jstjobid, jstname, jstkind, jstcode, jstdbname, "
            "jstonerror) VALUES (%1, '1 refresh', 's', 'SELECT 1', current_database(), 'f'), "
            "(%1, '2 notify', 'b', 'echo done', '', 'i'), "
            "(%1, '3 elsewhere', 's', 'SELECT 2', 'postgres', 'f')")
            .arg(job)));
    addSchedule(job, QStringLiteral("jscminutes, jschours, jscweekdays"),
                QStringLiteral("(SELECT array_agg(i = 30) FROM generate_series(0,59) i), "
                               "(SELECT array_agg(i = 2) FROM generate_series(0,23) i), "
                               "'{f,t,t,t,t,t,f}'"));
    const PgAgentJob read = m_catalog->job(QStringLiteral("nightly report")).value();
    const ImportedDefinitions imported = PgAgentConverter::toChain(
        read, m_profile, m_catalog->serverZone(), QStringLiteral("from-pgagent"), {});
    QCOMPARE(imported.report.count(ImportReport::Kind::LeftOut), 1); // the step on 'postgres'

    HG_TEST_STORE(t);
    QVERIFY(ConnectionProfileRepository(t.store()).add(m_profile)); // as `remote add` made it
    const Result<ProjectImporter::Summary> written =
        ProjectImporter(t.store()).importDocument(QJsonDocument(imported.document()).toJson());
    QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
    const Chain chain =
        ChainRepository(t.store()).byPath(QStringLiteral("from-pgagent/nightly-report")).value();
    QCOMPARE(chain.maxInstances, 1);
    const QList<Task> tasks = TaskRepository(t.store()).list(chain.id).value();
    QCOMPARE(tasks.size(), 2);
    QCOMPARE(tasks.at(0).kind, TaskKind::Sql);
    QCOMPARE(tasks.at(0).connectionName, QStringLiteral("pga"));
    QCOMPARE(tasks.at(1).kind, TaskKind::Shell);
    QCOMPARE(tasks.at(1).ignoreError, true);
    const QList<Schedule> schedules = ScheduleRepository(t.store()).list(chain.id).value();
    QCOMPARE(schedules.size(), 1);
    QCOMPARE(schedules.at(0).expression, QStringLiteral("30 2 * * 1-5"));
    QCOMPARE(schedules.at(0).timeZone, QString::fromUtf8(m_catalog->serverZone().id()));
}

// The same through the binary, as a user types it, on a store of its own.
void TestPgAgentCatalog::commandLine_listsShowsStartsEnablesRunsAndImports()
{
    const qint64 job = addJob(QStringLiteral("cli job"));
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("INSERT INTO pgagent.pga_jobstep (jstjobid, jstname, jstkind, "
                                  "jstcode, jstonerror) VALUES (%1, 'only', 'b', 'true', 'f')")
                       .arg(job)));
    addSchedule(job, QStringLiteral("jscminutes, jschours"),
                QStringLiteral("(SELECT array_agg(i = 5) FROM generate_series(0,59) i), "
                               "(SELECT array_agg(i = 4) FROM generate_series(0,23) i)"));
    QTemporaryDir home;
    const QString db = home.filePath(QStringLiteral("store.db"));
    const auto run = [&](const QStringList &arguments) {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), home.path());
        environment.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        environment.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                           QStringLiteral("unix:path=/nonexistent/hourglass-test-bus"));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(HOURGLASS_BINARY),
                      QStringList{QStringLiteral("--db"), db} + arguments);
        process.waitForFinished(30000);
        return std::make_pair(process.exitCode(),
                              QString::fromUtf8(process.readAllStandardOutput()));
    };
    QUrl url = test::postgresUrl();
    url.setPath(QLatin1Char('/') + m_database);
    QCOMPARE(run({QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("agent"),
                  QStringLiteral("--kind"), QStringLiteral("pgagent"), QStringLiteral("--url"),
                  url.toString()})
                 .first,
             0);
    const auto chains = run({QStringLiteral("remote"), QStringLiteral("chains"),
                             QStringLiteral("agent"), QStringLiteral("--json")});
    QCOMPARE(chains.first, 0);
    QVERIFY2(chains.second.contains(QStringLiteral("\"name\": \"cli job\"")),
             qPrintable(chains.second));
    const auto shown = run({QStringLiteral("remote"), QStringLiteral("show"),
                            QStringLiteral("agent"), QStringLiteral("cli job")});
    QCOMPARE(shown.first, 0);
    QVERIFY2(shown.second.contains(QStringLiteral("5 4 * * * (unix)")), qPrintable(shown.second));
    QCOMPARE(run({QStringLiteral("remote"), QStringLiteral("start"), QStringLiteral("agent"),
                  QStringLiteral("cli job")})
                 .first,
             0);
    QVERIFY(
        q.exec(QStringLiteral("SELECT jobnextrun <= now() FROM pgagent.pga_job WHERE jobid = %1")
                   .arg(job))
        && q.next());
    QVERIFY(q.value(0).toBool());
    const auto enabled = [&] {
        return q.exec(QStringLiteral("SELECT jobenabled FROM pgagent.pga_job WHERE jobid = %1")
                          .arg(job))
               && q.next() && q.value(0).toBool();
    };
    QCOMPARE(run({QStringLiteral("remote"), QStringLiteral("disable"), QStringLiteral("agent"),
                  QStringLiteral("cli job")})
                 .first,
             0);
    QVERIFY(!enabled());
    QCOMPARE(run({QStringLiteral("remote"), QStringLiteral("enable"), QStringLiteral("agent"),
                  QStringLiteral("cli job")})
                 .first,
             0);
    QVERIFY(enabled());
    // A finished run as the agent logs it (pgAgent's job.cpp: the job log, then a step log
    // with the step's output), read back by `remote runs` with the output's first line.
    QVERIFY2(
        q.exec(QStringLiteral(
                   "WITH log AS (INSERT INTO pgagent.pga_joblog (jlgjobid, jlgstatus, jlgduration) "
                   "VALUES (%1, 's', interval '2 seconds') RETURNING jlgid) "
                   "INSERT INTO pgagent.pga_jobsteplog (jsljlgid, jsljstid, jslstatus, jslresult, "
                   "jslduration, jsloutput) SELECT jlgid, (SELECT jstid FROM pgagent.pga_jobstep "
                   "WHERE jstjobid = %1), 's', 0, interval '1 second', E'counted 42 rows\\nsecond "
                   "line' FROM log")
                   .arg(job)),
        qPrintable(q.lastError().text()));
    const auto runs = run({QStringLiteral("remote"), QStringLiteral("runs"),
                           QStringLiteral("agent"), QStringLiteral("cli job")});
    QCOMPARE(runs.first, 0);
    QVERIFY2(runs.second.contains(QStringLiteral("counted 42 rows…")), qPrintable(runs.second));
    QVERIFY2(!runs.second.contains(QStringLiteral("second line")), qPrintable(runs.second));
    const auto imported = run({QStringLiteral("remote"), QStringLiteral("import"),
                               QStringLiteral("agent"), QStringLiteral("cli job")});
    QCOMPARE(imported.first, 0);
    QVERIFY2(imported.second.contains(QStringLiteral("-> chain pgagent/cli-job (5 4 * * *)")),
             qPrintable(imported.second));
}

QTEST_GUILESS_MAIN(TestPgAgentCatalog)
#include "tst_pgagentcatalog.moc"
