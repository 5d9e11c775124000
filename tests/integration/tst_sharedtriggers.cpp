#include "sharedstoretest.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/runrepository.h"
#include "testservers.h"

#include <QTest>

using namespace hg;

// Chain triggers on a shared PostgreSQL store with real `hourglass serve` processes (issue
// 36): the downstream run is written in the transaction that ends the upstream one, so an
// engine killed right after the upstream's end loses nothing, and engines side by side start
// exactly one downstream run per upstream end.
class TestSharedTriggers final : public SharedStoreTest
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUp(); }
    void cleanup() { tearDown(); }
    void engineKilledBetweenUpstreamEndAndDownstreamStart_downstreamRunsOnceElsewhere();
    void twoEngines_startOneDownstreamRunPerUpstreamEnd();

private:
    void setClientName(qint64 chainId, const QString &name);
    bool addAfter(qint64 downstream, qint64 upstream, const QString &downstreamName,
                  const QString &upstreamName);
    QList<Run> runsOf(qint64 chainId) const;
};

void TestSharedTriggers::setClientName(qint64 chainId, const QString &name)
{
    Chain chain = ChainRepository(*m_store).byId(chainId).value();
    chain.clientName = name;
    QVERIFY(ChainRepository(*m_store).update(chain));
}

bool TestSharedTriggers::addAfter(qint64 downstream, qint64 upstream, const QString &downstreamName,
                                  const QString &upstreamName)
{
    ChainTrigger trigger;
    trigger.chainId = downstream;
    trigger.path = QStringLiteral("p/") + downstreamName;
    trigger.upstreams << ChainTrigger::Upstream{upstream, QStringLiteral("p/") + upstreamName};
    return bool(ChainTriggerRepository(*m_store).add(trigger));
}

QList<Run> TestSharedTriggers::runsOf(qint64 chainId) const
{
    QList<Run> of;
    for (const Run &run : runs())
        if (run.chainId == chainId)
            of << run;
    return of;
}

void TestSharedTriggers::
    engineKilledBetweenUpstreamEndAndDownstreamStart_downstreamRunsOnceElsewhere()
{
    // a alone may run the upstream, b alone the downstream: a ends the upstream run and is
    // SIGKILLed before any engine could start the downstream; b, started afterwards, runs it.
    const qint64 upstream =
        chainWithTask(QStringLiteral("load"),
                      QStringLiteral("echo load >> %1").arg(path(QStringLiteral("ledger"))));
    const qint64 downstream =
        chainWithTask(QStringLiteral("report"),
                      QStringLiteral("echo \"report after ${trigger.upstream_run}\" >> %1")
                          .arg(path(QStringLiteral("ledger"))));
    QVERIFY(upstream > 0 && downstream > 0);
    setClientName(upstream, QStringLiteral("a"));
    setClientName(downstream, QStringLiteral("b"));
    QVERIFY(addAfter(downstream, upstream, QStringLiteral("report"), QStringLiteral("load")));
    m_engines.push_back(serve(QStringLiteral("a")));
    QProcess &a = *m_engines.back();
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a")}), 30000);
    const Run first = startRun(upstream);
    QVERIFY(first.id > 0);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(downstream).size(), 1, 30000);
    QCOMPARE(runsOf(upstream).constFirst().state, RunState::Succeeded);
    QCOMPARE(runsOf(downstream).constFirst().state, RunState::Queued);
    a.kill();
    QVERIFY(a.waitForFinished(5000));

    m_engines.push_back(serve(QStringLiteral("b")));
    QTRY_VERIFY_WITH_TIMEOUT(allTerminal() && runsOf(downstream).size() == 1, 60000);
    QCOMPARE(runsOf(downstream).constFirst().state, RunState::Succeeded);
    // a again: nothing more starts (its end was used once).
    m_engines.push_back(serve(QStringLiteral("a")));
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("a"), QStringLiteral("b")}), 30000);
    const Run second = startRun(upstream); // and a new end starts a new run, once
    QTRY_VERIFY_WITH_TIMEOUT(runsOf(downstream).size() == 2 && allTerminal(), 60000);
    QCOMPARE(
        ledger(),
        (QStringList{QStringLiteral("load"), QStringLiteral("report after %1").arg(first.id),
                     QStringLiteral("load"), QStringLiteral("report after %1").arg(second.id)}));
}

void TestSharedTriggers::twoEngines_startOneDownstreamRunPerUpstreamEnd()
{
    constexpr int count = 40;
    const qint64 upstream = chainWithTask(QStringLiteral("tick"), QStringLiteral("true"));
    const qint64 downstream = chainWithTask(
        QStringLiteral("tock"),
        QStringLiteral("echo ${trigger.upstream_run} >> %1").arg(path(QStringLiteral("ledger"))));
    QVERIFY(upstream > 0 && downstream > 0);
    QVERIFY(addAfter(downstream, upstream, QStringLiteral("tock"), QStringLiteral("tick")));
    m_engines.push_back(serve(QStringLiteral("e1")));
    m_engines.push_back(serve(QStringLiteral("e2")));
    QTRY_VERIFY_WITH_TIMEOUT(serving({QStringLiteral("e1"), QStringLiteral("e2")}), 30000);
    QSet<QString> upstreamIds;
    for (int i = 0; i < count; ++i)
        upstreamIds.insert(QString::number(startRun(upstream).id));
    QTRY_VERIFY_WITH_TIMEOUT(runsOf(downstream).size() == count && allTerminal(), 120000);
    QStringList lines = ledger();
    QCOMPARE(lines.size(), count);
    QCOMPARE(QSet<QString>(lines.cbegin(), lines.cend()), upstreamIds); // each end once
}

QTEST_GUILESS_MAIN(TestSharedTriggers)
#include "tst_sharedtriggers.moc"
