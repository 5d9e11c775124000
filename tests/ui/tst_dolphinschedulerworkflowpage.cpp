#include "dolphinschedulerfixture.h"
#include "domain/connectionurl.h"
#include "remote/dolphinschedulerschema.h"
#include "remote/dolphinschedulerworkflowpage.h"
#include "remote/remotechaincanvas.h"
#include "remote/remotedatabase.h"
#include "testservers.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QDialog>
#include <QHeaderView>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableWidget>
#include <QTest>

#include <algorithm>
#include <array>

using namespace hg;

// The DolphinScheduler workflow page against DolphinScheduler's 3.3 schema on the PostgreSQL
// of scripts/test: the schedule with its next fires, the DAG on the canvas, the instances; and
// a remote that refuses connections answers with its error, off the GUI thread.
class TestDolphinSchedulerWorkflowPage final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void page_showsScheduleDagAndInstances();
    void taskInstances_showWithWhereTheirLogIs();
    void acts_writeWhatDolphinSchedulerWrites();
    void instances_filteredAndPaged();
    void headerClick_sortsInSqlAndMoreKeepsTheOrder();
    void refusedRemote_saysSo();

private:
    QPushButton *button(DolphinSchedulerWorkflowPage &page, const QString &text);
    qint64 scalar(const QString &sql);
    // Every workflow instance's id, start and duration in seconds (-1: NULL), as stored.
    QList<std::array<qint64, 3>> instanceTimes();
    bool settle(DolphinSchedulerWorkflowPage &page);

    QSqlDatabase m_admin;
    QString m_database;
    ConnectionProfile m_profile;
};

