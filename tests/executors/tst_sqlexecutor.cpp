#include "executorrun.h"
#include "executors/sqlexecutor.h"
#include "store/storelocation.h"
#include "testservers.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>
#include <vector>

using namespace hg;

// SQL tasks on the three real databases: SQLite, PostgreSQL and MariaDB.
class TestSqlExecutor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void select_bindsParametersAndLogsRows_data() { backends(); }
    void select_bindsParametersAndLogsRows();
    void parameter_isNeverSpliced_data() { backends(); }
    void parameter_isNeverSpliced();
    void badStatement_failsNamingTheTarget_data() { backends(); }
    void badStatement_failsNamingTheTarget();
    void stop_cancelsTheStatementOnTheServer_data() { backends(); }
    void stop_cancelsTheStatementOnTheServer();
    void manyAtOnce_moreThanTheCoresAllRunAndStop_data();
    void manyAtOnce_moreThanTheCoresAllRunAndStop();
    void timeout_cancelsTheStatement_data() { backends(); }
    void timeout_cancelsTheStatement();
    void unreachableServer_failsWithTheReason();
    void script_runsAllOrNothing_data() { backends(); }
    void script_runsAllOrNothing();
    void script_parametersNeedASingleStatement();
    void script_mysqlSaysWhatItCommittedBeforeAFailure();
    void postgresNotice_isALineOfTheTasksOutput_data();
    void postgresNotice_isALineOfTheTasksOutput();

private:
    static void backends();
    // The target for the current row, or empty driver after QSKIP/QFAIL.
    SqlTarget target();
    static SqlTarget mariadbTarget(); // empty when scripts/test started no MariaDB
    QString run(const SqlTarget &target, const QString &sql, const QStringList &parameters = {},
                RunState expected = RunState::Succeeded);
    static QString longStatement(const SqlTarget &target);

    QTemporaryDir m_directory;
    QString m_table = QStringLiteral("hg_sql_%1").arg(QRandomGenerator::global()->generate());
};

void TestSqlExecutor::backends()
{
    QTest::addColumn<QString>("backend");
    QTest::newRow("sqlite") << QStringLiteral("sqlite");
    QTest::newRow("postgresql") << QStringLiteral("postgresql");
    QTest::newRow("mariadb") << QStringLiteral("mariadb");
}

SqlTarget TestSqlExecutor::target()
{
    const QString backend = QString::fromLatin1(QTest::currentDataTag());
    if (backend == QLatin1String("sqlite"))
        return SqlTarget::forStore(
            StoreLocation::parse(m_directory.filePath(QStringLiteral("tasks.db"))).value());
    if (backend == QLatin1String("postgresql")) {
        if (test::postgresUrl().isEmpty())
            return {};
        return SqlTarget::forStore(StoreLocation::parse(test::postgresUrl().toString()).value());
    }
    return mariadbTarget();
}

SqlTarget TestSqlExecutor::mariadbTarget()
{
    const QUrl url = test::mysqlUrl();
    if (url.isEmpty())
        return {};
    ConnectionProfile profile;
    profile.name = QStringLiteral("maria");
    profile.kind = ConnectionKind::MySql;
    profile.host = url.host();
    profile.port = url.port(3306);
    profile.database = url.path().mid(1);
    profile.userName = url.userName();
    return SqlTarget::forProfile(profile, url.password()).value();
}

QString TestSqlExecutor::run(const SqlTarget &target, const QString &sql,
                             const QStringList &parameters, RunState expected)
{
    SqlExecutor executor(target, sql, parameters, 0);
    const test::ExecutorRun result = test::runExecutor(executor);
    if (result.outcome.state != expected)
        qWarning() << sql << "ended" << enumName(result.outcome.state) << result.outcome.error;
    return result.outcome.state == expected ? result.text() : QStringLiteral("<unexpected>");
}

QString TestSqlExecutor::longStatement(const SqlTarget &target)
{
    if (target.driver == QLatin1String("QPSQL"))
        return QStringLiteral("SELECT pg_sleep(60)");
    if (target.driver == QLatin1String("QMYSQL"))
        return QStringLiteral("SELECT SLEEP(60)");
    return QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                          "SELECT count(*) FROM c");
}

