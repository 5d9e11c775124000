#include "sendmailtask.h"

#include "channelsecrets.h"
#include "mailcomposer.h"
#include "smtpsender.h"

#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <QUuid>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace hg {
namespace {

// Attachments named by path, read now: only regular files (a FIFO would block the send for
// good, a device would never end).
Result<QList<MailAttachmentData>> readAttachments(const SendMailArguments &mail)
{
    QList<MailAttachmentData> all;
    qint64 total = 0;
    for (const MailAttachmentData &data : mail.attachmentData)
        total += data.content.size();
    for (const QString &path : mail.attachments) {
        struct stat info = {};
        if (::stat(QFile::encodeName(path).constData(), &info) != 0)
            return Error::notFound(SendMailTask::tr("attachment %1: %2")
                                       .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        // /proc's files look regular (and read as the engine's own environment, helper-7).
        if (!S_ISREG(info.st_mode)
            || QFileInfo(path).canonicalFilePath().startsWith(QLatin1String("/proc/")))
            return Error::invalid(SendMailTask::tr("attachment %1 is not a file").arg(path));
        total += qint64(info.st_size);
        if (total > SendMailTask::maxAttachmentBytes)
            return Error::invalid(SendMailTask::tr("the attachments come to more than %L1 MB")
                                      .arg(SendMailTask::maxAttachmentBytes >> 20));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error::invalid(
                SendMailTask::tr("attachment %1: %2").arg(path, file.errorString()));
        all << MailAttachmentData{QFileInfo(path).fileName(), file.readAll()};
    }
    return all + mail.attachmentData;
}

} // namespace

SendMailResult SendMailTask::send(const SendMailArguments &mail, qint64 timeoutMs,
                                  CancelToken *cancelled)
{
    const Result<QList<MailAttachmentData>> attachments = readAttachments(mail);
    if (!attachments)
        return {false, attachments.error().message};
    QString password;
    if (mail.passwordKey.isEmpty() && !QUrl(mail.server).userName().isEmpty())
        return {false, SendMailTask::tr("its server names a user but no password is kept (task "
                                        "add --password-stdin)")};
    if (!mail.passwordKey.isEmpty()) {
        const Result<QJsonObject> secrets = ChannelSecrets().lookup(mail.passwordKey);
        if (!secrets)
            return {false, SendMailTask::tr("its password (%1) cannot be read: %2")
                               .arg(mail.passwordKey, secrets.error().message)};
        password = secrets->value(QLatin1String("password")).toString();
    }
    const QByteArray mime = MailComposer::compose(
        mail, attachments.value(), QUuid::createUuid().toString(QUuid::WithoutBraces));
    const QStringList recipients = mail.to + mail.cc + mail.bcc;
    // 0 (no task timeout): the transfer still ends, as a channel's does.
    const int timeout = int(timeoutMs > 0 ? std::min<qint64>(timeoutMs, 3'600'000) : 120'000);
    const SendOutcome outcome =
        SmtpSender::transfer(SmtpSender::Server{mail.server, mail.security, mail.caFile}, password,
                             mail.from, recipients, mime, timeout, cancelled);
    return {outcome.delivered, outcome.answer};
}

} // namespace hg
