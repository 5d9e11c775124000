#include "domain/chainpath.h"

#include <QTest>

using namespace hg;

class TestChainPath final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
    void validateName_data();
    void validateName();
};

void TestChainPath::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("project");
    QTest::addColumn<QString>("chain");
    QTest::newRow("plain") << QStringLiteral("ops/nightly") << true << QStringLiteral("ops")
                           << QStringLiteral("nightly");
    QTest::newRow("spaces inside names") << QStringLiteral("my ops/night run") << true
                                         << QStringLiteral("my ops") << QStringLiteral("night run");
    QTest::newRow("no slash") << QStringLiteral("ops") << false << QString() << QString();
    QTest::newRow("empty project") << QStringLiteral("/x") << false << QString() << QString();
    QTest::newRow("empty chain") << QStringLiteral("x/") << false << QString() << QString();
    QTest::newRow("two slashes") << QStringLiteral("a/b/c") << false << QString() << QString();
}

void TestChainPath::parse()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const Result<ChainPath> path = ChainPath::parse(text);
    QCOMPARE(path.ok(), valid);
    if (!valid) {
        QCOMPARE(path.error().kind, ErrorKind::Invalid);
        QVERIFY(path.error().message.contains(text));
        return;
    }
    QTEST(path->project, "project");
    QTEST(path->chain, "chain");
    QCOMPARE(path->toString(), text);
}

void TestChainPath::validateName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("problem");
    QTest::newRow("ok") << QStringLiteral("nightly-report") << QString();
    QTest::newRow("unicode ok") << QStringLiteral("Nächtlicher Bericht") << QString();
    QTest::newRow("empty") << QString() << QStringLiteral("empty");
    QTest::newRow("blank") << QStringLiteral("   ") << QStringLiteral("empty");
    QTest::newRow("slash") << QStringLiteral("a/b") << QStringLiteral("contains '/'");
    QTest::newRow("padded") << QStringLiteral(" a") << QStringLiteral("space");
    QTest::newRow("control") << QStringLiteral("a\tb") << QStringLiteral("control character");
    QTest::newRow("too long") << QString(201, QLatin1Char('x')) << QStringLiteral("200");
}

void TestChainPath::validateName()
{
    QFETCH(QString, name);
    QFETCH(QString, problem);
    const Status status = hg::validateName(QStringLiteral("task"), name);
    QCOMPARE(status.ok(), problem.isEmpty());
    if (!problem.isEmpty())
        QVERIFY2(status.error().message.contains(problem), qPrintable(status.error().message));
}

QTEST_GUILESS_MAIN(TestChainPath)
#include "tst_chainpath.moc"