#define HG_SQL_TARGET(name)                                                                        \
    const SqlTarget name = target();                                                               \
    if (name.driver.isEmpty()) {                                                                   \
        if (QTest::currentDataTag() == QByteArray("postgresql"))                                   \
            HG_REQUIRE_SERVER(QString(), "HOURGLASS_TEST_PG_URL");                                 \
        HG_REQUIRE_SERVER(QString(), "HOURGLASS_TEST_MYSQL_URL");                                  \
    }

void TestSqlExecutor::select_bindsParametersAndLogsRows()
{
    HG_SQL_TARGET(db);
    QVERIFY(run(db, QStringLiteral("CREATE TABLE %1 (id INTEGER, name VARCHAR(20))").arg(m_table))
            != QLatin1String("<unexpected>"));
    const QString inserted =
        run(db, QStringLiteral("INSERT INTO %1 VALUES (1, 'ada'), (2, 'bob')").arg(m_table));
    QCOMPARE(inserted, QStringLiteral("2 rows affected"));
    const QString selected =
        run(db, QStringLiteral("SELECT id, name FROM %1 WHERE name = ?").arg(m_table),
            {QStringLiteral("bob")});
    QCOMPARE(selected, QStringLiteral("id\tname\n2\tbob\n(1 rows)"));
    run(db, QStringLiteral("DROP TABLE %1").arg(m_table));
}

void TestSqlExecutor::parameter_isNeverSpliced()
{
    HG_SQL_TARGET(db);
    run(db, QStringLiteral("CREATE TABLE %1 (name VARCHAR(80))").arg(m_table));
    const QString hostile = QStringLiteral("x'); DROP TABLE %1; --").arg(m_table);
    QCOMPARE(run(db, QStringLiteral("INSERT INTO %1 VALUES (?)").arg(m_table), {hostile}),
             QStringLiteral("1 rows affected"));
    QCOMPARE(run(db, QStringLiteral("SELECT name FROM %1").arg(m_table)),
             QStringLiteral("name\n%1\n(1 rows)").arg(hostile));
    run(db, QStringLiteral("DROP TABLE %1").arg(m_table));
}

void TestSqlExecutor::badStatement_failsNamingTheTarget()
{
    HG_SQL_TARGET(db);
    SqlExecutor executor(db, QStringLiteral("SELECT * FROM hg_no_such_table"), {}, 0);
    const test::ExecutorRun result = test::runExecutor(executor);
    QCOMPARE(result.outcome.state, RunState::Failed);
    QVERIFY2(result.outcome.error.startsWith(db.displayName), qPrintable(result.outcome.error));
    QVERIFY2(result.outcome.error.contains(QLatin1String("hg_no_such_table")),
             qPrintable(result.outcome.error));
}

void TestSqlExecutor::stop_cancelsTheStatementOnTheServer()
{
    HG_SQL_TARGET(db);
    SqlExecutor executor(db, longStatement(db), {}, 0);
    QElapsedTimer elapsed;
    elapsed.start();
    const test::ExecutorRun result = test::runExecutor(executor, 500);
    QVERIFY(result.finished);
    QCOMPARE(result.outcome.state, RunState::Cancelled);
    QVERIFY2(elapsed.elapsed() < 15000, "the statement ran on after the stop");
}

void TestSqlExecutor::manyAtOnce_moreThanTheCoresAllRunAndStop_data()
{
    QTest::addColumn<QString>("backend");
    QTest::newRow("postgresql") << QStringLiteral("postgresql");
    QTest::newRow("mariadb") << QStringLiteral("mariadb");
}

