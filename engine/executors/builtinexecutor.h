#pragma once

#include "taskexecutor.h"

#include <QJsonObject>
#include <QTimer>

namespace hg {

// BUILTIN tasks that run inside the engine. The argument is one JSON object (the task's first
// argument), checked against the builtin's schema before anything runs:
//   NoOp  {}                      succeeds at once
//   Sleep {"seconds": N}          waits N seconds (0 < N <= 86400)
//   Log   {"message": "text"}     writes the message to the run's log
// HttpRequest, Download, CopyFile and Notify are not built yet and fail with that message.
class BuiltinExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BuiltinExecutor)

public:
    BuiltinExecutor(QString name, QString argument, int timeoutMs, QObject *parent = nullptr);

    // The argument problem, or empty when the builtin and its argument are acceptable.
    static QString validate(const QString &name, const QString &argument);

    void start() override;
    void stop(RunState reason) override;

private:
    void finish(const TaskOutcome &outcome);

    QString m_name;
    QJsonObject m_arguments;
    QString m_argumentText;
    int m_timeoutMs = 0;
    QTimer m_sleep;
    QTimer m_timeout;
    bool m_done = false;
};

} // namespace hg
