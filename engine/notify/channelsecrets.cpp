#include "channelsecrets.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>

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
    if (!file.open(QIODevice::ReadOnly))
        return Error::runtime(tr("cannot read %1: %2").arg(filePath(), file.errorString()));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return Error::runtime(tr("%1 is damaged (%2); it holds the channels' secrets: move it "
                                 "away and add the channels again")
                                  .arg(filePath(), error.errorString()));
    return document.object();
}

Status ChannelSecrets::writeFile(const QJsonObject &all) const
{
    if (!QDir().mkpath(m_folder))
        return Error::runtime(tr("cannot make %1").arg(m_folder));
    QFile::setPermissions(m_folder,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
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
