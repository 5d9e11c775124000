#include "dolphinschedulerfixture.h"
#include "dolphinschedulertest.h"
#include "domain/connectionurl.h"
#include "remote/dolphinschedulercatalog.h"
#include "remote/dolphinschedulercontrol.h"
#include "remote/dolphinschedulerlauncher.h"
#include "remote/dolphinschedulerorder.h"
#include "remote/quartzjobdatamap.h"
#include "remote/remotedatabase.h"
#include "remote/remoteprobe.h"
#include "testservers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <optional>
#include <variant>

using namespace hg;

// The DolphinScheduler console's reading, against the real MariaDB and PostgreSQL of
// scripts/test, each loaded with DolphinScheduler's own schema (tests/support/dolphinscheduler:
// 2.0.x and 3.2.x with t_ds_process_*, 3.3 with t_ds_workflow_*) and rows as its API server
// writes them: layouts told apart, workflows and their DAGs, instances filtered, sorted and
// paged in SQL, a broken or missing schema named.
class TestDolphinSchedulerCatalog final : public DolphinSchedulerTest
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { dropDatabase(); }
    void open_detectsTheLayoutAndVersion_data() { layouts(); }
    void open_detectsTheLayoutAndVersion();
    void workflows_listWithReleaseStateAndSchedule_data() { layouts(); }
    void workflows_listWithReleaseStateAndSchedule();
    void workflow_readsTheDagAtItsVersion_data() { layouts(); }
    void workflow_readsTheDagAtItsVersion();
    void instances_filterAndPageInSql_data() { layouts(); }
    void instances_filterAndPageInSql();
    void listings_sortByEveryColumnAcrossPages_data() { layouts(); }
    void listings_sortByEveryColumnAcrossPages();
    void brokenSchema_namesWhatIsMissing_data() { layouts(); }
    void brokenSchema_namesWhatIsMissing();
    void noSchema_saysSo();
};

