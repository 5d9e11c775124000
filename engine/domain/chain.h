#pragma once

#include "enums.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace hg {

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
    FailureStrategy onFailure = FailureStrategy::End;
    Priority priority = Priority::Medium;
    NotifyPolicy notify = NotifyPolicy::Failure;
    QJsonObject parameters;
    QDateTime createdAt;
};

} // namespace hg
