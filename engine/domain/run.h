#pragma once

#include "enums.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace hg {

// One execution of a chain. (scheduleId, scheduledFor) is unique: one fire, one run.
struct Run
{
    qint64 id = 0;
    qint64 chainId = 0;
    qint64 scheduleId = 0;  // 0: not from a schedule
    qint64 parentRunId = 0; // subchain runs
    qint64 rerunOfId = 0;
    qint64 batchId = 0;    // backfill: the batch's first run; its runs start in id order
    int batchParallel = 0; // backfill: at most this many of the batch at once (0: no limit)
    RunTrigger trigger = RunTrigger::Manual;
    QDateTime scheduledFor; // logical time
    RunState state = RunState::Queued;
    QString engineName;
    QJsonObject parameters;
    QDateTime createdAt;
    QDateTime startedAt;
    QDateTime finishedAt;
};

} // namespace hg
