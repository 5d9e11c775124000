#include "processexecutor.h"

#include "base/processinfo.h"

#include <QFileInfo>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hg {
namespace {

// Runs in the child between fork and exec: async-signal-safe calls only. Qt forks with vfork
// semantics here (the engine waits until exec), so the child must never block.
void prepareChild(pid_t engine, const char *cgroupProcs)
{
    ::setsid(); // own session and process group: the group id is the child's pid
    // Into the task's own cgroup, which no descendant can leave ("0": the writing process).
    if (cgroupProcs) {
        const int fd = ::open(cgroupProcs, O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            (void)!::write(fd, "0", 1);
            ::close(fd);
        }
    }
    // If the engine dies, so does the task's first process: an engine killed before it could
    // record the pid leaves nothing running that a later engine cannot find. (Once the pid is
    // recorded, recovery kills the whole group.)
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != engine) // it died before prctl took effect
        ::_exit(127);
    // Nothing of the engine's beyond stdin/stdout/stderr survives exec.
    if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        const long limit = std::min(::sysconf(_SC_OPEN_MAX), 65536L);
        for (int fd = 3; fd < limit; ++fd)
            ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    // Signals the engine ignores or blocks must not stay so for the task.
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
}

} // namespace

ProcessExecutor::ProcessExecutor(ProcessSpec spec, QObject *parent)
    : TaskExecutor(parent)
    , m_spec(std::move(spec))
{
    m_killTimer.setSingleShot(true);
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
    connect(&m_killTimer, &QTimer::timeout, this, [this] { signalEverything(SIGKILL); });
    connect(&m_process, &QProcess::readyReadStandardOutput, this,
            [this] { readOutput(QProcess::StandardOutput); });
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { readOutput(QProcess::StandardError); });
    connect(&m_process, &QProcess::finished, this, &ProcessExecutor::processFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &ProcessExecutor::processFailed);
}

ProcessExecutor::~ProcessExecutor()
{
    // Never leave a task's processes behind, whatever happens to the executor.
    signalEverything(SIGKILL);
    m_process.disconnect(this);
    if (m_process.state() != QProcess::NotRunning)
        m_process.waitForFinished(1000);
}

void ProcessExecutor::start()
{
    m_process.setProgram(m_spec.program);
    m_process.setArguments(m_spec.arguments);
    m_processes = std::make_unique<TaskProcesses>();
    QProcessEnvironment environment = m_spec.environment;
    environment.insert(QString::fromLatin1(TaskProcesses::tokenName()), m_processes->token());
    m_process.setProcessEnvironment(environment);
    if (!m_spec.workingDirectory.isEmpty())
        m_process.setWorkingDirectory(m_spec.workingDirectory);
    // End of file at once, as cron gives: a task that reads stdin (cat, read, psql without
    // -f, an ssh that prompts) must not wait on a pipe nobody writes. A crontab's '%' input
    // arrives as a here-document in the command itself.
    m_process.setStandardInputFile(m_spec.standardInputFile.isEmpty() ? QProcess::nullDevice()
                                                                      : m_spec.standardInputFile);
    if (!m_spec.standardOutputFile.isEmpty())
        m_process.setStandardOutputFile(m_spec.standardOutputFile);
    const pid_t engine = ::getpid();
    const char *cgroupProcs = m_processes->cgroupProcsPath();
    m_process.setChildProcessModifier([engine, cgroupProcs] { prepareChild(engine, cgroupProcs); });
    m_process.start(QIODevice::ReadOnly);
    if (!m_process.waitForStarted(10000))
        return; // errorOccurred reports it
    m_pid = m_process.processId();
    m_processes->confirmMember(pid_t(m_pid));
    Q_EMIT processStarted(m_pid, processinfo::startTicks(m_pid));
    if (m_spec.timeoutMs > 0)
        m_timeout.start(m_spec.timeoutMs);
}

void ProcessExecutor::stop(RunState reason)
{
    if (outcomeDelivered() || m_stopReason)
        return;
    m_stopReason = reason;
    m_timeout.stop();
    const bool groupSignalled = m_pid > 0 && processinfo::signalGroup(m_pid, SIGTERM);
    // Those that left the group (setsid, setpgid, a daemon) are told too.
    const int others = m_processes ? m_processes->signalAll(SIGTERM) : 0;
    if (!groupSignalled && others == 0) {
        m_process.kill();
        return;
    }
    m_killTimer.start(m_spec.graceMs);
}