// One more statement than the machine has cores, each waiting on the server: all of them run
// at once (on Qt's global pool the last waited unseen for one of the others to end), and a
// stop ends each at once (its cancel queued behind them all, until the first ended by itself).
void TestSqlExecutor::manyAtOnce_moreThanTheCoresAllRunAndStop()
{
    HG_SQL_TARGET(db);
    const int count = QThread::idealThreadCount() + 1;
    const QString tag = QStringLiteral("hg_many_%1").arg(QRandomGenerator::global()->generate());
    const bool postgres = db.driver == QLatin1String("QPSQL");
    const QString statement = (postgres ? QStringLiteral("SELECT pg_sleep(60) AS %1")
                                        : QStringLiteral("SELECT SLEEP(60) AS %1"))
                                  .arg(tag);
    std::vector<std::unique_ptr<SqlExecutor>> executors;
    int finished = 0;
    for (int i = 0; i < count; ++i) {
        executors.push_back(std::make_unique<SqlExecutor>(db, statement, QStringList{}, 0));
        connect(executors.back().get(), &TaskExecutor::finished, this,
                [&finished](const TaskOutcome &outcome) {
                    QCOMPARE(outcome.state, RunState::Cancelled);
                    ++finished;
                });
        executors.back()->start();
    }
    const QString seen =
        postgres
            ? QStringLiteral("SELECT count(*) AS seen FROM pg_stat_activity WHERE query = '%1'")
                  .arg(statement)
            : QStringLiteral("SELECT count(*) AS seen FROM information_schema.processlist "
                             "WHERE info = '%1'")
                  .arg(statement);
    const QString allRunning = QStringLiteral("seen\n%1\n(1 rows)").arg(count);
    QTRY_COMPARE_WITH_TIMEOUT(run(db, seen), allRunning, 15000);
    QElapsedTimer elapsed;
    elapsed.start();
    for (const auto &executor : executors)
        executor->stop(RunState::Cancelled);
    QTRY_COMPARE_WITH_TIMEOUT(finished, count, 15000);
    QVERIFY2(elapsed.elapsed() < 15000, "a statement ran on after the stop");
}

void TestSqlExecutor::timeout_cancelsTheStatement()
{
    HG_SQL_TARGET(db);
    SqlExecutor executor(db, longStatement(db), {}, 500);
    const test::ExecutorRun result = test::runExecutor(executor);
    QVERIFY(result.finished);
    QCOMPARE(result.outcome.state, RunState::TimedOut);
}

void TestSqlExecutor::unreachableServer_failsWithTheReason()
{
    ConnectionProfile profile;
    profile.name = QStringLiteral("gone");
    profile.kind = ConnectionKind::PostgreSql;
    profile.host = QStringLiteral("127.0.0.1");
    profile.port = 1; // nothing listens on port 1
    profile.database = QStringLiteral("x");
    profile.userName = QStringLiteral("x");
    SqlExecutor executor(SqlTarget::forProfile(profile, {}).value(), QStringLiteral("SELECT 1"), {},
                         0);
    const test::ExecutorRun result = test::runExecutor(executor);
    QCOMPARE(result.outcome.state, RunState::Failed);
    QVERIFY2(result.outcome.error.contains(QLatin1String("cannot connect to connection 'gone'")),
             qPrintable(result.outcome.error));
}

// One rule on every backend: a script's statements all commit, or none does. Before, SQLite
// refused a second statement, and MariaDB committed a DROP TABLE and reported a failure.
void TestSqlExecutor::script_runsAllOrNothing()
{
    HG_SQL_TARGET(db);
    QVERIFY(run(db, QStringLiteral("CREATE TABLE %1 (id INTEGER)").arg(m_table))
            != QLatin1String("<unexpected>"));
    const QString failing =
        QStringLiteral("INSERT INTO %1 VALUES (1); -- one; two\nINSERT INTO %1 VALUES (2);\n"
                       "INSERT INTO hg_no_such_table VALUES (3);")
            .arg(m_table);
    SqlExecutor executor(db, failing, {}, 0);
    const test::ExecutorRun result = test::runExecutor(executor);
    QCOMPARE(result.outcome.state, RunState::Failed);
    QVERIFY2(result.outcome.error.contains(QStringLiteral("statement 3 of 3 failed")),
             qPrintable(result.outcome.error));
    QCOMPARE(run(db, QStringLiteral("SELECT count(*) AS n FROM %1").arg(m_table)),
             QStringLiteral("n\n0\n(1 rows)"));
    QCOMPARE(run(db, QStringLiteral("INSERT INTO %1 VALUES (1);\nINSERT INTO %1 VALUES "
                                    "(length('a;b'));")
                         .arg(m_table)),
             QStringLiteral("1 rows affected\n1 rows affected"));
    QCOMPARE(run(db, QStringLiteral("SELECT count(*) AS n FROM %1").arg(m_table)),
             QStringLiteral("n\n2\n(1 rows)"));
    // A script that would commit or roll back its own transaction is refused before anything
    // runs (found by a hostile test: "…; COMMIT; <failing>" reported failure for committed
    // work, "…; ROLLBACK;" success for nothing).
    for (const QString &control : {QStringLiteral("INSERT INTO %1 VALUES (9); COMMIT; INSERT "
                                                  "INTO hg_no_such_table VALUES (3);"),
                                   QStringLiteral("INSERT INTO %1 VALUES (9); ROLLBACK;"),
                                   QStringLiteral("BEGIN; INSERT INTO %1 VALUES (9); COMMIT;")}) {
        SqlExecutor refused(db, control.arg(m_table), {}, 0);
        const test::ExecutorRun ended = test::runExecutor(refused);
        QCOMPARE(ended.outcome.state, RunState::Failed);
        QVERIFY2(ended.outcome.error.contains(QStringLiteral("nothing was run")),
                 qPrintable(ended.outcome.error));
    }
    QCOMPARE(run(db, QStringLiteral("SELECT count(*) AS n FROM %1").arg(m_table)),
             QStringLiteral("n\n2\n(1 rows)"));
    run(db, QStringLiteral("DROP TABLE %1").arg(m_table));
}

