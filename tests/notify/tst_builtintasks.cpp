#include "domain/builtinarguments.h"
#include "domain/engineconfig.h"
#include "executorrun.h"
#include "executors/copydataexecutor.h"
#include "executors/sendmailexecutor.h"
#include "notify/channelsecrets.h"
#include "notify/sendmailtask.h"
#include "remote/pgtimetableconverter.h"
#include "store/projectexporter.h"
#include "store/storelocation.h"
#include "testservers.h"
#include "testsmtpserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// pg_timetable's builtins in Hourglass: SendMail against a real SMTP server (aiosmtpd, STARTTLS
// and AUTH), the four COPY builtins against the real PostgreSQL, and a pg_timetable chain
// using them converted both ways.
class TestBuiltinTasks final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sendMail_withAuthAttachmentsAndBcc_arrivesAsWritten();
    void sendMail_wrongPassword_failsWithTheServersAnswer();
    void arguments_badOnesAreRefusedNamingTheField_data();
    void arguments_badOnesAreRefusedNamingTheField();
    void copy_fileInAndOut_roundTrips();
    void copy_throughPrograms_roundTrips();
    void copy_programThatFails_storesNothing();
    void copy_stop_endsTheProgramAndTheStatement();
    void copy_secondStatement_isRefusedAndRunsNothing();
    void sendMail_serverSilentAfterTheMessage_stopEndsItAtOnce();
    void pgTimetable_builtins_importWithThePasswordKeptApartAndExportBack();
    void pgTimetable_parameterRows_becomeATaskEach();
    void pgTimetable_shutdown_isRefusedWithItsReason();

private:
    SqlTarget postgres();
    // One statement on a connection of its own: its first value, and what failed.
    QVariant query(const QString &sql, QString *error);
    QString execute(const QString &sql); // empty when it worked
    int count(const QString &table);
    CopyDataExecutor *copy(Builtin builtin, const QJsonObject &argument);
    ProcessSpec program(const QString &name, const QStringList &arguments);

    QTemporaryDir m_dir;
    QString m_table = QStringLiteral("hg_copy_%1").arg(QRandomGenerator::global()->generate());
    std::unique_ptr<CopyDataExecutor> m_copy;
};

#define HG_SMTP(server)                                                                            \
    test::TestSmtpServer server;                                                                   \
    if (const QString failed = server.start(test::TestSmtpServer::Mode::StartTls);                 \
        !failed.isEmpty())                                                                         \
        HG_REQUIRE_PART(false, "the test SMTP server (python3-aiosmtpd, openssl)");

void TestBuiltinTasks::initTestCase()
{
    // No session bus (CMake): the password goes to the 0600 file, here.
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("config"))));
}

