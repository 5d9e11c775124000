#pragma once

#include "base/canceltoken.h"
#include "domain/builtinarguments.h"

#include <QCoreApplication>

#include <atomic>

namespace hg {

// What the SendMail builtin does (EngineConfig::sendMail, wired in by the app): reads its
// attachments, looks its password up (ChannelSecrets), composes the message (MailComposer)
// and hands it to the server as a channel's mail goes (SmtpSender, libcurl). Blocks.
class SendMailTask final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SendMailTask)

public:
    // All attachments together, read into memory to be encoded: a mail server refuses far
    // less (25 MB is common).
    static constexpr qint64 maxAttachmentBytes = 50LL * 1024 * 1024;

    static SendMailResult send(const SendMailArguments &mail, qint64 timeoutMs,
                               CancelToken *cancelled);
};

} // namespace hg
