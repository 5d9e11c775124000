#include "domain/connectionurl.h"
#include "projecttreemodel.h"
#include "remote/connectionscontroller.h"
#include "remote/pgagentjobpage.h"
#include "store/chainrepository.h"
#include "store/connectionprofilerepository.h"
#include "store/schedulerepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using namespace hg;

// The pgAgent job page on pgAgent's own schema (CREATE EXTENSION pgagent in the PostgreSQL of
// scripts/test): steps, schedules with their fire times, "Run now" picked up by the real
// pgagent daemon and its run followed into the history with each step's output; enable and
// disable; the history paged; importing the job through the Connections controller; and a
// remote that refuses connections.
class TestPgAgentJobPage final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void page_showsStepsSchedulesAndFollowsARunTheAgentMakes();
    void disableEnable_writeTheJob();
    void history_pagesByKeyset();
    void import_makesALocalChain();
    void refusedRemote_saysSo();

private:
    QSqlDatabase connect(const QString &name, const QString &database);
    qint64 addJob(const QString &name);
    QPushButton *button(PgAgentJobPage &page, const QString &text);
    bool load(PgAgentJobPage &page, const QString &job);

    QSqlDatabase m_admin;
    QSqlDatabase m_db;
    QString m_database;
    ConnectionProfile m_profile;
};

QSqlDatabase TestPgAgentJobPage::connect(const QString &name, const QString &database)
{
    const QUrl url = test::postgresUrl();
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    db.setHostName(url.host());
    db.setPort(url.port(5432));
    db.setUserName(url.userName());
    db.setDatabaseName(database);
    return db;
}

void TestPgAgentJobPage::initTestCase()
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
    m_database = QStringLiteral("hg_pgaui_%1").arg(QCoreApplication::applicationPid());
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
}

void TestPgAgentJobPage::init()
{
    QVERIFY(QSqlQuery(m_db).exec(QStringLiteral("DELETE FROM pgagent.pga_job")));
}

void TestPgAgentJobPage::cleanupTestCase()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("pga"));
    if (!m_database.isEmpty())
        QSqlQuery(m_admin).exec(
            QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
}

qint64 TestPgAgentJobPage::addJob(const QString &name)
{
    // As pgAdmin's job dialog writes it: two steps and a weekday schedule with an exception.
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "INSERT INTO pgagent.pga_job (jobjclid, jobname, jobdesc, jobhostagent, jobenabled) "
        "SELECT jclid, ?, 'made by the test', '', true FROM pgagent.pga_jobclass "
        "WHERE jclname = 'Routine Maintenance' RETURNING jobid"));
    q.addBindValue(name);
    if (!q.exec() || !q.next())
        qWarning() << q.lastError().text();
    const qint64 job = q.value(0).toLongLong();
    if (!q.exec(
            QStringLiteral(
                "INSERT INTO pgagent.pga_jobstep (jstjobid, jstname, jstkind, jstcode, jstdbname, "
                "jstonerror) VALUES "
                "(%1, '1 vacuum', 's', 'SELECT 1', current_database(), 'f'), "
                "(%1, '2 report', 'b', 'echo hello from the page', '', 'i')")
                .arg(job))
        || !q.exec(QStringLiteral("INSERT INTO pgagent.pga_schedule (jscjobid, jscname, jscstart, "
                                  "jscminutes, jschours, jscweekdays) VALUES (%1, 'weekdays', "
                                  "'2100-01-01 00:00+00', "
                                  "(SELECT array_agg(i = 30) FROM generate_series(0,59) i), "
                                  "(SELECT array_agg(i = 2) FROM generate_series(0,23) i), "
                                  "'{f,t,t,t,t,t,f}') RETURNING jscid")
                       .arg(job))
        || !q.next())
        qWarning() << q.lastError().text();
    const qint64 schedule = q.value(0).toLongLong();
    if (!q.exec(QStringLiteral("INSERT INTO pgagent.pga_schedule (jscjobid, jscname, jscstart, "
                               "jscminutes) VALUES (%1, 'hourly', '2100-01-01 00:00+00', "
                               "(SELECT array_agg(i = 15) FROM generate_series(0,59) i))")
                    .arg(job)))
        qWarning() << q.lastError().text();
    if (!q.exec(QStringLiteral("INSERT INTO pgagent.pga_exception (jexscid, jexdate, jextime) "
                               "VALUES (%1, '2100-01-04', NULL)")
                    .arg(schedule)))
        qWarning() << q.lastError().text();
    return job;
}