void ProcessExecutor::readOutput(QProcess::ProcessChannel channel)
{
    m_process.setReadChannel(channel);
    const QByteArray chunk = m_process.readAll();
    QByteArray &buffer = channel == QProcess::StandardOutput ? m_stdout : m_stderr;
    if (m_capped)
        return; // keep draining the pipe so the task never blocks on a full one
    m_outputBytes += chunk.size();
    if (m_outputBytes > m_spec.outputCapBytes) {
        buffer += chunk.left(chunk.size() - (m_outputBytes - m_spec.outputCapBytes));
        emitLines(channel == QProcess::StandardOutput ? LogStream::Stdout : LogStream::Stderr,
                  buffer, true);
        m_capped = true;
        Q_EMIT outputLine(
            LogStream::System,
            QStringLiteral("output truncated: more than %1 bytes; the rest is discarded")
                .arg(m_spec.outputCapBytes));
        return;
    }
    buffer += chunk;
    emitLines(channel == QProcess::StandardOutput ? LogStream::Stdout : LogStream::Stderr, buffer,
              false);
}

void ProcessExecutor::emitLines(LogStream stream, QByteArray &buffer, bool flush)
{
    qsizetype start = 0;
    for (qsizetype newline = buffer.indexOf('\n'); newline >= 0;
         newline = buffer.indexOf('\n', start)) {
        QByteArray line = buffer.mid(start, newline - start);
        if (line.endsWith('\r'))
            line.chop(1);
        Q_EMIT outputLine(stream, QString::fromUtf8(line));
        start = newline + 1;
    }
    buffer.remove(0, start);
    if (flush && !buffer.isEmpty()) {
        Q_EMIT outputLine(stream, QString::fromUtf8(buffer));
        buffer.clear();
    }
}

void ProcessExecutor::processFinished(int exitCode, QProcess::ExitStatus status)
{
    readOutput(QProcess::StandardOutput);
    readOutput(QProcess::StandardError);
    emitLines(LogStream::Stdout, m_stdout, true);
    emitLines(LogStream::Stderr, m_stderr, true);
    TaskOutcome outcome;
    if (m_stopReason) {
        outcome.state = *m_stopReason;
        outcome.error = *m_stopReason == RunState::TimedOut ? QStringLiteral("timed out")
                                                            : QStringLiteral("stopped");
    } else if (status == QProcess::CrashExit) {
        outcome.state = RunState::Failed;
        // Qt reports the signal's number as the exit code of a crash.
        const char *name = ::sigabbrev_np(exitCode);
        outcome.error = name ? QStringLiteral("ended by signal %1 (SIG%2)")
                                   .arg(exitCode)
                                   .arg(QString::fromLatin1(name))
                             : QStringLiteral("ended by signal %1").arg(exitCode);
    } else {
        outcome.exitCode = exitCode;
        outcome.state = exitCode == 0 ? RunState::Succeeded : RunState::Failed;
        if (exitCode != 0)
            outcome.error = QStringLiteral("exit code %1").arg(exitCode);
    }
    finish(outcome);
}

void ProcessExecutor::processFailed(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart)
        return; // crashes and timeouts arrive through finished()
    // Qt says only "chdir: No such file or directory": name the folder.
    if (!m_spec.workingDirectory.isEmpty() && !QFileInfo(m_spec.workingDirectory).isDir()) {
        finish(TaskOutcome{RunState::Failed, std::nullopt,
                           QStringLiteral("cannot start %1: working folder %2 does not exist or "
                                          "is not a folder")
                               .arg(m_spec.program, m_spec.workingDirectory)});
        return;
    }
    finish(TaskOutcome{
        RunState::Failed, std::nullopt,
        QStringLiteral("cannot start %1: %2").arg(m_spec.program, m_process.errorString())});
}

void ProcessExecutor::finish(const TaskOutcome &outcome)
{
    if (outcomeDelivered())
        return;
    m_timeout.stop();
    m_killTimer.stop();
    // Children the task left running (sleep 1000 &, setsid -f daemon) end with it.
    signalEverything(SIGKILL);
    deliverOutcome(outcome);
}

void ProcessExecutor::signalEverything(int signal)
{
    if (m_pid > 0)
        processinfo::signalGroup(m_pid, signal);
    if (m_processes)
        m_processes->signalAll(signal);
}

} // namespace hg
