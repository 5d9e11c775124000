#include "base/processinfo.h"
#include "privatecgroup.h"
#include "store/runrepository.h"
#include "store/taskrunrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <csignal>

using namespace hg;

// `hourglass serve` killed with SIGKILL in the middle of a run, then started again: every run
// ends in a terminal state, no attempt runs twice, and no process of the killed engine's task
// survives: its first process dies with the engine, the rest of its group when the next engine
// recovers the run.
class TestCrashRecovery final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedServe_restartRecoversTheRun();

private:
    QStringList db(const test::TestStore &store) const;
    int cli(const test::TestStore &store, const QStringList &arguments, QString *out = nullptr);
    std::unique_ptr<QProcess> serve(const test::TestStore &store);

    // The engines in a cgroup of this test's own: another test's engine starting or stopping
    // meanwhile would kill the orphan the killed engine left (CI saw it once), and the test
    // could not tell whether the restarted engine does.
    test::PrivateCgroup m_cgroup{QStringLiteral("tst-crashrecovery")};
};

QStringList TestCrashRecovery::db(const test::TestStore &store) const
{
    return {QStringLiteral("--db"), store.location().backend() == StoreBackend::Sqlite
                                        ? store.location().sqlitePath()
                                        : store.location().url().toString()};
}

int TestCrashRecovery::cli(const test::TestStore &store, const QStringList &arguments, QString *out)
{
    QProcess process;
    process.start(QStringLiteral(HOURGLASS_BINARY), db(store) + arguments);
    process.waitForFinished(30000);
    if (out)
        *out = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
    return process.exitCode();
}

std::unique_ptr<QProcess> TestCrashRecovery::serve(const test::TestStore &store)
{
    auto process = std::make_unique<QProcess>();
    m_cgroup.enter(*process);
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->start(QStringLiteral(HOURGLASS_BINARY),
                   db(store) + QStringList{QStringLiteral("serve")});
    process->waitForStarted();
    return process;
}

void TestCrashRecovery::killedServe_restartRecoversTheRun()
{
    HG_TEST_STORE(t);
    QTemporaryDir dir;
    const QString pidFile = dir.filePath(QStringLiteral("pid"));
    // Attempt 1 starts a child that hangs, and records the child's pid; attempt 2 succeeds.
    const QString command = QStringLiteral("if [ \"$HOURGLASS_ATTEMPT\" = 1 ]; then sleep 1000 & "
                                           "echo $! > %1; wait; fi; echo finished")
                                .arg(pidFile);
    QCOMPARE(cli(t, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}), 0);
    QCOMPARE(cli(t, {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}), 0);
    QCOMPARE(cli(t, {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
                     QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
                     QStringLiteral("--command"), command, QStringLiteral("--retries"),
                     QStringLiteral("1")}),
             0);

    std::unique_ptr<QProcess> first = serve(t);
    QString runText;
    QCOMPARE(cli(t, {QStringLiteral("run"), QStringLiteral("p/c")}, &runText), 0);
    const qint64 runId = runText.toLongLong();
    QVERIFY(runId > 0);
    const auto readPid = [&pidFile] {
        QFile file(pidFile);
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(readPid() > 0, 15000);
    const qint64 childPid = readPid();
    QVERIFY(processinfo::isAlive(childPid));
    // The crash comes once the store knows the attempt's process (its first one).
    const auto recordedPid = [&t, runId] {
        const QList<TaskRun> attempts = TaskRunRepository(t.store()).listForRun(runId).value();
        return attempts.isEmpty() ? 0 : attempts.constFirst().pid;
    };
    QTRY_VERIFY_WITH_TIMEOUT(recordedPid() > 0, 15000);
    const qint64 shellPid = recordedPid();

    ::kill(pid_t(first->processId()), SIGKILL);
    QVERIFY(first->waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(shellPid), 5000); // died with the engine
    QVERIFY(processinfo::isAlive(childPid)); // the orphan the crash left behind

    std::unique_ptr<QProcess> second = serve(t);
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(RunRepository(t.store()).byId(runId)->state), 20000);
    QCOMPARE(RunRepository(t.store()).byId(runId)->state, RunState::Succeeded);
    const QList<TaskRun> attempts = TaskRunRepository(t.store()).listForRun(runId).value();
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).attempt, 1);
    QCOMPARE(attempts.at(0).state, RunState::Interrupted);
    QCOMPARE(attempts.at(1).attempt, 2);
    QCOMPARE(attempts.at(1).state, RunState::Succeeded);
    QTRY_VERIFY_WITH_TIMEOUT(!processinfo::isAlive(childPid), 5000);

    second->terminate(); // SIGTERM: a clean stop
    QVERIFY(second->waitForFinished(10000));
    QCOMPARE(second->exitStatus(), QProcess::NormalExit);
    QCOMPARE(second->exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestCrashRecovery)
#include "tst_crashrecovery.moc"
