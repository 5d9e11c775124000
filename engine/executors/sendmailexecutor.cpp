#include "sendmailexecutor.h"

#include "base/waitingworkpool.h"

#include <QtConcurrent/QtConcurrentRun>
#include <QUrl>

namespace hg {

SendMailExecutor::SendMailExecutor(SendMailArguments mail, Sender sender, qint64 timeoutMs,
                                   QObject *parent)
    : TaskExecutor(parent)
    , m_mail(std::move(mail))
    , m_sender(std::move(sender))
    , m_timeoutMs(timeoutMs)
{
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
    connect(&m_watcher, &QFutureWatcher<SendMailResult>::finished, this, [this] {
        m_timeout.stop();
        const SendMailResult outcome = m_watcher.result();
        const QString server = QUrl(m_mail.server).host();
        if (!outcome.sent) {
            deliverOutcome(TaskOutcome{
                RunState::Failed, std::nullopt,
                tr("the message was not sent through %1: %2").arg(server, outcome.answer)});
            return;
        }
        const qsizetype recipients = m_mail.to.size() + m_mail.cc.size() + m_mail.bcc.size();
        Q_EMIT outputLine(LogStream::System, tr("sent '%1' to %n recipient(s) through %2: %3",
                                                nullptr, int(recipients))
                                                 .arg(m_mail.subject, server, outcome.answer));
        deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
    });
}

SendMailExecutor::~SendMailExecutor()
{
    m_cancelled->cancel();
    m_watcher.disconnect(this);
    m_watcher.waitForFinished(); // the transfer must not outlive the engine that started it
}

void SendMailExecutor::start()
{
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
    if (!m_sender) {
        deliverOutcome(TaskOutcome{RunState::Failed, std::nullopt,
                                   tr("this engine cannot send mail (it was built without it)")});
        return;
    }
    m_watcher.setFuture(
        QtConcurrent::run(waitingWorkPool(), [sender = m_sender, mail = m_mail,
                                              timeoutMs = m_timeoutMs, cancelled = m_cancelled] {
            return sender(mail, timeoutMs, cancelled.get());
        }));
}

void SendMailExecutor::stop(RunState reason)
{
    m_cancelled->cancel();
    m_watcher.disconnect(this);
    m_timeout.stop();
    deliverOutcome(TaskOutcome{reason, std::nullopt,
                               reason == RunState::TimedOut ? tr("timed out") : tr("stopped")});
}

} // namespace hg
