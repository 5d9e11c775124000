#pragma once

#include "domain/builtinarguments.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace hg {

// Internet messages as they go to an SMTP server (RFC 5322, MIME): CRLF lines, headers on one
// line without control characters, every body part in base64 so that no line of it can be
// taken for the message's end or a header.
class MailComposer final
{
public:
    // A header's value: control characters become spaces; RFC 2047 words where not ASCII.
    static QByteArray headerValue(const QString &text);
    static QByteArray date(const QDateTime &utc);
    // Base64 in lines of 76.
    static QByteArray base64Lines(const QByteArray &bytes);
    // The SendMail builtin's message: its body (text or HTML, UTF-8) and, when it has any,
    // its attachments (multipart/mixed). Bcc is not written: it is only in the envelope.
    static QByteArray compose(const SendMailArguments &mail,
                              const QList<MailAttachmentData> &attachments,
                              const QString &messageId);
};

} // namespace hg
