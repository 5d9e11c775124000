#pragma once

#include "base/longtimer.h"
#include "taskexecutor.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTimer>

namespace hg {

struct ProcessSpec
{
    QString program;
    QStringList arguments;
    QString workingDirectory;
    QProcessEnvironment environment; // exactly what the child gets
    qint64 timeoutMs = 0;               // 0: none
    int graceMs = 5000;              // between TERM and KILL
    qint64 outputCapBytes = qint64(10) * 1024 * 1024;
};

// PROGRAM and SHELL tasks. The child leads its own session and process group, so a timeout
// or stop reaches grandchildren too: TERM to the group, KILL after the grace period, and
// whatever of the group is left once the task ends is killed as well. Descriptors above 2
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

    ProcessSpec m_spec;
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
