#include "clisandbox.h"
#include "pgtimetableschema.h"
#include "testservers.h"
#include "testsmtpserver.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace hg;

// A pg_timetable chain using its builtins, written into the real pg_timetable schema as its
// add_job and add_task write it, imported by the command line and run by `run --wait`: its
// SendMail reaches a real SMTP server (STARTTLS, AUTH) with its password kept apart from the
// store, its CopyFromProgram and CopyToFile run on the pg_timetable database.
class TestPgTimetableImportRun final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void chainWithBuiltins_importsKeepsThePasswordApartAndRuns();

private:
    QSqlDatabase m_admin;
    QSqlDatabase m_db;
    QString m_database;
};

void TestPgTimetableImportRun::initTestCase()
{
    const QUrl url = test::postgresUrl();
    HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    m_admin = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
    m_admin.setHostName(url.host());
    m_admin.setPort(url.port(5432));
    m_admin.setUserName(url.userName());
    m_admin.setDatabaseName(url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
    m_database = QStringLiteral("hg_ttrun_%1").arg(QCoreApplication::applicationPid());
    QSqlQuery q(m_admin);
    QVERIFY2(q.exec(QStringLiteral("CREATE DATABASE %1").arg(m_database)),
             qPrintable(q.lastError().text()));
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("tt"));
    m_db.setHostName(url.host());
    m_db.setPort(url.port(5432));
    m_db.setUserName(url.userName());
    m_db.setDatabaseName(m_database);
    QVERIFY2(m_db.open(), qPrintable(m_db.lastError().text()));
    const Status created = PgTimetableSchema::create(m_db, 6);
    QVERIFY2(created, qPrintable(created ? QString() : created.error().message));
}

void TestPgTimetableImportRun::cleanupTestCase()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("tt"));
    if (m_admin.isOpen() && !m_database.isEmpty()) {
        QSqlQuery q(m_admin);
        q.exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    }
}

