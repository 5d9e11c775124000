#pragma once

#include "base/canceltoken.h"
#include "base/longtimer.h"
#include "domain/builtinarguments.h"
#include "taskexecutor.h"

#include <QFutureWatcher>

#include <atomic>
#include <functional>
#include <memory>

namespace hg {

// The SendMail builtin: one message through the SMTP server its arguments name, sent on the
// thread pool by the engine's sender (EngineConfig::sendMail: SendMailTask, which looks the
// password up, reads the attachments and speaks SMTP through libcurl). A stop or timeout
// cancels the transfer.
class SendMailExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SendMailExecutor)

public:
    using Sender = std::function<SendMailResult(const SendMailArguments &, qint64, CancelToken *)>;

    SendMailExecutor(SendMailArguments mail, Sender sender, qint64 timeoutMs,
                     QObject *parent = nullptr);
    ~SendMailExecutor() override;

    void start() override;
    void stop(RunState reason) override;

private:
    SendMailArguments m_mail;
    Sender m_sender;
    qint64 m_timeoutMs = 0;
    std::shared_ptr<CancelToken> m_cancelled = std::make_shared<CancelToken>();
    QFutureWatcher<SendMailResult> m_watcher;
    LongTimer m_timeout;
};

} // namespace hg