void TestBuiltinTasks::sendMail_withAuthAttachmentsAndBcc_arrivesAsWritten()
{
    HG_SMTP(server);
    const Result<QString> key =
        ChannelSecrets().keepPassword(QStringLiteral("sendmail test"), QStringLiteral("hunter2"));
    QVERIFY2(key, qPrintable(key ? QString() : key.error().message));
    const QString attachment = m_dir.filePath(QStringLiteral("report.csv"));
    QFile file(attachment);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b\n1,2\n");
    file.close();
    const QJsonObject argument{
        {QStringLiteral("server"), QStringLiteral("smtp://bob@127.0.0.1:%1").arg(server.port())},
        {QStringLiteral("ca"), server.caFile()},
        {QStringLiteral("passwordKey"), key.value()},
        {QStringLiteral("from"), QStringLiteral("etl@example.org")},
        {QStringLiteral("to"), QJsonArray{QStringLiteral("ops@example.org")}},
        {QStringLiteral("cc"), QJsonArray{QStringLiteral("dba@example.org")}},
        {QStringLiteral("bcc"), QJsonArray{QStringLiteral("audit@example.org")}},
        {QStringLiteral("subject"), QStringLiteral("Nightly load: köln ✓")},
        {QStringLiteral("body"), QStringLiteral("<b>done</b>")},
        {QStringLiteral("contentType"), QStringLiteral("text/html; charset=UTF-8")},
        {QStringLiteral("attachments"), QJsonArray{attachment}},
        {QStringLiteral("attachmentData"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("File.txt")},
                                {QStringLiteral("base64"), QStringLiteral("RmlsZSBDb250ZW50")}}}}};
    const Result<BuiltinArguments> parsed = BuiltinArguments::parse(
        Builtin::SendMail, QString::fromUtf8(QJsonDocument(argument).toJson()));
    QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
    SendMailExecutor executor(parsed->as<SendMailArguments>(), &SendMailTask::send, 20000);
    const test::ExecutorRun run = test::runExecutor(executor);
    QVERIFY2(run.outcome.state == RunState::Succeeded, qPrintable(run.outcome.error));
    QVERIFY2(run.text().contains(QLatin1String("3 recipient")), qPrintable(run.text()));
    QTRY_COMPARE(server.messages().size(), 1);
    const test::TestSmtpServer::Message got = server.messages().at(0);
    QCOMPARE(got.from, QStringLiteral("etl@example.org"));
    QCOMPARE(got.to,
             (QStringList{QStringLiteral("ops@example.org"), QStringLiteral("dba@example.org"),
                          QStringLiteral("audit@example.org")}));
    QVERIFY(got.content.contains("Cc: dba@example.org\r\n"));
    QVERIFY2(!got.content.contains("audit@"), got.content.constData()); // Bcc: envelope only
    QVERIFY(got.content.contains("Subject: =?UTF-8?B?"));
    QVERIFY(got.content.contains("Content-Type: multipart/mixed"));
    QVERIFY(got.content.contains("Content-Type: text/html; charset=utf-8"));
    QVERIFY(got.content.contains("filename=\"report.csv\""));
    QVERIFY(got.content.contains("filename=\"File.txt\""));
    QVERIFY(got.content.contains(QByteArray("a,b\n1,2\n").toBase64()));
    QVERIFY(got.content.contains(QByteArray("File Content").toBase64()));
    QVERIFY(got.content.contains(QByteArray("<b>done</b>").toBase64()));
}

void TestBuiltinTasks::sendMail_wrongPassword_failsWithTheServersAnswer()
{
    HG_SMTP(server);
    const Result<QString> key =
        ChannelSecrets().keepPassword(QStringLiteral("sendmail wrong"), QStringLiteral("nope"));
    QVERIFY(key);
    SendMailArguments mail;
    mail.server = QStringLiteral("smtp://bob@127.0.0.1:%1").arg(server.port());
    mail.caFile = server.caFile();
    mail.passwordKey = key.value();
    mail.from = QStringLiteral("etl@example.org");
    mail.to = {QStringLiteral("ops@example.org")};
    SendMailExecutor executor(mail, &SendMailTask::send, 20000);
    const test::ExecutorRun run = test::runExecutor(executor);
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("535")), qPrintable(run.outcome.error));
    QVERIFY(!run.outcome.error.contains(QLatin1String("nope")));
    QCOMPARE(server.messages().size(), 0);
}