void TestDolphinSchedulerWorkflowPage::initTestCase()
{
    const QUrl url = test::postgresUrl();
    HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    const auto connect = [&url](const QString &name, const QString &database) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(url.host());
        db.setPort(url.port(5432));
        db.setUserName(url.userName());
        db.setDatabaseName(database);
        return db;
    };
    m_admin = connect(QStringLiteral("admin"), url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
    m_database = QStringLiteral("hg_dsui_%1").arg(QCoreApplication::applicationPid());
    QSqlQuery create(m_admin);
    QVERIFY2(create.exec(QStringLiteral("CREATE DATABASE %1").arg(m_database)),
             qPrintable(create.lastError().text()));
    {
        QSqlDatabase db = connect(QStringLiteral("ds"), m_database);
        QVERIFY2(db.open(), qPrintable(db.lastError().text()));
        const Status loaded = test::DolphinSchedulerFixture::loadSchema(
            db, QStringLiteral("3.3"), QStringLiteral("postgresql"));
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
        QUrl remoteUrl = url;
        remoteUrl.setPath(QLatin1Char('/') + m_database);
        m_profile = ConnectionUrl::parse(QStringLiteral("ds"), ConnectionKind::DolphinScheduler,
                                         remoteUrl.toString())
                        .value();
        auto remote = RemoteDatabase::open(m_profile, {});
        QVERIFY(remote);
        const Result<DolphinSchedulerSchema> schema =
            DolphinSchedulerSchema::detect(*remote.value());
        QVERIFY(schema);
        QVERIFY(test::DolphinSchedulerFixture::insertWorkflows(db, schema.value()));
        QVERIFY(test::DolphinSchedulerFixture::insertInstances(db, schema.value()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("ds"));
}

void TestDolphinSchedulerWorkflowPage::cleanupTestCase()
{
    if (!m_admin.isOpen())
        return;
    QSqlQuery(m_admin).exec(
        QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    m_admin.close();
}

void TestDolphinSchedulerWorkflowPage::page_showsScheduleDagAndInstances()
{
    DolphinSchedulerWorkflowPage page;
    page.resize(1000, 700);
    page.show();
    QSignalSpy idle(&page, &DolphinSchedulerWorkflowPage::idle);
    page.showWorkflow(m_profile, QStringLiteral("etl/nightly"));
    QVERIFY(page.isBusy());
    QVERIFY(idle.wait(15000));
    // Nothing went wrong; DolphinScheduler's PostgreSQL schema lacks the index its MySQL
    // schema has, and the page says how to add it.
    QVERIFY2(page.statusText().startsWith(QLatin1String("t_ds_task_instance has no index on "))
                 && page.statusText().contains(QLatin1String("CREATE INDEX")),
             qPrintable(page.statusText()));
    QVERIFY2(page.scheduleText().contains(QLatin1String("0 30 2 * * ? *")),
             qPrintable(page.scheduleText()));
    QVERIFY(page.scheduleText().contains(QLatin1String("Europe/Berlin")));
    QVERIFY(page.scheduleText().contains(QLatin1String("Next: ")));
    QTRY_COMPARE(page.canvas()->nodeCount(), 3); // the scene is drawn from its models
    QTableWidget *instances = page.instancesTable();
    QCOMPARE(instances->rowCount(), 3);
    QCOMPARE(instances->item(0, 0)->text(), QStringLiteral("13")); // newest first
    QCOMPARE(instances->item(0, 1)->text(), QStringLiteral("running"));
    QCOMPARE(instances->item(1, 1)->text(), QStringLiteral("failure"));
    // Started, ended and how long it took; a running instance has not ended.
    QCOMPARE(instances->horizontalHeaderItem(3)->text(), QStringLiteral("Ended"));
    QVERIFY(!instances->item(1, 2)->text().isEmpty());
    QVERIFY(!instances->item(1, 3)->text().isEmpty());
    QVERIFY(instances->item(0, 3)->text().isEmpty());
    QCOMPARE(instances->item(1, 4)->text(), QStringLiteral("42.0 s"));

    // Another workflow: no schedule, no instances.
    page.showWorkflow(m_profile, QStringLiteral("etl/adhoc"));
    QVERIFY(idle.wait(15000));
    QVERIFY(page.scheduleText().contains(QLatin1String("No schedule")));
    QCOMPARE(page.instancesTable()->rowCount(), 0);
}

QPushButton *TestDolphinSchedulerWorkflowPage::button(DolphinSchedulerWorkflowPage &page,
                                                      const QString &text)
{
    const QList<QPushButton *> buttons = page.findChildren<QPushButton *>();
    for (QPushButton *b : buttons) {
        if (b->text().remove(QLatin1Char('&')) == text)
            return b;
    }
    qWarning() << "no button" << text;
    return nullptr;
}

qint64 TestDolphinSchedulerWorkflowPage::scalar(const QString &sql)
{
    const QUrl url = test::postgresUrl();
    qint64 value = -1;
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("read"));
        db.setHostName(url.host());
        db.setPort(url.port(5432));
        db.setUserName(url.userName());
        db.setDatabaseName(m_database);
        QSqlQuery q(db);
        if (db.open() && q.exec(sql) && q.next())
            value = q.value(0).toLongLong();
        else
            qWarning() << sql << q.lastError().text() << db.lastError().text();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("read"));
    return value;
}

bool TestDolphinSchedulerWorkflowPage::settle(DolphinSchedulerWorkflowPage &page)
{
    // Every read and act has come back (an act reads the workflow again afterwards).
    QDeadlineTimer deadline(15000);
    while (page.isBusy() && !deadline.hasExpired())
        QTest::qWait(20);
    return !page.isBusy();
}

void TestDolphinSchedulerWorkflowPage::taskInstances_showWithWhereTheirLogIs()
{
    DolphinSchedulerWorkflowPage page;
    page.resize(1000, 800);
    page.show();
    page.showWorkflow(m_profile, QStringLiteral("etl/nightly"));
    QVERIFY(settle(page));
    QVERIFY(page.taskLogText().contains(QLatin1String("Select an instance")));
    page.instancesTable()->selectRow(1); // instance 12, failed
    QVERIFY(settle(page));
    QTableWidget *tasks = page.taskInstancesTable();
    QCOMPARE(tasks->rowCount(), 3);
    QCOMPARE(tasks->item(0, 0)->text(), QStringLiteral("extract"));
    QCOMPARE(tasks->item(1, 1)->text(), QStringLiteral("CONDITIONS"));
    QCOMPARE(tasks->item(2, 2)->text(), QStringLiteral("failure"));
    QCOMPARE(tasks->horizontalHeaderItem(5)->text(), QStringLiteral("Ended"));
    QVERIFY(!tasks->item(2, 5)->text().isEmpty());
    QCOMPARE(tasks->item(2, 7)->text(), QStringLiteral("3 of 3"));
    tasks->selectRow(2);
    QVERIFY2(page.taskLogText().contains(QLatin1String("worker-2:1234"))
                 && page.taskLogText().contains(QLatin1String("/opt/ds/logs/12/load.log")),
             qPrintable(page.taskLogText()));
}

void TestDolphinSchedulerWorkflowPage::acts_writeWhatDolphinSchedulerWrites()
{
    DolphinSchedulerWorkflowPage page;
    page.resize(1000, 800);
    page.show();
    page.showWorkflow(m_profile, QStringLiteral("etl/nightly"));
    QVERIFY(settle(page));
    const qint64 commandsBefore = scalar(QStringLiteral("SELECT count(*) FROM t_ds_command"));

    // Rerun the failed tasks of instance 12: the command DolphinScheduler's master gets.
    page.instancesTable()->selectRow(1);
    QVERIFY(settle(page));
    button(page, QStringLiteral("Rerun failed tasks"))->click();
    QVERIFY(settle(page));
    QVERIFY2(page.statusText().contains(QLatin1String("queued")), qPrintable(page.statusText()));
    QCOMPARE(
        scalar(QStringLiteral("SELECT command_type FROM t_ds_command ORDER BY id DESC LIMIT 1")),
        4); // START_FAILURE_TASK_PROCESS

    // Stopping the running instance 13 is refused, saying why; nothing is written.
    page.instancesTable()->selectRow(0);
    QVERIFY(settle(page));
    button(page, QStringLiteral("Stop"))->click();
    QVERIFY(settle(page));
    QVERIFY2(page.statusText().contains(QLatin1String("RPC")), qPrintable(page.statusText()));
    QCOMPARE(scalar(QStringLiteral("SELECT state FROM t_ds_workflow_instance WHERE id = 13")), 1);

    // Start through the dialog, as DolphinScheduler's start dialog asks.
    button(page, QStringLiteral("Start…"))->click();
    auto *dialog = page.findChild<QDialog *>(QStringLiteral("launchDialog"));
    QVERIFY(dialog);
    dialog->accept();
    QVERIFY(settle(page));
    QVERIFY2(page.statusText().contains(QLatin1String("Queued")), qPrintable(page.statusText()));
    QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM t_ds_command")), commandsBefore + 2);

    // From one task only: ticked in the dialog's list of the DAG's tasks.
    button(page, QStringLiteral("Start…"))->click();
    dialog = page.findChild<QDialog *>(QStringLiteral("launchDialog"));
    QVERIFY(dialog);
    auto *nodes = dialog->findChild<QListWidget *>();
    QVERIFY(nodes);
    QCOMPARE(nodes->count(), 3);
    for (int row = 0; row < nodes->count(); ++row) {
        if (nodes->item(row)->text().startsWith(QLatin1String("load")))
            nodes->item(row)->setCheckState(Qt::Checked);
    }
    const QList<QComboBox *> combos = dialog->findChildren<QComboBox *>();
    for (QComboBox *combo : combos) {
        const int only = combo->findData(0);
        if (combo->itemText(only) == QLatin1String("Only them"))
            combo->setCurrentIndex(only);
        // The run's settings: a high priority, an alert when it fails.
        for (const QString &text : {QStringLiteral("High"), QStringLiteral("When it fails")}) {
            if (const int index = combo->findText(text); index >= 0)
                combo->setCurrentIndex(index);
        }
    }
    dialog->accept();
    QVERIFY(settle(page));
    // The instance the start-from-load command points at (the fixture's ids are above the
    // sequence's, so the newest is not the highest id).
    const QString started = QStringLiteral(
        "FROM t_ds_workflow_instance i JOIN t_ds_command c ON c.workflow_instance_id = i.id "
        "WHERE c.command_param LIKE '%\"startNodes\":[303]%'");
    QCOMPARE(scalar(QStringLiteral("SELECT i.task_depend_type ") + started), 0);
    QCOMPARE(scalar(QStringLiteral("SELECT i.workflow_instance_priority ") + started), 1); // HIGH
    QCOMPARE(scalar(QStringLiteral("SELECT i.warning_type ") + started), 2); // FAILURE
    QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM t_ds_command WHERE command_param LIKE "
                                   "'%\"startNodes\":[303]%'")),
             1);

    // The schedule offline, then online: its Quartz job, as DolphinScheduler's API writes it.
    button(page, QStringLiteral("Schedule offline"))->click();
    QVERIFY(settle(page));
    QCOMPARE(scalar(QStringLiteral("SELECT release_state FROM t_ds_schedules")), 0);
    QVERIFY(!button(page, QStringLiteral("Schedule offline"))->isEnabled());
    button(page, QStringLiteral("Schedule online"))->click();
    QVERIFY(settle(page));
    QVERIFY2(page.statusText().contains(QLatin1String("is online")), qPrintable(page.statusText()));
    QCOMPARE(scalar(QStringLiteral("SELECT release_state FROM t_ds_schedules")), 1);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM qrtz_cron_triggers")), 1);

    // Offline takes the schedule along; an offline definition cannot be started.
    button(page, QStringLiteral("Take offline"))->click();
    QVERIFY(settle(page));
    QCOMPARE(scalar(QStringLiteral("SELECT release_state FROM t_ds_workflow_definition "
                                   "WHERE code = 200")),
             0);
    QCOMPARE(scalar(QStringLiteral("SELECT release_state FROM t_ds_schedules")), 0);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM qrtz_cron_triggers")), 0);
    QVERIFY(page.summaryText().startsWith(QLatin1String("Offline")));
    QVERIFY(!button(page, QStringLiteral("Start…"))->isEnabled());
    button(page, QStringLiteral("Bring online"))->click();
    QVERIFY(settle(page));
    QCOMPARE(scalar(QStringLiteral("SELECT release_state FROM t_ds_workflow_definition "
                                   "WHERE code = 200")),
             1);
    QVERIFY(button(page, QStringLiteral("Start…"))->isEnabled());
}

