#include "testservers.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// A connection's password, given once on stdin, reaches the server — from the keychain (a
// real GNOME Keyring: CTest runs this through tests/remote/with_keyring.sh) or from ~/.pgpass
// where no keychain runs — and nothing else: not the store, the settings, a log, argv or a
// task's environment. The role hourglass_password_test must give a password (scripts/test
// puts it first in pg_hba.conf).
class TestRemoteSecrets final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void keychain_passwordReachesServerAndSqlTaskButNothingElse();
    void withoutKeychain_passwordGoesToPgpass();
    void wrongPassword_saysAuthenticationFailed();
    void storePassword_comesFromTheKeychain();

private:
    struct Output
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Output run(const QStringList &arguments, const QByteArray &input = {},
               bool withKeychain = true);
    QString remoteUrl() const;
    void expectNowhere(const QString &secret);

    QTemporaryDir m_home;
    QString m_db;
    QString m_password;
    QString m_database;
};

void TestRemoteSecrets::initTestCase()
{
    const QUrl admin = test::postgresUrl();
    HG_REQUIRE_SERVER(admin, "HOURGLASS_TEST_PG_URL");
    m_db = m_home.filePath(QStringLiteral("store.db"));
    m_password = QStringLiteral("Pw:%1\\x").arg(QRandomGenerator::global()->generate());
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
    db.setHostName(admin.host());
    db.setPort(admin.port(5432));
    db.setUserName(admin.userName());
    db.setDatabaseName(admin.path().mid(1));
    QVERIFY2(db.open(), qPrintable(db.lastError().text()));
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("DO $$ BEGIN CREATE ROLE hourglass_password_test LOGIN; "
                                  "EXCEPTION WHEN duplicate_object THEN NULL; END $$")));
    QVERIFY2(
        q.exec(QStringLiteral("ALTER ROLE hourglass_password_test PASSWORD '%1'").arg(m_password)),
        qPrintable(q.lastError().text()));
    // A database of its own: the role may not create tables in the shared one (PostgreSQL 15).
    m_database = QStringLiteral("hg_secrets_%1").arg(QCoreApplication::applicationPid());
    QVERIFY2(
        q.exec(QStringLiteral("CREATE DATABASE %1 OWNER hourglass_password_test").arg(m_database)),
        qPrintable(q.lastError().text()));
}

void TestRemoteSecrets::cleanupTestCase()
{
    if (m_database.isEmpty())
        return;
    QSqlQuery q(QSqlDatabase::database(QStringLiteral("admin")));
    q.exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
}

TestRemoteSecrets::Output TestRemoteSecrets::run(const QStringList &arguments,
                                                 const QByteArray &input, bool withKeychain)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("HOURGLASS_DB"));
    environment.remove(QStringLiteral("PGPASSFILE"));
    environment.insert(QStringLiteral("HOME"), m_home.path());
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"),
                       m_home.filePath(QStringLiteral("config")));
    if (!withKeychain)
        environment.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                           QStringLiteral("unix:path=/nonexistent/hourglass-test-bus"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(HOURGLASS_BINARY),
                  QStringList{QStringLiteral("--db"), m_db} + arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QString TestRemoteSecrets::remoteUrl() const
{
    const QUrl admin = test::postgresUrl();
    return QStringLiteral("postgresql://hourglass_password_test@%1:%2/%3")
        .arg(admin.host())
        .arg(admin.port(5432))
        .arg(m_database);
}

// Every file Hourglass wrote under the scratch home (store, WAL, settings, data) is free of it.
void TestRemoteSecrets::expectNowhere(const QString &secret)
{
    const QByteArray needle = secret.toUtf8();
    QDirIterator files(m_home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        if (path.endsWith(QLatin1String("/.pgpass")) || path.contains(QLatin1String("keyrings")))
            continue; // where it belongs
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains(needle), qPrintable(path));
    }
}

