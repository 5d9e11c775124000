#include "mailcomposer.h"

#include <QFileInfo>
#include <QLocale>
#include <QMimeDatabase>
#include <QUuid>

namespace hg {

QByteArray MailComposer::headerValue(const QString &text)
{
    QString clean;
    for (const QChar c : text)
        clean += (c.category() == QChar::Other_Control || c == QChar::LineSeparator)
                     ? QLatin1Char(' ')
                     : c;
    const QByteArray utf8 = clean.toUtf8();
    bool ascii = true;
    for (const char c : utf8)
        ascii = ascii && uchar(c) < 0x80;
    if (ascii)
        return utf8.left(900); // a line may hold 998 (RFC 5322)
    // Encoded words of at most 75 characters each (RFC 2047), one per folded line, cut
    // between characters: 45 bytes of UTF-8 make 60 of base64.
    QByteArray folded;
    qsizetype at = 0;
    while (at < clean.size()) {
        QByteArray chunk;
        qsizetype end = at;
        while (end < clean.size()) {
            const qsizetype width = clean.at(end).isHighSurrogate() ? 2 : 1;
            const QByteArray next = clean.mid(end, width).toUtf8();
            if (!chunk.isEmpty() && chunk.size() + next.size() > 45)
                break;
            chunk += next;
            end += width;
        }
        if (!folded.isEmpty())
            folded += "\r\n ";
        folded += "=?UTF-8?B?" + chunk.toBase64() + "?=";
        at = end;
    }
    return folded;
}

QByteArray MailComposer::date(const QDateTime &utc)
{
    return QLocale::c().toString(utc, QStringLiteral("ddd, dd MMM yyyy HH:mm:ss")).toLatin1()
           + " +0000";
}

QByteArray MailComposer::base64Lines(const QByteArray &bytes)
{
    const QByteArray encoded = bytes.toBase64();
    QByteArray lines;
    lines.reserve(encoded.size() + encoded.size() / 38 + 2);
    for (qsizetype at = 0; at < encoded.size(); at += 76)
        lines += encoded.mid(at, 76) + "\r\n";
    return lines;
}

QByteArray MailComposer::compose(const SendMailArguments &mail,
                                 const QList<MailAttachmentData> &attachments,
                                 const QString &messageId)
{
    QByteArray mime;
    const auto header = [&mime](const char *name, const QByteArray &value) {
        mime += name;
        mime += ": ";
        mime += value;
        mime += "\r\n";
    };
    const auto addressLines = [](const QStringList &addresses) {
        QByteArray lines; // one address a line: a long list must not pass 998 characters
        for (const QString &address : addresses)
            lines += (lines.isEmpty() ? QByteArray() : QByteArray(",\r\n ")) + headerValue(address);
        return lines;
    };
    header("From", headerValue(mail.from));
    if (!mail.to.isEmpty())
        header("To", addressLines(mail.to));
    if (!mail.cc.isEmpty())
        header("Cc", addressLines(mail.cc));
    header("Subject", headerValue(mail.subject));
    header("Date", date(QDateTime::currentDateTimeUtc()));
    header("Message-ID", "<" + messageId.toLatin1() + "@hourglass>");
    header("MIME-Version", "1.0");
    const QByteArray bodyType =
        mail.html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8";
    if (attachments.isEmpty()) {
        header("Content-Type", bodyType);
        header("Content-Transfer-Encoding", "base64");
        mime += "\r\n" + base64Lines(mail.body.toUtf8());
        return mime;
    }
    // A boundary no base64 line can hold ('=' and '_' together).
    const QByteArray boundary =
        "=_hourglass_" + QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    header("Content-Type", "multipart/mixed; boundary=\"" + boundary + "\"");
    mime += "\r\n";
    mime += "--" + boundary + "\r\nContent-Type: " + bodyType
            + "\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64Lines(mail.body.toUtf8());
    const QMimeDatabase types;
    for (const MailAttachmentData &attachment : attachments) {
        const QByteArray type =
            types.mimeTypeForFile(attachment.name, QMimeDatabase::MatchExtension).name().toLatin1();
        // The name as a quoted string (RFC 2231's form would be longer to write): quotes and
        // backslashes, which would end it, become '_'.
        // Its own name only: a receiver that saved "../../etc/passwd" as given would write there.
        QString name = QFileInfo(attachment.name).fileName();
        if (name.isEmpty())
            name = QStringLiteral("attachment");
        name.replace(QLatin1Char('"'), QLatin1Char('_'))
            .replace(QLatin1Char('\\'), QLatin1Char('_'));
        mime += "--" + boundary + "\r\nContent-Type: " + type
                + "\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; "
                  "filename=\""
                + headerValue(name) + "\"\r\n\r\n" + base64Lines(attachment.content);
    }
    mime += "--" + boundary + "--\r\n";
    return mime;
}

} // namespace hg
