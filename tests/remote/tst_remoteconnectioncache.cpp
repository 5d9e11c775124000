// RemoteConnectionCache on the real PostgreSQL and MariaDB that scripts/test starts: a
// thread's next job gets its kept connection, never one a job left inside a transaction or
// one the server dropped, and another thread never gets it.
#include "domain/connectionurl.h"
#include "remote/remoteconnectioncache.h"
#include "remote/remotedatabase.h"
#include "testservers.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

using namespace hg;

class TestRemoteConnectionCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void sameThread_keepsTheConnection_data() { servers(); }
    void sameThread_keepsTheConnection();
    void openTransaction_isNeverLent_data() { servers(); }
    void openTransaction_isNeverLent();
    void droppedConnection_isReplaced_data() { servers(); }
    void droppedConnection_isReplaced();
    void otherThread_getsItsOwn_data() { servers(); }
    void otherThread_getsItsOwn();

private:
    void servers();
    // The server of the current row: its profile and an admin connection to it.
    void connect();
    static qint64 sessionId(RemoteDatabase &remote);
    // Whether the server still lists that session (-1: could not ask).
    int isListed(qint64 session);
    qint64 rowsWritten();

    bool m_mysql = false;
    ConnectionProfile m_profile;
    QString m_password;
    QSqlDatabase m_admin;
    QString m_table;
};

void TestRemoteConnectionCache::servers()
{
    QTest::addColumn<bool>("mysql");
    QTest::newRow("postgresql") << false;
    QTest::newRow("mysql") << true;
}

void TestRemoteConnectionCache::init()
{
    if (QTest::currentDataTag())
        connect();
}

void TestRemoteConnectionCache::cleanup()
{
    if (m_admin.isOpen()) {
        QSqlQuery(m_admin).exec(QStringLiteral("DROP TABLE IF EXISTS ") + m_table);
        m_admin.close();
    }
    m_admin = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("cache-admin"));
}