void TestBuiltinTasks::arguments_badOnesAreRefusedNamingTheField_data()
{
    QTest::addColumn<QString>("builtin");
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("problem");
    QTest::newRow("password in the URL")
        << QStringLiteral("SendMail")
        << QStringLiteral("{\"server\": \"smtp://bob:pw@mail.example.org\", \"from\": \"a@b.org\", "
                          "\"to\": [\"c@d.org\"]}")
        << QStringLiteral("plain text");
    QTest::newRow("clear text to a remote server")
        << QStringLiteral("SendMail")
        << QStringLiteral("{\"server\": \"smtp://mail.example.org\", \"tls\": \"none\", \"from\": "
                          "\"a@b.org\", \"to\": [\"c@d.org\"]}")
        << QStringLiteral("SendMail.tls");
    QTest::newRow("no recipient")
        << QStringLiteral("SendMail")
        << QStringLiteral("{\"server\": \"smtp://mail.example.org\", \"from\": \"a@b.org\"}")
        << QStringLiteral("needs a recipient");
    QTest::newRow("a header in an address")
        << QStringLiteral("SendMail")
        << QStringLiteral("{\"server\": \"smtp://m.example.org\", \"from\": \"a@b.org\", "
                          "\"to\": [\"c@d.org\\r\\nBcc: x@y.org\"]}")
        << QStringLiteral("SendMail.to");
    QTest::newRow("COPY from a server file")
        << QStringLiteral("CopyFromFile")
        << QStringLiteral("{\"sql\": \"COPY t FROM '/etc/passwd'\", \"file\": \"/tmp/x\"}")
        << QStringLiteral("FROM STDIN");
    QTest::newRow("relative file")
        << QStringLiteral("CopyToFile")
        << QStringLiteral("{\"sql\": \"COPY t TO STDOUT\", \"file\": \"out.csv\"}")
        << QStringLiteral("absolute");
    QTest::newRow("no program") << QStringLiteral("CopyToProgram")
                                << QStringLiteral("{\"sql\": \"COPY t TO STDOUT\"}")
                                << QStringLiteral("CopyToProgram.program");
}

void TestBuiltinTasks::arguments_badOnesAreRefusedNamingTheField()
{
    QFETCH(QString, builtin);
    QFETCH(QString, argument);
    QFETCH(QString, problem);
    const Result<BuiltinArguments> parsed = BuiltinArguments::parse(builtin, argument);
    QVERIFY(!parsed);
    QVERIFY2(parsed.error().message.contains(problem), qPrintable(parsed.error().message));
}

SqlTarget TestBuiltinTasks::postgres()
{
    return SqlTarget::forStore(StoreLocation::parse(test::postgresUrl().toString()).value());
}

