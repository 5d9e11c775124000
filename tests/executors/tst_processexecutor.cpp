#include "executors/processexecutor.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace hg;

// Real processes, real signals: what a task runs must end with the task.
class TestProcessExecutor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void output_arrivesAsLinesWithStreamsApart();
    void exitCode_decidesTheOutcome();
    void missingProgram_failsWithAClearError();
    void timeout_endsTheWholeProcessTree();
    void stop_killsAfterGraceWhenTermIsIgnored();
    void finishedTask_leavesNoBackgroundChild();
    void environment_isExactlyTheGivenOne();
    void descriptors_beyondStderrAreNotInherited();
    void output_isCappedWithAMarker();
    void childThatLeftTheGroup_endsWithTheTask_data();
    void childThatLeftTheGroup_endsWithTheTask();
    void stdin_isAtEndOfFile();

private:
    struct Result
    {
        TaskOutcome outcome;
        QList<std::pair<LogStream, QString>> lines;
        qint64 pid = 0;
        qint64 stopToEndMs = -1; // from the stop to the task's end
    };
    // stopAtLine: stops the task once it printed that line (it is ready to be stopped).
    Result runToEnd(ProcessSpec spec, const QString &stopAtLine = {});
    static ProcessSpec shell(const QString &command);
    static QList<qint64> liveGroupMembers(qint64 group);
    static QList<qint64> liveWithArgument(const QByteArray &argument);
};

ProcessSpec TestProcessExecutor::shell(const QString &command)
{
    ProcessSpec spec;
    spec.program = QStringLiteral("/bin/sh");
    spec.arguments = {QStringLiteral("-c"), command};
    spec.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    spec.graceMs = 500;
    return spec;
}

QList<qint64> TestProcessExecutor::liveGroupMembers(qint64 group)
{
    // Zombies are dead already (only not yet reaped), so they do not count.
    QList<qint64> members;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 2 && fields.at(2).toLongLong() == group && fields.at(0) != "Z")
            members << pid;
    }
    return members;
}

QList<qint64> TestProcessExecutor::liveWithArgument(const QByteArray &argument)
{
    QList<qint64> found;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!numeric || !cmdline.open(QIODevice::ReadOnly))
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        const QByteArray line = stat.open(QIODevice::ReadOnly) ? stat.readAll() : QByteArray();
        const bool zombie = line.mid(line.lastIndexOf(')') + 2).startsWith('Z');
        if (!zombie && cmdline.readAll().split('\0').contains(argument))
            found << pid;
    }
    return found;
}

TestProcessExecutor::Result TestProcessExecutor::runToEnd(ProcessSpec spec,
                                                          const QString &stopAtLine)
{
    Result result;
    ProcessExecutor executor(std::move(spec));
    QElapsedTimer sinceStop;
    connect(&executor, &TaskExecutor::outputLine, this, [&](LogStream stream, const QString &line) {
        result.lines << std::pair(stream, line);
        if (!stopAtLine.isEmpty() && line == stopAtLine) {
            sinceStop.start();
            executor.stop(RunState::Cancelled);
        }
    });
    connect(&executor, &TaskExecutor::processStarted, this,
            [&](qint64 pid, qint64) { result.pid = pid; });
    QSignalSpy finished(&executor, &TaskExecutor::finished);
    executor.start();
    if (!finished.wait(20000))
        return result;
    result.outcome = finished.at(0).at(0).value<TaskOutcome>();
    result.stopToEndMs = sinceStop.isValid() ? sinceStop.elapsed() : -1;
    return result;
}

void TestProcessExecutor::output_arrivesAsLinesWithStreamsApart()
{
    const Result r =
        runToEnd(shell(QStringLiteral("printf 'one\\ntwo\\n'; echo bad >&2; printf 'no newline'")));
    QCOMPARE(r.outcome.state, RunState::Succeeded);
    QVERIFY(r.lines.contains(std::pair(LogStream::Stdout, QStringLiteral("one"))));
    QVERIFY(r.lines.contains(std::pair(LogStream::Stdout, QStringLiteral("two"))));
    QVERIFY(r.lines.contains(std::pair(LogStream::Stderr, QStringLiteral("bad"))));
    QVERIFY(r.lines.contains(std::pair(LogStream::Stdout, QStringLiteral("no newline"))));
}

