#include "clisandbox.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>

#include <csignal>

// `run --wait` and `serve` at their edges, through the real binary on a SQLite store, each as
// a user (or the torture test) met it: a waiter that failed a successful self-destructing run,
// waited forever on a killed engine, raced serve's start into a cancelled run, or took other
// queued runs; and an engine whose store file was deleted under it and went on as if nothing
// happened.
class TestRunWaitEdges final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void runWait_selfDestructingChainThroughServeExitsZeroWithItsOutput();
    void runWait_selfDestructedWhenServeStopsStillKnowsTheEnd();
    void runWait_engineKilledMidRunTheWaiterRunsItHere();
    void runWait_whileServeStartsEndsWithTheRunsRealResult();
    void runWait_inProcessLeavesOtherQueuedRunsToServe();
    void storeDeletedUnderServe_serveStopsExitingOneAndTheWaiterSaysWhy();
    void storeDeletedUnderRunWait_itsOwnEngineStopsExitingOne();
    void engines_namesWhoServesAndSaysWhenItNoLongerDoes();
    void serve_hangupEndsItAsSigtermDoes();
    void storeMovedOverByAnother_theOtherKeepsItsOwnAndTheMovedOneItsRuns();
    void storeLogRemovedUnderServe_serveStopsKeepingWhatItWrote();

private:
    using Output = hg::test::CliSandbox::Output;
    void define(const QList<QStringList> &commands);
    // Starts serve on the sandbox's store; what it said until it serves (QTRY-fails if never).
    QByteArray startServing(QProcess &serve);
    // p/c: one shell task that says "start", then waits for the file `release` (or 60 s).
    void defineWaitingChain(const QString &release);

    // serve on the sandbox's store, run 1 of p/c running, runs 2 and 3 queued behind it.
    void serveThreeRuns(QProcess &serve, const QString &release);

    std::unique_ptr<hg::test::CliSandbox> m_cli;
};

void TestRunWaitEdges::init()
{
    m_cli = std::make_unique<hg::test::CliSandbox>(QStringLiteral(HOURGLASS_BINARY));
    QVERIFY(m_cli->isValid());
}

void TestRunWaitEdges::define(const QList<QStringList> &commands)
{
    const QString failed = m_cli->define(commands);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

QByteArray TestRunWaitEdges::startServing(QProcess &serve)
{
    m_cli->start(serve, {QStringLiteral("serve")});
    QByteArray said;
    [&] {
        QTRY_VERIFY_WITH_TIMEOUT(
            (said += serve.readAllStandardError()).contains("hourglass: serving"), 30000);
    }();
    return said;
}

void TestRunWaitEdges::defineWaitingChain(const QString &release)
{
    define(
        {{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
         {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
         {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"), QStringLiteral("t"),
          QStringLiteral("--kind"), QStringLiteral("shell"), QStringLiteral("--command"),
          QStringLiteral("echo start; i=0; while [ ! -e '%1' ] && [ $i -lt 600 ]; do sleep "
                         "0.1; i=$((i+1)); done; echo done")
              .arg(release)}});
}

void TestRunWaitEdges::runWait_selfDestructingChainThroughServeExitsZeroWithItsOutput()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/once"),
             QStringLiteral("--self-destruct")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/once"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("echo hello")}});
    QProcess serve;
    m_cli->start(serve, {QStringLiteral("serve")});
    QVERIFY(serve.waitForStarted());
    // Served: `run` without an engine of its own once serve has registered (it says so then).
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += serve.readAllStandardError()).contains("hourglass: serving"),
                             30000);
    const Output waited =
        m_cli->run({QStringLiteral("run"), QStringLiteral("p/once"), QStringLiteral("--wait")});
    QVERIFY2(waited.exitCode == 0, qPrintable(waited.out + waited.err));
    QVERIFY2(waited.out.contains(QStringLiteral("t | hello")), qPrintable(waited.out));
    QTRY_VERIFY_WITH_TIMEOUT(
        m_cli->run({QStringLiteral("chain"), QStringLiteral("show"), QStringLiteral("p/once")})
                .exitCode
            == 2,
        20000);
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(15000));
}