void TestSqlExecutor::script_parametersNeedASingleStatement()
{
    const SqlTarget db = SqlTarget::forStore(
        StoreLocation::parse(m_directory.filePath(QStringLiteral("tasks.db"))).value());
    SqlExecutor executor(db, QStringLiteral("SELECT ?; SELECT 2"), {QStringLiteral("1")}, 0);
    const test::ExecutorRun result = test::runExecutor(executor);
    QCOMPARE(result.outcome.state, RunState::Failed);
    QVERIFY2(result.outcome.error.contains(QStringLiteral("single statement")),
             qPrintable(result.outcome.error));
}

void TestSqlExecutor::postgresNotice_isALineOfTheTasksOutput_data()
{
    QTest::addColumn<QString>("backend");
    QTest::newRow("postgresql") << QStringLiteral("postgresql");
}

// Before, libpq printed a task's RAISE NOTICE on the engine's stderr, beside no run at all.
void TestSqlExecutor::postgresNotice_isALineOfTheTasksOutput()
{
    HG_SQL_TARGET(db);
    QCOMPARE(run(db, QStringLiteral("DO $$ BEGIN RAISE NOTICE 'cleaned % rows', 42; END $$; "
                                    "SELECT 1 AS after")),
             QStringLiteral("NOTICE:  cleaned 42 rows\n0 rows affected\nafter\n1\n(1 rows)"));
}

void TestSqlExecutor::script_mysqlSaysWhatItCommittedBeforeAFailure()
{
    const SqlTarget db = mariadbTarget();
    if (db.driver.isEmpty())
        HG_REQUIRE_SERVER(QString(), "HOURGLASS_TEST_MYSQL_URL");
    run(db, QStringLiteral("CREATE TABLE %1 (id INTEGER)").arg(m_table));
    SqlExecutor executor(
        db,
        QStringLiteral("INSERT INTO %1 VALUES (1); CREATE TABLE %1_b (id INTEGER); "
                       "INSERT INTO %1 VALUES (2); SELECT * FROM hg_no_such_table")
            .arg(m_table),
        {}, 0);
    const test::ExecutorRun result = test::runExecutor(executor);
    QCOMPARE(result.outcome.state, RunState::Failed);
    QVERIFY2(result.outcome.error.contains(QStringLiteral("statements 1 to 2 were committed")),
             qPrintable(result.outcome.error));
    // What the message says is what the server holds: the first insert, not the second.
    QCOMPARE(run(db, QStringLiteral("SELECT count(*) AS n FROM %1").arg(m_table)),
             QStringLiteral("n\n1\n(1 rows)"));
    run(db, QStringLiteral("DROP TABLE %1_b").arg(m_table));
    run(db, QStringLiteral("DROP TABLE %1").arg(m_table));
}

QTEST_GUILESS_MAIN(TestSqlExecutor)
#include "tst_sqlexecutor.moc"