namespace {

// A row of the sort test as the test itself knows it, times in microseconds from its base: the
// order is computed from these, not read back from the server.
struct SortRow
{
    qint64 id = 0;
    std::optional<QString> name;
    QString type;
    std::optional<int> state;
    std::optional<QString> host;
    std::optional<qint64> start;
    std::optional<qint64> end;
    std::optional<int> retries;
};

// Rows with NULLs and ties in every sortable column; FRACTIONS: microseconds in the times (a
// PostgreSQL timestamp keeps them, DolphinScheduler's MySQL DATETIME has none).
QList<SortRow> sortRows(qint64 firstId, int count, bool fractions)
{
    QList<SortRow> rows;
    for (int k = 0; k < count; ++k) {
        SortRow row;
        row.id = firstId + k;
        if (k % 10 != 3)
            row.name = QStringLiteral("nightly-") + QLatin1Char("pqrs"[k % 4]);
        row.type = k % 2 == 0 ? QStringLiteral("SHELL") : QStringLiteral("SQL");
        if (k % 11 != 5)
            row.state = QList<int>{1, 5, 6, 7}.at((k * 7) % 4);
        if (k % 6 != 0)
            row.host = QStringLiteral("worker-%1:1234").arg(QLatin1Char("abc"[k % 3]));
        if (k % 5 != 0) {
            row.start = (k % 7) * 60'000'000LL + (fractions && k % 3 == 1 ? 250'000 + k : 0);
            if (k % 4 != 0)
                row.end =
                    *row.start + ((k * 13) % 5) * 30'000'000LL + (fractions && k % 3 == 2 ? 1 : 0);
        }
        if (k % 9 != 4)
            row.retries = k % 3;
        rows << row;
    }
    return rows;
}

QString sqlText(const std::optional<QString> &text)
{
    return text ? QString(QLatin1Char('\'') + *text + QLatin1Char('\'')) : QStringLiteral("NULL");
}

QString sqlNumber(const std::optional<int> &number)
{
    return number ? QString::number(*number) : QStringLiteral("NULL");
}

QString sqlTime(const std::optional<qint64> &micros)
{
    if (!micros)
        return QStringLiteral("NULL");
    const QDateTime base(QDate(2026, 11, 20), QTime(1, 0), QTimeZone::utc());
    return QStringLiteral("'%1.%2'")
        .arg(base.addSecs(*micros / 1'000'000).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")))
        .arg(*micros % 1'000'000, 6, 10, QLatin1Char('0'));
}

// The sort key of ROW as the test computes it: a number or a text, or none for NULL.
std::optional<std::variant<qint64, QString>> sortKey(const SortRow &row, DsSortColumn column)
{
    using Key = std::variant<qint64, QString>;
    switch (column) {
    case DsSortColumn::Id:
        return Key(row.id);
    case DsSortColumn::Name:
        return row.name ? std::optional<Key>(*row.name) : std::nullopt;
    case DsSortColumn::Type:
        return Key(row.type);
    case DsSortColumn::State:
        return row.state ? std::optional<Key>(qint64(*row.state)) : std::nullopt;
    case DsSortColumn::Host:
        return row.host ? std::optional<Key>(*row.host) : std::nullopt;
    case DsSortColumn::Start:
        return row.start ? std::optional<Key>(*row.start) : std::nullopt;
    case DsSortColumn::End:
        return row.end ? std::optional<Key>(*row.end) : std::nullopt;
    case DsSortColumn::Duration:
        return row.start && row.end ? std::optional<Key>(*row.end - *row.start) : std::nullopt;
    case DsSortColumn::Retries:
        return row.retries ? std::optional<Key>(qint64(*row.retries)) : std::nullopt;
    }
    return std::nullopt;
}

// The ids of ROWS in SORT's order: NULL keys last either way, ties by id the same way.
QList<qint64> expectedOrder(QList<SortRow> rows, const DsSort &sort)
{
    std::sort(rows.begin(), rows.end(), [&sort](const SortRow &a, const SortRow &b) {
        const auto keyA = sortKey(a, sort.column);
        const auto keyB = sortKey(b, sort.column);
        if (keyA.has_value() != keyB.has_value())
            return keyA.has_value();
        if (keyA && *keyA != *keyB)
            return sort.descending ? *keyB < *keyA : *keyA < *keyB;
        return sort.descending ? b.id < a.id : a.id < b.id;
    });
    QList<qint64> ids;
    for (const SortRow &row : std::as_const(rows))
        ids << row.id;
    return ids;
}

} // namespace

void TestDolphinSchedulerCatalog::open_detectsTheLayoutAndVersion()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY2(catalog, qPrintable(catalog ? QString() : catalog.error().message));
    const auto expected = release == QLatin1String("3.3") ? DolphinSchedulerSchema::Layout::Workflow
                                                          : DolphinSchedulerSchema::Layout::Process;
    QCOMPARE(catalog->schema().layout(), expected);
    // 3.2.2's and 3.3's DDL files both record 3.3.0; 2.0.9's its own: the layout is said
    // beside it.
    QVERIFY2(catalog->info().version.contains(
                 release == QLatin1String("2.0") ? QLatin1String("2.0.9") : QLatin1String("3.3.0")),
             qPrintable(catalog->info().version));
    QVERIFY(catalog->info().version.contains(catalog->schema().layoutName()));
    QVERIFY(!catalog->info().readOnly);         // it brings workflows online and offline
    QVERIFY(catalog->info().warning.isEmpty()); // everything it shows, it also drives
    // DolphinScheduler's PostgreSQL DDL lacks the index on the task instances' instance id
    // that its MySQL DDL has: the administrator is told how to add it, until it is there.
    const QString instanceId = catalog->schema().instanceIdColumn();
    if (server == QLatin1String("mysql")) {
        QCOMPARE(catalog->info().advice, QString());
    } else {
        QVERIFY2(catalog->info().advice.contains(
                     QStringLiteral("ON t_ds_task_instance (%1)").arg(instanceId)),
                 qPrintable(catalog->info().advice));
        QVERIFY(catalog->info().summary(m_profile).contains(QLatin1String("\nadvice: ")));
        exec(QStringLiteral("CREATE INDEX hg_test_instance ON t_ds_task_instance (%1)")
                 .arg(instanceId));
        const Result<DolphinSchedulerCatalog> indexed = DolphinSchedulerCatalog::open(*m_remote);
        QVERIFY(indexed);
        QCOMPARE(indexed->info().advice, QString());
    }
    const Result<RemoteInfo> probed = RemoteProbe::inspect(*m_remote);
    QVERIFY2(probed, qPrintable(probed ? QString() : probed.error().message));
    QCOMPARE(probed->system, QStringLiteral("DolphinScheduler"));
    QVERIFY(!probed->serverVersion.isEmpty());
}

void TestDolphinSchedulerCatalog::workflows_listWithReleaseStateAndSchedule()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    insertWorkflow(catalog->schema());
    const Result<QList<DsWorkflow>> workflows = catalog->workflows();
    QVERIFY2(workflows, qPrintable(workflows ? QString() : workflows.error().message));
    QCOMPARE(workflows->size(), 2);
    const DsWorkflow &adhoc = workflows->at(0);
    QCOMPARE(adhoc.path(), QStringLiteral("etl/adhoc"));
    QVERIFY(!adhoc.online);
    QVERIFY(!adhoc.schedule);
    const DsWorkflow &nightly = workflows->at(1);
    QCOMPARE(nightly.path(), QStringLiteral("etl/nightly"));
    QCOMPARE(nightly.code, 200);
    QCOMPARE(nightly.version, 2);
    QVERIFY(nightly.online);
    QVERIFY(nightly.schedule);
    QCOMPARE(nightly.schedule->crontab, QStringLiteral("0 30 2 * * ? *"));
    QCOMPARE(nightly.schedule->timeZone, QStringLiteral("Europe/Berlin"));
    QVERIFY(nightly.schedule->online);
    QCOMPARE(nightly.schedule->failureStrategy, 1);
    QCOMPARE(nightly.schedule->warningType, 2);
    QCOMPARE(nightly.schedule->priority, 1);
    QCOMPARE(nightly.schedule->start.date(), QDate(2026, 1, 1));
}