void TestRemoteConnectionCache::connect()
{
    QFETCH(bool, mysql);
    m_mysql = mysql;
    const QUrl url = mysql ? test::mysqlUrl() : test::postgresUrl();
    if (mysql)
        HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_MYSQL_URL");
    else
        HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    m_password = url.password();
    QUrl profileUrl = url;
    profileUrl.setPassword(QString());
    const Result<ConnectionProfile> profile = ConnectionUrl::parse(
        QStringLiteral("cache"), mysql ? ConnectionKind::MySql : ConnectionKind::PostgreSql,
        profileUrl.toString());
    QVERIFY2(profile, qPrintable(profile ? QString() : profile.error().message));
    m_profile = profile.value();
    m_admin = QSqlDatabase::addDatabase(mysql ? QStringLiteral("QMYSQL") : QStringLiteral("QPSQL"),
                                        QStringLiteral("cache-admin"));
    m_admin.setHostName(url.host());
    m_admin.setPort(url.port());
    m_admin.setUserName(url.userName());
    m_admin.setPassword(url.password());
    m_admin.setDatabaseName(url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
    m_table = QStringLiteral("hg_cache_%1").arg(QCoreApplication::applicationPid());
    QSqlQuery create(m_admin);
    QVERIFY2(create.exec(QStringLiteral("CREATE TABLE %1 (x int)").arg(m_table)),
             qPrintable(create.lastError().text()));
}

qint64 TestRemoteConnectionCache::sessionId(RemoteDatabase &remote)
{
    QSqlQuery q(remote.db());
    if (!q.exec(remote.isMysql() ? QStringLiteral("SELECT CONNECTION_ID()")
                                 : QStringLiteral("SELECT pg_backend_pid()"))
        || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

int TestRemoteConnectionCache::isListed(qint64 session)
{
    QSqlQuery q(m_admin);
    const QString sql =
        m_mysql
            ? QStringLiteral("SELECT count(*) FROM information_schema.processlist WHERE id = %1")
            : QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE pid = %1");
    if (!q.exec(sql.arg(session)) || !q.next())
        return -1;
    return q.value(0).toInt();
}

qint64 TestRemoteConnectionCache::rowsWritten()
{
    QSqlQuery q(m_admin);
    if (!q.exec(QStringLiteral("SELECT count(*) FROM ") + m_table) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

void TestRemoteConnectionCache::sameThread_keepsTheConnection()
{
    const Result<RemoteDatabase *> first = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY2(first, qPrintable(first ? QString() : first.error().message));
    const qint64 session = sessionId(*first.value());
    QVERIFY(session > 0);
    const Result<RemoteDatabase *> second = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY(second);
    QCOMPARE(second.value(), first.value());
    QCOMPARE(sessionId(*second.value()), session);

    // Another profile (here: another name for the same server) is another connection.
    ConnectionProfile other = m_profile;
    other.name = QStringLiteral("cache-2");
    const Result<RemoteDatabase *> third = RemoteConnectionCache::acquire(other, m_password);
    QVERIFY(third);
    QVERIFY(third.value() != first.value());
    QVERIFY(sessionId(*third.value()) != session);
}

void TestRemoteConnectionCache::openTransaction_isNeverLent()
{
    const Result<RemoteDatabase *> first = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY(first);
    // A job that began a transaction, wrote, and never ended it.
    QVERIFY(first.value()->db().transaction());
    QSqlQuery insert(first.value()->db());
    QVERIFY2(insert.exec(QStringLiteral("INSERT INTO %1 VALUES (1)").arg(m_table)),
             qPrintable(insert.lastError().text()));
    insert.finish();

    const Result<RemoteDatabase *> next = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY(next);
    // Its write is gone (closed with the connection, or rolled back on it), and the next job
    // writes outside any transaction: what it writes is there at once.
    QCOMPARE(rowsWritten(), 0);
    QSqlQuery write(next.value()->db());
    QVERIFY2(write.exec(QStringLiteral("INSERT INTO %1 VALUES (2)").arg(m_table)),
             qPrintable(write.lastError().text()));
    QCOMPARE(rowsWritten(), 1);
}

void TestRemoteConnectionCache::droppedConnection_isReplaced()
{
    const Result<RemoteDatabase *> first = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY(first);
    const qint64 session = sessionId(*first.value());
    QSqlQuery kill(m_admin);
    QVERIFY2(kill.exec(m_mysql ? QStringLiteral("KILL %1").arg(session)
                               : QStringLiteral("SELECT pg_terminate_backend(%1)").arg(session)),
             qPrintable(kill.lastError().text()));
    // The server ends the session a moment after it is told to: gone from its list.
    QTRY_COMPARE_WITH_TIMEOUT(isListed(session), 0, 30000);

    const Result<RemoteDatabase *> next = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY2(next, qPrintable(next ? QString() : next.error().message));
    const qint64 replaced = sessionId(*next.value());
    QVERIFY(replaced > 0);
    QVERIFY(replaced != session);
}

void TestRemoteConnectionCache::otherThread_getsItsOwn()
{
    const Result<RemoteDatabase *> mine = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY(mine);
    const qint64 session = sessionId(*mine.value());
    qint64 theirs = 0;
    qint64 theirsAgain = 0;
    QThread *thread = QThread::create([&] {
        const Result<RemoteDatabase *> remote =
            RemoteConnectionCache::acquire(m_profile, m_password);
        theirs = remote ? sessionId(*remote.value()) : -1;
        const Result<RemoteDatabase *> again =
            RemoteConnectionCache::acquire(m_profile, m_password);
        theirsAgain = again ? sessionId(*again.value()) : -1;
    });
    thread->start();
    QVERIFY(thread->wait(30000));
    delete thread;
    QVERIFY(theirs > 0);
    QVERIFY(theirs != session);
    QCOMPARE(theirsAgain, theirs);
    // Its connection closed with its thread; this thread's is still the same.
    QTRY_COMPARE_WITH_TIMEOUT(isListed(theirs), 0, 30000);
    const Result<RemoteDatabase *> still = RemoteConnectionCache::acquire(m_profile, m_password);
    QVERIFY(still);
    QCOMPARE(sessionId(*still.value()), session);
}

QTEST_GUILESS_MAIN(TestRemoteConnectionCache)
#include "tst_remoteconnectioncache.moc"