QPushButton *TestPgAgentJobPage::button(PgAgentJobPage &page, const QString &text)
{
    const QList<QPushButton *> buttons = page.findChildren<QPushButton *>();
    for (QPushButton *b : buttons) {
        if (b->text().remove(QLatin1Char('&')) == text)
            return b;
    }
    return nullptr;
}

bool TestPgAgentJobPage::load(PgAgentJobPage &page, const QString &job)
{
    QSignalSpy idle(&page, &PgAgentJobPage::idle);
    page.showJob(m_profile, job);
    return idle.wait(15000);
}

void TestPgAgentJobPage::page_showsStepsSchedulesAndFollowsARunTheAgentMakes()
{
    const QString agent = QStandardPaths::findExecutable(QStringLiteral("pgagent"));
    if (agent.isEmpty()) {
        if (test::requireServers())
            QFAIL("pgagent is not installed (Debian package pgagent)");
        QSKIP("pgagent is not installed (Debian package pgagent)");
    }
    const qint64 job = addJob(QStringLiteral("nightly"));
    PgAgentJobPage page;
    page.resize(1100, 800);
    page.show();
    QVERIFY(load(page, QStringLiteral("nightly")));
    QVERIFY2(page.statusText().isEmpty(), qPrintable(page.statusText()));

    QTableWidget *steps = page.stepsTable();
    QCOMPARE(steps->rowCount(), 2);
    QCOMPARE(steps->item(0, 0)->text(), QStringLiteral("1 vacuum"));
    QCOMPARE(steps->item(0, 1)->text(), QStringLiteral("SQL"));
    QCOMPARE(steps->item(1, 1)->text(), QStringLiteral("Batch"));
    QCOMPARE(steps->item(1, 3)->text(), QStringLiteral("ignore"));
    const QString schedules = page.scheduleText();
    QVERIFY2(schedules.contains(QLatin1String("(cron 15 * * * *)")), qPrintable(schedules));
    // Exceptions have no cron form: the arrays are explained, the exceptions listed after.
    QVERIFY2(schedules.contains(QLatin1String("(cron 30 2 * * 1-5)")), qPrintable(schedules));
    QVERIFY2(schedules.contains(QLatin1String("Except Mon 2100-01-04")), qPrintable(schedules));
    // Weekdays at 02:30 from 2100 on, but never on the exception, Monday 4 January.
    const qsizetype next = schedules.lastIndexOf(QLatin1String("Next: "));
    QVERIFY2(next >= 0, qPrintable(schedules));
    const QString fires = schedules.mid(next);
    QVERIFY2(fires.contains(QLatin1String("2100-01-05 02:30")), qPrintable(fires));
    QVERIFY2(!fires.contains(QLatin1String("2100-01-04")), qPrintable(fires));
    QCOMPARE(page.runsTree()->topLevelItemCount(), 0);

    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::MergedChannels);
    const QUrl url = test::postgresUrl();
    daemon.start(agent, {QStringLiteral("-f"), QStringLiteral("-t"), QStringLiteral("1"),
                         QStringLiteral("hostaddr=%1 port=%2 dbname=%3 user=%4")
                             .arg(url.host())
                             .arg(url.port(5432))
                             .arg(m_database, url.userName())});
    QVERIFY(daemon.waitForStarted());
    QPushButton *runNow = button(page, QStringLiteral("Run now"));
    QVERIFY(runNow && runNow->isEnabled());
    QSignalSpy idle(&page, &PgAgentJobPage::idle);
    runNow->click();
    QVERIFY(idle.wait(15000));
    QVERIFY2(page.statusText().contains(QLatin1String("due now")), qPrintable(page.statusText()));
    // The page reads the history again by itself until the agent's run has finished.
    QTreeWidget *runs = page.runsTree();
    QTRY_VERIFY_WITH_TIMEOUT(runs->topLevelItemCount() == 1
                                 && runs->topLevelItem(0)->text(1) != QLatin1String("running"),
                             45000);
    daemon.terminate();
    daemon.waitForFinished(5000);
    QTreeWidgetItem *run = runs->topLevelItem(0);
    QCOMPARE(run->text(1), QStringLiteral("succeeded"));
    QCOMPARE(run->childCount(), 2);
    QCOMPARE(run->child(1)->text(0), QStringLiteral("2 report"));
    runs->setCurrentItem(run->child(1));
    QVERIFY2(page.outputView()->toPlainText().contains(QLatin1String("hello from the page")),
             qPrintable(page.outputView()->toPlainText()));
    runs->setCurrentItem(run);
    QVERIFY2(page.outputView()->toPlainText().contains(QStringLiteral("— 1 vacuum: succeeded")),
             qPrintable(page.outputView()->toPlainText()));
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT joblastrun IS NOT NULL FROM pgagent.pga_job "
                                  "WHERE jobid = %1")
                       .arg(job))
            && q.next());
    QVERIFY(q.value(0).toBool());
}