// Found by the torture test: serve stopped just after a self-destructing chain's success, so
// the chain (and its run) went at once, before the waiter's next look; it exited 1, "not known
// how it ended". The store keeps the ends of removed runs: the waiter exits 0.
void TestRunWaitEdges::runWait_selfDestructedWhenServeStopsStillKnowsTheEnd()
{
    const QString go = m_cli->filePath(QStringLiteral("go"));
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/once"),
             QStringLiteral("--self-destruct")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/once"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"),
             QStringLiteral("echo hello; while [ ! -e '%1' ]; do sleep 0.1; done").arg(go)}});
    QProcess serve;
    startServing(serve);
    QProcess waiter;
    m_cli->start(waiter,
                 {QStringLiteral("run"), QStringLiteral("p/once"), QStringLiteral("--wait")});
    QByteArray waited;
    QTRY_VERIFY_WITH_TIMEOUT((waited += waiter.readAllStandardOutput()).contains("t | hello"),
                             30000); // it has seen the run running
    ::kill(pid_t(waiter.processId()), SIGSTOP);
    const auto resumed = qScopeGuard([&waiter] { ::kill(pid_t(waiter.processId()), SIGCONT); });
    QVERIFY(QFile(go).open(QIODevice::WriteOnly));
    QByteArray served;
    QTRY_VERIFY_WITH_TIMEOUT((served += serve.readAllStandardOutput()).contains("succeeded"),
                             30000);
    ::kill(pid_t(serve.processId()), SIGTERM); // removes the chain at once, not 5 s later
    QVERIFY(serve.waitForFinished(15000));
    QCOMPARE(m_cli->run({QStringLiteral("chain"), QStringLiteral("show"), QStringLiteral("p/once")})
                 .exitCode,
             2);
    ::kill(pid_t(waiter.processId()), SIGCONT);
    QVERIFY(waiter.waitForFinished(30000));
    const QString err = QString::fromUtf8(waiter.readAllStandardError());
    QVERIFY2(waiter.exitCode() == 0, qPrintable(err));
}

