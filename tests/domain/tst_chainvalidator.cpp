#include "domain/chainvalidator.h"

#include <QTest>

using namespace hg;

// The rules every chain meets before it is stored.
class TestChainValidator final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validate_data();
    void validate();
};

void TestChainValidator::validate_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("maxInstances");
    QTest::addColumn<int>("timeout");
    QTest::addColumn<QString>("problem"); // empty: valid
    QTest::newRow("ok") << QStringLiteral("nightly") << 0 << 0 << QString();
    QTest::newRow("limits ok") << QStringLiteral("nightly") << 3 << 600 << QString();
    QTest::newRow("blank name") << QStringLiteral("  ") << 0 << 0 << QStringLiteral("chain");
    QTest::newRow("slash in name") << QStringLiteral("a/b") << 0 << 0 << QStringLiteral("chain");
    QTest::newRow("negative max instances")
        << QStringLiteral("nightly") << -1 << 0
        << QStringLiteral("max instances must be 0 (no limit) or more");
    QTest::newRow("negative timeout")
        << QStringLiteral("nightly") << 0 << -5
        << QStringLiteral("chain timeout must be 0 (none) or more seconds");
}

void TestChainValidator::validate()
{
    QFETCH(QString, name);
    QFETCH(int, maxInstances);
    QFETCH(int, timeout);
    QFETCH(QString, problem);
    Chain chain;
    chain.name = name;
    chain.maxInstances = maxInstances;
    chain.timeoutSeconds = timeout;
    const Status status = ChainValidator::validate(chain);
    QVERIFY2(status.ok() == problem.isEmpty(), status ? "ok" : qPrintable(status.error().message));
    if (!problem.isEmpty()) {
        QVERIFY2(status.error().message.contains(problem), qPrintable(status.error().message));
        QCOMPARE(status.error().kind, ErrorKind::Invalid);
    }
}

QTEST_GUILESS_MAIN(TestChainValidator)
#include "tst_chainvalidator.moc"
