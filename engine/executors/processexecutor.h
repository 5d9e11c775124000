#pragma once

#include "base/longtimer.h"
#include "taskexecutor.h"
#include "taskprocesses.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace hg {

struct ProcessSpec
{
    QString program;
    QStringList arguments;
    QString workingDirectory;
    QProcessEnvironment environment; // exactly what the child gets
    qint64 timeoutMs = 0;            // 0: none
    int graceMs = 5000;              // between TERM and KILL
    qint64 outputCapBytes = qint64(10) * 1024 * 1024;
    // A COPY builtin's pipe (/proc/self/fd/N): the child's stdin or stdout instead of
    // /dev/null and the task's output.
    QString standardInputFile;
    QString standardOutputFile;
};

// PROGRAM and SHELL tasks. The child leads its own session and process group, and is tracked
// by TaskProcesses (a cgroup of its own, else an inherited environment token), so a timeout
// or stop reaches every descendant, also one that left the group: TERM to all, KILL after
// the grace period, and whatever is left once the task ends is killed as well. Standard input
// is /dev/null. Descriptors above 2
// are closed on exec; the environment is the explicit one in the spec.
class ProcessExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProcessExecutor)

public:
    explicit ProcessExecutor(ProcessSpec spec, QObject *parent = nullptr);
    ~ProcessExecutor() override;

    void start() override;
    void stop(RunState reason) override;
    qint64 processId() const { return m_pid; }

private:
    void readOutput(QProcess::ProcessChannel channel);
    void emitLines(LogStream stream, QByteArray &buffer, bool flush);
    void processFinished(int exitCode, QProcess::ExitStatus status);
    void processFailed(QProcess::ProcessError error);
    void finish(const TaskOutcome &outcome);
    void signalEverything(int signal); // the group and whoever left it

    ProcessSpec m_spec;
    std::unique_ptr<TaskProcesses> m_processes; // what the task started, wherever it went
    QProcess m_process;
    LongTimer m_timeout;
    QTimer m_killTimer;
    QByteArray m_stdout;
    QByteArray m_stderr;
    qint64 m_pid = 0;
    qint64 m_outputBytes = 0;
    bool m_capped = false;
    std::optional<RunState> m_stopReason;
};

} // namespace hg