void TestProcessExecutor::exitCode_decidesTheOutcome()
{
    const Result r = runToEnd(shell(QStringLiteral("exit 7")));
    QCOMPARE(r.outcome.state, RunState::Failed);
    QCOMPARE(r.outcome.exitCode, std::optional<int>(7));
    QCOMPARE(r.outcome.error, QStringLiteral("exit code 7"));
}

void TestProcessExecutor::missingProgram_failsWithAClearError()
{
    ProcessSpec spec;
    spec.program = QStringLiteral("/nonexistent/tool");
    const Result r = runToEnd(spec);
    QCOMPARE(r.outcome.state, RunState::Failed);
    QVERIFY2(r.outcome.error.startsWith(QLatin1String("cannot start /nonexistent/tool")),
             qPrintable(r.outcome.error));
}

void TestProcessExecutor::timeout_endsTheWholeProcessTree()
{
    ProcessSpec spec = shell(QStringLiteral("sleep 1000 & sleep 1000; wait"));
    spec.timeoutMs = 1000;
    const Result r = runToEnd(spec);
    QCOMPARE(r.outcome.state, RunState::TimedOut);
    QVERIFY(r.pid > 0);
    QTRY_VERIFY_WITH_TIMEOUT(liveGroupMembers(r.pid).isEmpty(), 30000);
}

void TestProcessExecutor::stop_killsAfterGraceWhenTermIsIgnored()
{
    // Stopped once the trap is set (said by the line), so SIGTERM surely finds it ignored.
    const Result r =
        runToEnd(shell(QStringLiteral("trap '' TERM; sleep 1000 & echo armed; wait; wait")),
                 QStringLiteral("armed"));
    QCOMPARE(r.outcome.state, RunState::Cancelled);
    QVERIFY(r.pid > 0);
    // It outlived SIGTERM: only the SIGKILL after the grace (500 ms) ended it. A lower bound,
    // which a slow machine only lengthens.
    QVERIFY2(r.stopToEndMs >= 450, qPrintable(QString::number(r.stopToEndMs)));
    QTRY_VERIFY_WITH_TIMEOUT(liveGroupMembers(r.pid).isEmpty(), 30000);
}

void TestProcessExecutor::finishedTask_leavesNoBackgroundChild()
{
    // The main process ends at once; what it started in the background must not outlive it.
    const Result r = runToEnd(shell(QStringLiteral("sleep 1000 >/dev/null 2>&1 & echo started")));
    QCOMPARE(r.outcome.state, RunState::Succeeded);
    QVERIFY(r.pid > 0); // else the group looked at below is no group at all
    QTRY_VERIFY_WITH_TIMEOUT(liveGroupMembers(r.pid).isEmpty(), 30000);
}

void TestProcessExecutor::environment_isExactlyTheGivenOne()
{
    qputenv("HOURGLASS_TEST_SECRET", "do-not-leak");
    ProcessSpec spec = shell(QStringLiteral("env"));
    spec.environment.insert(QStringLiteral("GIVEN"), QStringLiteral("yes"));
    const Result r = runToEnd(spec);
    QStringList names;
    for (const auto &[stream, line] : r.lines)
        names << line.section(QLatin1Char('='), 0, 0);
    QVERIFY(names.contains(QLatin1String("GIVEN")));
    QVERIFY(!names.contains(QLatin1String("HOURGLASS_TEST_SECRET")));
    qunsetenv("HOURGLASS_TEST_SECRET");
}

void TestProcessExecutor::descriptors_beyondStderrAreNotInherited()
{
    // A descriptor the engine opened without O_CLOEXEC must still not reach the task.
    const int leaky = ::open("/dev/null", O_RDONLY);
    QVERIFY(leaky > 2);
    const Result r = runToEnd(shell(QStringLiteral("ls /proc/self/fd")));
    ::close(leaky);
    QStringList fds;
    for (const auto &[stream, line] : r.lines)
        fds << line;
    // 0-2, plus the descriptor ls opens to read the directory itself.
    QVERIFY2(fds.size() <= 4, qPrintable(fds.join(QLatin1Char(' '))));
    QVERIFY(!fds.contains(QString::number(leaky)) || fds.size() == 4);
}

