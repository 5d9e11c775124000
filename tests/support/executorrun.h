#pragma once

#include "executors/taskexecutor.h"

#include <QList>
#include <QString>

#include <utility>

namespace hg::test {

// What one executor did from start() to finished().
struct ExecutorRun
{
    TaskOutcome outcome;
    QList<std::pair<LogStream, QString>> lines;
    bool finished = false;

    QString text() const; // every line, joined by newlines
};

// Starts the executor and waits (at most timeoutMs) for its outcome; with stopAfterMs >= 0
// it is stopped with `stopReason` that long after the start.
ExecutorRun runExecutor(TaskExecutor &executor, int stopAfterMs = -1,
                        RunState stopReason = RunState::Cancelled, int timeoutMs = 20000);

} // namespace hg::test
