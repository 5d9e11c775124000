#include "base/processinfo.h"
#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "scheduler/runcontrol.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace hg;

// The engine in its own thread, as the GUI runs it.
class TestEngineHost final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void run_executesInTheEngineThread();
    void destroyingTheHost_stopsWhatRuns();
    void startFailure_isReportedAndTheThreadEnds();
    void retention_aBacklogGoesInBatchesDownToTheLimit();
};

void TestEngineHost::run_executesInTheEngineThread()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    test::addTask(t.store(), chain.id, QStringLiteral("t"), TaskKind::Builtin,
                  QStringLiteral("Log"),
                  {QStringLiteral(R"({"message": "hello from the engine thread"})")});
    EngineHost host(test::engineConfig(t));
    QSignalSpy started(&host, &EngineHost::started);
    QThread *emittedFrom = nullptr;
    connect(
        host.engine(), &Engine::runChanged, host.engine(),
        [&emittedFrom](const Run &) { emittedFrom = QThread::currentThread(); },
        Qt::DirectConnection);
    QSignalSpy runs(host.engine(), &Engine::runChanged);
    host.start();
    QVERIFY(started.wait(10000));

    // Through the command table, as the GUI and the CLI ask: the engine's command timer must
    // live in the engine thread for this to arrive.
    const Result<Run> queued = RunControl(t.store()).start(chain.id);
    QVERIFY(queued);
    const Run run = queued.value();
    QTRY_VERIFY_WITH_TIMEOUT(
        !runs.isEmpty() && runs.last().first().value<Run>().state == RunState::Succeeded, 10000);
    QCOMPARE(emittedFrom, host.thread());
    QVERIFY(emittedFrom != QThread::currentThread());
    // On PostgreSQL the end is committed a moment after the engine says it (its writes are
    // batched): waited for, not read at once (seen failing under load).
    QTRY_COMPARE_WITH_TIMEOUT(RunRepository(t.store()).byId(run.id)->state, RunState::Succeeded,
                              10000);
}

void TestEngineHost::destroyingTheHost_stopsWhatRuns()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    test::addTask(t.store(), chain.id, QStringLiteral("t"), TaskKind::Shell,
                  QStringLiteral("sleep 1000 & sleep 1000; wait"));
    qint64 pid = 0;
    Run run;
    {
        EngineHost host(test::engineConfig(t));
        QSignalSpy started(&host, &EngineHost::started);
        QSignalSpy attempts(host.engine(), &Engine::taskRunChanged);
        host.start();
        QVERIFY(started.wait(10000));
        run = test::queueRun(t.store(), chain.id);
        QMetaObject::invokeMethod(host.engine(), "admitRun", Qt::QueuedConnection,
                                  Q_ARG(qint64, run.id));
        QTRY_VERIFY_WITH_TIMEOUT(
            !attempts.isEmpty() && (pid = attempts.last().first().value<TaskRun>().pid) > 0, 10000);
        QVERIFY(processinfo::isAlive(pid));
    } // the host goes: the engine stops its run and its thread ends
    QVERIFY(!processinfo::isAlive(pid));
    QCOMPARE(RunRepository(t.store()).byId(run.id)->state, RunState::Cancelled);
}

void TestEngineHost::startFailure_isReportedAndTheThreadEnds()
{
    EngineConfig config;
    config.storeLocation = QStringLiteral("/proc/hourglass-cannot-be-here/store.db");
    EngineHost host(config);
    QSignalSpy failed(&host, &EngineHost::startFailed);
    host.start();
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.first().first().toString().contains(QLatin1String("hourglass-cannot-be-here")));
    QVERIFY(host.waitForStopped(5000));
}

// The engine removes runs past a chain's limit at its first heartbeat and then once a minute:
// what is due is read once and removed 200 at a time; a chain without a limit keeps all.
void TestEngineHost::retention_aBacklogGoesInBatchesDownToTheLimit()
{
    HG_TEST_STORE(t);
    const Chain limited = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("kept3"));
    const Chain unlimited = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("all"));
    const auto runsOf = [&t](qint64 chainId) {
        QSqlQuery count(t.store().database());
        count.prepare(QStringLiteral("SELECT count(*) FROM run WHERE chain_id = ?"));
        count.addBindValue(chainId);
        return count.exec() && count.next() ? count.value(0).toInt() : -1;
    };
    QVERIFY(t.store().transaction([&]() -> Status {
        QSqlQuery insert(t.store().database());
        insert.prepare(QStringLiteral("INSERT INTO run (chain_id, trigger, scheduled_for, state, "
                                      "created_at, finished_at) VALUES (?, 'manual', ?, ?, ?, ?)"));
        for (int n = 0; n < 650; ++n) {
            for (const qint64 chain : {limited.id, unlimited.id}) {
                if (chain == unlimited.id && n >= 100)
                    continue;
                insert.addBindValue(chain);
                insert.addBindValue(qint64(n) * 1000);
                insert.addBindValue(QStringLiteral("succeeded"));
                insert.addBindValue(qint64(n) * 1000);
                insert.addBindValue(qint64(n) * 1000 + 10);
                if (!insert.exec())
                    return Error::storage(insert.lastError().text());
            }
        }
        QSqlQuery limit(t.store().database());
        limit.prepare(QStringLiteral("UPDATE chain SET keep_runs = 3 WHERE id = ?"));
        limit.addBindValue(limited.id);
        return limit.exec() ? Status() : Status(Error::storage(limit.lastError().text()));
    }));
    QCOMPARE(runsOf(limited.id), 650);
    EngineHost host(test::engineConfig(t));
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    QVERIFY(started.wait(10000));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(limited.id), 3, 20000);
    QCOMPARE(runsOf(unlimited.id), 100);
    // The newest three stay.
    QSqlQuery newest(t.store().database());
    newest.prepare(QStringLiteral("SELECT min(scheduled_for) FROM run WHERE chain_id = ?"));
    newest.addBindValue(limited.id);
    QVERIFY(newest.exec() && newest.next());
    QVERIFY2(newest.value(0).toLongLong() == 647 * 1000, qPrintable(newest.value(0).toString()));
}

QTEST_GUILESS_MAIN(TestEngineHost)
#include "tst_enginehost.moc"
