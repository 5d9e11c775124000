#pragma once

#include "enums.h"

#include <QString>

namespace hg {

// Edge upstream -> task: the task may start once the upstream reached the condition.
struct Dependency
{
    qint64 taskId = 0;
    qint64 upstreamId = 0;
    DependencyCondition condition = DependencyCondition::Success;
    QString taskName; // filled by reads, for display
    QString upstreamName;
};

} // namespace hg
