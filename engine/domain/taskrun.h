#pragma once

#include "enums.h"

#include <QDateTime>
#include <QString>

#include <optional>

namespace hg {

// One attempt of one task within a run; a retry is a new row with attempt + 1.
struct TaskRun
{
    qint64 id = 0;
    qint64 runId = 0;
    qint64 taskId = 0;
    int attempt = 1;
    RunState state = RunState::Queued;
    qint64 pid = 0;
    qint64 processStartTicks = 0; // /proc start time: tells a live process from a reused pid
    std::optional<int> exitCode;
    QString error;
    QDateTime queuedAt;
    QDateTime startedAt;
    QDateTime finishedAt;
    // The engine that ran it for its run's engine (an offered attempt, shared store); empty
    // when the run's own engine did.
    QString workerName;
};

} // namespace hg
