#include "dolphinschedulertest.h"

#include "dolphinschedulerfixture.h"
#include "domain/connectionurl.h"
#include "testservers.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace hg;

void DolphinSchedulerTest::layouts()
{
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("release");
    for (const char *server : {"mysql", "postgresql"}) {
        for (const char *release : {"2.0", "3.2", "3.3"})
            QTest::addRow("%s %s", release, server)
                << QString::fromLatin1(server) << QString::fromLatin1(release);
    }
}

void DolphinSchedulerTest::makeDatabase(const QString &server, const QString &release, bool load)
{
    const bool mysql = server == QLatin1String("mysql");
    const QUrl url = mysql ? test::mysqlUrl() : test::postgresUrl();
    if (mysql)
        HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_MYSQL_URL");
    else
        HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    m_server = server;
    m_password = url.password();
    m_database =
        QStringLiteral("hg_ds_%1_%2").arg(QCoreApplication::applicationPid()).arg(++m_serial);
    const QString driver = mysql ? QStringLiteral("QMYSQL") : QStringLiteral("QPSQL");
    const auto connect = [&](const QString &name, const QString &database) {
        QSqlDatabase db = QSqlDatabase::addDatabase(driver, name);
        db.setHostName(url.host());
        db.setPort(url.port(mysql ? 3306 : 5432));
        db.setUserName(url.userName());
        db.setPassword(url.password());
        db.setDatabaseName(database);
        return db;
    };
    m_admin = connect(QStringLiteral("ds-admin"), url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
    QSqlQuery create(m_admin);
    QVERIFY2(create.exec(QStringLiteral("CREATE DATABASE %1").arg(m_database)),
             qPrintable(create.lastError().text()));
    m_db = connect(QStringLiteral("ds"), m_database);
    QVERIFY2(m_db.open(), qPrintable(m_db.lastError().text()));
    if (load) {
        const Status loaded = test::DolphinSchedulerFixture::loadSchema(m_db, release, server);
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
    }
    QUrl remoteUrl = url;
    remoteUrl.setPassword(QString()); // a profile never holds one: it is given apart
    remoteUrl.setPath(QLatin1Char('/') + m_database);
    m_profile = ConnectionUrl::parse(QStringLiteral("ds"), ConnectionKind::DolphinScheduler,
                                     remoteUrl.toString())
                    .value();
    auto remote = RemoteDatabase::open(m_profile, m_password);
    QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message));
    m_remote = std::move(remote.value());
}

void DolphinSchedulerTest::exec(const QString &sql)
{
    QSqlQuery q(m_db);
    QVERIFY2(q.exec(sql), qPrintable(q.lastError().text() + QLatin1String(": ") + sql.left(200)));
}

void DolphinSchedulerTest::dropDatabase()
{
    m_remote.reset();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("ds"));
    if (m_admin.isOpen() && !m_database.isEmpty()) {
        QSqlQuery q(m_admin);
        q.exec(m_server == QLatin1String("mysql")
                   ? QStringLiteral("DROP DATABASE IF EXISTS %1").arg(m_database)
                   : QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    }
    m_admin.close();
    m_admin = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("ds-admin"));
    m_database.clear();
}

void DolphinSchedulerTest::insertWorkflow(const DolphinSchedulerSchema &schema)
{
    const Status inserted = test::DolphinSchedulerFixture::insertWorkflows(m_db, schema);
    QVERIFY2(inserted, qPrintable(inserted ? QString() : inserted.error().message));
}
