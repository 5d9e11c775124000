#include "cron/pginterval.h"

#include <QTest>

using namespace hg;

class TestPgInterval final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseSeconds_data();
    void parseSeconds();
};

void TestPgInterval::parseSeconds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds"); // -1: an error
    QTest::newRow("seconds") << QStringLiteral("10 seconds") << qint64(10);
    QTest::newRow("singular") << QStringLiteral("1 minute") << qint64(60);
    QTest::newRow("two units") << QStringLiteral("2 hours 30 minutes") << qint64(9000);
    QTest::newRow("abbreviated and glued") << QStringLiteral("1h30m") << qint64(5400);
    QTest::newRow("mins") << QStringLiteral("5 mins") << qint64(300);
    QTest::newRow("days and clock") << QStringLiteral("1 day 02:03:04") << qint64(86400 + 7384);
    QTest::newRow("fractional") << QStringLiteral("1.5 hours") << qint64(5400);
    QTest::newRow("week") << QStringLiteral("2 weeks") << qint64(14 * 86400);
    QTest::newRow("month is 30 days") << QStringLiteral("1 mon") << qint64(30 * 86400);
    QTest::newRow("verbose style") << QStringLiteral("@ 3 secs") << qint64(3);
    QTest::newRow("iso") << QStringLiteral("P1DT2H") << qint64(93600);
    QTest::newRow("upper case") << QStringLiteral("10 SECONDS") << qint64(10);
    QTest::newRow("bare number is seconds") << QStringLiteral("42") << qint64(42);
    QTest::newRow("unknown unit") << QStringLiteral("10 parsecs") << qint64(-1);
    QTest::newRow("garbage") << QStringLiteral("soon") << qint64(-1);
    QTest::newRow("empty") << QString() << qint64(-1);
    QTest::newRow("zero") << QStringLiteral("0 seconds") << qint64(-1);
    QTest::newRow("longer than a century") << QStringLiteral("222222222220 y") << qint64(-1);
    QTest::newRow("negative") << QStringLiteral("-5 minutes") << qint64(-1);
}

void TestPgInterval::parseSeconds()
{
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    const Result<qint64> parsed = PgInterval::parseSeconds(text);
    if (seconds < 0) {
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().kind, ErrorKind::Invalid);
        return;
    }
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    QCOMPARE(parsed.value(), seconds);
}

QTEST_GUILESS_MAIN(TestPgInterval)
#include "tst_pginterval.moc"
