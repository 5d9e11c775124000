#include "domain/connectionurl.h"
#include "remote/connectionsecrets.h"
#include "remote/passwordfile.h"
#include "remote/pgtimetableconverter.h"
#include "remote/remotedatabase.h"
#include "store/projectexporter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// Connection URLs, the password files used where no keychain runs, connect errors a user can
// act on, and the conversion between pg_timetable chains and local ones. No server needed;
// the test runs without a session bus, so the keychain is unavailable as on a headless box.
class TestRemoteConnection : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void url_parsesPostgresAndMysql()
    {
        const Result<ConnectionProfile> pg = ConnectionUrl::parse(
            QStringLiteral("tt"), ConnectionKind::PgTimetable,
            QStringLiteral("postgresql://ops@db.example:6432/jobs?sslmode=verify-full"));
        QVERIFY2(pg, qPrintable(pg ? QString() : pg.error().message));
        QCOMPARE(pg->host, QStringLiteral("db.example"));
        QCOMPARE(pg->port, 6432);
        QCOMPARE(pg->database, QStringLiteral("jobs"));
        QCOMPARE(pg->userName, QStringLiteral("ops"));
        QCOMPARE(pg->options, QStringLiteral("sslmode=verify-full"));
        QCOMPARE(pg->databaseKind, ConnectionKind::PostgreSql);
        QCOMPARE(ConnectionUrl::format(pg.value()),
                 QStringLiteral("postgresql://ops@db.example:6432/jobs?sslmode=verify-full"));

        const Result<ConnectionProfile> ds =
            ConnectionUrl::parse(QStringLiteral("ds"), ConnectionKind::DolphinScheduler,
                                 QStringLiteral("mysql://ds@127.0.0.1/dolphinscheduler"));
        QVERIFY(ds);
        QCOMPARE(ds->databaseKind, ConnectionKind::MySql);
        QCOMPARE(ds->effectivePort(), 3306);
    }

    void url_refusesAPasswordAndSaysWhereItGoes()
    {
        const Result<ConnectionProfile> inUserInfo =
            ConnectionUrl::parse(QStringLiteral("tt"), ConnectionKind::PgTimetable,
                                 QStringLiteral("postgresql://ops:secret@db/jobs"));
        QVERIFY(!inUserInfo);
        QCOMPARE(inUserInfo.error().kind, ErrorKind::Invalid);
        QVERIFY(inUserInfo.error().message.contains(QLatin1String("--password-stdin")));
        QVERIFY(!inUserInfo.error().message.contains(QLatin1String("secret")));
        QVERIFY(!ConnectionUrl::parse(QStringLiteral("tt"), ConnectionKind::PgTimetable,
                                      QStringLiteral("postgresql://db/jobs?password=secret")));
    }

    void url_refusesAServerTheKindCannotUse()
    {
        const Result<ConnectionProfile> profile =
            ConnectionUrl::parse(QStringLiteral("tt"), ConnectionKind::PgTimetable,
                                 QStringLiteral("mysql://ops@db/jobs"));
        QVERIFY(!profile);
        QVERIFY(profile.error().message.contains(QLatin1String("pgtimetable")));
        QVERIFY(!ConnectionUrl::parse(QStringLiteral("x"), ConnectionKind::PgTimetable,
                                      QStringLiteral("http://db/jobs")));
        QVERIFY(!ConnectionUrl::parse(QStringLiteral("x"), ConnectionKind::PgTimetable,
                                      QStringLiteral("postgresql:///jobs")));
    }

    void pgpass_isWrittenEscapedPrivateAndReplaced()
    {
        QTemporaryDir home;
        ConnectionProfile profile = pgProfile();
        QVERIFY(PasswordFile::write(profile, QStringLiteral("a:b\\c"), home.path()));
        QVERIFY(PasswordFile::write(pgProfile(QStringLiteral("other")), QStringLiteral("x"),
                                    home.path()));
        QVERIFY(PasswordFile::write(profile, QStringLiteral("new"), home.path()));
        const QString path = home.filePath(QStringLiteral(".pgpass"));
        // libpq ignores a .pgpass that its group or others may read.
        const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                                | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                                | QFileDevice::WriteOther | QFileDevice::ExeOther;
        QCOMPARE(QFile::permissions(path) & others, QFileDevice::Permissions());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(u'\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.contains(QStringLiteral("db.example:5432:jobs:ops:new")));
        QVERIFY(PasswordFile::holds(profile, home.path()));
        QVERIFY(PasswordFile::remove(profile, home.path()));
        QVERIFY(!PasswordFile::holds(profile, home.path()));
        QVERIFY(PasswordFile::holds(pgProfile(QStringLiteral("other")), home.path()));
    }

    void myCnf_keepsTheProfilesOwnGroupAndTheRest()
    {
        QTemporaryDir home;
        const QString path = home.filePath(QStringLiteral(".my.cnf"));
        QFile existing(path);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("[client]\nuser=me\n");
        existing.close();
        ConnectionProfile profile = pgProfile();
        profile.databaseKind = ConnectionKind::MySql;
        QVERIFY(PasswordFile::write(profile, QStringLiteral("p w\"d"), home.path()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.startsWith(QLatin1String("[client]\nuser=me\n")));
        QVERIFY(
            text.contains(QLatin1String("[hourglass-db]\nuser=\"ops\"\npassword=\"p w\\\"d\"")));
        QVERIFY(PasswordFile::remove(profile, home.path()));
        QVERIFY(file.seek(0));
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), QStringLiteral("[client]\nuser=me\n"));
    }

    void secrets_fallBackToTheFileWithoutAKeychain()
    {
        QTemporaryDir home;
        ConnectionProfile profile = pgProfile();
        const ConnectionSecrets secrets(Keychain(QStringLiteral("Hourglass test"), 5000),
                                        home.path());
        const Result<QString> where = secrets.store(profile, QStringLiteral("s3cret"));
        QVERIFY2(where, qPrintable(where ? QString() : where.error().message));
        QCOMPARE(where.value(), home.filePath(QStringLiteral(".pgpass")));
        QVERIFY(profile.keychainKey.isEmpty());
        const Result<QString> looked = secrets.lookup(profile);
        QVERIFY(looked);
        QVERIFY(looked->isEmpty()); // libpq reads the file itself
        QVERIFY(secrets.forget(profile));
        QVERIFY(!PasswordFile::holds(profile, home.path()));
    }

    void connect_refusedNamesTheRemoteAndTheCause()
    {
        ConnectionProfile profile = pgProfile();
        profile.host = QStringLiteral("127.0.0.1");
        profile.port = 1;
        const auto remote = RemoteDatabase::open(profile, {}, 5);
        QVERIFY(!remote);
        QCOMPARE(remote.error().kind, ErrorKind::Unavailable);
        QVERIFY2(remote.error().message.contains(QLatin1String("remote 'db'"))
                     && remote.error().message.contains(QLatin1String("refused")),
                 qPrintable(remote.error().message));
    }

    void connect_errorsAreClassified_data()
    {
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("expected");
        QTest::newRow("dns") << "could not translate host name \"nope\" to address"
                             << "not found (DNS)";
        QTest::newRow("timeout") << "timeout expired"
                                 << "unreachable";
        QTest::newRow("auth") << "FATAL: password authentication failed for user \"ops\""
                              << "authentication failed for user 'ops'";
        QTest::newRow("mysql auth") << "Access denied for user 'ops'@'localhost'"
                                    << "authentication failed";
        QTest::newRow("database") << "FATAL: database \"jobs\" does not exist"
                                  << "database 'jobs' does not exist";
    }

    void connect_errorsAreClassified()
    {
        QFETCH(QString, driver);
        QFETCH(QString, expected);
        const QString message = RemoteDatabase::explainConnectError(pgProfile(), driver, 10);
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void converter_importsALinearChainInOrder()
    {
        PgtChain chain;
        chain.id = 7;
        chain.name = QStringLiteral("nightly");
        chain.runAt = QStringLiteral("30 2 * * *");
        chain.live = true;
        chain.maxInstances = 1;
        chain.timeoutMs = 1500;
        chain.tasks << task(10, QStringLiteral("SQL"), QStringLiteral("SELECT $1"),
                            {QStringLiteral("[\"x\", 2]")}, true)
                    << task(20, QStringLiteral("PROGRAM"), QStringLiteral("/bin/echo"),
                            {QStringLiteral("[\"hi\"]")})
                    << task(30, QStringLiteral("BUILTIN"), QStringLiteral("Sleep"),
                            {QStringLiteral("5")});
        const Result<QJsonObject> document = PgTimetableConverter::toDocument(
            chain, QStringLiteral("ops"), QStringLiteral("tt"), QStringLiteral("Europe/Vienna"));
        QVERIFY2(document, qPrintable(document ? QString() : document.error().message));
        const QJsonObject local = ProjectExporter::firstChain(*document);
        QCOMPARE(local.value(QStringLiteral("timeoutSeconds")).toInt(), 2);
        const QJsonArray tasks = local.value(QStringLiteral("tasks")).toArray();
        QCOMPARE(tasks.size(), 3);
        QCOMPARE(tasks.at(0).toObject().value(QStringLiteral("connection")).toString(),
                 QStringLiteral("tt"));
        QCOMPARE(tasks.at(0).toObject().value(QStringLiteral("arguments")).toArray(),
                 (QJsonArray{QStringLiteral("x"), QStringLiteral("2")}));
        QCOMPARE(tasks.at(2).toObject().value(QStringLiteral("arguments")).toArray().at(0),
                 QJsonValue(QStringLiteral("{\"seconds\":5}")));
        const QJsonArray dependencies = local.value(QStringLiteral("dependencies")).toArray();
        QCOMPARE(dependencies.size(), 2);
        // The first task ignores errors: the second follows it whatever happens.
        QCOMPARE(dependencies.at(0).toObject().value(QStringLiteral("when")).toString(),
                 QStringLiteral("completion"));
        QCOMPARE(dependencies.at(1).toObject().value(QStringLiteral("when")).toString(),
                 QStringLiteral("success"));
        const QJsonObject schedule =
            local.value(QStringLiteral("schedules")).toArray().at(0).toObject();
        QCOMPARE(schedule.value(QStringLiteral("dialect")).toString(),
                 QStringLiteral("pgtimetable"));
        QCOMPARE(schedule.value(QStringLiteral("timeZone")).toString(),
                 QStringLiteral("Europe/Vienna"));

        // And back: the same linear chain.
        const Result<PgtChain> back = PgTimetableConverter::fromChainObject(local);
        QVERIFY2(back, qPrintable(back ? QString() : back.error().message));
        QCOMPARE(back->tasks.size(), 3);
        QCOMPARE(back->tasks.at(0).parameters, QStringList{QStringLiteral("[\"x\",\"2\"]")});
        QCOMPARE(back->tasks.at(2).parameters, QStringList{QStringLiteral("5")});
        QCOMPARE(back->runAt, chain.runAt);
    }

    void converter_refusesWhatPgTimetableCannotExpress_data()
    {
        QTest::addColumn<QByteArray>("chain");
        QTest::addColumn<QString>("expected");
        QTest::newRow("parallel") << QByteArray(
            R"({"name":"c","tasks":[{"name":"a","kind":"sql","command":"x"},
                 {"name":"b","kind":"sql","command":"y"}],"dependencies":[]})")
                                  << "both start the chain";
        QTest::newRow("join") << QByteArray(
            R"({"name":"c","tasks":[{"name":"a","kind":"sql","command":"x"},
                 {"name":"b","kind":"sql","command":"y"},{"name":"j","kind":"sql","command":"z"}],
                 "dependencies":[{"task":"j","upstream":"a"},{"task":"j","upstream":"b"}]})")
                              << "task j waits for two tasks";
        QTest::newRow("http") << QByteArray(
            R"({"name":"c","tasks":[{"name":"h","kind":"http","command":"GET"}]})")
                              << "task h is a http task";
        QTest::newRow("retries") << QByteArray(
            R"({"name":"c","tasks":[{"name":"r","kind":"sql","command":"x",
                 "maxRetries":2}]})")
                                 << "task r retries";
        QTest::newRow("schedule") << QByteArray(
            R"({"name":"c","tasks":[],"schedules":[{"expression":"0 0 12 ? * MON"}]})")
                                  << "not a pg_timetable schedule";
    }

    void converter_refusesWhatPgTimetableCannotExpress()
    {
        QFETCH(QByteArray, chain);
        QFETCH(QString, expected);
        const Result<PgtChain> converted =
            PgTimetableConverter::fromChainObject(QJsonDocument::fromJson(chain).object());
        QVERIFY(!converted);
        QCOMPARE(converted.error().kind, ErrorKind::Invalid);
        QVERIFY2(converted.error().message.contains(expected),
                 qPrintable(converted.error().message));
    }

private:
    static ConnectionProfile pgProfile(const QString &database = QStringLiteral("jobs"))
    {
        ConnectionProfile profile;
        profile.name = QStringLiteral("db");
        profile.kind = ConnectionKind::PgTimetable;
        profile.host = QStringLiteral("db.example");
        profile.database = database;
        profile.userName = QStringLiteral("ops");
        return profile;
    }

    static PgtTask task(double order, const QString &kind, const QString &command,
                        const QStringList &parameters, bool ignoreError = false)
    {
        PgtTask t;
        t.order = order;
        t.kind = kind;
        t.command = command;
        t.parameters = parameters;
        t.ignoreError = ignoreError;
        return t;
    }
};

QTEST_GUILESS_MAIN(TestRemoteConnection)
#include "tst_remoteconnection.moc"
