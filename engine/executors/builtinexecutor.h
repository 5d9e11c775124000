#pragma once

#include "base/longtimer.h"
#include "domain/builtinarguments.h"
#include "taskexecutor.h"

#include <QTimer>

namespace hg {

// The BUILTIN tasks that need nothing but the engine itself: NoOp, Sleep, Log and Notify
// (see BuiltinArguments for their arguments). HttpRequest and Download run in HttpExecutor,
// CopyFile in FileCopyExecutor; ExecutorFactory picks.
class BuiltinExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BuiltinExecutor)

public:
    BuiltinExecutor(BuiltinArguments arguments, qint64 timeoutMs, QObject *parent = nullptr);

    void start() override;
    void stop(RunState reason) override;

private:
    BuiltinArguments m_arguments;
    qint64 m_timeoutMs = 0;
    LongTimer m_sleep;
    LongTimer m_timeout;
};

} // namespace hg