QVariant TestBuiltinTasks::query(const QString &sql, QString *error)
{
    QVariant value;
    {
        Result<QSqlDatabase> db = postgres().open(QStringLiteral("hg-test"));
        if (!db) {
            *error = db.error().message;
        } else {
            QSqlQuery q(db.value());
            if (!q.exec(sql))
                *error = q.lastError().text();
            else if (q.next())
                value = q.value(0);
            db->close();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("hg-test"));
    return value;
}

QString TestBuiltinTasks::execute(const QString &sql)
{
    QString error;
    (void)query(sql, &error);
    return error;
}

int TestBuiltinTasks::count(const QString &table)
{
    QString error;
    const QVariant rows = query(QStringLiteral("SELECT count(*) FROM %1").arg(table), &error);
    return error.isEmpty() ? rows.toInt() : -1;
}

ProcessSpec TestBuiltinTasks::program(const QString &name, const QStringList &arguments)
{
    ProcessSpec spec;
    spec.program = name;
    spec.arguments = arguments;
    spec.environment = EngineConfig::safeEnvironment(QProcessEnvironment::systemEnvironment());
    spec.graceMs = 1000;
    return spec;
}

CopyDataExecutor *TestBuiltinTasks::copy(Builtin builtin, const QJsonObject &argument)
{
    const Result<BuiltinArguments> parsed =
        BuiltinArguments::parse(builtin, QString::fromUtf8(QJsonDocument(argument).toJson()));
    if (!parsed) {
        qWarning("%s", qPrintable(parsed.error().message));
        return nullptr;
    }
    const CopyDataArguments &arguments = parsed->as<CopyDataArguments>();
    std::optional<ProcessSpec> spec;
    if (!arguments.program.isEmpty())
        spec = program(arguments.program, arguments.arguments);
    m_copy = std::make_unique<CopyDataExecutor>(builtin, arguments, postgres(), spec, 0);
    return m_copy.get();
}

void TestBuiltinTasks::copy_fileInAndOut_roundTrips()
{
    HG_REQUIRE_SERVER(test::postgresUrl(), "HOURGLASS_TEST_PG_URL");
    QCOMPARE(execute(QStringLiteral("CREATE TABLE %1 (id int, name text)").arg(m_table)),
             QString());
    const QString in = m_dir.filePath(QStringLiteral("in.csv"));
    QFile file(in);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 5000; ++i)
        file.write(QStringLiteral("%1,name %1 ✓\n").arg(i).toUtf8());
    file.close();
    CopyDataExecutor *from = copy(
        Builtin::CopyFromFile,
        {{QStringLiteral("sql"), QStringLiteral("COPY %1 FROM STDIN (FORMAT csv)").arg(m_table)},
         {QStringLiteral("file"), in}});
    QVERIFY(from);
    test::ExecutorRun run = test::runExecutor(*from);
    QVERIFY2(run.outcome.state == RunState::Succeeded, qPrintable(run.outcome.error));
    QVERIFY2(run.text().contains(QLatin1String("5000 rows copied from")), qPrintable(run.text()));
    QCOMPARE(count(m_table), 5000);
    // Out again, into a file that is replaced whole; refused without overwrite.
    const QString out = m_dir.filePath(QStringLiteral("out.csv"));
    QFile old(out);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old\n");
    old.close();
    const QJsonObject toFile{
        {QStringLiteral("sql"),
         QStringLiteral("COPY (SELECT * FROM %1 ORDER BY id) TO STDOUT (FORMAT csv)").arg(m_table)},
        {QStringLiteral("file"), out}};
    run = test::runExecutor(*copy(Builtin::CopyToFile, toFile));
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("overwrite")), qPrintable(run.outcome.error));
    QJsonObject overwrite = toFile;
    overwrite.insert(QStringLiteral("overwrite"), true);
    run = test::runExecutor(*copy(Builtin::CopyToFile, overwrite));
    QVERIFY2(run.outcome.state == RunState::Succeeded, qPrintable(run.outcome.error));
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), file.readAll());
    // A statement the server refuses: the file stays as it was.
    QJsonObject bad = overwrite;
    bad.insert(QStringLiteral("sql"), QStringLiteral("COPY no_such_table TO STDOUT"));
    run = test::runExecutor(*copy(Builtin::CopyToFile, bad));
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("no_such_table")),
             qPrintable(run.outcome.error));
    QCOMPARE(QFileInfo(out).size(), file.size());
    // A FIFO is not read (it could block the COPY for good).
    const QString fifo = m_dir.filePath(QStringLiteral("fifo"));
    QVERIFY(QProcess::execute(QStringLiteral("mkfifo"), {fifo}) == 0);
    run = test::runExecutor(
        *copy(Builtin::CopyFromFile,
              {{QStringLiteral("sql"), QStringLiteral("COPY %1 FROM STDIN").arg(m_table)},
               {QStringLiteral("file"), fifo}}));
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("not a file")),
             qPrintable(run.outcome.error));
}

void TestBuiltinTasks::copy_throughPrograms_roundTrips()
{
    HG_REQUIRE_SERVER(test::postgresUrl(), "HOURGLASS_TEST_PG_URL");
    const QString table = m_table + QStringLiteral("_p");
    QCOMPARE(execute(QStringLiteral("CREATE TABLE %1 (n int)").arg(table)), QString());
    test::ExecutorRun run = test::runExecutor(*copy(
        Builtin::CopyFromProgram,
        {{QStringLiteral("sql"), QStringLiteral("COPY %1 FROM STDIN").arg(table)},
         {QStringLiteral("program"), QStringLiteral("seq")},
         {QStringLiteral("arguments"), QJsonArray{QStringLiteral("1"), QStringLiteral("20000")}}}));
    QVERIFY2(run.outcome.state == RunState::Succeeded, qPrintable(run.outcome.error));
    QVERIFY2(run.text().contains(QLatin1String("20000 rows copied from program seq")),
             qPrintable(run.text()));
    QCOMPARE(count(table), 20000);
    const QString out = m_dir.filePath(QStringLiteral("sum"));
    run = test::runExecutor(
        *copy(Builtin::CopyToProgram,
              {{QStringLiteral("sql"), QStringLiteral("COPY %1 TO STDOUT").arg(table)},
               {QStringLiteral("program"), QStringLiteral("sh")},
               {QStringLiteral("arguments"),
                QJsonArray{QStringLiteral("-c"),
                           QStringLiteral("awk '{s+=$1} END {print s}' > '%1'; echo to stderr >&2")
                               .arg(out)}}}));
    QVERIFY2(run.outcome.state == RunState::Succeeded, qPrintable(run.outcome.error));
    QVERIFY2(run.text().contains(QLatin1String("to stderr")), qPrintable(run.text()));
    QFile sum(out);
    QVERIFY(sum.open(QIODevice::ReadOnly));
    QCOMPARE(sum.readAll().trimmed(), QByteArray("200010000"));
    // A program that stops reading: the COPY fails, the engine lives on (no SIGPIPE).
    run = test::runExecutor(
        *copy(Builtin::CopyToProgram,
              {{QStringLiteral("sql"),
                QStringLiteral("COPY (SELECT generate_series(1, 3000000)) TO STDOUT")},
               {QStringLiteral("program"), QStringLiteral("head")},
               {QStringLiteral("arguments"), QJsonArray{QStringLiteral("-n1")}}}));
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("stopped reading")),
             qPrintable(run.outcome.error));
}