void TestPgTimetableImportRun::chainWithBuiltins_importsKeepsThePasswordApartAndRuns()
{
    test::TestSmtpServer smtp;
    if (const QString failed = smtp.start(test::TestSmtpServer::Mode::StartTls); !failed.isEmpty())
        HG_REQUIRE_PART(false, "the test SMTP server (python3-aiosmtpd, openssl)");
    test::CliSandbox cli{QStringLiteral(HOURGLASS_BINARY)};
    const QString dumped = cli.filePath(QStringLiteral("dump.tsv"));
    const QString password = QStringLiteral("hunter2");
    const QJsonObject mail{
        {QStringLiteral("username"), QStringLiteral("bob")},
        {QStringLiteral("password"), password},
        {QStringLiteral("serverhost"), QStringLiteral("127.0.0.1")},
        {QStringLiteral("serverport"), smtp.port()},
        {QStringLiteral("senderaddr"), QStringLiteral("etl@example.org")},
        {QStringLiteral("toaddr"), QJsonArray{QStringLiteral("ops@example.org")}},
        {QStringLiteral("subject"), QStringLiteral("loaded")},
        {QStringLiteral("msgbody"), QStringLiteral("100 rows")}};
    const QJsonObject load{
        {QStringLiteral("sql"), QStringLiteral("COPY hg_in FROM STDIN")},
        {QStringLiteral("cmd"), QStringLiteral("seq")},
        {QStringLiteral("args"), QJsonArray{QStringLiteral("1"), QStringLiteral("100")}}};
    const QJsonObject dump{
        {QStringLiteral("sql"), QStringLiteral("COPY (SELECT n FROM hg_in ORDER BY n) TO STDOUT")},
        {QStringLiteral("filename"), dumped}};
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("CREATE TABLE hg_in (n int)")));
    // As pg_timetable's own functions write it: a job, then tasks after it.
    QVERIFY(q.prepare(QStringLiteral("SELECT timetable.add_job('etl', '0 3 * * *', "
                                     "'CopyFromProgram', CAST(? AS jsonb), 'BUILTIN', "
                                     "job_ignore_errors => false)")));
    q.addBindValue(QString::fromUtf8(QJsonDocument(load).toJson(QJsonDocument::Compact)));
    QVERIFY2(q.exec() && q.next(), qPrintable(q.lastError().text()));
    const qint64 chainId = q.value(0).toLongLong();
    const auto addTask = [&](const QString &command, const QJsonObject &parameter, int order) {
        QSqlQuery t(m_db);
        t.prepare(QStringLiteral("SELECT timetable.add_task('BUILTIN', ?, (SELECT task_id FROM "
                                 "timetable.task WHERE chain_id = ? ORDER BY task_order DESC "
                                 "LIMIT 1), 10)"));
        t.addBindValue(command);
        t.addBindValue(chainId);
        if (!t.exec() || !t.next())
            return t.lastError().text();
        const qint64 taskId = t.value(0).toLongLong();
        QSqlQuery p(m_db);
        p.prepare(QStringLiteral("INSERT INTO timetable.parameter (task_id, order_id, value) "
                                 "VALUES (?, 1, CAST(? AS jsonb))"));
        p.addBindValue(taskId);
        p.addBindValue(QString::fromUtf8(QJsonDocument(parameter).toJson(QJsonDocument::Compact)));
        Q_UNUSED(order);
        return p.exec() ? QString() : p.lastError().text();
    };
    QCOMPARE(addTask(QStringLiteral("CopyToFile"), dump, 20), QString());
    QCOMPARE(addTask(QStringLiteral("SendMail"), mail, 30), QString());

    QUrl url = test::postgresUrl();
    url.setPath(QLatin1Char('/') + m_database);
    const QString failed =
        cli.define({{QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("tt"),
                     QStringLiteral("--kind"), QStringLiteral("pgtimetable"),
                     QStringLiteral("--url"), url.toString()}});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const test::CliSandbox::Output imported =
        cli.run({QStringLiteral("remote"), QStringLiteral("import"), QStringLiteral("tt"),
                 QStringLiteral("etl"), QStringLiteral("--into"), QStringLiteral("pgt")});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.out + imported.err));
    QVERIFY2(imported.out.contains(QLatin1String("kept apart from the store")),
             qPrintable(imported.out));
    // Nowhere in the store's files (the store, its WAL): only in the secrets file.
    QDirIterator files(cli.path(), QDir::Files, QDirIterator::Subdirectories);
    bool inSecretsFile = false;
    while (files.hasNext()) {
        const QString path = files.next();
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        if (!file.readAll().contains(password.toUtf8()))
            continue;
        QVERIFY2(!path.contains(QLatin1String(".db")), qPrintable(path));
        inSecretsFile = true;
        QCOMPARE(QFile::permissions(path) & (QFile::ReadGroup | QFile::ReadOther),
                 QFileDevice::Permissions());
    }
    QVERIFY(inSecretsFile);
    // The test's own CA stands in for a public one (pg_timetable's SendMail names none).
    {
        QSqlDatabase store =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("store"));
        store.setDatabaseName(cli.db());
        QVERIFY(store.open());
        QSqlQuery read(store);
        QVERIFY(
            read.exec(QStringLiteral("SELECT id, arguments FROM task WHERE command = 'SendMail'")));
        QVERIFY(read.next());
        const qint64 taskId = read.value(0).toLongLong();
        QJsonArray arguments = QJsonDocument::fromJson(read.value(1).toByteArray()).array();
        QJsonObject argument =
            QJsonDocument::fromJson(arguments.at(0).toString().toUtf8()).object();
        argument.insert(QStringLiteral("ca"), smtp.caFile());
        arguments[0] = QString::fromUtf8(QJsonDocument(argument).toJson(QJsonDocument::Compact));
        read.finish();
        QSqlQuery edit(store);
        QVERIFY(edit.prepare(QStringLiteral("UPDATE task SET arguments = ? WHERE id = ?")));
        edit.addBindValue(
            QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact)));
        edit.addBindValue(taskId);
        QVERIFY2(edit.exec() && edit.numRowsAffected() == 1, qPrintable(edit.lastError().text()));
        store.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("store"));

    const test::CliSandbox::Output ran = cli.run(
        {QStringLiteral("run"), QStringLiteral("pgt/etl"), QStringLiteral("--wait")}, 120000);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*), sum(n) FROM hg_in")) && q.next());
    QCOMPARE(q.value(0).toInt(), 100);
    QCOMPARE(q.value(1).toInt(), 5050);
    QFile out(dumped);
    QVERIFY(out.open(QIODevice::ReadOnly));
    QCOMPARE(out.readAll().count('\n'), 100);
    QTRY_COMPARE(smtp.messages().size(), 1);
    QCOMPARE(smtp.messages().at(0).to, QStringList{QStringLiteral("ops@example.org")});
    QVERIFY(smtp.messages().at(0).content.contains("Subject: loaded\r\n"));
}

QTEST_GUILESS_MAIN(TestPgTimetableImportRun)
#include "tst_pgtimetableimportrun.moc"
