#pragma once

#include "base/result.h"
#include "schedule.h"

#include <QCoreApplication>

namespace hg {

// The rules a schedule must meet before it is stored, whoever writes it: the store, the
// command line and the schedule dialog (which checks on every keystroke) ask the same
// question. Expressions are compiled through CompiledCronCache, so the dialog's preview and
// the engine reuse what validation compiled.
class ScheduleValidator final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ScheduleValidator)

public:
    static Status validate(const Schedule &schedule);
    // A valid schedule as it is stored: the expression trimmed and an "auto" dialect resolved
    // to the one detected, so the schedule keeps meaning what it meant when it was added.
    static Result<Schedule> normalized(const Schedule &schedule);
};

} // namespace hg