void TestBuiltinTasks::copy_programThatFails_storesNothing()
{
    HG_REQUIRE_SERVER(test::postgresUrl(), "HOURGLASS_TEST_PG_URL");
    const QString table = m_table + QStringLiteral("_f");
    QCOMPARE(execute(QStringLiteral("CREATE TABLE %1 (n int)").arg(table)), QString());
    // Half its output, then a failure: pg_timetable would have stored the half.
    const test::ExecutorRun run = test::runExecutor(
        *copy(Builtin::CopyFromProgram,
              {{QStringLiteral("sql"), QStringLiteral("COPY %1 FROM STDIN").arg(table)},
               {QStringLiteral("program"), QStringLiteral("sh")},
               {QStringLiteral("arguments"),
                QJsonArray{QStringLiteral("-c"),
                           QStringLiteral("seq 1 1000; echo broken >&2; exit 3")}}}));
    QCOMPARE(run.outcome.state, RunState::Failed);
    QVERIFY2(run.outcome.error.contains(QLatin1String("exit code 3"))
                 || run.outcome.error.contains(QLatin1String("exited with 3"))
                 || run.outcome.error.contains(QLatin1String("3")),
             qPrintable(run.outcome.error));
    QVERIFY2(run.text().contains(QLatin1String("broken")), qPrintable(run.text()));
    QCOMPARE(count(table), 0);
}

void TestBuiltinTasks::copy_stop_endsTheProgramAndTheStatement()
{
    HG_REQUIRE_SERVER(test::postgresUrl(), "HOURGLASS_TEST_PG_URL");
    const QString table = m_table + QStringLiteral("_s");
    QCOMPARE(execute(QStringLiteral("CREATE TABLE %1 (n int)").arg(table)), QString());
    const QString pidFile = m_dir.filePath(QStringLiteral("pid"));
    CopyDataExecutor *executor = copy(
        Builtin::CopyFromProgram,
        {{QStringLiteral("sql"), QStringLiteral("COPY %1 FROM STDIN").arg(table)},
         {QStringLiteral("program"), QStringLiteral("sh")},
         {QStringLiteral("arguments"),
          QJsonArray{QStringLiteral("-c"),
                     QStringLiteral("echo 1; sleep 600 & echo $! > '%1'; wait").arg(pidFile)}}});
    QElapsedTimer clock;
    clock.start();
    const test::ExecutorRun run = test::runExecutor(*executor, 1500);
    QCOMPARE(run.outcome.state, RunState::Cancelled);
    m_copy.reset(); // its end: nothing of it is left
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    QFile pid(pidFile);
    QVERIFY(pid.open(QIODevice::ReadOnly));
    const QByteArray sleeper = pid.readAll().trimmed();
    QTRY_VERIFY_WITH_TIMEOUT(
        !QFile::exists(QStringLiteral("/proc/") + QString::fromLatin1(sleeper)), 5000);
    QCOMPARE(count(table), 0);
}