void TestDolphinSchedulerWorkflowPage::instances_filteredAndPaged()
{
    // 60 more finished instances, every fifth failed, beside those the tests before made.
    QVERIFY(scalar(QStringLiteral(
                "WITH made AS (INSERT INTO t_ds_workflow_instance (id, name, "
                "workflow_definition_code, workflow_definition_version, project_code, state, "
                "start_time, end_time, run_times, host, command_type, schedule_time, executor_id) "
                "SELECT 100 + i, 'nightly-' || (100 + i), 200, 2, 100, CASE WHEN i % 5 = 0 THEN 6 "
                "ELSE 7 END, timestamp '2026-10-01' + i * interval '1 hour', timestamp "
                "'2026-10-01' + i * interval '1 hour' + interval '1 minute', 1, 'master-1:5678', "
                "6, timestamp '2026-10-01' + i * interval '1 hour', 1 FROM generate_series(1, 60) "
                "AS i RETURNING id) SELECT COUNT(*) FROM made"))
            == 60);
    DolphinSchedulerWorkflowPage page;
    page.resize(1000, 800);
    page.show();
    page.showWorkflow(m_profile, QStringLiteral("etl/nightly"));
    QVERIFY(settle(page));
    const qint64 all = scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_workflow_instance"));
    const qint64 failed =
        scalar(QStringLiteral("SELECT COUNT(*) FROM t_ds_workflow_instance WHERE state = 6"));
    QVERIFY(all > 60 && all < 100 && failed >= 12);
    QTableWidget *instances = page.instancesTable();
    QCOMPARE(instances->rowCount(), 50);
    QPushButton *more = button(page, QStringLiteral("More instances"));
    QVERIFY(more && more->isVisible());
    more->click();
    QVERIFY(settle(page));
    QCOMPARE(instances->rowCount(), int(all));
    QVERIFY(!more->isVisible());
    QSet<QString> ids;
    for (int row = 0; row < instances->rowCount(); ++row)
        ids.insert(instances->item(row, 0)->text());
    QCOMPARE(ids.size(), int(all)); // none twice
    // Failed only: filtered in SQL, read again from the newest.
    const QList<QCheckBox *> boxes = page.findChildren<QCheckBox *>();
    for (QCheckBox *box : boxes) {
        if (box->text().remove(QLatin1Char('&')) == QLatin1String("Failed only"))
            box->setChecked(true);
    }
    QVERIFY(settle(page));
    QCOMPARE(instances->rowCount(), int(failed));
    for (int row = 0; row < instances->rowCount(); ++row)
        QCOMPARE(instances->item(row, 1)->text(), QStringLiteral("failure"));
    QVERIFY2(page.scheduleText().contains(QLatin1String("when a task fails: continue")),
             qPrintable(page.scheduleText()));
}

