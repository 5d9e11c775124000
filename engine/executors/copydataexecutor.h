#pragma once

#include "base/longtimer.h"
#include "copytransfer.h"
#include "processexecutor.h"

#include <QFutureWatcher>

#include <atomic>
#include <memory>
#include <optional>

namespace hg {

// The four COPY builtins (pg_timetable's CopyFromFile, CopyToFile, CopyFromProgram and
// CopyToProgram). The COPY runs on the thread pool (CopyTransfer) on the task's connection;
// a file is read, or written whole or not at all (OutputFile); a program runs as a PROGRAM
// task does (ProcessExecutor: its own cgroup, killed with the task), its stdout or stdin a
// pipe to the COPY and its stderr the task's output. Data from a program is stored only when
// the program ended well.
class CopyDataExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CopyDataExecutor)

public:
    // `program`: the program's spec for the *Program builtins (its environment and grace as a
    // PROGRAM task's), else nothing.
    CopyDataExecutor(Builtin builtin, CopyDataArguments copy, SqlTarget target,
                     std::optional<ProcessSpec> program, qint64 timeoutMs,
                     QObject *parent = nullptr);
    ~CopyDataExecutor() override;

    void start() override;
    void stop(RunState reason) override;

private:
    void finishIfDone();
    void fail(const QString &error);

    Builtin m_builtin;
    CopyDataArguments m_copy;
    std::shared_ptr<CopyTransfer> m_transfer;
    std::optional<ProcessSpec> m_programSpec;
    std::unique_ptr<ProcessExecutor> m_program;
    std::optional<TaskOutcome> m_programOutcome;
    int m_pipe[2] = {-1, -1};
    // The COPY's end of the pipe, left open by a failed COPY until the program is stopped.
    std::shared_ptr<std::atomic<int>> m_keptOpen = std::make_shared<std::atomic<int>>(-1);
    qint64 m_timeoutMs = 0;
    QFutureWatcher<CopyTransfer::Outcome> m_watcher;
    LongTimer m_timeout;
};

} // namespace hg
