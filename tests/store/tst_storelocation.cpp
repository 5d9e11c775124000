#include "store/sqltarget.h"
#include "store/storelocation.h"

#include <QDir>
#include <QStandardPaths>
#include <QTest>

using namespace hg;

class TestStoreLocation final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { qunsetenv("HOURGLASS_DB"); }
    void resolve_commandLineWinsOverEnvironment();
    void resolve_environmentWinsOverDefault();
    void resolve_defaultIsInUserDataDirectory();
    void parse_data();
    void parse();
    void displayName_hidesPassword();
    void postgresTarget_neverFallsBackToPlainTextSilently_data();
    void postgresTarget_neverFallsBackToPlainTextSilently();
};

void TestStoreLocation::resolve_commandLineWinsOverEnvironment()
{
    qputenv("HOURGLASS_DB", "/tmp/from-env.db");
    const Result<StoreLocation> location = StoreLocation::resolve(QStringLiteral("/tmp/cli.db"));
    QVERIFY(location);
    QCOMPARE(location->sqlitePath(), QStringLiteral("/tmp/cli.db"));
}

void TestStoreLocation::resolve_environmentWinsOverDefault()
{
    qputenv("HOURGLASS_DB", "postgresql://u@localhost:5433/hg");
    const Result<StoreLocation> location = StoreLocation::resolve({});
    QVERIFY(location);
    QCOMPARE(location->backend(), StoreBackend::PostgreSql);
    QCOMPARE(location->databaseName(), QStringLiteral("hg"));
    QCOMPARE(location->url().port(), 5433);
}

void TestStoreLocation::resolve_defaultIsInUserDataDirectory()
{
    const Result<StoreLocation> location = StoreLocation::resolve({});
    QVERIFY(location);
    QCOMPARE(location->backend(), StoreBackend::Sqlite);
    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    QVERIFY2(location->sqlitePath().startsWith(dataDir + QLatin1String("/hourglass/")),
             qPrintable(location->sqlitePath()));
}

void TestStoreLocation::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("backend");
    QTest::newRow("relative file") << QStringLiteral("x.db") << true << int(StoreBackend::Sqlite);
    QTest::newRow("sqlite scheme")
        << QStringLiteral("sqlite:/tmp/x.db") << true << int(StoreBackend::Sqlite);
    QTest::newRow("postgres alias")
        << QStringLiteral("postgres://h/db") << true << int(StoreBackend::PostgreSql);
    QTest::newRow("postgres without database") << QStringLiteral("postgresql://h") << false << 0;
    QTest::newRow("postgres without host") << QStringLiteral("postgresql:///db") << false << 0;
    QTest::newRow("unknown scheme") << QStringLiteral("mysql://h/db") << false << 0;
    QTest::newRow("empty") << QString() << false << 0;
}

void TestStoreLocation::parse()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const Result<StoreLocation> location = StoreLocation::parse(text);
    QCOMPARE(location.ok(), valid);
    if (valid)
        QTEST(int(location->backend()), "backend");
    else
        QCOMPARE(location.error().kind, ErrorKind::Invalid);
}

void TestStoreLocation::displayName_hidesPassword()
{
    const Result<StoreLocation> location =
        StoreLocation::parse(QStringLiteral("postgresql://me:secret@db.example:5432/hg"));
    QVERIFY(location);
    QVERIFY(!location->displayName().contains(QLatin1String("secret")));
    QVERIFY(location->displayName().contains(QLatin1String("db.example")));
}

void TestStoreLocation::postgresTarget_neverFallsBackToPlainTextSilently_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("sslmode"); // empty: libpq's own default (a local server)
    QTest::newRow("remote: TLS required")
        << QStringLiteral("postgresql://hg@db.example.org/hourglass") << QStringLiteral("require");
    QTest::newRow("a CA: certificate and name checked")
        << QStringLiteral("postgresql://hg@db.example.org/hourglass?sslrootcert=/etc/ca.pem")
        << QStringLiteral("verify-full");
    QTest::newRow("explicit sslmode wins")
        << QStringLiteral("postgresql://hg@db.example.org/hourglass?sslmode=disable")
        << QStringLiteral("disable");
    QTest::newRow("loopback") << QStringLiteral("postgresql://hg@127.0.0.1:5432/hourglass")
                              << QString();
    QTest::newRow("localhost") << QStringLiteral("postgresql://hg@localhost/hourglass")
                               << QString();
}

void TestStoreLocation::postgresTarget_neverFallsBackToPlainTextSilently()
{
    QFETCH(QString, url);
    QFETCH(QString, sslmode);
    const Result<StoreLocation> location = StoreLocation::parse(url);
    QVERIFY(location);
    const QStringList options =
        SqlTarget::forStore(location.value()).options.split(QLatin1Char(';'));
    const QStringList modes = options.filter(QStringLiteral("sslmode="));
    if (sslmode.isEmpty()) {
        QVERIFY2(modes.isEmpty(), qPrintable(modes.join(u',')));
    } else {
        QCOMPARE(modes, QStringList{QStringLiteral("sslmode=") + sslmode});
    }
    // A dead server shows within seconds: keepalives and a TCP timeout are always set.
    QVERIFY(options.contains(QStringLiteral("keepalives=1")));
    QVERIFY(options.contains(QStringLiteral("tcp_user_timeout=10000")));
}

QTEST_GUILESS_MAIN(TestStoreLocation)
#include "tst_storelocation.moc"
