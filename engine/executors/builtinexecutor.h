#pragma once

#include "taskexecutor.h"

#include <QJsonObject>
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
    // `arguments` were checked by BuiltinArguments::parse.
    BuiltinExecutor(QString name, QJsonObject arguments, int timeoutMs, QObject *parent = nullptr);

    void start() override;
    void stop(RunState reason) override;

private:
    QString m_name;
    QJsonObject m_arguments;
    int m_timeoutMs = 0;
    QTimer m_sleep;
    QTimer m_timeout;
};

} // namespace hg