void TestDolphinSchedulerCatalog::workflow_readsTheDagAtItsVersion()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    insertWorkflow(catalog->schema());
    const Result<DsWorkflow> nightly = catalog->workflow(QStringLiteral("etl/nightly"));
    QVERIFY2(nightly, qPrintable(nightly ? QString() : nightly.error().message));
    QCOMPARE(nightly->tasks.size(), 3); // load at version 2 only
    const DsTask &check = nightly->tasks.at(0);
    QCOMPARE(check.name, QStringLiteral("check"));
    QCOMPARE(check.type, QStringLiteral("CONDITIONS"));
    QCOMPARE(check.timeoutMinutes, 30);
    QCOMPARE(check.workerGroup, QStringLiteral("etl-workers"));
    QCOMPARE(check.successNodes, QList<qint64>{303});
    QVERIFY(check.failedNodes.isEmpty());
    QCOMPARE(nightly->tasks.at(1).name, QStringLiteral("extract"));
    const DsTask &load = nightly->tasks.at(2);
    QCOMPARE(load.name, QStringLiteral("load"));
    QCOMPARE(load.version, 2);
    QCOMPARE(load.retries, 3);
    QCOMPARE(load.retryIntervalMinutes, 10);
    QCOMPARE(nightly->relations.size(), 3); // the root's, and two edges
    QCOMPARE(nightly->relations.at(1).preTaskCode, 301);
    QCOMPARE(nightly->relations.at(1).postTaskCode, 302);
    QCOMPARE(nightly->relations.at(1).branch, DsRelation::Branch::Always);
    QCOMPARE(nightly->relations.at(2).postTaskCode, 303);
    // The condition's success branch, from its conditionResult.
    QCOMPARE(nightly->relations.at(2).branch, DsRelation::Branch::OnSuccess);
    QVERIFY(nightly->dagProblem.isEmpty());

    // Rows missing: the page drew an empty canvas, "0 tasks", and said nothing of why.
    exec(QStringLiteral("DELETE FROM t_ds_task_definition_log WHERE code = 302"));
    const Result<DsWorkflow> partial = catalog->workflow(QStringLiteral("etl/nightly"));
    QVERIFY(partial);
    QVERIFY2(partial->dagProblem.contains(QLatin1String("1 task(s)"))
                 && partial->dagProblem.contains(QLatin1String("t_ds_task_definition_log")),
             qPrintable(partial->dagProblem));
    exec(QStringLiteral("DELETE FROM %1").arg(catalog->schema().relationTable()));
    const Result<DsWorkflow> bare = catalog->workflow(QStringLiteral("etl/nightly"));
    QVERIFY(bare);
    QVERIFY(bare->tasks.isEmpty());
    QVERIFY2(bare->dagProblem.startsWith(catalog->schema().relationTable()
                                         + QStringLiteral(" has no rows for version")),
             qPrintable(bare->dagProblem));

    const Result<DsWorkflow> missing = catalog->workflow(QStringLiteral("etl/weekly"));
    QVERIFY(!missing);
    QCOMPARE(missing.error().kind, ErrorKind::NotFound);
    QVERIFY(missing.error().message.contains(QLatin1String("etl/weekly")));
    QCOMPARE(catalog->workflow(QStringLiteral("nightly")).error().kind, ErrorKind::Invalid);
}

