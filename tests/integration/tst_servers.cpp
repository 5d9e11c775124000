#include "testservers.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

// The servers scripts/test starts are real and reachable through Qt's own drivers; later
// issues (shared store, pg_timetable, DolphinScheduler on MariaDB) build on exactly this.
class TestServers final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void postgresql_isVersion15AndWritable();
    void mariadb_isReachableAndWritable();

private:
    static QString check(const QString &driver, const QUrl &url, int defaultPort,
                         const QString &versionQuery, QString *version);
};

QString TestServers::check(const QString &driver, const QUrl &url, int defaultPort,
                           const QString &versionQuery, QString *version)
{
    const QString name = QStringLiteral("servers-") + driver;
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(driver, name);
        db.setHostName(url.host());
        db.setPort(url.port(defaultPort));
        db.setUserName(url.userName());
        db.setPassword(url.password());
        db.setDatabaseName(url.path().mid(1));
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            if (!q.exec(versionQuery) || !q.next())
                error = q.lastError().text();
            else
                *version = q.value(0).toString();
            for (const char *sql :
                 {"CREATE TABLE hg_probe (id INTEGER PRIMARY KEY, note TEXT)",
                  "INSERT INTO hg_probe VALUES (1, 'ü')", "DROP TABLE hg_probe"}) {
                if (error.isEmpty() && !q.exec(QLatin1String(sql)))
                    error = q.lastError().text();
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

void TestServers::postgresql_isVersion15AndWritable()
{
    const QUrl url = hg::test::postgresUrl();
    HG_REQUIRE_SERVER(url.toString(), "HOURGLASS_TEST_PG_URL");
    QString version;
    const QString error =
        check(QStringLiteral("QPSQL"), url, 5432, QStringLiteral("SHOW server_version"), &version);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(version.startsWith(QLatin1String("15")), qPrintable(version));
}

void TestServers::mariadb_isReachableAndWritable()
{
    const QUrl url = hg::test::mysqlUrl();
    HG_REQUIRE_SERVER(url.toString(), "HOURGLASS_TEST_MYSQL_URL");
    QString version;
    const QString error =
        check(QStringLiteral("QMYSQL"), url, 3306, QStringLiteral("SELECT VERSION()"), &version);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(version.contains(QLatin1String("MariaDB")), qPrintable(version));
}

QTEST_GUILESS_MAIN(TestServers)
#include "tst_servers.moc"