void TestRemoteSecrets::keychain_passwordReachesServerAndSqlTaskButNothingElse()
{
    HG_REQUIRE_PART(!qEnvironmentVariableIsEmpty("HOURGLASS_TEST_KEYRING"),
                    "no Secret Service: run through tests/remote/with_keyring.sh");
    Output added = run({QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("pw"),
                        QStringLiteral("--kind"), QStringLiteral("postgresql"),
                        QStringLiteral("--url"), remoteUrl(), QStringLiteral("--password-stdin")},
                       m_password.toUtf8() + '\n');
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    QVERIFY2(added.out.contains(QLatin1String("kept in the keychain")), qPrintable(added.out));
    QVERIFY(!QFile::exists(m_home.filePath(QStringLiteral(".pgpass"))));
    const Output tested =
        run({QStringLiteral("remote"), QStringLiteral("test"), QStringLiteral("pw")});
    QVERIFY2(tested.exitCode == 0, qPrintable(tested.err));
    QVERIFY(tested.out.contains(QLatin1String("PostgreSQL")));

    // An SQL task through the profile: the engine asks the keychain for the password.
    const QList<QStringList> build{
        {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
        {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
         QStringLiteral("who"), QStringLiteral("--kind"), QStringLiteral("sql"),
         QStringLiteral("--command"), QStringLiteral("SELECT current_user"),
         QStringLiteral("--connection"), QStringLiteral("pw")},
        {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
         QStringLiteral("env"), QStringLiteral("--kind"), QStringLiteral("shell"),
         QStringLiteral("--command"),
         QStringLiteral("env; for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' <\"$f\"; "
                        "echo; done 2>/dev/null; true"),
         QStringLiteral("--after"), QStringLiteral("who")}};
    for (const QStringList &command : build) {
        const Output out = run(command);
        QVERIFY2(out.exitCode == 0, qPrintable(command.join(u' ') + QLatin1String(": ") + out.err));
    }
    const Output ran =
        run({QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    const Output runs = run({QStringLiteral("runs"), QStringLiteral("--json")});
    const QJsonArray list = QJsonDocument::fromJson(runs.out.toUtf8()).array();
    QCOMPARE(list.size(), 1);
    const Output logs =
        run({QStringLiteral("logs"),
             QString::number(list.at(0).toObject().value(QStringLiteral("id")).toInteger())});
    QVERIFY2(logs.out.contains(QLatin1String("hourglass_password_test")), qPrintable(logs.out));
    // The task's environment and every process's argv (/proc) are in the log: no password there.
    QVERIFY(logs.out.contains(QLatin1String("PATH=")));
    QVERIFY(!logs.out.contains(m_password));
    QVERIFY(!ran.out.contains(m_password) && !ran.err.contains(m_password));
    expectNowhere(m_password);
}

void TestRemoteSecrets::withoutKeychain_passwordGoesToPgpass()
{
    QFile::remove(m_home.filePath(QStringLiteral(".pgpass")));
    run({QStringLiteral("remote"), QStringLiteral("rm"), QStringLiteral("headless")});
    Output added = run({QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("headless"),
                        QStringLiteral("--kind"), QStringLiteral("postgresql"),
                        QStringLiteral("--url"), remoteUrl(), QStringLiteral("--password-stdin")},
                       m_password.toUtf8() + '\n', false);
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    QVERIFY2(added.out.contains(QLatin1String(".pgpass")), qPrintable(added.out));
    const QString pgpass = m_home.filePath(QStringLiteral(".pgpass"));
    QCOMPARE(QFile::permissions(pgpass) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());
    const Output tested = run(
        {QStringLiteral("remote"), QStringLiteral("test"), QStringLiteral("headless")}, {}, false);
    QVERIFY2(tested.exitCode == 0, qPrintable(tested.err));
    const Output listed = run(
        {QStringLiteral("remote"), QStringLiteral("list"), QStringLiteral("--json")}, {}, false);
    QVERIFY(listed.out.contains(QLatin1String(".pgpass")));
    expectNowhere(m_password);
    // Removing the remote takes its line out of ~/.pgpass.
    QCOMPARE(
        run({QStringLiteral("remote"), QStringLiteral("rm"), QStringLiteral("headless")}, {}, false)
            .exitCode,
        0);
    QFile file(pgpass);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains(m_password.toUtf8()));
}

void TestRemoteSecrets::wrongPassword_saysAuthenticationFailed()
{
    run({QStringLiteral("remote"), QStringLiteral("rm"), QStringLiteral("wrong")}, {}, false);
    QCOMPARE(run({QStringLiteral("remote"), QStringLiteral("add"), QStringLiteral("wrong"),
                  QStringLiteral("--kind"), QStringLiteral("postgresql"), QStringLiteral("--url"),
                  remoteUrl(), QStringLiteral("--password-stdin")},
                 "not-the-password\n", false)
                 .exitCode,
             0);
    const Output tested =
        run({QStringLiteral("remote"), QStringLiteral("test"), QStringLiteral("wrong")}, {}, false);
    QCOMPARE(tested.exitCode, 1);
    QVERIFY2(tested.err.contains(QLatin1String("remote 'wrong': authentication failed")),
             qPrintable(tested.err));
    QVERIFY(!tested.err.contains(QLatin1String("not-the-password")));
    run({QStringLiteral("remote"), QStringLiteral("rm"), QStringLiteral("wrong")}, {}, false);
}

void TestRemoteSecrets::storePassword_comesFromTheKeychain()
{
    HG_REQUIRE_PART(!qEnvironmentVariableIsEmpty("HOURGLASS_TEST_KEYRING"),
                    "no Secret Service: run through tests/remote/with_keyring.sh");
    // The store itself on PostgreSQL, as a role that must give a password.
    const QString store = remoteUrl();
    const QString saved = m_db;
    m_db = store;
    const Output refused = run({QStringLiteral("project"), QStringLiteral("list")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("password")), qPrintable(refused.err));
    const Output kept = run(
        {QStringLiteral("store"), QStringLiteral("password"), QStringLiteral("--password-stdin")},
        m_password.toUtf8() + '\n');
    QVERIFY2(kept.exitCode == 0 && kept.out.contains(QLatin1String("keychain")),
             qPrintable(kept.out + kept.err));
    const Output listed = run({QStringLiteral("project"), QStringLiteral("list")});
    QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
    QCOMPARE(run({QStringLiteral("store"), QStringLiteral("password"), QStringLiteral("--forget")})
                 .exitCode,
             0);
    QCOMPARE(run({QStringLiteral("project"), QStringLiteral("list")}).exitCode, 1);
    m_db = saved;
}

QTEST_GUILESS_MAIN(TestRemoteSecrets)
#include "tst_remotesecrets.moc"