QList<std::array<qint64, 3>> TestDolphinSchedulerWorkflowPage::instanceTimes()
{
    const QUrl url = test::postgresUrl();
    QList<std::array<qint64, 3>> rows;
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("read"));
        db.setHostName(url.host());
        db.setPort(url.port(5432));
        db.setUserName(url.userName());
        db.setDatabaseName(m_database);
        QSqlQuery q(db);
        if (db.open()
            && q.exec(QStringLiteral("SELECT id, COALESCE(EXTRACT(EPOCH FROM start_time), -1), "
                                     "COALESCE(EXTRACT(EPOCH FROM end_time - start_time), -1) "
                                     "FROM t_ds_workflow_instance"))) {
            while (q.next())
                rows << std::array<qint64, 3>{q.value(0).toLongLong(),
                                              qint64(q.value(1).toDouble()),
                                              qint64(q.value(2).toDouble())};
        } else {
            qWarning() << q.lastError().text() << db.lastError().text();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("read"));
    return rows;
}

namespace {

void clickHeader(QTableWidget *table, int column)
{
    QHeaderView *header = table->horizontalHeader();
    const QPoint centre(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                        header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, centre);
}

QList<qint64> shownIds(QTableWidget *table)
{
    QList<qint64> ids;
    for (int row = 0; row < table->rowCount(); ++row)
        ids << table->item(row, 0)->text().toLongLong();
    return ids;
}

// The ids in the order of column KEY of TIMES (1 start, 2 duration): NULLs (-1) last, ties
// by id the same way.
QList<qint64> ordered(QList<std::array<qint64, 3>> times, int key, bool descending)
{
    std::sort(times.begin(), times.end(), [&](const auto &a, const auto &b) {
        if ((a[key] < 0) != (b[key] < 0))
            return b[key] < 0;
        if (a[key] != b[key])
            return descending ? a[key] > b[key] : a[key] < b[key];
        return descending ? a[0] > b[0] : a[0] < b[0];
    });
    QList<qint64> ids;
    for (const auto &row : std::as_const(times))
        ids << row[0];
    return ids;
}

} // namespace