// The check at definition reads the statement's start; a second statement after it ran too
// (PQexec runs them all): "COPY t FROM STDIN; DROP TABLE canary" dropped it (helper-7).
void TestBuiltinTasks::copy_secondStatement_isRefusedAndRunsNothing()
{
    HG_REQUIRE_SERVER(test::postgresUrl(), "HOURGLASS_TEST_PG_URL");
    const QString table = m_table + QStringLiteral("_two");
    const QString canary = m_table + QStringLiteral("_canary");
    QCOMPARE(execute(QStringLiteral("CREATE TABLE %1 (n int)").arg(table)), QString());
    QCOMPARE(execute(QStringLiteral("CREATE TABLE %1 (n int)").arg(canary)), QString());
    const QString in = m_dir.filePath(QStringLiteral("two.txt"));
    QFile file(in);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("1\n2\n");
    file.close();
    const test::ExecutorRun run = test::runExecutor(
        *copy(Builtin::CopyFromFile,
              {{QStringLiteral("sql"),
                QStringLiteral("COPY %1 FROM STDIN; DROP TABLE %2").arg(table, canary)},
               {QStringLiteral("file"), in}}));
    QCOMPARE(run.outcome.state, RunState::Failed);
    QCOMPARE(count(canary), 0); // still there (-1 were it gone)
    QCOMPARE(count(table), 0);
}

// A server that takes the message and never answers its end: libcurl waits two minutes there
// without a callback (a 5 s task took 125 s; `serve` took 120 s to end on SIGTERM). A stop
// cuts the socket: the attempt and its thread end at once.
void TestBuiltinTasks::sendMail_serverSilentAfterTheMessage_stopEndsItAtOnce()
{
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    QList<QTcpSocket *> clients;
    connect(&server, &QTcpServer::newConnection, this, [&] {
        QTcpSocket *client = server.nextPendingConnection();
        clients << client;
        client->write("220 silent ESMTP\r\n");
        connect(client, &QTcpSocket::readyRead, client, [client] {
            while (client->canReadLine()) {
                const QByteArray line = client->readLine().trimmed().toUpper();
                if (line.startsWith("EHLO") || line.startsWith("HELO") || line.startsWith("MAIL")
                    || line.startsWith("RCPT"))
                    client->write("250 ok\r\n");
                else if (line == "DATA")
                    client->write("354 go on\r\n");
                // "." (the message's end): no answer, ever.
            }
        });
    });
    SendMailArguments mail;
    mail.server = QStringLiteral("smtp://127.0.0.1:%1").arg(server.serverPort());
    mail.security = SmtpSecurity::None;
    mail.from = QStringLiteral("etl@example.org");
    mail.to = {QStringLiteral("ops@example.org")};
    mail.body = QStringLiteral("body");
    QElapsedTimer clock;
    clock.start();
    {
        SendMailExecutor executor(mail, &SendMailTask::send, 0);
        const test::ExecutorRun run = test::runExecutor(executor, 1500);
        QCOMPARE(run.outcome.state, RunState::Cancelled);
    } // its destructor waits for the transfer's thread
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!clients.isEmpty()); // it did reach the end of the message's conversation
}

