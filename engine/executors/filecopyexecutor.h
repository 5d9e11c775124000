#pragma once

#include "base/longtimer.h"
#include "taskexecutor.h"

#include <QFutureWatcher>
#include <QTimer>

#include <atomic>
#include <memory>

namespace hg {

// The CopyFile builtin. The copy runs on the thread pool (a large file must not stall the
// engine) into a temporary file beside the destination, which is then renamed over it: the
// destination is either the old file or the whole new one. A stop or timeout abandons the
// copy before the rename.
class FileCopyExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileCopyExecutor)

public:
    FileCopyExecutor(QString source, QString destination, bool overwrite, qint64 timeoutMs,
                     QObject *parent = nullptr);
    ~FileCopyExecutor() override;

    void start() override;
    void stop(RunState reason) override;

private:
    QString m_source;
    QString m_destination;
    bool m_overwrite = false;
    qint64 m_timeoutMs = 0;
    std::shared_ptr<std::atomic<bool>> m_cancelled = std::make_shared<std::atomic<bool>>(false);
    QFutureWatcher<QString> m_watcher; // the copy's error, empty when it worked
    LongTimer m_timeout;
};

} // namespace hg