void TestDolphinSchedulerCatalog::instances_filterAndPageInSql()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    insertWorkflow(schema);
    const Status instances = test::DolphinSchedulerFixture::insertInstances(m_db, schema);
    QVERIFY2(instances, qPrintable(instances ? QString() : instances.error().message));

    DsInstanceFilter filter;
    Result<QList<DsInstance>> page = catalog->instances(filter);
    QVERIFY2(page, qPrintable(page ? QString() : page.error().message));
    QCOMPARE(page->size(), 3);
    QCOMPARE(page->first().id, 13); // newest first
    QCOMPARE(page->first().workflowPath, QStringLiteral("etl/nightly"));
    QCOMPARE(catalog->workflowStateName(page->first().state), QStringLiteral("running"));
    QCOMPARE(page->first().host, QStringLiteral("master-2:5678"));
    QVERIFY(!page->first().end.isValid());
    // Keyset: a page of two, then what is older than its last.
    filter.limit = 2;
    page = catalog->instances(filter);
    QCOMPARE(page->size(), 2);
    filter.after = page->last().keyset;
    page = catalog->instances(filter);
    QCOMPARE(page->size(), 1);
    QCOMPARE(page->first().id, 11);
    // Filtered in SQL: failed only, by workflow, since a time.
    filter = DsInstanceFilter{};
    filter.failedOnly = true;
    page = catalog->instances(filter);
    QCOMPARE(page->size(), 1);
    QCOMPARE(page->first().id, 12);
    QCOMPARE(catalog->workflowStateName(page->first().state), QStringLiteral("failure"));
    filter = DsInstanceFilter{};
    filter.since = QDateTime(QDate(2026, 11, 24), QTime(0, 0));
    QCOMPARE(catalog->instances(filter)->size(), 2);
    filter.workflowPath = QStringLiteral("etl/adhoc");
    QCOMPARE(catalog->instances(filter)->size(), 0);

    const Result<QList<DsTaskInstance>> tasks = catalog->taskInstances(12);
    QVERIFY2(tasks, qPrintable(tasks ? QString() : tasks.error().message));
    QCOMPARE(tasks->size(), 3);
    QCOMPARE(tasks->at(1).type, QStringLiteral("CONDITIONS"));
    QCOMPARE(tasks->at(2).name, QStringLiteral("load"));
    QCOMPARE(DolphinSchedulerCatalog::taskStateName(tasks->at(2).state), QStringLiteral("failure"));
    QCOMPARE(tasks->at(2).retryTimes, 3);
    QCOMPARE(tasks->at(2).logPath, QStringLiteral("/opt/ds/logs/12/load.log"));
    QCOMPARE(tasks->at(0).start.secsTo(tasks->at(0).end), 19);
    QCOMPARE(catalog->instance(99).error().kind, ErrorKind::NotFound);

    // Task instances of every workflow instance, newest first, filtered and paged in SQL.
    DsTaskInstanceFilter taskFilter;
    taskFilter.limit = 2;
    const Result<QList<DsTaskInstance>> newest = catalog->taskInstances(taskFilter);
    QVERIFY2(newest, qPrintable(newest ? QString() : newest.error().message));
    QCOMPARE(newest->size(), 2);
    QCOMPARE(newest->at(0).name, QStringLiteral("load"));
    QCOMPARE(newest->at(0).instanceId, 12);
    taskFilter.after = newest->at(1).keyset;
    QCOMPARE(catalog->taskInstances(taskFilter)->size(), 1); // the last page
    taskFilter = {};
    taskFilter.failedOnly = true;
    QCOMPARE(catalog->taskInstances(taskFilter)->size(), 1);
    taskFilter = {};
    taskFilter.host = QStringLiteral("worker-2"); // its port left out
    QCOMPARE(catalog->taskInstances(taskFilter)->constFirst().name, QStringLiteral("load"));
    taskFilter = {};
    taskFilter.taskName = QStringLiteral("extract");
    QCOMPARE(catalog->taskInstances(taskFilter)->size(), 1);
    taskFilter = {};
    taskFilter.workflowPath = QStringLiteral("etl/nightly");
    QCOMPARE(catalog->taskInstances(taskFilter)->size(), 3);
    taskFilter.workflowPath = QStringLiteral("etl/adhoc");
    QCOMPARE(catalog->taskInstances(taskFilter)->size(), 0);
    taskFilter = {};
    taskFilter.since = QDateTime(QDate(2026, 11, 24), QTime(2, 30, 20));
    QCOMPARE(catalog->taskInstances(taskFilter)->size(), 2);
}