void TestBuiltinTasks::pgTimetable_builtins_importWithThePasswordKeptApartAndExportBack()
{
    PgtChain chain;
    chain.name = QStringLiteral("etl");
    const auto builtin = [](const QString &name, const QString &command, const QString &parameter) {
        PgtTask task;
        task.name = name;
        task.kind = QStringLiteral("BUILTIN");
        task.command = command;
        task.parameters << parameter;
        return task;
    };
    chain.tasks
        << builtin(
               QStringLiteral("fetch"), QStringLiteral("Download"),
               QStringLiteral(
                   "{\"workersnum\": 2, \"fileurls\": [\"https://example.org/a.csv\",              "
                   "                  \"https://example.org/b.csv\"], \"destpath\": \"/srv/in/\"}"))
        << builtin(QStringLiteral("load"), QStringLiteral("CopyFromFile"),
                   QStringLiteral("{\"sql\": \"COPY t FROM STDIN (FORMAT csv)\", \"filename\": "
                                  "\"/srv/in/a.csv\"}"))
        << builtin(QStringLiteral("dump"), QStringLiteral("CopyToProgram"),
                   QStringLiteral(
                       "{\"sql\": \"COPY t TO STDOUT\", \"cmd\": \"gzip\", \"args\": [\"-c\"]}"))
        << builtin(QStringLiteral("mail"), QStringLiteral("SendMail"),
                   QStringLiteral(
                       "{\"Username\": \"bob\", \"password\": \"s3cret\", \"serverhost\": "
                       "\"smtp.example.org\",                                \"serverport\": 587, "
                       "\"senderaddr\": \"etl@example.org\",                                "
                       "\"toaddr\": [\"ops@example.org\"], \"subject\": \"done\", \"msgbody\": "
                       "\"ok\",                                \"attachmentdata\": [{\"name\": "
                       "\"f.txt\", \"base64data\": \"RmlsZQ==\"}]}"));
    QStringList notes;
    QStringList kept;
    PgTimetableConverter::ImportOptions options;
    options.notes = &notes;
    options.keepPassword = [&kept](const QString &password) -> Result<QString> {
        kept << password;
        return QStringLiteral("hourglass-sendmail:key-1");
    };
    const Result<QJsonObject> document = PgTimetableConverter::toDocument(
        chain, QStringLiteral("pgt"), QStringLiteral("remote"), QStringLiteral("UTC"), options);
    QVERIFY2(document, qPrintable(document ? QString() : document.error().message));
    const QString text = QString::fromUtf8(QJsonDocument(document.value()).toJson());
    QVERIFY2(!text.contains(QLatin1String("s3cret")), qPrintable(text)); // never in the store
    QCOMPARE(kept, QStringList{QStringLiteral("s3cret")});
    QVERIFY(notes.join(QLatin1Char(' ')).contains(QLatin1String("kept apart")));
    const QJsonArray tasks =
        ProjectExporter::firstChain(*document).value(QStringLiteral("tasks")).toArray();
    QCOMPARE(tasks.size(), 5); // two Downloads, one after the other
    QStringList names;
    for (const QJsonValue task : tasks) {
        const QJsonObject object = task.toObject();
        names << object.value(QStringLiteral("name")).toString();
        // Each converted argument is one Hourglass reads.
        const Result<BuiltinArguments> parsed = BuiltinArguments::parse(
            object.value(QStringLiteral("command")).toString(),
            object.value(QStringLiteral("arguments")).toArray().at(0).toString());
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
    }
    QCOMPARE(names,
             (QStringList{QStringLiteral("fetch-1"), QStringLiteral("fetch-2"),
                          QStringLiteral("load"), QStringLiteral("dump"), QStringLiteral("mail")}));
    QCOMPARE(tasks.at(2).toObject().value(QStringLiteral("connection")).toString(),
             QStringLiteral("remote"));
    QVERIFY(tasks.at(4)
                .toObject()
                .value(QStringLiteral("arguments"))
                .toArray()
                .at(0)
                .toString()
                .contains(QLatin1String("\"passwordKey\":\"hourglass-sendmail:key-1\"")));
    // Back to pg_timetable: the password stays here, and the report says so.
    QJsonObject chainObject = ProjectExporter::firstChain(*document);
    QStringList exportNotes;
    const Result<PgtChain> back = PgTimetableConverter::fromChainObject(chainObject, &exportNotes);
    QVERIFY2(back, qPrintable(back ? QString() : back.error().message));
    QCOMPARE(back->tasks.size(), 5);
    const QJsonObject mail =
        QJsonDocument::fromJson(back->tasks.at(4).parameters.at(0).toUtf8()).object();
    QCOMPARE(mail.value(QStringLiteral("serverhost")).toString(),
             QStringLiteral("smtp.example.org"));
    QCOMPARE(mail.value(QStringLiteral("username")).toString(), QStringLiteral("bob"));
    QVERIFY(!mail.contains(QStringLiteral("password")));
    QVERIFY(exportNotes.join(QLatin1Char(' ')).contains(QLatin1String("password")));
    const QJsonObject dump =
        QJsonDocument::fromJson(back->tasks.at(3).parameters.at(0).toUtf8()).object();
    QCOMPARE(dump.value(QStringLiteral("cmd")).toString(), QStringLiteral("gzip"));
}

