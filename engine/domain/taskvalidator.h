#pragma once

#include "base/result.h"
#include "task.h"

#include <QCoreApplication>

namespace hg {

// The rules a task must meet before it is stored: a name, a command, well-formed arguments
// for its kind (a builtin's typed arguments, an HTTP request, a subchain path), sane limits.
// The store, the command line and the task form (on every change) ask the same question.
// A refusal names its field (Error::field, one of the names below), so a form can show the
// message next to it.
class TaskValidator final
{
    Q_DECLARE_TR_FUNCTIONS(hg::TaskValidator)

public:
    static Status validate(const Task &task);

    static constexpr QLatin1String nameField{"name"};
    static constexpr QLatin1String commandField{"command"};
    static constexpr QLatin1String argumentsField{"arguments"};
    static constexpr QLatin1String connectionField{"connection"};
    static constexpr QLatin1String environmentField{"environment"};
    static constexpr QLatin1String limitsField{"limits"};
    static constexpr QLatin1String workingDirectoryField{"workingDirectory"};
    // The largest factor a retry delay grows by per attempt.
    static constexpr double maximumRetryBackoff = 100.0;
};

} // namespace hg