void TestDolphinSchedulerCatalog::listings_sortByEveryColumnAcrossPages()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(catalog);
    const DolphinSchedulerSchema &schema = catalog->schema();
    insertWorkflow(schema);
    const bool fractions = server == QLatin1String("postgresql");
    const QList<SortRow> instanceRows = sortRows(101, 23, fractions);
    const QList<SortRow> taskRows = sortRows(1001, 23, fractions);
    QStringList instanceValues;
    for (const SortRow &row : instanceRows)
        instanceValues << QStringLiteral("(%1, %2, 200, 2, %3, %4, %5, %6, %7, 6, 1)")
                              .arg(row.id)
                              .arg(sqlText(row.name), sqlNumber(row.state), sqlTime(row.start),
                                   sqlTime(row.end), sqlNumber(row.retries), sqlText(row.host));
    exec(QStringLiteral("INSERT INTO %1 (id, name, %2, %3, state, start_time, end_time, "
                        "run_times, host, command_type, executor_id) VALUES %4")
             .arg(schema.instanceTable(), schema.definitionCodeColumn(),
                  schema.definitionVersionColumn(), instanceValues.join(QLatin1String(", "))));
    QStringList taskValues;
    for (const SortRow &row : taskRows)
        taskValues << QStringLiteral("(%1, %2, '%3', 301, 1, 101, %4, '2026-11-20 01:00:00', "
                                     "%5, %6, %7, %8, 3, 1, 1)")
                          .arg(row.id)
                          .arg(sqlText(row.name), row.type, sqlNumber(row.state),
                               sqlTime(row.start), sqlTime(row.end), sqlText(row.host),
                               sqlNumber(row.retries));
    exec(QStringLiteral("INSERT INTO t_ds_task_instance (id, name, task_type, task_code, "
                        "task_definition_version, %1, state, submit_time, start_time, end_time, "
                        "host, retry_times, max_retry_times, flag, executor_id) VALUES %2")
             .arg(schema.instanceIdColumn(), taskValues.join(QLatin1String(", "))));

    // Every column both ways, walked in pages of 4 (so ties and NULLs straddle pages), each
    // page starting after the keyset of the last row of the one before.
    for (const QString &name : DolphinSchedulerOrder::columnNames()) {
        for (const bool descending : {true, false}) {
            const DsSort sort{DolphinSchedulerOrder::columnNamed(name).value(), descending};
            const QString what = QStringLiteral("%1 %2").arg(
                name, descending ? QLatin1String("desc") : QLatin1String("asc"));
            if (sort.column != DsSortColumn::Type) {
                QList<qint64> walked;
                DsInstanceFilter filter;
                filter.sort = sort;
                filter.limit = 4;
                for (int page = 0; page < 10; ++page) {
                    const Result<QList<DsInstance>> rows = catalog->instances(filter);
                    QVERIFY2(rows, qPrintable(what + QLatin1String(": ")
                                              + (rows ? QString() : rows.error().message)));
                    for (const DsInstance &row : rows.value())
                        walked << row.id;
                    if (rows->size() < filter.limit)
                        break;
                    filter.after = rows->constLast().keyset;
                }
                QVERIFY2(walked == expectedOrder(instanceRows, sort), qPrintable(what));
                // From an id alone (the command line's --before): the rest of the order.
                const qint64 middle = walked.at(10);
                const Result<DsKeyset> after = catalog->instanceKeyset(middle, sort);
                QVERIFY2(after, qPrintable(what));
                filter.after = after.value();
                filter.limit = 100;
                QList<qint64> rest;
                for (const DsInstance &row : catalog->instances(filter).value())
                    rest << row.id;
                QVERIFY2(rest == walked.mid(11), qPrintable(what));
            }
            QList<qint64> walked;
            DsTaskInstanceFilter filter;
            filter.instanceId = 101;
            filter.sort = sort;
            filter.limit = 4;
            for (int page = 0; page < 10; ++page) {
                const Result<QList<DsTaskInstance>> rows = catalog->taskInstances(filter);
                QVERIFY2(rows, qPrintable(what + QLatin1String(": ")
                                          + (rows ? QString() : rows.error().message)));
                for (const DsTaskInstance &row : rows.value())
                    walked << row.id;
                if (rows->size() < filter.limit)
                    break;
                filter.after = rows->constLast().keyset;
            }
            QVERIFY2(walked == expectedOrder(taskRows, sort), qPrintable(what));
            const Result<DsKeyset> after = catalog->taskInstanceKeyset(walked.at(6), sort);
            QVERIFY2(after, qPrintable(what));
            filter.after = after.value();
            filter.limit = 100;
            filter.instanceId = 0; // of every workflow instance: the same rows
            QList<qint64> rest;
            for (const DsTaskInstance &row : catalog->taskInstances(filter).value())
                rest << row.id;
            QVERIFY2(rest == walked.mid(7), qPrintable(what));
        }
    }
    // A workflow instance has no type.
    DsInstanceFilter byType;
    byType.sort.column = DsSortColumn::Type;
    QCOMPARE(catalog->instances(byType).error().kind, ErrorKind::Invalid);
}

