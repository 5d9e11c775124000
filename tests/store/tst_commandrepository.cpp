#include "fixtures.h"
#include "store/commandrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSet>
#include <QTest>

using namespace hg;

class TestCommandRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void claimNext_takesOldestFirstAndOnlyOnce();
    void claimNext_respectsTargetEngine();
    void claimNext_twoEnginesNeverShareACommand();
    void complete_recordsResult();
};

namespace {

Command startCommand(qint64 chainId, const QString &target = {})
{
    Command c;
    c.kind = CommandKind::Start;
    c.chainId = chainId;
    c.targetEngine = target;
    c.payload = QJsonObject{{QStringLiteral("params"), QJsonObject{}}};
    return c;
}

} // namespace

void TestCommandRepository::claimNext_takesOldestFirstAndOnlyOnce()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    CommandRepository commands(t.store());
    const qint64 first = commands.enqueue(startCommand(chain.id))->id;
    const qint64 second = commands.enqueue(startCommand(chain.id))->id;
    const auto a = commands.claimNext(QStringLiteral("e1"));
    QVERIFY(a && a.value());
    QCOMPARE(a.value()->id, first);
    QCOMPARE(a.value()->claimedBy, QStringLiteral("e1"));
    QVERIFY(a.value()->claimedAt.isValid());
    QCOMPARE(a.value()->payload, startCommand(chain.id).payload);
    QCOMPARE(commands.claimNext(QStringLiteral("e1")).value()->id, second);
    QVERIFY(!commands.claimNext(QStringLiteral("e1")).value());
}

void TestCommandRepository::claimNext_respectsTargetEngine()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    CommandRepository commands(t.store());
    QVERIFY(commands.enqueue(startCommand(chain.id, QStringLiteral("laptop"))));
    QVERIFY(!commands.claimNext(QStringLiteral("server")).value());
    QVERIFY(commands.claimNext(QStringLiteral("laptop")).value());
}

void TestCommandRepository::claimNext_twoEnginesNeverShareACommand()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    CommandRepository commands(t.store());
    for (int i = 0; i < 20; ++i)
        QVERIFY(commands.enqueue(startCommand(chain.id)));
    std::unique_ptr<Store> other = t.openAnother(QStringLiteral("engine-2"));
    QVERIFY(other);
    CommandRepository otherCommands(*other);
    QSet<qint64> claimed;
    for (int i = 0; i < 10; ++i) {
        for (CommandRepository *repository : {&commands, &otherCommands}) {
            const auto next = repository->claimNext(QStringLiteral("e%1").arg(i));
            QVERIFY(next && next.value());
            QVERIFY(!claimed.contains(next.value()->id));
            claimed.insert(next.value()->id);
        }
    }
    QCOMPARE(claimed.size(), 20);
}

void TestCommandRepository::complete_recordsResult()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    CommandRepository commands(t.store());
    const qint64 id = commands.enqueue(startCommand(chain.id))->id;
    QCOMPARE(commands.pending()->size(), 1);
    QVERIFY(commands.complete(id, QStringLiteral("chain is disabled")));
    QCOMPARE(commands.byId(id)->error, QStringLiteral("chain is disabled"));
    QVERIFY(commands.byId(id)->doneAt.isValid());
    QVERIFY(commands.pending()->isEmpty());
    QCOMPARE(commands.complete(4242).error().kind, ErrorKind::NotFound);
}

QTEST_GUILESS_MAIN(TestCommandRepository)
#include "tst_commandrepository.moc"