void TestDolphinSchedulerWorkflowPage::headerClick_sortsInSqlAndMoreKeepsTheOrder()
{
    // A running instance with no end, and ties in the duration (the 60 of the test before
    // last a minute each): enough for two pages.
    const QList<std::array<qint64, 3>> times = instanceTimes();
    QVERIFY(times.size() > 60);
    DolphinSchedulerWorkflowPage page;
    page.resize(1000, 800);
    page.show();
    page.showWorkflow(m_profile, QStringLiteral("etl/nightly"));
    QVERIFY(settle(page));
    QTableWidget *instances = page.instancesTable();
    QHeaderView *header = instances->horizontalHeader();
    QVERIFY(!instances->isSortingEnabled()); // the page shown is never sorted in place
    QCOMPARE(header->sortIndicatorSection(), 0);
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);

    // Started: the latest first, read again in SQL; More goes on in the same order.
    clickHeader(instances, 2);
    QCOMPARE(header->sortIndicatorSection(), 2);
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(page.instanceSort().column, DsSortColumn::Start);
    QVERIFY(settle(page));
    QCOMPARE(instances->rowCount(), 50);
    const QList<qint64> byStart = ordered(times, 1, true);
    QCOMPARE(shownIds(instances), byStart.mid(0, 50));
    button(page, QStringLiteral("More instances"))->click();
    QVERIFY(settle(page));
    QCOMPARE(shownIds(instances), byStart);

    // Duration, clicked twice: the shortest first, the running one (no duration) last.
    clickHeader(instances, 4);
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    QVERIFY(settle(page));
    clickHeader(instances, 4);
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    QVERIFY(settle(page));
    QCOMPARE(page.instanceSort().column, DsSortColumn::Duration);
    QVERIFY(!page.instanceSort().descending);
    const QList<qint64> byDuration = ordered(times, 2, false);
    QCOMPARE(shownIds(instances), byDuration.mid(0, 50));
    button(page, QStringLiteral("More instances"))->click();
    QVERIFY(settle(page));
    QCOMPARE(shownIds(instances), byDuration);
    QCOMPARE(instances->item(instances->rowCount() - 1, 0)->text(), QStringLiteral("13"));

    // The selected instance's task instances sort by a click on their header too.
    const int row12 = int(byDuration.indexOf(12));
    instances->selectRow(row12);
    QVERIFY(settle(page));
    QTableWidget *tasks = page.taskInstancesTable();
    QCOMPARE(tasks->rowCount(), 3);
    clickHeader(tasks, 0); // Task: A to Z first
    QVERIFY(settle(page));
    QCOMPARE(tasks->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    QStringList names;
    for (int row = 0; row < tasks->rowCount(); ++row)
        names << tasks->item(row, 0)->text();
    QCOMPARE(names, (QStringList{QStringLiteral("check"), QStringLiteral("extract"),
                                 QStringLiteral("load")}));
    clickHeader(tasks, 6); // Duration: the longest first
    QVERIFY(settle(page));
    QCOMPARE(page.taskSort().column, DsSortColumn::Duration);
    QCOMPARE(tasks->item(0, 0)->text(), QStringLiteral("load")); // 21 s, then 19 s, then 0 s
    QCOMPARE(tasks->item(2, 0)->text(), QStringLiteral("check"));
}

void TestDolphinSchedulerWorkflowPage::refusedRemote_saysSo()
{
    ConnectionProfile refused = m_profile;
    refused.host = QStringLiteral("127.0.0.1");
    refused.port = 1; // nothing listens there
    DolphinSchedulerWorkflowPage page;
    QSignalSpy idle(&page, &DolphinSchedulerWorkflowPage::idle);
    page.showWorkflow(refused, QStringLiteral("etl/nightly"));
    QVERIFY(idle.wait(15000));
    QVERIFY2(page.statusText().contains(QLatin1String("refused")), qPrintable(page.statusText()));
    QCOMPARE(page.canvas()->nodeCount(), 0);
}

QTEST_MAIN(TestDolphinSchedulerWorkflowPage)
#include "tst_dolphinschedulerworkflowpage.moc"