void TestDolphinSchedulerCatalog::brokenSchema_namesWhatIsMissing()
{
    QFETCH(QString, server);
    QFETCH(QString, release);
    makeDatabase(server, release);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const bool workflow = release == QLatin1String("3.3");
    const QString relations = workflow ? QStringLiteral("t_ds_workflow_task_relation")
                                       : QStringLiteral("t_ds_process_task_relation");
    exec(QStringLiteral("DROP TABLE %1").arg(relations));
    exec(QStringLiteral("ALTER TABLE t_ds_schedules RENAME COLUMN %1 TO definition_code")
             .arg(workflow ? QStringLiteral("workflow_definition_code")
                           : QStringLiteral("process_definition_code")));
    // A fresh connection: the driver caches what tables there are.
    auto remote = RemoteDatabase::open(m_profile, m_password);
    QVERIFY(remote);
    m_remote = std::move(remote.value());
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(!catalog);
    const QString message = catalog.error().message;
    QVERIFY2(message.contains(QLatin1String("table ") + relations), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("column t_ds_schedules.")), qPrintable(message));
}

void TestDolphinSchedulerCatalog::noSchema_saysSo()
{
    const QString server =
        test::mysqlUrl().isEmpty() ? QStringLiteral("postgresql") : QStringLiteral("mysql");
    makeDatabase(server, QStringLiteral("3.2"), false);
    if (QTest::currentTestFailed() || !m_remote)
        return;
    const Result<DolphinSchedulerCatalog> catalog = DolphinSchedulerCatalog::open(*m_remote);
    QVERIFY(!catalog);
    QCOMPARE(catalog.error().kind, ErrorKind::NotFound);
    QVERIFY2(catalog.error().message.contains(QLatin1String("no DolphinScheduler schema")),
             qPrintable(catalog.error().message));
}

QTEST_GUILESS_MAIN(TestDolphinSchedulerCatalog)
#include "tst_dolphinschedulercatalog.moc"
