#pragma once

#include "base/result.h"
#include "task.h"

namespace hg {

// The rules a task must meet before it is stored: a name, a command, well-formed arguments
// for its kind (a builtin's typed arguments, an HTTP request, a subchain path), sane limits.
// The store, the command line and the task form (on every change) ask the same question.
class TaskValidator final
{
public:
    static Status validate(const Task &task);
};

} // namespace hg
