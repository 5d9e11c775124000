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
