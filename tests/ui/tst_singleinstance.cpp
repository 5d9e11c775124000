#include "singleinstance.h"

#include <QSignalSpy>
#include <QTest>
#include <QUuid>

using namespace hg;

// One Hourglass per user and store: a second start finds the first and asks it forward.
class TestSingleInstance final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void secondStart_asksTheFirstForward();
    void otherStore_isAnotherInstance();
    void firstEnded_nextIsTheFirst();
};

namespace {

QString uniqueKey()
{
    return QStringLiteral("/tmp/store-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace

void TestSingleInstance::secondStart_asksTheFirstForward()
{
    const QString key = uniqueKey();
    SingleInstance first(key);
    QVERIFY(first.claim());
    QSignalSpy forward(&first, &SingleInstance::activationRequested);
    SingleInstance second(key);
    QVERIFY(!second.claim());
    QVERIFY(forward.wait(5000));
    QCOMPARE(forward.size(), 1);
}

void TestSingleInstance::otherStore_isAnotherInstance()
{
    SingleInstance first(uniqueKey());
    QVERIFY(first.claim());
    SingleInstance other(uniqueKey());
    QVERIFY(other.serverName() != first.serverName());
    QVERIFY(other.claim());
}

void TestSingleInstance::firstEnded_nextIsTheFirst()
{
    const QString key = uniqueKey();
    {
        SingleInstance crashed(key);
        QVERIFY(crashed.claim());
    } // its server closed with it: a later start is the first again
    SingleInstance next(key);
    QVERIFY(next.claim());
    QSignalSpy forward(&next, &SingleInstance::activationRequested);
    SingleInstance third(key);
    QVERIFY(!third.claim());
    QVERIFY(forward.wait(5000));
}

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "tst_singleinstance.moc"