void TestPgAgentJobPage::disableEnable_writeTheJob()
{
    const qint64 job = addJob(QStringLiteral("toggled"));
    PgAgentJobPage page;
    page.show();
    QVERIFY(load(page, QStringLiteral("toggled")));
    QPushButton *disable = button(page, QStringLiteral("Disable"));
    QPushButton *enable = button(page, QStringLiteral("Enable"));
    QVERIFY(disable->isEnabled());
    QVERIFY(!enable->isEnabled());
    QSignalSpy idle(&page, &PgAgentJobPage::idle);
    disable->click();
    QVERIFY(idle.wait(15000));
    QSqlQuery q(m_db);
    QVERIFY(
        q.exec(QStringLiteral("SELECT jobenabled FROM pgagent.pga_job WHERE jobid = %1").arg(job))
        && q.next());
    QVERIFY(!q.value(0).toBool());
    QVERIFY2(page.statusText().contains(QLatin1String("disabled")), qPrintable(page.statusText()));
    QVERIFY(enable->isEnabled());
    QVERIFY(page.scheduleText().contains(QLatin1String("does not fire while disabled")));
    enable->click();
    QVERIFY(idle.wait(15000));
    QVERIFY(
        q.exec(QStringLiteral("SELECT jobenabled FROM pgagent.pga_job WHERE jobid = %1").arg(job))
        && q.next());
    QVERIFY(q.value(0).toBool());
}

void TestPgAgentJobPage::history_pagesByKeyset()
{
    const qint64 job = addJob(QStringLiteral("busy"));
    // 70 runs, ten of them starting in the same microsecond: the id breaks the tie.
    QSqlQuery q(m_db);
    QVERIFY2(
        q.exec(QStringLiteral(
                   "INSERT INTO pgagent.pga_joblog (jlgjobid, jlgstatus, jlgstart, jlgduration) "
                   "SELECT %1, 's', timestamptz '2026-01-01 00:00:00.123456+00' + "
                   "make_interval(mins => greatest(i, 10)), interval '2 seconds' "
                   "FROM generate_series(1, 70) i")
                   .arg(job)),
        qPrintable(q.lastError().text()));
    PgAgentJobPage page;
    page.show();
    QVERIFY(load(page, QStringLiteral("busy")));
    QTreeWidget *runs = page.runsTree();
    QCOMPARE(runs->topLevelItemCount(), 50);
    QPushButton *more = button(page, QStringLiteral("More runs"));
    QVERIFY(more && more->isVisible());
    QSignalSpy idle(&page, &PgAgentJobPage::idle);
    more->click();
    QVERIFY(idle.wait(15000));
    QCOMPARE(runs->topLevelItemCount(), 70);
    QVERIFY(!more->isVisible());
    QSet<QString> seen;
    for (int i = 0; i < runs->topLevelItemCount(); ++i)
        seen.insert(runs->topLevelItem(i)->text(0));
    QCOMPARE(seen.size(), 70); // none twice, none left out
    QCOMPARE(runs->topLevelItem(0)->text(3), QStringLiteral("2.0 s"));
}