void TestRunWaitEdges::runWait_engineKilledMidRunTheWaiterRunsItHere()
{
    const QString ledger = m_cli->filePath(QStringLiteral("ledger"));
    // Attempt 1 waits for a file the test writes only at its end: serve is killed mid-run for
    // certain. (Its shell dies with serve; the file ends it should it outlive serve anyway.)
    const QString release = m_cli->filePath(QStringLiteral("release"));
    const auto released =
        qScopeGuard([&release] { (void)QFile(release).open(QIODevice::WriteOnly); });
    define(
        {{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
         {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
         {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"), QStringLiteral("t"),
          QStringLiteral("--kind"), QStringLiteral("shell"), QStringLiteral("--command"),
          QStringLiteral("echo start >> '%1'; if [ \"$HOURGLASS_ATTEMPT\" = 1 ]; then while "
                         "[ ! -e '%2' ]; do sleep 0.1; done; fi; echo done")
              .arg(ledger, release),
          QStringLiteral("--retries"), QStringLiteral("1")}});
    QProcess serve;
    m_cli->start(serve, {QStringLiteral("serve")});
    QVERIFY(serve.waitForStarted());
    QProcess waiter;
    // The waiter must find serve registered (it says so once it is), so it follows rather
    // than runs it itself.
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += serve.readAllStandardError()).contains("hourglass: serving"),
                             30000);
    m_cli->start(waiter, {QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(ledger), 30000);
    ::kill(pid_t(serve.processId()), SIGKILL);
    QVERIFY(serve.waitForFinished(30000));
    // Before, the waiter waited forever on a run left running.
    QVERIFY2(waiter.waitForFinished(60000), "run --wait did not notice its engine died");
    const QString out = QString::fromUtf8(waiter.readAllStandardOutput());
    const QString err = QString::fromUtf8(waiter.readAllStandardError());
    QVERIFY2(waiter.exitCode() == 0, qPrintable(out + err));
    QVERIFY2(err.contains(QStringLiteral("this command runs it now")), qPrintable(err));
    QVERIFY2(out.contains(QStringLiteral("t | done")), qPrintable(out));
    QFile starts(ledger);
    QVERIFY(starts.open(QIODevice::ReadOnly));
    QCOMPARE(starts.readAll().count("start"), 2); // the interrupted attempt, and its retry
    // `logs` says why the first attempt ended without output of its own.
    const QString runId = out.section(QLatin1Char('\n'), 0, 0).trimmed();
    const Output logs = m_cli->run({QStringLiteral("logs"), runId});
    QVERIFY2(logs.out.contains(QStringLiteral("interrupted: the engine stopped")),
             qPrintable(logs.out + logs.err));
}

// Started while serve is starting: each found no engine, made its run and started an engine
// of its own, which serve's registration then refused; the run was cancelled after its task
// had started (11 of 11 tries). Now the run is handed to serve and the wait follows it there.
void TestRunWaitEdges::runWait_whileServeStartsEndsWithTheRunsRealResult()
{
    const QString ledger = m_cli->filePath(QStringLiteral("ledger"));
    define(
        {{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
         {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
         {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"), QStringLiteral("t"),
          QStringLiteral("--kind"), QStringLiteral("shell"), QStringLiteral("--command"),
          QStringLiteral("echo ran >> '%1'; sleep 0.5; echo ok").arg(ledger)}});
    constexpr int tries = 4;
    for (int i = 0; i < tries; ++i) {
        QProcess serve;
        m_cli->start(serve, {QStringLiteral("serve")});
        const Output waited =
            m_cli->run({QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
        QVERIFY2(waited.exitCode == 0 && waited.out.contains(QStringLiteral("t | ok")),
                 qPrintable(waited.out + waited.err));
        serve.terminate();
        QVERIFY(serve.waitForFinished(15000));
    }
    QFile ran(ledger);
    QVERIFY(ran.open(QIODevice::ReadOnly));
    QCOMPARE(ran.readAll().count("ran"), tries); // each run once, none cancelled
}

// The engine `run --wait` starts for itself took the start commands of other queued runs,
// ran them, and cancelled them when its own run ended.
void TestRunWaitEdges::runWait_inProcessLeavesOtherQueuedRunsToServe()
{
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/other")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/other"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("sleep 1")},
            {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/mine")},
            {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/mine"),
             QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
             QStringLiteral("--command"), QStringLiteral("sleep 0.5; echo mine")}});
    const Output queued = m_cli->run({QStringLiteral("run"), QStringLiteral("p/other")});
    QCOMPARE(queued.exitCode, 0);
    const QString other = queued.out.trimmed();
    const Output waited =
        m_cli->run({QStringLiteral("run"), QStringLiteral("p/mine"), QStringLiteral("--wait")});
    QVERIFY2(waited.exitCode == 0, qPrintable(waited.out + waited.err));
    QCOMPARE(m_cli->runState(other), QStringLiteral("queued")); // left for an engine that serves
    QProcess serve;
    m_cli->start(serve, {QStringLiteral("serve")});
    QTRY_COMPARE_WITH_TIMEOUT(m_cli->runState(other), QStringLiteral("succeeded"), 20000);
    serve.terminate();
    QVERIFY(serve.waitForFinished(15000));
}

// Found by the torture test's author: the store deleted under serve was written on (into the
// unlinked file) and every run's end since was lost without a word; SIGTERM then exited 0.
void TestRunWaitEdges::storeDeletedUnderServe_serveStopsExitingOneAndTheWaiterSaysWhy()
{
    const QString release = m_cli->filePath(QStringLiteral("release"));
    const auto released =
        qScopeGuard([&release] { (void)QFile(release).open(QIODevice::WriteOnly); });
    defineWaitingChain(release);
    QProcess serve;
    QByteArray said = startServing(serve);
    QProcess waiter;
    m_cli->start(waiter, {QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QByteArray waited;
    QTRY_VERIFY_WITH_TIMEOUT((waited += waiter.readAllStandardOutput()).contains("t | start"),
                             30000);
    QVERIFY(QFile::remove(m_cli->db()));
    // Noticed at its next heartbeat (5 s): it stops its task and exits 1 naming the file.
    QVERIFY2(serve.waitForFinished(30000), "serve went on with its store deleted");
    said += serve.readAllStandardError();
    QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
    QVERIFY2(serve.exitCode() == 1, said.constData());
    QVERIFY2(said.contains("was removed or replaced"), said.constData());
    QVERIFY2(said.contains(m_cli->db().toUtf8()), said.constData());
    // The waiter neither waits for good nor runs the chain again in a new, empty store.
    QVERIFY2(waiter.waitForFinished(30000), "run --wait went on waiting");
    const QByteArray err = waiter.readAllStandardError();
    QVERIFY2(waiter.exitCode() == 1, err.constData());
    QVERIFY2(err.contains("how run 1 ends cannot be known"), err.constData());
    QVERIFY(!QFileInfo::exists(m_cli->db()));
}

void TestRunWaitEdges::storeDeletedUnderRunWait_itsOwnEngineStopsExitingOne()
{
    const QString release = m_cli->filePath(QStringLiteral("release"));
    const auto released =
        qScopeGuard([&release] { (void)QFile(release).open(QIODevice::WriteOnly); });
    defineWaitingChain(release);
    QProcess waiter; // no engine serves: it runs the chain with an engine of its own
    m_cli->start(waiter, {QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QByteArray waited;
    QTRY_VERIFY_WITH_TIMEOUT((waited += waiter.readAllStandardOutput()).contains("t | start"),
                             30000);
    QVERIFY(QFile::remove(m_cli->db()));
    QVERIFY2(waiter.waitForFinished(30000), "run --wait went on with its store deleted");
    const QByteArray err = waiter.readAllStandardError();
    QVERIFY2(waiter.exitCode() == 1, err.constData());
    QVERIFY2(err.contains("how run 1 ends cannot be known")
                 && err.contains("was removed or replaced"),
             err.constData());
    waited += waiter.readAllStandardOutput();
    QVERIFY2(!waited.contains("t | done"), waited.constData()); // its task was stopped
}

// There was no way to see which engines a store has but the window's status bar.
void TestRunWaitEdges::engines_namesWhoServesAndSaysWhenItNoLongerDoes()
{
    const auto listed = [this] {
        const Output out = m_cli->run({QStringLiteral("engines"), QStringLiteral("--json")});
        return QJsonDocument::fromJson(out.out.toUtf8()).array();
    };
    QVERIFY(m_cli->define({{QStringLiteral("project"), QStringLiteral("list")}}).isEmpty());
    QCOMPARE(listed().size(), 0);
    QProcess serve;
    startServing(serve);
    const QJsonArray serving = listed();
    QCOMPARE(serving.size(), 1);
    QCOMPARE(serving.at(0)[QStringLiteral("pid")].toInteger(), serve.processId());
    QVERIFY(serving.at(0)[QStringLiteral("serves")].toBool());
    const Output table = m_cli->run({QStringLiteral("engines")});
    QVERIFY2(table.exitCode == 0 && table.out.startsWith(QStringLiteral("ENGINE")),
             qPrintable(table.out + table.err));
    ::kill(pid_t(serve.processId()), SIGKILL);
    QVERIFY(serve.waitForFinished(15000));
    const QJsonArray killed = listed(); // its session stays until another engine takes it over
    QCOMPARE(killed.size(), 1);
    QVERIFY(!killed.at(0)[QStringLiteral("serves")].toBool());
}

// SIGHUP (its terminal closed) killed serve on the spot: no shutdown, its run left running
// until another engine took it over (helper-11).
void TestRunWaitEdges::serve_hangupEndsItAsSigtermDoes()
{
    const QString release = m_cli->filePath(QStringLiteral("release"));
    const auto released =
        qScopeGuard([&release] { (void)QFile(release).open(QIODevice::WriteOnly); });
    defineWaitingChain(release);
    QProcess serve;
    startServing(serve);
    const Output started = m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")});
    const QString runId = started.out.trimmed();
    QTRY_COMPARE_WITH_TIMEOUT(m_cli->runState(runId), QStringLiteral("running"), 20000);
    ::kill(pid_t(serve.processId()), SIGHUP);
    QVERIFY2(serve.waitForFinished(15000), "serve did not stop on SIGHUP within its grace");
    QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
    QCOMPARE(serve.exitCode(), 0);
    QCOMPARE(m_cli->runState(runId), QStringLiteral("cancelled"));
}

void TestRunWaitEdges::serveThreeRuns(QProcess &serve, const QString &release)
{
    defineWaitingChain(release);
    startServing(serve);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(m_cli->run({QStringLiteral("run"), QStringLiteral("p/c")}).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_cli->runState(QStringLiteral("1")), QStringLiteral("running"),
                              20000);
}

// A store moved over the served one: serve stopped, but its write-ahead log stayed at the
// path and the next command read the old store's runs into the new one (helper-11). Moved
// away instead, the store lacked its last transactions, left in that log.
void TestRunWaitEdges::storeMovedOverByAnother_theOtherKeepsItsOwnAndTheMovedOneItsRuns()
{
    const QString release = m_cli->filePath(QStringLiteral("release"));
    const auto released =
        qScopeGuard([&release] { (void)QFile(release).open(QIODevice::WriteOnly); });
    QProcess serve;
    serveThreeRuns(serve, release);
    const QString served = m_cli->db();
    const QString other = m_cli->filePath(QStringLiteral("other.db"));
    m_cli->setDb(other);
    define({{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("other")}});
    const QString kept = m_cli->filePath(QStringLiteral("kept.db"));
    QVERIFY(QFile::rename(served, kept)); // keeps the served store, by another name
    QVERIFY(QFile::rename(other, served));
    QVERIFY2(serve.waitForFinished(30000), "serve went on with its store replaced");
    QCOMPARE(serve.exitCode(), 1);
    m_cli->setDb(served);
    const Output projects = m_cli->run({QStringLiteral("project"), QStringLiteral("list")});
    QVERIFY2(projects.exitCode == 0, qPrintable(projects.err));
    QVERIFY2(projects.out.contains(QStringLiteral("other"))
                 && !projects.out.contains(QStringLiteral("\np ")),
             qPrintable(projects.out));
    const Output runs = m_cli->run({QStringLiteral("runs"), QStringLiteral("--json")});
    QVERIFY2(runs.exitCode == 0 && runs.out.trimmed() == QStringLiteral("[\n]"),
             qPrintable(runs.out + runs.err));
    m_cli->setDb(kept); // the store moved away has every run it served
    QCOMPARE(m_cli->runState(QStringLiteral("1")), QStringLiteral("running"));
    QVERIFY(!m_cli->runState(QStringLiteral("3")).isEmpty());
}

// Only the log removed: serve went on writing into the unlinked log, and every other command
// called the store damaged (helper-11). Now serve stops, and what it wrote reaches the store.
void TestRunWaitEdges::storeLogRemovedUnderServe_serveStopsKeepingWhatItWrote()
{
    const QString release = m_cli->filePath(QStringLiteral("release"));
    const auto released =
        qScopeGuard([&release] { (void)QFile(release).open(QIODevice::WriteOnly); });
    QProcess serve;
    serveThreeRuns(serve, release);
    QVERIFY(QFile::remove(m_cli->db() + QStringLiteral("-wal")));
    QVERIFY2(serve.waitForFinished(30000), "serve went on with its log removed");
    const QByteArray said = serve.readAllStandardError();
    QCOMPARE(serve.exitCode(), 1);
    QVERIFY2(said.contains("-wal of the store was removed or replaced"), said.constData());
    const Output runs = m_cli->run({QStringLiteral("runs"), QStringLiteral("--json")});
    QVERIFY2(runs.exitCode == 0, qPrintable(runs.err));
    QCOMPARE(m_cli->runState(QStringLiteral("1")), QStringLiteral("running"));
    QVERIFY(!m_cli->runState(QStringLiteral("3")).isEmpty());
}

QTEST_GUILESS_MAIN(TestRunWaitEdges)
#include "tst_runwaitedges.moc"