void TestBuiltinTasks::pgTimetable_parameterRows_becomeATaskEach()
{
    PgtChain chain;
    chain.name = QStringLiteral("rows");
    PgtTask task;
    task.name = QStringLiteral("say");
    task.kind = QStringLiteral("BUILTIN");
    task.command = QStringLiteral("Log");
    task.parameters << QStringLiteral("\"one\"") << QStringLiteral("\"two\"");
    PgtTask program;
    program.name = QStringLiteral("p");
    program.kind = QStringLiteral("PROGRAM");
    program.command = QStringLiteral("echo");
    program.parameters << QStringLiteral("[\"a\"]") << QStringLiteral("[\"b\"]");
    chain.tasks << task;
    QStringList notes;
    PgTimetableConverter::ImportOptions options;
    options.notes = &notes;
    const Result<QJsonObject> document = PgTimetableConverter::toDocument(
        chain, QStringLiteral("pgt"), QStringLiteral("remote"), QStringLiteral("UTC"), options);
    QVERIFY2(document, qPrintable(document ? QString() : document.error().message));
    const QJsonObject chainObject = ProjectExporter::firstChain(*document);
    const QJsonArray tasks = chainObject.value(QStringLiteral("tasks")).toArray();
    QCOMPARE(tasks.size(), 2);
    QCOMPARE(tasks.at(0).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("say-1"));
    QCOMPARE(tasks.at(1).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("say-2"));
    QCOMPARE(chainObject.value(QStringLiteral("dependencies")).toArray().size(), 1);
    QVERIFY(notes.join(QLatin1Char(' ')).contains(QLatin1String("say-1 to say-2")));
    // A program likewise (pg_timetable stops at its first row that exits non-zero): a task
    // per row with that row's arguments, each after the one before succeeded.
    chain.tasks = {program};
    const Result<QJsonObject> programs = PgTimetableConverter::toDocument(
        chain, QStringLiteral("pgt"), QStringLiteral("remote"), QStringLiteral("UTC"));
    QVERIFY2(programs, qPrintable(programs ? QString() : programs.error().message));
    const QJsonObject programChain = ProjectExporter::firstChain(*programs);
    const QJsonArray programTasks = programChain.value(QStringLiteral("tasks")).toArray();
    QCOMPARE(programTasks.size(), 2);
    QCOMPARE(programTasks.at(0).toObject().value(QStringLiteral("arguments")).toArray(),
             QJsonArray{QStringLiteral("a")});
    QCOMPARE(programTasks.at(1).toObject().value(QStringLiteral("arguments")).toArray(),
             QJsonArray{QStringLiteral("b")});
    const QJsonArray edges = programChain.value(QStringLiteral("dependencies")).toArray();
    QCOMPARE(edges.size(), 1);
    QCOMPARE(edges.at(0).toObject().value(QStringLiteral("when")).toString(),
             QStringLiteral("success"));
}

void TestBuiltinTasks::pgTimetable_shutdown_isRefusedWithItsReason()
{
    PgtChain chain;
    chain.name = QStringLiteral("stop");
    PgtTask task;
    task.name = QStringLiteral("bye");
    task.kind = QStringLiteral("BUILTIN");
    task.command = QStringLiteral("Shutdown");
    chain.tasks << task;
    const Result<QJsonObject> document = PgTimetableConverter::toDocument(
        chain, QStringLiteral("pgt"), QStringLiteral("remote"), QStringLiteral("UTC"));
    QVERIFY(!document);
    QVERIFY2(document.error().message.contains(QLatin1String("ends the pg_timetable process")),
             qPrintable(document.error().message));
}

QTEST_GUILESS_MAIN(TestBuiltinTasks)
#include "tst_builtintasks.moc"
