#pragma once

#include "enums.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace hg {

// How long a chain's finished runs are kept (with their attempts and logs). Each limit that is
// set (above 0) removes what is beyond it: runs past the newest keepRuns, runs finished more
// than keepDays ago. Failed runs (failed, timed out) follow their own limits when either of
// those is set, so failures can be kept longer than successes.
struct Retention
{
    int keepRuns = 0;
    int keepDays = 0;
    int keepFailedRuns = 0;
    int keepFailedDays = 0;

    bool isSet() const
    {
        return keepRuns > 0 || keepDays > 0 || keepFailedRuns > 0 || keepFailedDays > 0;
    }
    friend bool operator==(const Retention &, const Retention &) = default;
};

struct Chain
{
    qint64 id = 0;
    qint64 projectId = 0;
    QString name;
    QString description;
    bool enabled = true;
    int maxInstances = 0; // 0: no limit
    OverlapPolicy overlap = OverlapPolicy::Queue;
    int timeoutSeconds = 0; // 0: no timeout
    bool selfDestruct = false;
    bool exclusive = false;
    QString clientName; // empty: any engine may run it
    // Its schedules' fires and triggers' runs start only while the computer has a network
    // (Task Scheduler's RunOnlyIfNetworkAvailable); a fire without one is a ledger row.
    bool needsNetwork = false;
    FailureStrategy onFailure = FailureStrategy::End;
    Priority priority = Priority::Medium;
    NotifyPolicy notify = NotifyPolicy::Failure;
    QJsonObject parameters;
    Retention retention;
    QDateTime createdAt;
};

} // namespace hg