void TestPgAgentJobPage::import_makesALocalChain()
{
    addJob(QStringLiteral("nightly report"));
    HG_TEST_STORE(t);
    QVERIFY(ConnectionProfileRepository(t.store()).add(m_profile));
    QWidget window;
    ProjectTreeModel model(t.store());
    ConnectionsController controller(t.store(), &model, &window);
    PgAgentJobPage page(&window);
    QObject::connect(&page, &PgAgentJobPage::importRequested, &controller,
                     &ConnectionsController::importChain);
    QSignalSpy imported(&controller, &ConnectionsController::chainImported);
    window.show();
    QVERIFY(load(page, QStringLiteral("nightly report")));
    // The project is asked for; the test answers as a user would.
    QTimer::singleShot(0, this, [] {
        QTRY_VERIFY(qobject_cast<QInputDialog *>(QApplication::activeModalWidget()));
        auto *ask = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
        ask->setTextValue(QStringLiteral("from-pgagent"));
        ask->accept();
    });
    button(page, QStringLiteral("Import as local chain…"))->click();
    const auto said = [&window] {
        const auto *box = window.findChild<QMessageBox *>(QStringLiteral("importJobReport"));
        return box ? box->text() + QLatin1Char('\n') + box->informativeText() : QString();
    };
    QTRY_VERIFY2_WITH_TIMEOUT(imported.count() == 1, qPrintable(said()), 15000);
    // The schedule with an exception has no cron form: the user is told, with its fire times.
    QVERIFY2(said().contains(QLatin1String("schedule weekdays left out")), qPrintable(said()));
    QVERIFY2(said().contains(QLatin1String("2100-01-05T02:30")), qPrintable(said()));
    const Result<Chain> chain =
        ChainRepository(t.store()).byPath(QStringLiteral("from-pgagent/nightly-report"));
    QVERIFY2(chain, qPrintable(chain ? QString() : chain.error().message));
    const QList<Task> tasks = TaskRepository(t.store()).list(chain->id).value();
    QCOMPARE(tasks.size(), 2); // the SQL step on the remote's own database and the batch step
    const QList<Schedule> schedules = ScheduleRepository(t.store()).list(chain->id).value();
    QCOMPARE(schedules.size(), 1);
    QCOMPARE(schedules.constFirst().expression, QStringLiteral("15 * * * *"));
}

void TestPgAgentJobPage::refusedRemote_saysSo()
{
    ConnectionProfile refused = m_profile;
    refused.host = QStringLiteral("127.0.0.1");
    refused.port = 1; // nothing listens there
    PgAgentJobPage page;
    QSignalSpy idle(&page, &PgAgentJobPage::idle);
    page.showJob(refused, QStringLiteral("nightly"));
    QVERIFY(idle.wait(15000));
    QVERIFY2(page.statusText().contains(QLatin1String("refused")), qPrintable(page.statusText()));
    QCOMPARE(page.stepsTable()->rowCount(), 0);
    QVERIFY(!button(page, QStringLiteral("Run now"))->isEnabled());
}

QTEST_MAIN(TestPgAgentJobPage)
#include "tst_pgagentjobpage.moc"
