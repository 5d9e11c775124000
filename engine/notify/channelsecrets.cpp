#include "channelsecrets.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLockFile>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>

#include <unistd.h>

namespace hg {

ChannelSecrets::ChannelSecrets(Keychain keychain, QString folder)
    : m_keychain(std::move(keychain))
    , m_folder(std::move(folder))
{
    if (m_folder.isEmpty())
        m_folder = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
                   + QStringLiteral("/hourglass");
}

QString ChannelSecrets::newKey(const QString &channelName)
{
    return QStringLiteral("hourglass-channel:%1:%2")
        .arg(channelName)
        .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
}

Result<QString> ChannelSecrets::keepPassword(const QString &label, const QString &password) const
{
    // Its own prefix: a SendMail task may name only such a key, never a channel's.
    const QString key =
        QStringLiteral("hourglass-sendmail:%1:%2")
            .arg(label)
            .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    if (const Result<QString> kept =
            store(key, QJsonObject{{QStringLiteral("password"), password}});
        !kept)
        return kept.error();
    return key;
}

QString ChannelSecrets::filePath() const
{
    return m_folder + QStringLiteral("/channel-secrets.json");
}

Result<QString> ChannelSecrets::store(const QString &key, const QJsonObject &secrets) const
{
    const QString text = QString::fromUtf8(QJsonDocument(secrets).toJson(QJsonDocument::Compact));
    const Status kept = m_keychain.write(key, text);
    if (kept)
        return tr("the keychain");
    if (kept.error().kind != ErrorKind::Unavailable)
        return kept.error();
    // Read, changed and written whole under a lock: twenty `channel add` at once each kept
    // the file as it read it, and lost the others' secrets (helper-3).
    if (Status folder = prepareFolder(); !folder)
        return folder.error();
    QLockFile lock(filePath() + QStringLiteral(".lock"));
    if (!lock.tryLock(10000))
        return Error::unavailable(tr("%1 is locked by another process").arg(filePath()));
    Result<QJsonObject> all = readFile();
    if (!all)
        return all.error();
    all->insert(key, secrets);
    if (Status written = writeFile(all.value()); !written)
        return written.error();
    return filePath();
}

Result<QJsonObject> ChannelSecrets::lookup(const QString &key) const
{
    if (key.isEmpty())
        return QJsonObject();
    const Result<QString> kept = m_keychain.read(key);
    if (kept)
        return QJsonDocument::fromJson(kept->toUtf8()).object();
    if (kept.error().kind != ErrorKind::Unavailable && kept.error().kind != ErrorKind::NotFound)
        return kept.error();
    const Result<QJsonObject> all = readFile();
    if (!all)
        return all.error();
    // Kept once and gone now: sending without it would go out unsigned (or log in without a
    // password), as if nothing were wrong.
    if (!all->contains(key)) {
        // An imported channel comes without them, under a key that holds nothing yet.
        const QString channel = key.section(QLatin1Char(':'), 1, -2);
        const QString remedy =
            key.startsWith(QLatin1String("hourglass-sendmail:"))
                ? tr("type the password in the task form's password field")
                : tr("give them with `hourglass channel set %1 --password-stdin` (or "
                     "--secret-stdin, --secret-url-stdin)")
                      .arg(channel);
        return Error::notFound(tr("the secrets are not here (neither the keychain nor %1 holds "
                                  "%2): %3")
                                   .arg(filePath(), key, remedy));
    }
    return all->value(key).toObject();
}

Status ChannelSecrets::forget(const QString &key) const
{
    if (key.isEmpty())
        return {};
    if (const Status removed = m_keychain.remove(key);
        !removed && removed.error().kind != ErrorKind::Unavailable)
        return removed;
    if (!QFile::exists(filePath()))
        return {};
    QLockFile lock(filePath() + QStringLiteral(".lock"));
    if (!lock.tryLock(10000))
        return Error::unavailable(tr("%1 is locked by another process").arg(filePath()));
    Result<QJsonObject> all = readFile();
    if (!all)
        return all.error();
    if (!all->contains(key))
        return {};
    all->remove(key);
    return writeFile(all.value());
}

Result<QJsonObject> ChannelSecrets::readFile() const
{
    QFile file(filePath());
    if (!file.exists())
        return QJsonObject();
    // Never a FIFO or a device put there: reading it would wait for good, or forever.
    if (!QFileInfo(filePath()).isFile())
        return Error::runtime(
            tr("%1 is not a regular file; it should hold the channels' secrets").arg(filePath()));
    if (!file.open(QIODevice::ReadOnly))
        return Error::runtime(tr("cannot read %1: %2").arg(filePath(), file.errorString()));
    // Made readable by others (a copy, an archive unpacked): closed again at once, not at
    // the next write (helper-8).
    constexpr QFileDevice::Permissions ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    constexpr QFileDevice::Permissions allowed =
        ownerOnly | QFileDevice::ReadUser | QFileDevice::WriteUser; // the same bits, for us
    if ((file.permissions() & ~allowed) != QFileDevice::Permissions()
        && QFileInfo(filePath()).ownerId() == ::geteuid())
        (void)file.setPermissions(ownerOnly);
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return Error::runtime(tr("%1 is damaged (%2); it holds the channels' secrets: move it "
                                 "away and add the channels again")
                                  .arg(filePath(), error.errorString()));
    return document.object();
}

Status ChannelSecrets::prepareFolder() const
{
    if (!QDir().mkpath(m_folder))
        return Error::runtime(tr("cannot make %1").arg(m_folder));
    // Another user's folder could have the secrets swapped under us (a webhook URL of theirs).
    if (QFileInfo(m_folder).ownerId() != ::geteuid())
        return Error::runtime(
            tr("%1 belongs to another user: the channels' secrets are not kept there")
                .arg(m_folder));
    QFile::setPermissions(m_folder,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return {};
}

Status ChannelSecrets::writeFile(const QJsonObject &all) const
{
    if (Status folder = prepareFolder(); !folder)
        return folder;
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return Error::runtime(tr("cannot write %1: %2").arg(filePath(), file.errorString()));
    // Before a byte is written: the temporary file is never readable by others.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(QJsonDocument(all).toJson(QJsonDocument::Indented));
    if (!file.flush() || !file.commit()) // commit() alone misses a full disk (Qt 6.4)
        return Error::runtime(tr("cannot write %1: %2").arg(filePath(), file.errorString()));
    return {};
}

} // namespace hg