void TestProcessExecutor::output_isCappedWithAMarker()
{
    ProcessSpec spec = shell(QStringLiteral("yes line | head -n 100000"));
    spec.outputCapBytes = 1000;
    const Result r = runToEnd(spec);
    QCOMPARE(r.outcome.state, RunState::Succeeded);
    qsizetype bytes = 0;
    for (const auto &[stream, line] : r.lines) {
        if (stream != LogStream::System)
            bytes += line.size() + 1;
    }
    QVERIFY(bytes <= 1001);
    QCOMPARE(r.lines.last().first, LogStream::System);
    QVERIFY(r.lines.last().second.contains(QLatin1String("output truncated")));
}

// A child that leaves the task's process group (setsid -f, a daemon) outlived the task's
// end, its stop and its timeout. Each row's sleep has a duration of its own to be found by.
void TestProcessExecutor::childThatLeftTheGroup_endsWithTheTask_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<bool>("stopWhenReady");
    QTest::addColumn<int>("timeoutMs");
    QTest::addColumn<QByteArray>("marker");
    // The child has left the group (it made the file $r) before the task says "ready": the
    // task's end, stop or timeout surely comes after, never before it left.
    const QString leftGroup =
        QStringLiteral("r=$(mktemp -u); setsid -f sh -c \"touch $r; exec sleep %1\"; "
                       "while [ ! -e $r ]; do sleep 0.05; done; rm -f $r; echo ready");
    QTest::newRow("normal end") << leftGroup.arg(QStringLiteral("3001.25")) << false << 0
                                << QByteArray("3001.25");
    QTest::newRow("stop") << leftGroup.arg(QStringLiteral("3002.25"))
                                 + QStringLiteral("; sleep 100")
                          << true << 0 << QByteArray("3002.25");
    QTest::newRow("timeout") << leftGroup.arg(QStringLiteral("3003.25"))
                                    + QStringLiteral("; sleep 100")
                             << false << 5000 << QByteArray("3003.25");
    QTest::newRow("new group") << QStringLiteral(
        "r=$(mktemp -u); R=$r perl -e 'setpgrp(0,0); open(F, \">\", $ENV{R}); "
        "close F; exec \"sleep\", \"3004.25\"' & "
        "while [ ! -e $r ]; do sleep 0.05; done; rm -f $r; echo ready")
                               << false << 0 << QByteArray("3004.25");
}

void TestProcessExecutor::childThatLeftTheGroup_endsWithTheTask()
{
    QFETCH(QString, command);
    QFETCH(bool, stopWhenReady);
    QFETCH(int, timeoutMs);
    QFETCH(QByteArray, marker);
    ProcessSpec spec = shell(command);
    spec.timeoutMs = timeoutMs;
    const Result r = runToEnd(spec, stopWhenReady ? QStringLiteral("ready") : QString());
    QVERIFY(r.pid > 0);
    QVERIFY2(r.lines.contains(std::pair(LogStream::Stdout, QStringLiteral("ready"))),
             "the child had left the group before the task ended");
    QTRY_VERIFY_WITH_TIMEOUT(liveWithArgument(marker).isEmpty(), 5000);
    qInfo("tracked by %s", qPrintable(TaskProcesses::mechanism()));
}

// As cron gives: `cat` and `read` see the end of their input at once.
void TestProcessExecutor::stdin_isAtEndOfFile()
{
    const Result r = runToEnd(shell(QStringLiteral("cat; read x || echo eof")));
    QCOMPARE(r.outcome.state, RunState::Succeeded);
    QVERIFY(r.lines.contains(std::pair(LogStream::Stdout, QStringLiteral("eof"))));
}

QTEST_GUILESS_MAIN(TestProcessExecutor)
#include "tst_processexecutor.moc"
